"use client";

import { ExternalLink } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { Card, EmptyState } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { Label, Select } from "@/components/ui/input";
import { buildCommands, TOKEN_VARIABLE } from "./commands";

interface Item {
  id: string;
  name: string;
}

interface FormItem extends Item {
  records: number;
}

interface SourceItem extends Item {
  /** ok, needs_attention, error, never_synced, stale or paused. */
  state: string;
  healthy: boolean;
}

const SOURCE_STATE_LABELS: Record<string, string> = {
  needs_attention: "needs attention",
  error: "error",
  never_synced: "never synced",
  stale: "stale",
  paused: "paused",
};

/**
 * The samples start on what makes them runnable (D523): a form that has records (the list call
 * then shows some) and a healthy source (its rows call answers rows, not a failed pass's state);
 * the first one otherwise. Every form and source stays choosable.
 */
function defaultChoices(forms: FormItem[], sources: SourceItem[]): { formId: string | null; sourceId: string | null } {
  return {
    formId: (forms.find((f) => f.records > 0) ?? forms[0])?.id ?? null,
    sourceId: (sources.find((s) => s.healthy) ?? sources[0])?.id ?? null,
  };
}

function IdItem({ label, id, testId }: { label: string; id: string; testId: string }) {
  return (
    <li data-testid={testId} className="grid grid-cols-1 gap-1 py-2 sm:grid-cols-[minmax(0,16rem)_1fr_auto] sm:items-center sm:gap-3">
      <span className="min-w-0 text-sm font-medium text-slate-900">{label}</span>
      <code className="text-xs break-all text-slate-800" data-testid={`${testId}-id`}>
        {id}
      </code>
      <span>
        <CopyButton value={id} label="Copy id" />
      </span>
    </li>
  );
}

