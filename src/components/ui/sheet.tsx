"use client";

import * as DialogPrimitive from "@radix-ui/react-dialog";
import { X } from "lucide-react";
import { useState, type ComponentProps, type ReactNode } from "react";
import { cn } from "@/lib/utils";

/**
 * A side sheet on the Radix dialog (shadcn's Sheet, written here): a modal dialog, so focus moves
 * in and stays in, Esc and Close shut it, focus goes back to what opened it, and the title names
 * it for screen readers. From the right at 640 px and wider (the page stays in view beside it);
 * on a phone it rises from the bottom across the whole width, where a side panel would be a
 * sliver.
 */
export const Sheet = DialogPrimitive.Root;

export function SheetContent({
  title,
  description,
  actions,
  className,
  children,
  onCloseAutoFocus,
  ...props
}: Omit<ComponentProps<typeof DialogPrimitive.Content>, "title"> & {
  title: string;
  description?: ReactNode;
  /** Buttons in the header, beside Close (a Copy, say). */
  actions?: ReactNode;
}) {
  // NOTE: Radix returns focus to its Trigger, and a sheet opened from a table row's button has
  // none (the row opens it by state), so focus fell to <body>. What had focus as the sheet first
  // rendered is the opener: it gets focus back, as the WAI-ARIA dialog pattern asks.
  const [opener] = useState(() => (typeof document === "undefined" ? null : (document.activeElement as HTMLElement | null)));
  return (
    <DialogPrimitive.Portal>
      <DialogPrimitive.Overlay className="fixed inset-0 z-40 bg-slate-900/50" />
      <DialogPrimitive.Content
        {...(description ? {} : { "aria-describedby": undefined })}
        className={cn(
          "fixed z-50 flex flex-col bg-white shadow-xl focus:outline-none",
          // phone: a bottom sheet, full width
          "inset-x-0 bottom-0 max-h-[88dvh] rounded-t-xl border-t border-slate-200",
          // 640 px and up: a full-height panel on the right
          "sm:inset-x-auto sm:top-0 sm:right-0 sm:h-dvh sm:max-h-none sm:w-full sm:max-w-xl sm:rounded-none sm:border-t-0 sm:border-l",
          className,
        )}
        onCloseAutoFocus={(event) => {
          onCloseAutoFocus?.(event);
          if (event.defaultPrevented || !opener?.isConnected) return;
          event.preventDefault();
          opener.focus();
        }}
        {...props}
      >
        <div className="flex items-start gap-2 border-b border-slate-200 px-5 py-4">
          <div className="min-w-0 flex-1">
            <DialogPrimitive.Title className="text-lg font-semibold break-all text-slate-900">{title}</DialogPrimitive.Title>
            {description ? <DialogPrimitive.Description className="mt-1 text-sm text-slate-600">{description}</DialogPrimitive.Description> : null}
          </div>
          {actions ? <div className="flex shrink-0 items-center gap-2">{actions}</div> : null}
          <DialogPrimitive.Close className="shrink-0 rounded-sm p-1.5 text-slate-500 hover:text-slate-900 focus-visible:ring-2 focus-visible:ring-blue-600 focus-visible:outline-none">
            <X className="size-4" aria-hidden />
            <span className="sr-only">Close</span>
          </DialogPrimitive.Close>
        </div>
        <div className="flex min-h-0 flex-1 flex-col overflow-y-auto px-5 py-4">{children}</div>
      </DialogPrimitive.Content>
    </DialogPrimitive.Portal>
  );
}
