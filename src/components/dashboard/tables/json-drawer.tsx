"use client";

import type { ReactNode } from "react";
import { CopyButton } from "@/components/ui/copy-button";
import { Sheet, SheetContent } from "@/components/ui/sheet";

export interface DrawerField {
  name: string;
  value: unknown;
}

/**
 * One item in a side sheet (D456, D506): its facts, each field labelled by its name, and the full
 * JSON with a Copy button. The sheet is a Radix dialog (focus trapped, Esc closes, focus returns
 * to the row's View button). Values are text, so markup in the data shows as characters and never
 * runs.
 */
export function JsonDrawer({
  title,
  facts,
  fields,
  fieldsLabel = "Fields",
  json,
  jsonLabel,
  onClose,
}: {
  title: string;
  facts?: ReactNode;
  /** Each field with its name, in the table's column order. */
  fields?: DrawerField[];
  fieldsLabel?: string;
  json: unknown;
  jsonLabel: string;
  onClose: () => void;
}) {
  const text = JSON.stringify(json, null, 2);
  return (
    <Sheet open onOpenChange={(open) => !open && onClose()}>
      <SheetContent title={title} data-testid="row-drawer" actions={<CopyButton value={text} label="Copy JSON" />}>
        {facts}
        {fields && fields.length > 0 ? (
          <section aria-labelledby="drawer-fields-heading" className="mt-4">
            <h3 id="drawer-fields-heading" className="mb-1 text-sm font-semibold text-slate-900">
              {fieldsLabel}
            </h3>
            <dl className="grid grid-cols-[minmax(6rem,auto)_1fr] gap-x-4 gap-y-1.5 rounded-md border border-slate-200 p-3 text-sm">
              {fields.map((field) => (
                <div key={field.name} className="contents" data-testid="drawer-field" data-field={field.name}>
                  <dt className="font-mono text-xs break-all text-slate-600">{field.name}</dt>
                  <dd className="break-all whitespace-pre-wrap text-slate-900">
                    {field.value === undefined ? (
                      <span className="text-slate-500">(absent)</span>
                    ) : field.value === null ? (
                      <span className="text-slate-500">null</span>
                    ) : (
                      cellDisplay(field.value)
                    )}
                  </dd>
                </div>
              ))}
            </dl>
          </section>
        ) : null}
        <h3 className="mt-4 mb-1 text-sm font-semibold text-slate-900">{jsonLabel}</h3>
        <pre
          tabIndex={0}
          aria-label={`${jsonLabel} as JSON`}
          data-testid="drawer-json"
          className="min-h-24 flex-1 overflow-auto rounded-md border border-slate-200 bg-slate-50 p-3 font-mono text-xs break-all whitespace-pre-wrap text-slate-900 focus-visible:ring-2 focus-visible:ring-blue-600 focus-visible:outline-none"
        >
          {text}
        </pre>
      </SheetContent>
    </Sheet>
  );
}

/** One JSON value as a table cell's text: strings as they are, the rest as JSON, absent as "". */
export function cellDisplay(value: unknown): string {
  if (value === undefined || value === null) return "";
  return typeof value === "string" ? value : JSON.stringify(value);
}
