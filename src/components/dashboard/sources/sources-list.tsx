import Link from "next/link";
import { Card, EmptyState } from "@/components/ui/card";
import { kindLabel } from "./format";
import { SourceFacts } from "./source-facts";
import { SourceProblem } from "./source-problem";
import { PausedBadge, SourceStateBadge, StaleBadge } from "./status-badge";
import type { SourceSummary } from "./types";

export function SourcesList({ organizationId, sources, canManage }: { organizationId: string; sources: SourceSummary[]; canManage: boolean }) {
  if (sources.length === 0) {
    return (
      <EmptyState title="No data sources yet">
        {canManage
          ? "Create one with “New source”: upload a CSV, or mirror a Postgres table or a CRM object on a schedule. Forms then use its rows as choices."
          : "An admin of this organization (or an instance owner) can create one: a CSV upload, a Postgres table or a CRM object."}
      </EmptyState>
    );
  }
  return (
    <ul className="space-y-3" aria-label="Data sources">
      {sources.map((source) => (
        <li key={source.id}>
          <Card data-testid="source-card" aria-label={source.name}>
            <div className="flex flex-wrap items-center gap-2">
              <Link href={`/dashboard/organizations/${organizationId}/sources/${source.id}`} className="text-base font-semibold text-blue-800 hover:underline">
                {source.name}
              </Link>
              <SourceStateBadge state={source.state} />
              {source.pausedAt ? <PausedBadge /> : null}
              {source.stale ? <StaleBadge /> : null}
              {source.running ? <span className="text-xs text-blue-700">syncing…</span> : null}
              <span className="ml-auto text-xs text-slate-500">{kindLabel(source.kind)}</span>
            </div>
            <SourceProblem source={source} />
            <div className="mt-3">
              <SourceFacts source={source} />
            </div>
          </Card>
        </li>
      ))}
    </ul>
  );
}
