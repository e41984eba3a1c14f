"use client";

import { ChevronLeft, ChevronRight } from "lucide-react";
import { usePathname } from "next/navigation";
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type ReactNode } from "react";
import { cn } from "@/lib/utils";

/**
 * A strip of tab links that scrolls sideways when it does not fit (D512). Which way there is
 * more is shown by a fade at that edge and an arrow button; the active link
 * (aria-current="page") is scrolled into view on arrival. The arrows are pointer and
 * screen-reader conveniences: a keyboard reaches every tab by Tab, and the browser scrolls the
 * focused one into view, so the arrows stay out of the tab order.
 */
export function ScrollTabs({ label, className, children }: { label: string; className?: string; children: ReactNode }) {
  const strip = useRef<HTMLElement>(null);
  const [more, setMore] = useState({ left: false, right: false });
  const pathname = usePathname();

  const measure = useCallback(() => {
    const el = strip.current;
    if (!el) return;
    // One pixel of slack: fractional widths leave scrollLeft a hair short of its end.
    const left = el.scrollLeft > 1;
    const right = el.scrollLeft + el.clientWidth < el.scrollWidth - 1;
    setMore((now) => (now.left === left && now.right === right ? now : { left, right }));
  }, []);

  // Before paint, so the active tab does not jump into view after the strip is seen; once per
  // address, so a person's own scrolling is not undone.
  useLayoutEffect(() => {
    const el = strip.current;
    const active = el?.querySelector<HTMLElement>("[aria-current=page]");
    if (el && active && (active.offsetLeft < el.scrollLeft || active.offsetLeft + active.offsetWidth > el.scrollLeft + el.clientWidth)) {
      el.scrollLeft = active.offsetLeft - (el.clientWidth - active.offsetWidth) / 2;
    }
    measure();
  }, [pathname, measure]);

  useEffect(() => {
    const el = strip.current;
    if (!el) return;
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [measure]);

  const page = (direction: 1 | -1) => {
    const el = strip.current;
    if (el) el.scrollBy({ left: direction * Math.max(80, el.clientWidth * 0.7), behavior: "smooth" });
  };
  const arrow = "absolute top-0 bottom-px z-10 flex w-8 items-center justify-center bg-slate-50 text-slate-600 hover:text-slate-900";

  return (
    <div className={cn("relative", className)}>
      <nav
        ref={strip}
        aria-label={label}
        onScroll={measure}
        className="relative flex gap-1 overflow-x-auto border-b border-slate-200 [scrollbar-width:none] [&::-webkit-scrollbar]:hidden"
      >
        {children}
      </nav>
      {more.left ? (
        <>
          <div
            data-testid="tabs-fade-left"
            aria-hidden
            className="pointer-events-none absolute top-0 bottom-px left-8 w-8 bg-gradient-to-r from-slate-50 to-transparent"
          />
          <button type="button" tabIndex={-1} aria-label="Scroll the tabs left" onClick={() => page(-1)} className={cn(arrow, "left-0")}>
            <ChevronLeft className="size-4" aria-hidden />
          </button>
        </>
      ) : null}
      {more.right ? (
        <>
          <div
            data-testid="tabs-fade-right"
            aria-hidden
            className="pointer-events-none absolute top-0 right-8 bottom-px w-8 bg-gradient-to-l from-slate-50 to-transparent"
          />
          <button type="button" tabIndex={-1} aria-label="Scroll the tabs right" onClick={() => page(1)} className={cn(arrow, "right-0")}>
            <ChevronRight className="size-4" aria-hidden />
          </button>
        </>
      ) : null}
    </div>
  );
}
