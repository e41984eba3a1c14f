import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { Card, PageHeader } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";

import { utcTime } from "./format";
import type { RequestDetail } from "./types";

const statusTone = (status: number) => (status >= 500 ? "red" : status === 429 ? "amber" : status >= 400 ? "amber" : "green");
const keyTone = { active: "green", revoked: "red", expired: "amber" } as const;

/** One request's page (D198): what was asked, how it was answered, and what happened around it. */
export function RequestView({ detail }: { detail: RequestDetail }) {
  const { request: r, key, organization, user } = detail;
  const keyHref = key ? (r.organizationId ? `/dashboard/organizations/${r.organizationId}/keys/${key.id}` : `/dashboard/instance/keys/${key.id}`) : null;
  return (
    <div className="space-y-5">
      <PageHeader title="Request" description={`Answered ${utcTime(r.occurredAt)}. The request log keeps the last days only.`} />
      <Card aria-labelledby="request-summary" data-testid="request-summary">
        <h2 id="request-summary" className="sr-only">
          Summary
        </h2>
        <div className="flex flex-wrap items-center gap-2">
          <code className="font-mono text-sm break-all text-slate-900" data-testid="request-id">
            {r.requestId}
          </code>
          <CopyButton value={r.requestId} label="Copy request id" />
        </div>
        <p className="mt-3 flex flex-wrap items-center gap-2 text-base">
          <Badge tone={statusTone(r.status)} data-testid="request-status" className="text-sm">
            {r.status}
          </Badge>
          <span className="font-mono text-sm break-all">
            {r.method} {r.route}
          </span>
        </p>
        {r.errorCode ? (
          <p className="mt-2 text-sm text-red-900" data-testid="request-error">
            <code className="font-semibold">{r.errorCode}</code>: {r.errorMessage}
          </p>
        ) : null}
        <dl className="mt-4 grid grid-cols-1 gap-x-6 gap-y-3 text-sm sm:grid-cols-2 lg:grid-cols-3">
          {r.surface === "dashboard" ? (
            <Fact term="Signed-in user">
              {user ? (
                <span className="break-all" data-testid="request-user">
                  {user.email} <Badge tone="neutral">dashboard</Badge>
                </span>
              ) : r.userId ? (
                <span className="text-slate-500">a user since deleted</span>
              ) : (
                <span className="text-slate-500">none: the request was refused before a session was known</span>
              )}
            </Fact>
          ) : (
            <Fact term="API key">
              {key ? (
                <span className="flex flex-wrap items-center gap-1.5" data-testid="request-key">
                  <Link href={keyHref!} className="text-blue-700 underline">
                    {key.name}
                  </Link>
                  <code className="text-xs">{key.prefix}…</code>
                  <Badge tone={keyTone[key.state]}>{key.state}</Badge>
                </span>
              ) : r.apiKeyPrefix ? (
                <code className="text-xs">{r.apiKeyPrefix}… (deleted)</code>
              ) : (
                <span className="text-slate-500">none: the request was refused before a key was known</span>
              )}
            </Fact>
          )}
          <Fact term="Organization">
            {organization ? (
              <Link href={`/dashboard/organizations/${organization.id}/keys`} className="text-blue-700 underline">
                {organization.name}
              </Link>
            ) : (
              <span className="text-slate-500">
                {r.organizationId
                  ? `${r.organizationId} (deleted)`
                  : r.surface === "dashboard"
                    ? "none (an instance-wide page)"
                    : "none (instance key or no key)"}
              </span>
            )}
          </Fact>
          <Fact term="Duration">{r.durationMs} ms</Fact>
          <Fact term="Response size">{r.responseBytes.toLocaleString("en-GB")} bytes</Fact>
          <Fact term="Client address">{r.clientAddress ?? <span className="text-slate-500">not known</span>}</Fact>
          <Fact term="User agent">
            <span className="break-all">{r.userAgent ?? <span className="text-slate-500">none sent</span>}</span>
          </Fact>
          <Fact term="Kept query parameters">
            {r.query ? (
              <code className="text-xs break-all">{new URLSearchParams(r.query).toString()}</code>
            ) : (
              <span className="text-slate-500">none (cursors and values that could carry data are never kept)</span>
            )}
          </Fact>
        </dl>
      </Card>
      <Around detail={detail} />
    </div>
  );
}

function Fact({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">{term}</dt>
      <dd className="mt-0.5 text-slate-900">{children}</dd>
    </div>
  );
}

function Around({ detail }: { detail: RequestDetail }) {
  if (!detail.request.organizationId) return null;
  return (
    <div className="grid gap-5 lg:grid-cols-2">
      <Card aria-labelledby="around-audit">
        <h2 id="around-audit" className="font-semibold text-slate-900">
          Audit events 10 minutes either side
        </h2>
        {detail.auditEvents.length === 0 ? (
          <p className="mt-2 text-sm text-slate-600">Nothing was changed in this organization around this request.</p>
        ) : (
          <ul className="mt-2 divide-y divide-slate-100 text-sm" data-testid="around-audit">
            {detail.auditEvents.map((e) => (
              <li key={e.id} className="py-2">
                <span className="font-medium">{e.action}</span> <span className="text-slate-600">on {e.targetType}</span>
                <span className="block text-xs text-slate-500">
                  {utcTime(e.createdAt)} · by {e.actorType}
                </span>
              </li>
            ))}
          </ul>
        )}
        <Link href={`/dashboard/audit?organizationId=${detail.request.organizationId}`} className="mt-3 inline-block text-sm text-blue-700 underline">
          This organization&apos;s audit log
        </Link>
      </Card>
      <Card aria-labelledby="around-sync">
        <h2 id="around-sync" className="font-semibold text-slate-900">
          Sync passes 10 minutes either side
        </h2>
        {detail.syncRuns.length === 0 ? (
          <p className="mt-2 text-sm text-slate-600">No data source of this organization was syncing around this request.</p>
        ) : (
          <ul className="mt-2 divide-y divide-slate-100 text-sm">
            {detail.syncRuns.map((s) => (
              <li key={s.id} className="py-2">
                <Link
                  href={`/dashboard/organizations/${detail.request.organizationId}/sources/${s.dataSourceId}`}
                  className="font-medium text-blue-700 underline"
                >
                  {s.dataSourceName}
                </Link>{" "}
                <Badge tone={s.status === "error" ? "red" : s.status === "ok" ? "green" : "neutral"}>{s.status}</Badge>
                <span className="block text-xs text-slate-500">
                  {s.trigger}, started {utcTime(s.startedAt)}
                  {s.finishedAt ? `, finished ${utcTime(s.finishedAt)}` : ", still running"}
                </span>
              </li>
            ))}
          </ul>
        )}
      </Card>
    </div>
  );
}
