"use client";

import { Menu, X } from "lucide-react";
import { usePathname } from "next/navigation";
import { useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from "react";
import { cn } from "@/lib/utils";

const PANEL_ID = "main-menu";

/**
 * The frame's top bar and navigation panel. At desktop widths the panel is the sidebar, always
 * shown, and the menu button does not exist (display: none). At phone widths the panel is a
 * disclosure under one bar (D510): the button says whether it is open (aria-expanded) and what it
 * opens (aria-controls); opening moves focus to the first link, Esc closes and gives focus back to
 * the button, and so does following a link or tabbing out. A disclosure rather than a modal
 * dialog: the button stays in the accessibility tree, and the panel is the same element at every
 * width, so the navigation is written once.
 */
export function NavMenu({ brand, bar, children }: { brand: ReactNode; bar?: ReactNode; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const pathname = usePathname();
  // Closes on navigation, including a back button or a link outside the panel.
  const [shownFor, setShownFor] = useState(pathname);
  if (shownFor !== pathname) {
    setShownFor(pathname);
    setOpen(false);
  }

  useEffect(() => {
    if (open) panel.current?.querySelector<HTMLElement>("a[href], button, input")?.focus();
  }, [open]);

  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) button.current?.focus();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === "Escape" && open) {
      event.stopPropagation();
      close(true);
    }
  };

  return (
    <div onKeyDown={onKeyDown} className="relative">
      <div className="flex items-center gap-2 px-3 py-2.5 md:px-4 md:py-5">
        <button
          ref={button}
          type="button"
          aria-expanded={open}
          aria-controls={PANEL_ID}
          aria-label="Menu"
          data-testid="menu-button"
          onClick={() => setOpen((value) => !value)}
          className="inline-flex size-9 shrink-0 items-center justify-center rounded-md border border-slate-300 bg-white text-slate-800 hover:bg-slate-50 focus-visible:ring-2 focus-visible:ring-blue-600 focus-visible:outline-none md:hidden"
        >
          {open ? <X className="size-5" aria-hidden /> : <Menu className="size-5" aria-hidden />}
        </button>
        {brand}
        {bar ? <div className="ml-auto flex min-w-0 items-center gap-2 md:hidden">{bar}</div> : null}
      </div>
      {open ? <div className="fixed inset-0 top-14 z-30 bg-slate-900/30 md:hidden" aria-hidden onClick={() => close(false)} /> : null}
      <div
        ref={panel}
        id={PANEL_ID}
        // A click on a link closes the panel even when the link points at the page already shown.
        onClick={(event) => {
          if ((event.target as Element).closest("a[href]")) setOpen(false);
        }}
        onBlur={(event) => {
          const next = event.relatedTarget as Node | null;
          if (open && next && !panel.current?.contains(next) && next !== button.current) setOpen(false);
        }}
        className={cn(
          "absolute inset-x-0 top-full z-40 max-h-[calc(100dvh-3.5rem)] overflow-y-auto border-y border-slate-200 bg-white pb-3 shadow-lg",
          "md:static md:block md:max-h-none md:overflow-visible md:border-0 md:pb-0 md:shadow-none",
          open ? "block" : "hidden",
        )}
      >
        {children}
      </div>
    </div>
  );
}
