"use client";

import { useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { Input, Label } from "@/components/ui/input";
import { trpc } from "@/lib/trpc-client";

/** The filters as GET …/records takes them: ISO 8601 instants (both exclusive) and an exact submitter. */
export interface AppliedFilters {
  created_after: string;
  created_before: string;
  submitted_by: string;
}
const NO_FILTERS: AppliedFilters = { created_after: "", created_before: "", submitted_by: "" };

/** A `datetime-local` value (the viewer's zone) from an instant, and back. */
function toLocalInput(iso: string): string {
  if (!iso) return "";
  const date = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
function fromLocalInput(local: string): string {
  if (!local) return "";
  const date = new Date(local);
  return Number.isNaN(date.getTime()) ? "" : date.toISOString();
}

/** Presets (D457): the instant "after" starts from, in the viewer's own day for "Today". */
const PRESETS: Array<{ label: string; after: () => Date }> = [
  { label: "Last hour", after: () => new Date(Date.now() - 3_600_000) },
  {
    label: "Today",
    after: () => {
      const midnight = new Date();
      midnight.setHours(0, 0, 0, 0);
      return new Date(midnight.getTime() - 1); // "after" is exclusive: a record at 00:00:00.000 counts
    },
  },
  { label: "Last 7 days", after: () => new Date(Date.now() - 7 * 86_400_000) },
];

/**
 * The records filters in people's words (D457): date-time pickers with presets, "submitted by"
 * with suggestions from the form's submitters. What is applied is exactly what GET …/records takes.
 */
export function RecordFilters({
  organizationId,
  formId,
  applied,
  onApply,
}: {
  organizationId: string;
  formId: string;
  applied: AppliedFilters;
  onApply: (filters: AppliedFilters) => void;
}) {
  const [after, setAfter] = useState(toLocalInput(applied.created_after));
  const [before, setBefore] = useState(toLocalInput(applied.created_before));
  const [submitter, setSubmitter] = useState(applied.submitted_by);
  const [suggestions, setSuggestions] = useState<Array<{ createdBy: string; records: number }>>([]);

  useEffect(() => {
    let current = true;
    const timer = setTimeout(() => {
      trpc.forms.submitters.query({ organizationId, formId, search: submitter.trim() || undefined }).then(
        (found) => current && setSuggestions(found),
        () => current && setSuggestions([]),
      );
    }, 200);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [organizationId, formId, submitter]);

  const apply = (next: Partial<AppliedFilters> = {}) =>
    onApply({ created_after: fromLocalInput(after), created_before: fromLocalInput(before), submitted_by: submitter.trim(), ...next });
  const exactMatch = suggestions.some((s) => s.createdBy === submitter.trim());
  const shown = suggestions.filter((s) => s.createdBy !== submitter.trim()).slice(0, 8);

  return (
    <form
      aria-label="Record filters"
      className="space-y-3 rounded-lg border border-slate-200 bg-white p-3"
      onSubmit={(event) => {
        event.preventDefault();
        apply();
      }}
    >
      <div className="flex flex-wrap items-center gap-2" role="group" aria-label="Time presets">
        <span className="text-xs text-slate-600">Submitted in:</span>
        {PRESETS.map((preset) => (
          <Button
            key={preset.label}
            type="button"
            variant="outline"
            size="sm"
            onClick={() => {
              const from = preset.after().toISOString();
              setAfter(toLocalInput(from));
              setBefore("");
              apply({ created_after: from, created_before: "" });
            }}
          >
            {preset.label}
          </Button>
        ))}
      </div>
      <div className="grid gap-3 sm:grid-cols-[1fr_1fr_1fr_auto] sm:items-start">
        <div className="space-y-1">
          <Label htmlFor="filter-created-after" className="text-xs">
            Submitted after
          </Label>
          <Input id="filter-created-after" type="datetime-local" value={after} onChange={(e) => setAfter(e.target.value)} />
        </div>
        <div className="space-y-1">
          <Label htmlFor="filter-created-before" className="text-xs">
            Submitted before
          </Label>
          <Input id="filter-created-before" type="datetime-local" value={before} onChange={(e) => setBefore(e.target.value)} />
        </div>
        <div className="space-y-1">
          <Label htmlFor="filter-submitted-by" className="text-xs">
            Submitted by
          </Label>
          <Input
            id="filter-submitted-by"
            value={submitter}
            placeholder="Device or user name"
            autoComplete="off"
            onChange={(e) => setSubmitter(e.target.value)}
            aria-describedby="submitted-by-hint"
          />
          {shown.length > 0 ? (
            <ul aria-label="Submitter suggestions" className="flex flex-wrap gap-1" data-testid="submitter-suggestions">
              {shown.map((s) => (
                <li key={s.createdBy}>
                  <button
                    type="button"
                    className="rounded border border-slate-300 px-2 py-0.5 text-xs text-slate-800 hover:bg-slate-100 focus-visible:ring-2 focus-visible:ring-blue-600 focus-visible:outline-none"
                    onClick={() => {
                      setSubmitter(s.createdBy);
                      apply({ submitted_by: s.createdBy });
                    }}
                  >
                    {s.createdBy} <span className="text-slate-600">({s.records})</span>
                  </button>
                </li>
              ))}
            </ul>
          ) : submitter.trim() && !exactMatch ? (
            <p className="text-xs text-slate-600">No recent submitter contains “{submitter.trim()}”.</p>
          ) : null}
        </div>
        <div className="flex gap-2 sm:pt-5">
          <Button type="submit">Apply</Button>
          <Button
            type="button"
            variant="outline"
            onClick={() => {
              setAfter("");
              setBefore("");
              setSubmitter("");
              onApply(NO_FILTERS);
            }}
          >
            Clear
          </Button>
        </div>
      </div>
      <p id="submitted-by-hint" className="text-xs text-slate-600">
        Times are in your time zone; “after” and “before” leave out the moment itself. “Submitted by” matches a name exactly, as the API does; the suggestions
        list the recent submitters whose name contains what you type (any case), so pick one to filter by it.
      </p>
    </form>
  );
}
