import Link from "next/link";
import { Card, PageHeader } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { Table, TBody, TD, TH, THead, TR } from "@/components/ui/table";
import { utcTime } from "../requests/format";
import type { AuditEventDetail } from "../requests/types";
import { AuditTarget } from "./audit-target";

const shown = (value: unknown) => (value === null || value === undefined ? "—" : typeof value === "string" ? value : JSON.stringify(value));

/** One audit event's page (D442): who, what, to what (by name, linked while it exists), its metadata and an edit's before and after. */
export function AuditEventView({ detail, backHref }: { detail: AuditEventDetail; backHref: string }) {
  const { event: e, changes } = detail;
  return (
    <div className="space-y-5">
      <Link href={backHref} className="inline-block text-sm text-blue-700 underline">
        ← Back to the audit log
      </Link>
      <PageHeader title={e.action} description={`Recorded ${utcTime(e.createdAt)}. The audit log keeps every event.`} />
      <Card aria-labelledby="audit-event-summary" data-testid="audit-event">
        <h2 id="audit-event-summary" className="text-sm font-semibold text-slate-900">
          Summary
        </h2>
        <dl className="mt-3 grid grid-cols-1 gap-x-6 gap-y-3 text-sm sm:grid-cols-2 lg:grid-cols-3">
          <Fact term="Target">
            <AuditTarget event={e} />
          </Fact>
          <Fact term="Actor">
            <span className="break-all">{e.actorLabel ?? e.actorId ?? "—"}</span>
            <span className="block text-xs text-slate-600">{e.actorType}</span>
          </Fact>
          <Fact term="Organization">{e.organizationName ?? e.organizationId ?? <span className="text-slate-600">instance</span>}</Fact>
          <Fact term="Event id">
            <span className="flex items-center gap-1.5">
              <code className="text-xs break-all">{e.id}</code>
              <CopyButton value={e.id} label="Copy event id" />
            </span>
          </Fact>
        </dl>
      </Card>
      {changes.length > 0 ? (
        <Card aria-labelledby="audit-event-changes">
          <h2 id="audit-event-changes" className="mb-3 text-sm font-semibold text-slate-900">
            Before and after
          </h2>
          <Table data-testid="audit-changes">
            <THead>
              <TR>
                <TH>Field</TH>
                <TH>Before</TH>
                <TH>After</TH>
              </TR>
            </THead>
            <TBody>
              {changes.map((c) => (
                <TR key={c.field} data-testid="audit-change">
                  <TD className="font-medium">{c.field}</TD>
                  <TD className="break-all">
                    <del className="text-red-900 no-underline">{shown(c.before)}</del>
                  </TD>
                  <TD className="break-all">
                    <ins className="text-green-900 no-underline">{shown(c.after)}</ins>
                  </TD>
                </TR>
              ))}
            </TBody>
          </Table>
        </Card>
      ) : null}
      <Card aria-labelledby="audit-event-metadata">
        <h2 id="audit-event-metadata" className="mb-3 text-sm font-semibold text-slate-900">
          Metadata
        </h2>
        <pre
          tabIndex={0}
          aria-label="Event metadata (JSON)"
          className="max-h-96 overflow-auto rounded-md bg-slate-50 p-3 text-xs text-slate-900 focus-visible:ring-2 focus-visible:ring-blue-600 focus-visible:outline-none"
          data-testid="audit-metadata"
        >
          {JSON.stringify(e.metadata ?? {}, null, 2)}
        </pre>
      </Card>
    </div>
  );
}

function Fact({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-medium text-slate-600">{term}</dt>
      <dd className="mt-0.5 text-slate-900">{children}</dd>
    </div>
  );
}
