import { Download } from "lucide-react";
import Link from "next/link";
import { Card, EmptyState, PageHeader } from "@/components/ui/card";
import { Input, Select } from "@/components/ui/input";
import { Table, TBody, TD, TH, THead, TR } from "@/components/ui/table";

import { Alert } from "@/components/ui/alert";
import { OrganizationPicker } from "../organization-picker";
import { utcTime } from "../requests/format";
import type { AuditPage } from "../requests/types";
import { auditQueryString, type AuditFilterValues } from "./audit-params";
import { AuditTarget } from "./audit-target";

const detailHref = (id: string, filters: AuditFilterValues) => {
  const query = auditQueryString(filters);
  return `/dashboard/audit/${encodeURIComponent(id)}${query ? `?${query}` : ""}`;
};

/**
 * The audit trail on screen (D200): filters, newest first, cursor paging, CSV of the filtered set.
 * Each event names its target as of the event and links to it while it exists (D440, D441), and
 * opens its own page with the metadata and an edit's before and after (D442).
 */
export function AuditView({
  page,
  filters,
  scopeNote,
  organization = null,
  organizationProblem = null,
}: {
  page: AuditPage;
  filters: AuditFilterValues;
  scopeNote: string | null;
  /** The organization filter's organization, its name read by id (null: no filter, or not readable). */
  organization?: { id: string; name: string } | null;
  organizationProblem?: { message: string; requestId?: string | null } | null;
}) {
  const filtered = Object.values(filters).some(Boolean);
  return (
    <div className="space-y-5">
      <PageHeader
        title="Audit log"
        description={
          scopeNote
            ? `Every change made in your organizations (${scopeNote}): who did what, to what, and when.`
            : "Every change made in this instance: who did what, to what, and when."
        }
        actions={
          <a
            href={`/dashboard/audit/export?${auditQueryString(filters)}`}
            className="inline-flex h-9 items-center gap-2 rounded-md border border-slate-300 bg-white px-4 text-sm font-medium text-slate-900 hover:bg-slate-50 focus-visible:ring-2 focus-visible:ring-blue-600 focus-visible:outline-none"
            data-testid="audit-export"
          >
            <Download className="size-4" aria-hidden /> Export CSV
          </a>
        }
      />
      <Card aria-label="Filters">
        <form
          method="get"
          action="/dashboard/audit"
          className="grid grid-cols-1 gap-2 sm:grid-cols-2 sm:items-end lg:grid-cols-4"
          aria-label="Filter the audit log"
        >
          <Field label="Actor (email or id)">
            <Input name="actor" defaultValue={filters.actor ?? ""} placeholder="ops@example.com" />
          </Field>
          <Field label="Action">
            <Select name="action" defaultValue={filters.action ?? ""}>
              <option value="">any</option>
              {page.actions.map((action) => (
                <option key={action} value={action}>
                  {action}
                </option>
              ))}
            </Select>
          </Field>
          <Field label="Target id">
            <Input name="target" defaultValue={filters.target ?? ""} />
          </Field>
          <div className="min-w-0">
            <OrganizationPicker
              key={organization?.id ?? filters.organizationId ?? ""}
              id="audit-org"
              name="organizationId"
              label="Organization"
              noneLabel="All organizations"
              initial={organization ?? (filters.organizationId ? { id: filters.organizationId, name: filters.organizationId } : null)}
            />
          </div>
          <Field label="From (UTC)">
            <Input type="datetime-local" name="from" defaultValue={filters.from?.slice(0, 16) ?? ""} />
          </Field>
          <Field label="To (UTC)">
            <Input type="datetime-local" name="to" defaultValue={filters.to?.slice(0, 16) ?? ""} />
          </Field>
          <div className="flex gap-2">
            <button
              type="submit"
              className="h-9 flex-1 rounded-md bg-slate-900 px-4 text-sm font-medium text-white hover:bg-slate-800 focus-visible:ring-2 focus-visible:ring-blue-600 focus-visible:outline-none"
            >
              Filter
            </button>
            {filtered ? (
              <Link href="/dashboard/audit" className="inline-flex h-9 items-center rounded-md px-2 text-sm text-blue-700 underline">
                Clear
              </Link>
            ) : null}
          </div>
        </form>
      </Card>
      {organizationProblem ? (
        <Alert title="The organization filter could not be read" requestId={organizationProblem.requestId ?? undefined}>
          <p>{organizationProblem.message}</p>
        </Alert>
      ) : null}
      {page.items.length === 0 ? (
        <EmptyState title={filtered ? "No events match these filters" : "Nothing has been audited yet"}>
          {filtered ? "Widen the time window or clear a filter." : "Minting and revoking keys, members, sources and uploads are recorded here as they happen."}
        </EmptyState>
      ) : (
        <>
          <ul className="space-y-2 md:hidden" aria-label="Audit events (compact)">
            {page.items.map((e) => (
              <li key={e.id} className="rounded-lg border border-slate-200 bg-white p-3 text-sm" data-testid="audit-card">
                <p className="font-medium text-slate-900">{e.action}</p>
                <p className="text-xs text-slate-600">{utcTime(e.createdAt)}</p>
                <p className="mt-1 break-all">by {e.actorLabel ?? e.actorType}</p>
                <div className="mt-1">
                  <AuditTarget event={e} compact />
                </div>
                {(e.organizationName ?? e.organizationId) ? <p className="text-xs text-slate-600">{e.organizationName ?? e.organizationId}</p> : null}
                <Link
                  href={detailHref(e.id, filters)}
                  className="mt-2 inline-block text-sm text-blue-700 underline"
                  aria-label={`Details of ${e.action}, ${utcTime(e.createdAt)}`}
                >
                  Details
                </Link>
              </li>
            ))}
          </ul>
          <Table wrapperClassName="hidden md:block" data-testid="audit-table">
            <THead>
              <TR>
                <TH>Time (UTC)</TH>
                <TH>Action</TH>
                <TH>Actor</TH>
                <TH>Target</TH>
                <TH>Organization</TH>
                <TH>
                  <span className="sr-only">Details</span>
                </TH>
              </TR>
            </THead>
            <TBody>
              {page.items.map((e) => (
                <TR key={e.id} data-testid="audit-row">
                  <TD className="whitespace-nowrap">{utcTime(e.createdAt).replace(" UTC", "")}</TD>
                  <TD className="font-medium">{e.action}</TD>
                  <TD className="break-all">
                    {e.actorLabel ?? e.actorId ?? "—"}
                    <span className="block text-xs text-slate-500">{e.actorType}</span>
                  </TD>
                  <TD className="max-w-72">
                    <AuditTarget event={e} />
                  </TD>
                  <TD className="break-all">{e.organizationName ?? e.organizationId ?? <span className="text-slate-500">instance</span>}</TD>
                  <TD>
                    <Link
                      href={detailHref(e.id, filters)}
                      className="text-blue-700 underline"
                      aria-label={`Details of ${e.action}, ${utcTime(e.createdAt)}`}
                      data-testid="audit-details"
                    >
                      Details
                    </Link>
                  </TD>
                </TR>
              ))}
            </TBody>
          </Table>
        </>
      )}
      {page.nextCursor ? (
        <Link href={`/dashboard/audit?${auditQueryString(filters, { cursor: page.nextCursor })}`} className="inline-block text-sm text-blue-700 underline">
          Older events
        </Link>
      ) : null}
    </div>
  );
}

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <label className="block text-xs font-medium text-slate-600">
      {label}
      <div className="mt-1">{children}</div>
    </label>
  );
}
