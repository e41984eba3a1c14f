import type { Db } from "@/server/db/types";
import type { ActingPrincipal } from "@/server/modules/access/acting-principal";
import { readableOrganizationIds, viewerReadingPrincipal } from "@/server/modules/access/reading-principal";
import type { Viewer } from "@/server/modules/access/viewer";
import { countOpenAlertsByOrganization } from "@/server/modules/alerts/open-alerts";
import { countSourcesByOrganization } from "@/server/modules/data-sources/count-sources";
import { recordsSinceByOrganization } from "@/server/modules/records/records-today";
import { logReachFor } from "@/server/modules/request-log/reach";
import { emptyStatusCounts, STATUS_CLASSES } from "@/server/modules/request-log/entry";
import { utcDay } from "@/server/modules/request-log/partitions";
import { last24Hours, requestCountsByOrganization, type RequestCounts } from "@/server/modules/request-log/organization-usage";

/** Whose health a caller may read. */
export interface HealthReach {
  /** The organizations: null for every one. */
  organizations: readonly string[] | null;
  /** Of those, whose request figures (the request log's reach, D197): null for every one. */
  requestLog: readonly string[] | null;
}

/** Owners and support: every organization; anyone else their memberships, and requests only where they are admin. */
export function healthReachForViewer(viewer: Viewer): HealthReach {
  const log = logReachFor(viewer);
  return { organizations: readableOrganizationIds(viewerReadingPrincipal(viewer)), requestLog: log.kind === "all" ? null : log.organizationIds };
}

/** An acting principal (the CLI operator, an instance or organization key) reads its whole reach. */
export function healthReachForPrincipal(principal: ActingPrincipal): HealthReach {
  const ids = principal.reach === "instance" ? null : [principal.reach.organizationId];
  return { organizations: ids, requestLog: ids };
}

export interface SourceHealth {
  total: number;
  ok: number;
  needsAttention: number;
  error: number;
  neverSynced: number;
  /** Scheduled and behind (may also be in any state above). */
  stale: number;
  paused: number;
  /** Error, needs attention or stale, and not paused: each source once. */
  inTrouble: number;
}

export interface RequestHealth {
  total: number;
  byClass: RequestCounts;
  /** 4xx, 429 and 5xx. */
  errors: number;
  /** errors / total; null without requests. */
  errorRate: number | null;
}

export interface OrganizationHealth {
  organizationId: string;
  sources: SourceHealth;
  /** null when the caller may not read this organization's requests (a member). */
  requests: RequestHealth | null;
  recordsToday: number;
  openAlerts: number;
}

export interface HealthSummary {
  window: {
    asOf: Date;
    /** The requests' window: from this hour (23 whole hours ago) to now. */
    requestsSince: Date;
    /** The current, partial hour starts here. */
    currentHourSince: Date;
    /** "Today" is the UTC day: records since this midnight. */
    recordsSince: Date;
  };
  /** Over every organization in reach, not only the ones asked for. */
  totals: Omit<OrganizationHealth, "organizationId"> & { organizations: number };
  /** The asked organizations within reach, in the order asked; others are left out as absent. */
  items: OrganizationHealth[];
}

/**
 * The Overview's health: sources by state, API requests and their error rate over the last
 * 24 h, records today (UTC) and open alerts, per organization and in total. NOTE: four grouped
 * queries over the whole reach and one count, whatever the number of organizations (no query per
 * organization); a page's rows are picked from them, and the totals are their sums.
 */
export async function organizationHealth(db: Db, reach: HealthReach, organizationIds: readonly string[], now = new Date()): Promise<HealthSummary> {
  const { since, currentHourSince } = last24Hours(now);
  const recordsSince = utcDay(now);
  const requestScope = intersect(reach.organizations, reach.requestLog);
  const [sources, requests, records, alerts, organizations] = await Promise.all([
    countSourcesByOrganization(db, reach.organizations, now),
    requestCountsByOrganization(db, requestScope, since),
    recordsSinceByOrganization(db, reach.organizations, recordsSince),
    countOpenAlertsByOrganization(db, reach.organizations),
    reach.organizations === null ? db.organization.count() : db.organization.count({ where: { id: { in: [...reach.organizations] } } }),
  ]);
  const sourcesById = new Map(
    sources.map((s) => [
      s.organizationId,
      {
        total: s.total,
        ok: s.ok,
        needsAttention: s.needs_attention,
        error: s.error,
        neverSynced: s.never_synced,
        stale: s.stale,
        paused: s.paused,
        inTrouble: s.in_trouble,
      },
    ]),
  );
  const alertsById = new Map(alerts.map((row) => [row.organizationId, row.open]));
  const mayReadRequests = (id: string) => requestScope === null || requestScope.includes(id);
  const visible = (id: string) => reach.organizations === null || reach.organizations.includes(id);

  const health = (id: string): OrganizationHealth => ({
    organizationId: id,
    sources: sourcesById.get(id) ?? emptySources(),
    requests: mayReadRequests(id) ? requestHealth(requests.get(id)) : null,
    recordsToday: records.get(id) ?? 0,
    openAlerts: alertsById.get(id) ?? 0,
  });

  const totalSources = emptySources();
  for (const counts of sourcesById.values()) addSources(totalSources, counts);
  const totalClasses: RequestCounts = emptyStatusCounts();
  for (const counts of requests.values()) for (const cls of STATUS_CLASSES) totalClasses[cls] += counts[cls];

  return {
    window: { asOf: now, requestsSince: since, currentHourSince, recordsSince },
    totals: {
      organizations,
      sources: totalSources,
      requests: requestScope !== null && requestScope.length === 0 ? null : requestHealth(totalClasses),
      recordsToday: [...records.values()].reduce((sum, n) => sum + n, 0),
      openAlerts: alerts.reduce((sum, row) => sum + row.open, 0),
    },
    items: [...new Set(organizationIds)].filter(visible).map(health),
  };
}

function intersect(a: readonly string[] | null, b: readonly string[] | null): readonly string[] | null {
  if (a === null) return b;
  if (b === null) return a;
  return a.filter((id) => b.includes(id));
}

function emptySources(): SourceHealth {
  return { total: 0, ok: 0, needsAttention: 0, error: 0, neverSynced: 0, stale: 0, paused: 0, inTrouble: 0 };
}

function addSources(into: SourceHealth, from: SourceHealth): void {
  for (const field of Object.keys(into) as (keyof SourceHealth)[]) into[field] += from[field];
}

function requestHealth(counts: RequestCounts | undefined): RequestHealth {
  const byClass = counts ?? emptyStatusCounts();
  const errors = byClass["4xx"] + byClass["429"] + byClass["5xx"];
  const total = errors + byClass["2xx"];
  return { total, byClass, errors, errorRate: total === 0 ? null : errors / total };
}
