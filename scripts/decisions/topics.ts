/**
 * The topics of the decisions index (issue 45): the entries are written in groups per issue, at
 * the end of docs/decisions.md, but a reader looks for a subject. Each group heading is mapped to
 * one topic here; a group this table does not name (a new one appended by parallel work) is
 * listed under "Other" rather than failing, so a merge stays green, and is mapped later.
 */
export const TOPICS = [
  "API surface",
  "Auth and keys",
  "Data sources and sync",
  "Device sync",
  "Dashboard",
  "Operations",
  "Security",
  "Performance",
  "Topology",
  "Architecture",
] as const;

export type Topic = (typeof TOPICS)[number] | "Other";

/** Group heading (the text after `## `) → topic. */
export const GROUP_TOPICS: Readonly<Record<string, (typeof TOPICS)[number]>> = {
  Platform: "Operations",
  "The /api/v1 surface": "API surface",
  "Keys and authorization (spec 2.1, 3.1, 5)": "Auth and keys",
  "Pagination (spec 4.2)": "API surface",
  "Idempotency and rate limits (spec 8)": "API surface",
  "Data sources and sync (spec 1, 2.3, 2.4, 3.2, 3.3, 8, 9)": "Data sources and sync",
  "Connector targets and secrets (issue 10)": "Data sources and sync",
  "Performance (issue 13)": "Performance",
  "Dashboard (issue 11)": "Dashboard",
  "Data sources in the dashboard (issue 12)": "Dashboard",
  "Dashboard sources screens (issue 12, part 2)": "Dashboard",
  "Hardening the HTTP edge (issue 10)": "Security",
  "Devices that never diverge (issue 14)": "Device sync",
  "Sync throughput (issue 13, second part)": "Performance",
  "Devices and integrations with nothing but an API key (issue 21)": "API surface",
  "Alerts (issue 24)": "Operations",
  "Data sources after day one: edit, pause, delete, re-read, statistics, lists that page (issue 20)": "Data sources and sync",
  "Accounts, sign-in throttling, sessions and the edge (issue 22)": "Auth and keys",
  "Request log, key usage and the audit log on screen (issue 23)": "Dashboard",
  "Forms, records and connecting an integration in the dashboard (issue 25)": "Dashboard",
  "CSV upload transport (issue 20 item 6)": "Data sources and sync",
  "Day-2 loose ends (lead, issues 22–25 follow-ups)": "Operations",
  "Walks that stay fast after churn (issue 26 item 3)": "Performance",
  "`npm start`'s worker in a process of its own; decisions without measurements (issue 27 item 5, issue 26 item 7)": "Operations",
  "CRM objects read by modified-since (issue 27 item 3)": "Data sources and sync",
  "The API's hot path: procedures called directly, one error path (issue 26, items 1, 2, 4, 5, 6)": "API surface",
  "CSV upload never holds the event loop (issue 20 item 6, part 3)": "Data sources and sync",
  "Change capture: xmin mode and choosing a mode (issue 27, xmin part)": "Data sources and sync",
  "Logical-replication capture for Postgres-table sources (issue 27, part CDC)": "Data sources and sync",
  "Capture modes merged (lead, issue 27)": "Data sources and sync",
  "Issue 27: the device simulator runs with each mode (cdc)": "Device sync",
  "Upgrades that never lock, and running in production (issue 42)": "Operations",
  "Day-2 security: cheap refusals, bounded exports, alert mail (issue 41)": "Security",
  "Day-2 security: secrets, sign-in budgets (issue 41)": "Security",
  "Backups that restore (issue 42)": "Operations",
  "A device sync library (issue 48)": "Device sync",
  "Past one machine: pooler, direct connections, workers that die, replicas (issue 46)": "Topology",
  "An audit log people read (issue 43, audit)": "Dashboard",
  "Rows and records as tables, a rows export, record filters for people (issue 43, item 5; issue 44, item 5)": "Dashboard",
  "Pages that are never stale, failures with a next step, alert links (issue 43, state)": "Dashboard",
  "Invitations by mail (issue 44, item 1)": "Auth and keys",
  "A key's page and scheduled revocation (issue 44, part 4)": "Auth and keys",
  "A sources table (issue 44, part 2)": "Dashboard",
  "Source creation with discovery, a CSV upload that asks first, a first start that says what it does (issue 44, items 3 and 10)": "Dashboard",
  "Dashboard answers and refused keys in the request log (issue 43, items 1-2)": "Operations",
  "A request log to browse (issue 43, browse)": "Dashboard",
  "An owner's and admin's console: alert rules after creation (issue 44, item 8)": "Dashboard",
  "CI findings after the issue 43/44 wave": "Operations",
  "Issue 45 — a front door": "Architecture",
  "Issue 44 — Overview health": "Dashboard",
  "Issue 44 — phone layout": "Dashboard",
  "Issue 44 — small fixes": "Dashboard",
  "Issue 43 — remaining": "Dashboard",
  "Issue 45 — layer rules": "Architecture",
  "Issue 45 — one home for /api/v1": "Architecture",
  "Issue 45 — names and hygiene": "Architecture",
  "Issue 45 — a fast, quiet loop": "Operations",
};

/** The topic of a group heading; "Other" for a group not in the table (or an entry before any group). */
export function topicOf(group: string | undefined): Topic {
  return (group !== undefined && GROUP_TOPICS[group]) || "Other";
}
