import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { TimeField } from "@/components/ui/time-field";
import { Card, EmptyState, PageHeader } from "@/components/ui/card";
import { CursorPager } from "@/components/ui/cursor-pager";
import { Input, Select } from "@/components/ui/input";
import { Table, TBody, TD, TH, THead, TR } from "@/components/ui/table";
import { utcTime } from "./format";
import { METHODS, requestLogHref, type RequestLogFilterValues } from "./request-log-params";
import { RequestSearch } from "./request-search";
import type { RequestLogPage } from "./types";

const statusTone = (status: number) => (status >= 500 ? "red" : status >= 400 ? "amber" : "green");
const shortRoute = (route: string) => route.replace(/^\/api\/v1/, "");

/**
 * The request log browser (D432): lookup by id, filters, newest first, 50 a page by cursor; each
 * row opens the request's page. The instance's log (`organizationId` unset) or one organization's.
 */
export function RequestLogView({
  page,
  filters,
  basePath,
  cursor,
  scope,
}: {
  page: RequestLogPage;
  filters: RequestLogFilterValues;
  basePath: string;
  cursor?: string;
  /** What the log covers, for the description: "this instance", or an organization's name(s). */
  scope: { kind: "instance" } | { kind: "organizations"; names: string[] } | { kind: "organization" };
}) {
  const filtered = Object.values(filters).some(Boolean);
  const showOrganization = scope.kind !== "organization";
  const description =
    scope.kind === "instance"
      ? "Every answer of the Customer API and the dashboard in this instance, newest first."
      : scope.kind === "organizations"
        ? `Every answer for your organizations (${scope.names.join(", ")}), newest first.`
        : "Every answer for this organization, newest first.";
  return (
    <div className="space-y-5">
      <PageHeader title="Requests" description={`${description} Open a row for its key, error and what changed around it.`} />
      <Card aria-labelledby="lookup-heading">
        <h2 id="lookup-heading" className="mb-2 text-sm font-semibold text-slate-900">
          Find a request by id
        </h2>
        <RequestSearch id="request-search-page" className="max-w-md" />
      </Card>
      <Card aria-labelledby="log-heading">
        <h2 id="log-heading" className="font-semibold text-slate-900">
          Request log
        </h2>
        <form method="get" action={basePath} className="mt-3 grid grid-cols-2 gap-2 sm:grid-cols-4 lg:grid-cols-5 lg:items-end" aria-label="Filter requests">
          <label className="text-xs font-medium text-slate-600">
            Status class
            <Select name="statusClass" defaultValue={filters.statusClass ?? ""} className="mt-1">
              <option value="">any</option>
              <option value="2xx">2xx</option>
              <option value="4xx">4xx</option>
              <option value="429">429</option>
              <option value="5xx">5xx</option>
            </Select>
          </label>
          <label className="text-xs font-medium text-slate-600">
            Status code
            <Input name="status" inputMode="numeric" pattern="[1-5][0-9][0-9]" placeholder="e.g. 404" defaultValue={filters.status ?? ""} className="mt-1" />
          </label>
          <label className="text-xs font-medium text-slate-600">
            Method
            <Select name="method" defaultValue={filters.method ?? ""} className="mt-1">
              <option value="">any</option>
              {METHODS.map((m) => (
                <option key={m} value={m}>
                  {m}
                </option>
              ))}
            </Select>
          </label>
          <label className="col-span-2 text-xs font-medium text-slate-600 sm:col-span-1 lg:col-span-2">
            Route
            <Input name="route" list="request-log-routes" placeholder="/api/v1/…" defaultValue={filters.route ?? ""} className="mt-1 font-mono" />
            <datalist id="request-log-routes">
              {page.routes.map((route) => (
                <option key={route} value={route} />
              ))}
            </datalist>
          </label>
          <label className="col-span-2 text-xs font-medium text-slate-600 sm:col-span-1">
            Key id
            <Input name="apiKeyId" placeholder="any key" defaultValue={filters.apiKeyId ?? ""} className="mt-1 font-mono" />
          </label>
          <label className="text-xs font-medium text-slate-600">
            Surface
            <Select name="surface" defaultValue={filters.surface ?? ""} className="mt-1">
              <option value="">any</option>
              <option value="api">Customer API</option>
              <option value="dashboard">Dashboard</option>
            </Select>
          </label>
          <TimeField name="from" label="From (UTC)" value={filters.from} />
          <TimeField name="to" label="To (UTC)" value={filters.to} />
          <div className="col-span-2 flex items-center gap-3 sm:col-span-1">
            <button
              type="submit"
              className="h-9 rounded-md bg-slate-900 px-4 text-sm font-medium text-white hover:bg-slate-800 focus-visible:ring-2 focus-visible:ring-blue-600 focus-visible:outline-none"
            >
              Filter
            </button>
            {filtered ? (
              <Link href={basePath} className="text-sm text-blue-700 underline">
                Clear
              </Link>
            ) : null}
          </div>
        </form>
        {page.items.length === 0 ? (
          <div className="mt-3">
            <EmptyState title="No requests match">
              {filtered ? "Clear a filter to see more." : "Requests appear here as the API and the dashboard answer them."}
            </EmptyState>
          </div>
        ) : (
          <>
            <ul className="mt-3 divide-y divide-slate-100 rounded-lg border border-slate-200 md:hidden" aria-label="Requests (compact)">
              {page.items.map((r) => (
                <li key={r.requestId} className="p-3 text-sm" data-testid="request-log-card">
                  <p className="flex items-center justify-between gap-2">
                    <span className="text-xs text-slate-600">{utcTime(r.occurredAt)}</span>
                    <Badge tone={statusTone(r.status)}>{r.status}</Badge>
                  </p>
                  <Link href={`/dashboard/requests/${r.requestId}`} className="mt-1 block font-mono text-xs break-all text-blue-700 underline">
                    {r.method} {shortRoute(r.route)}
                  </Link>
                  <p className="mt-0.5 text-xs text-slate-600">
                    {r.surface === "dashboard" ? "dashboard" : r.apiKeyPrefix ? `${r.apiKeyPrefix}…` : "no key"} · {r.durationMs} ms
                    {r.errorCode ? ` · ${r.errorCode}` : ""}
                    {showOrganization && r.organizationName ? ` · ${r.organizationName}` : ""}
                  </p>
                </li>
              ))}
            </ul>
            <Table wrapperClassName="mt-3 hidden md:block" data-testid="request-log">
              <THead>
                <TR>
                  <TH>Time (UTC)</TH>
                  <TH>Status</TH>
                  <TH>Request</TH>
                  <TH>Caller</TH>
                  {showOrganization ? <TH>Organization</TH> : null}
                  <TH className="text-right">Duration</TH>
                </TR>
              </THead>
              <TBody>
                {page.items.map((r) => (
                  <TR key={r.requestId} data-testid="request-log-row">
                    <TD className="whitespace-nowrap">{utcTime(r.occurredAt).replace(" UTC", "")}</TD>
                    <TD>
                      <Badge tone={statusTone(r.status)}>{r.status}</Badge>
                    </TD>
                    <TD className="max-w-96">
                      <Link href={`/dashboard/requests/${r.requestId}`} className="font-mono text-xs break-all text-blue-700 underline">
                        {r.method} {shortRoute(r.route)}
                      </Link>
                      {r.errorCode ? <span className="block text-xs text-slate-600">{r.errorCode}</span> : null}
                    </TD>
                    <TD className="text-xs">
                      {r.surface === "dashboard" ? (
                        <Badge>dashboard</Badge>
                      ) : r.apiKeyPrefix ? (
                        <code>{r.apiKeyPrefix}…</code>
                      ) : (
                        <span className="text-slate-600">no key</span>
                      )}
                    </TD>
                    {showOrganization ? <TD className="text-xs">{r.organizationName ?? <span className="text-slate-600">instance</span>}</TD> : null}
                    <TD className="text-right whitespace-nowrap">{r.durationMs} ms</TD>
                  </TR>
                ))}
              </TBody>
            </Table>
          </>
        )}
        <CursorPager
          label="More requests"
          className="mt-3"
          firstHref={cursor ? requestLogHref(basePath, filters) : null}
          nextHref={page.nextCursor ? requestLogHref(basePath, filters, { cursor: page.nextCursor }) : null}
          nextLabel="Older requests →"
          nextTestId="request-log-next"
        />
      </Card>
    </div>
  );
}
