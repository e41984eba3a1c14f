"use client";

import { useRef, type ReactNode } from "react";

/**
 * A native disclosure (details/summary) that Esc closes, giving the focus back to its summary
 * (D521): the disclosure pattern of the ARIA practices. The browser's own details ignores Esc.
 * The summary says whether it is open (aria-expanded), which some screen readers do not infer.
 */
export function EscapeClosesDetails({
  className,
  testId,
  summary,
  summaryClassName,
  children,
}: {
  className?: string;
  testId?: string;
  summary: ReactNode;
  summaryClassName?: string;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDetailsElement>(null);
  const summaryRef = useRef<HTMLElement>(null);
  const sync = () => summaryRef.current?.setAttribute("aria-expanded", String(ref.current?.open ?? false));
  return (
    <details
      ref={ref}
      className={className}
      data-testid={testId}
      onToggle={sync}
      onKeyDown={(event) => {
        if (event.key !== "Escape" || !ref.current?.open) return;
        event.preventDefault();
        ref.current.open = false;
        summaryRef.current?.focus();
        sync();
      }}
    >
      <summary ref={summaryRef} aria-expanded="false" className={summaryClassName}>
        {summary}
      </summary>
      {children}
    </details>
  );
}
