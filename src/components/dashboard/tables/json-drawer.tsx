"use client";

import * as DialogPrimitive from "@radix-ui/react-dialog";
import { X } from "lucide-react";
import type { ReactNode } from "react";

/**
 * A side drawer with one item's full JSON (D456): a Radix dialog (focus moves in and is trapped,
 * Esc and the Close button shut it, focus returns to the opener, the title names it for screen
 * readers). The JSON is text, so markup in the data shows as characters and never runs.
 */
export function JsonDrawer({ title, facts, json, jsonLabel, onClose }: { title: string; facts?: ReactNode; json: unknown; jsonLabel: string; onClose: () => void }) {
  return (
    <DialogPrimitive.Root open onOpenChange={(open) => !open && onClose()}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-40 bg-slate-900/50" />
        <DialogPrimitive.Content
          aria-describedby={undefined}
          data-testid="row-drawer"
          className="fixed inset-y-0 right-0 z-50 flex w-full max-w-xl flex-col overflow-y-auto border-l border-slate-200 bg-white p-5 shadow-xl focus:outline-none"
        >
          <DialogPrimitive.Title className="pr-8 text-lg font-semibold break-all text-slate-900">{title}</DialogPrimitive.Title>
          {facts ? <div className="mt-3">{facts}</div> : null}
          <h3 className="mt-4 mb-1 text-sm font-semibold text-slate-900">{jsonLabel}</h3>
          <pre
            tabIndex={0}
            aria-label={`${jsonLabel} as JSON`}
            data-testid="drawer-json"
            className="flex-1 overflow-auto rounded-md border border-slate-200 bg-slate-50 p-3 font-mono text-xs break-all whitespace-pre-wrap text-slate-900 focus-visible:ring-2 focus-visible:ring-blue-600 focus-visible:outline-none"
          >
            {JSON.stringify(json, null, 2)}
          </pre>
          <DialogPrimitive.Close className="absolute top-4 right-4 rounded-sm p-1 text-slate-500 hover:text-slate-900 focus-visible:ring-2 focus-visible:ring-blue-600 focus-visible:outline-none">
            <X className="size-4" aria-hidden />
            <span className="sr-only">Close</span>
          </DialogPrimitive.Close>
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}

/** One JSON value as a table cell's text: strings as they are, the rest as JSON, absent as "". */
export function cellDisplay(value: unknown): string {
  if (value === undefined || value === null) return "";
  return typeof value === "string" ? value : JSON.stringify(value);
}