/** Everything an integrator needs from this organization: ids, ready-to-run calls, the scopes, the docs. */
export function ConnectView({
  base,
  organization,
  forms,
  sources,
  canAdmin,
  idempotencyKey,
}: {
  base: string;
  organization: Item;
  forms: FormItem[];
  sources: SourceItem[];
  canAdmin: boolean;
  /** Minted per view of the page (crypto.randomUUID on the server), so the sample never replays. */
  idempotencyKey: string;
}) {
  const [formId, setFormId] = useState(() => defaultChoices(forms, sources).formId);
  const [sourceId, setSourceId] = useState(() => defaultChoices(forms, sources).sourceId);
  const commands = buildCommands(base, organization.id, formId, sourceId, idempotencyKey);
  const scopes = [...new Set(commands.map((c) => c.scope))];
  return (
    <div className="space-y-5">
      <Card aria-labelledby="ids-heading">
        <h2 id="ids-heading" className="text-lg font-semibold text-slate-900">
          Ids
        </h2>
        <p className="mt-1 text-sm text-slate-600">Every id an integration addresses in this organization.</p>
        <ul aria-label="Organization, form and data source ids" className="mt-3 divide-y divide-slate-100 rounded-lg border border-slate-200 px-3">
          <IdItem label={`Organization: ${organization.name}`} id={organization.id} testId="org-id" />
          {forms.map((form) => (
            <IdItem key={form.id} label={`Form: ${form.name}`} id={form.id} testId="form-id-row" />
          ))}
          {sources.map((source) => (
            <IdItem key={source.id} label={`Data source: ${source.name}`} id={source.id} testId="source-id-row" />
          ))}
        </ul>
        {forms.length === 0 ? <p className="mt-2 text-sm text-slate-600">No forms yet: create one on the Forms tab.</p> : null}
        {sources.length === 0 ? <p className="mt-1 text-sm text-slate-600">No data sources yet: add one on the Sources tab.</p> : null}
      </Card>

      <Card aria-labelledby="key-heading">
        <h2 id="key-heading" className="text-lg font-semibold text-slate-900">
          1. An API key with these scopes
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          The calls below need:{" "}
          {scopes.length
            ? scopes.map((s, i) => (
                <span key={s}>
                  {i > 0 ? ", " : null}
                  <code className="rounded bg-slate-100 px-1 break-all">{s}</code>
                </span>
              ))
            : "nothing yet"}
          .{" "}
          {canAdmin ? (
            <Link className="text-blue-700 underline" href={`/dashboard/organizations/${organization.id}/keys?mint=${scopes.join(",")}`}>
              Mint a key with these scopes
            </Link>
          ) : (
            "An admin of this organization mints keys."
          )}{" "}
          (on the API keys tab) — its token is shown once there and never on this page. Put it in your shell:
        </p>
        <pre className="mt-2 overflow-x-auto rounded-md bg-slate-900 p-3 font-mono text-xs text-slate-100" tabIndex={0} aria-label="Setting the token variable">
          {`read -rs ${TOKEN_VARIABLE}   # paste the token, press Enter\nexport ${TOKEN_VARIABLE}`}
        </pre>
      </Card>

      <Card aria-labelledby="calls-heading">
        <h2 id="calls-heading" className="text-lg font-semibold text-slate-900">
          2. Ready-to-run calls
        </h2>
        <div className="mt-3 grid gap-3 sm:grid-cols-2">
          {forms.length > 0 ? (
            <div className="space-y-1">
              <Label htmlFor="connect-form">Form</Label>
              <Select id="connect-form" value={formId ?? ""} onChange={(e) => setFormId(e.target.value)}>
                {forms.map((f) => (
                  <option key={f.id} value={f.id}>
                    {f.name} ({f.records === 0 ? "no records yet" : `${f.records.toLocaleString("en-US")} record${f.records === 1 ? "" : "s"}`})
                  </option>
                ))}
              </Select>
            </div>
          ) : null}
          {sources.length > 0 ? (
            <div className="space-y-1">
              <Label htmlFor="connect-source">Data source</Label>
              <Select id="connect-source" value={sourceId ?? ""} onChange={(e) => setSourceId(e.target.value)}>
                {sources.map((s) => (
                  <option key={s.id} value={s.id}>
                    {s.name}
                    {s.healthy ? "" : ` (${SOURCE_STATE_LABELS[s.state] ?? s.state})`}
                  </option>
                ))}
              </Select>
            </div>
          ) : null}
        </div>
        {commands.length === 0 ? (
          <div className="mt-3">
            <EmptyState title="Nothing to call yet">Create a form or add a data source, and its calls appear here.</EmptyState>
          </div>
        ) : (
          <ul className="mt-4 space-y-4">
            {commands.map((c) => (
              <li key={c.id} data-testid={`command-${c.id}`} className="space-y-1.5">
                <div className="flex flex-wrap items-center gap-2">
                  <h3 className="font-medium text-slate-900">{c.title}</h3>
                  <code className="rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-800">needs {c.scope}</code>
                  <span className="ml-auto">
                    <CopyButton value={c.command} label="Copy command" />
                  </span>
                </div>
                <p className="text-sm text-slate-600">{c.explain}</p>
                <pre
                  tabIndex={0}
                  aria-label={`${c.title}: command`}
                  data-testid="command-text"
                  className="overflow-x-auto rounded-md bg-slate-900 p-3 font-mono text-xs text-slate-100 focus-visible:ring-2 focus-visible:ring-blue-600 focus-visible:outline-none"
                >
                  {c.command}
                </pre>
              </li>
            ))}
          </ul>
        )}
      </Card>

      <Card aria-labelledby="docs-heading">
        <h2 id="docs-heading" className="text-lg font-semibold text-slate-900">
          3. Reference
        </h2>
        <ul className="mt-2 space-y-1 text-sm">
          <li>
            <a className="inline-flex items-center gap-1 text-blue-700 underline" href="/docs">
              API reference (/docs) <ExternalLink className="size-3.5" aria-hidden />
            </a>
          </li>
          <li>
            <a className="inline-flex items-center gap-1 text-blue-700 underline" href="/api/v1/openapi.json">
              OpenAPI document (/api/v1/openapi.json) <ExternalLink className="size-3.5" aria-hidden />
            </a>
          </li>
          <li>
            <a className="inline-flex items-center gap-1 text-blue-700 underline" href="/docs/device-sync">
              Device sync protocol (walk, then delta with tombstones) <ExternalLink className="size-3.5" aria-hidden />
            </a>
          </li>
          <li>
            <a className="inline-flex items-center gap-1 text-blue-700 underline" href="/docs/device-sync/library">
              Device sync library (@groundwork/device-sync: the protocol as code) <ExternalLink className="size-3.5" aria-hidden />
            </a>
          </li>
        </ul>
      </Card>
    </div>
  );
}
