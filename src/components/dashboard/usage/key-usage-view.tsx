import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { TimeField } from "@/components/ui/time-field";
import { Card, EmptyState, PageHeader } from "@/components/ui/card";
import { Select } from "@/components/ui/input";
import { Table, TBody, TD, TH, THead, TR } from "@/components/ui/table";

import type { KeyRow } from "../keys/types";
import { utcTime } from "../requests/format";
import type { KeyRequestsPage, KeyUsage } from "../requests/types";
import { RefreshWhile } from "../sources/source-state";
import { UsageChart } from "./usage-chart";
import { totals } from "./usage-totals";

export interface KeyRequestFilters {
  range: "24h" | "7d" | "30d";
  status?: string;
  route?: string;
  from?: string;
  to?: string;
}

const RANGES = [
  { value: "24h", label: "24 hours" },
  { value: "7d", label: "7 days" },
  { value: "30d", label: "30 days" },
] as const;

const stateTone = { active: "green", revoked: "red", expired: "amber" } as const;
const statusTone = (status: number) => (status >= 500 ? "red" : status >= 400 ? "amber" : "green");

/** A key's page (D199): requests per hour by status class, and its recent requests, filterable. */
export function KeyUsageView({
  apiKey,
  usage,
  requests,
  filters,
  basePath,
  backHref,
  overview,
}: {
  /** The key's settings and actions (KeyOverview), between the header and the chart. */
  overview?: React.ReactNode;
  apiKey: KeyRow;
  usage: KeyUsage;
  /** Null for a member: the request log is for admins, support and owners (D197). */
  requests: KeyRequestsPage | null;
  filters: KeyRequestFilters;
  basePath: string;
  backHref: string;
}) {
  const link = (change: Partial<KeyRequestFilters> & { cursor?: string }) => {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries({ ...filters, ...change })) if (value) params.set(name, value);
    return `${basePath}?${params.toString()}`;
  };
  const points = usage.series[0]?.points ?? [];
  // The counts trail the key's last use by the log's batch (D505): say so, and re-read the page
  // until they include it (only for a use of the last minute: a dropped entry never arrives).
  const counting = usage.series[0]?.lastUseCounted === false;
  const recentUse = apiKey.lastUsedAt !== null && Date.parse(usage.readAt) - Date.parse(apiKey.lastUsedAt) < 60_000;
  return (
    <div className="space-y-5">
      <PageHeader title={apiKey.name} description="Requests made with this key, from the request log. Charts read hourly totals kept 13 months." />
      <p className="-mt-3 flex flex-wrap items-center gap-2 text-sm">
        <code data-testid="key-prefix">{apiKey.prefix}…</code>
        <Badge tone={stateTone[apiKey.state]}>{apiKey.state}</Badge>
        <Badge tone={apiKey.environment === "live" ? "neutral" : "amber"}>{apiKey.environment}</Badge>
        <Link href={backHref} className="text-blue-700 underline">
          All keys
        </Link>
      </p>
      {overview}
      <Card aria-labelledby="usage-heading">
        <div className="mb-3 flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
          <h2 id="usage-heading" className="font-semibold text-slate-900">
            Requests per hour
          </h2>
          <nav aria-label="Chart range" className="flex gap-1">
            {RANGES.map((r) => (
              <Link
                key={r.value}
                href={link({ range: r.value })}
                aria-current={filters.range === r.value ? "page" : undefined}
                className={`rounded-md border px-2.5 py-1 text-xs font-medium ${filters.range === r.value ? "border-slate-900 bg-slate-900 text-white" : "border-slate-300 bg-white text-slate-700 hover:bg-slate-50"}`}
              >
                {r.label}
              </Link>
            ))}
          </nav>
        </div>
        <UsageChart points={points} label={`Requests per hour, last ${filters.range}`} testId="key-usage-chart" />
        <p className="mt-2 text-sm text-slate-700">
          This hour so far: <strong data-testid="key-usage-this-hour">{totals(points.slice(-1)).all}</strong> requests (UTC hours; the last bar is the hour
          under way).
        </p>
        {counting ? (
          <p className="mt-1 text-sm text-amber-800" role="status" data-testid="key-usage-counting">
            The last use is not in these counts yet: requests reach them a second or two after the use is stamped.
          </p>
        ) : null}
        <RefreshWhile active={counting && recentUse} everyMs={2_000} />
      </Card>
      {requests === null ? (
        <Card aria-labelledby="recent-heading">
          <h2 id="recent-heading" className="font-semibold text-slate-900">
            Recent requests
          </h2>
          <p className="mt-2 text-sm text-slate-600">The request log of a key is shown to the organization&apos;s admins.</p>
        </Card>
      ) : (
        <Card aria-labelledby="recent-heading">
          <h2 id="recent-heading" className="font-semibold text-slate-900">
            Recent requests
          </h2>
          <form method="get" action={basePath} className="mt-3 grid grid-cols-2 gap-2 sm:grid-cols-5 sm:items-end" aria-label="Filter requests">
            <input type="hidden" name="range" value={filters.range} />
            <label className="text-xs font-medium text-slate-600">
              Status
              <Select name="status" defaultValue={filters.status ?? ""} className="mt-1">
                <option value="">any</option>
                <option value="2xx">2xx</option>
                <option value="4xx">4xx</option>
                <option value="429">429</option>
                <option value="5xx">5xx</option>
              </Select>
            </label>
            <label className="text-xs font-medium text-slate-600">
              Route
              <Select name="route" defaultValue={filters.route ?? ""} className="mt-1">
                <option value="">any</option>
                {requests.routes.map((route) => (
                  <option key={route} value={route}>
                    {route.replace("/api/v1", "")}
                  </option>
                ))}
              </Select>
            </label>
            <TimeField name="from" label="From (UTC)" value={filters.from} />
            <TimeField name="to" label="To (UTC)" value={filters.to} />
            <button
              type="submit"
              className="col-span-2 h-9 rounded-md bg-slate-900 px-4 text-sm font-medium text-white hover:bg-slate-800 focus-visible:ring-2 focus-visible:ring-blue-600 focus-visible:outline-none sm:col-span-1"
            >
              Filter
            </button>
          </form>
          {requests.items.length === 0 ? (
            <div className="mt-3">
              <EmptyState title="No requests match">
                {filters.status || filters.route || filters.from || filters.to
                  ? "Clear a filter to see more."
                  : "Once an integration calls the API with this key, its requests appear here."}
              </EmptyState>
            </div>
          ) : (
            <>
              <ul className="mt-3 divide-y divide-slate-100 rounded-lg border border-slate-200 md:hidden" aria-label="Recent requests (compact)">
                {requests.items.map((r) => (
                  <li key={r.requestId} className="p-3 text-sm" data-testid="key-request-card">
                    <p className="flex items-center justify-between gap-2">
                      <span className="text-xs text-slate-600">{utcTime(r.occurredAt)}</span>
                      <Badge tone={statusTone(r.status)}>{r.status}</Badge>
                    </p>
                    <Link href={`/dashboard/requests/${r.requestId}`} className="mt-1 block font-mono text-xs break-all text-blue-700 underline">
                      {r.method} {r.route.replace("/api/v1", "")}
                    </Link>
                    <p className="mt-0.5 text-xs text-slate-500">
                      {r.durationMs} ms{r.errorCode ? ` · ${r.errorCode}` : ""}
                    </p>
                  </li>
                ))}
              </ul>
              <Table wrapperClassName="mt-3 hidden md:block" data-testid="key-requests">
                <THead>
                  <TR>
                    <TH>Time (UTC)</TH>
                    <TH>Status</TH>
                    <TH>Request</TH>
                    <TH className="text-right">Duration</TH>
                  </TR>
                </THead>
                <TBody>
                  {requests.items.map((r) => (
                    <TR key={r.requestId}>
                      <TD className="whitespace-nowrap">{utcTime(r.occurredAt).replace(" UTC", "")}</TD>
                      <TD>
                        <Badge tone={statusTone(r.status)}>{r.status}</Badge>
                      </TD>
                      <TD className="max-w-80">
                        <Link href={`/dashboard/requests/${r.requestId}`} className="font-mono text-xs break-all text-blue-700 underline">
                          {r.method} {r.route.replace("/api/v1", "")}
                        </Link>
                        {r.errorCode ? <span className="block text-xs text-slate-600">{r.errorCode}</span> : null}
                      </TD>
                      <TD className="text-right whitespace-nowrap">{r.durationMs} ms</TD>
                    </TR>
                  ))}
                </TBody>
              </Table>
            </>
          )}
          {requests.nextCursor ? (
            <Link href={link({ cursor: requests.nextCursor })} className="mt-3 inline-block text-sm text-blue-700 underline">
              Older requests
            </Link>
          ) : null}
        </Card>
      )}
    </div>
  );
}
