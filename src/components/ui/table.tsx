import type { ComponentProps } from "react";
import { cn } from "@/lib/utils";

/**
 * Scrolls sideways on narrow screens instead of squeezing columns. The scrolling box takes focus
 * (tabIndex 0, named after the table) so a keyboard can scroll it too (WCAG 2.1.1; axe
 * scrollable-region-focusable). Its region's name adds ", table": a table usually sits in a
 * section named by the same heading, and two regions of one name are one landmark too many
 * (axe landmark-unique, D525). It is positioned (relative) so that absolutely positioned content
 * inside, such as a button's sr-only label, is clipped by the box too: otherwise its containing
 * block is the page, and a screen-reader label far right in a wide table widens the page (D511).
 */
export function Table({ className, wrapperClassName, ...props }: ComponentProps<"table"> & { wrapperClassName?: string }) {
  const label = props["aria-label"];
  const labelledBy = props["aria-labelledby"];
  const hintId = labelledBy ? `${labelledBy.split(" ")[0]}-table-hint` : undefined;
  return (
    <div
      tabIndex={0}
      role="region"
      aria-label={label ? `${label}, table` : undefined}
      aria-labelledby={labelledBy && hintId ? `${labelledBy} ${hintId}` : undefined}
      className={cn(
        "relative w-full overflow-x-auto rounded-lg border border-slate-200 bg-white focus-visible:ring-2 focus-visible:ring-blue-600 focus-visible:outline-none",
        wrapperClassName,
      )}
    >
      {hintId ? (
        <span id={hintId} hidden>
          , table
        </span>
      ) : null}
      <table className={cn("w-full caption-bottom text-sm", className)} {...props} />
    </div>
  );
}
export const THead = (props: ComponentProps<"thead">) => <thead className="border-b border-slate-200 bg-slate-50" {...props} />;
export const TBody = (props: ComponentProps<"tbody">) => <tbody className="[&_tr:last-child]:border-0" {...props} />;
export function TR({ className, ...props }: ComponentProps<"tr">) {
  return <tr className={cn("border-b border-slate-100", className)} {...props} />;
}
export function TH({ className, ...props }: ComponentProps<"th">) {
  return (
    <th
      scope="col"
      className={cn("h-9 px-3 text-left align-middle text-xs font-semibold uppercase tracking-wide text-slate-600 whitespace-nowrap", className)}
      {...props}
    />
  );
}
export function TD({ className, ...props }: ComponentProps<"td">) {
  return <td className={cn("px-3 py-2 align-middle", className)} {...props} />;
}
