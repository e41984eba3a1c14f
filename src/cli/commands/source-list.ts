import { AppError } from "@/server/errors/app-error";
import { listDataSources, SOURCE_SORTS, type SourceListItem } from "@/server/modules/data-sources/list-sources";
import { CLI_OPERATOR } from "@/server/modules/access/acting-principal";
import { SOURCE_STATUS_FILTERS, type SourceStatusFilter } from "@/server/modules/data-sources/source-status";
import { MAX_LIMIT } from "@/server/modules/pagination/page";
import { CliUsageError, everyPage, type CliArgs, type CliCommand } from "../command";

/** `source list`: what support looks for first, the sources that need a person, across organizations. */
export const sourceListCommand: CliCommand = {
  usage: `source list [--org ORG] [--status ${SOURCE_STATUS_FILTERS.join("|")}[,...]] [--kind csv|postgres_table|crm_object] [--search TEXT] [--sort=name|-name|since|-since]`,
  summary: "List data sources with their status (stale: scheduled, no completed pass for 3 intervals)",
  options: { org: { type: "string" }, status: { type: "string" }, sort: { type: "string" }, kind: { type: "string" }, search: { type: "string" } },
  async run(ctx, args) {
    const organizationId = typeof args.values.org === "string" ? args.values.org : undefined;
    if (organizationId && !(await ctx.db.organization.findUnique({ where: { id: organizationId }, select: { id: true } }))) {
      throw new AppError("not_found", `No organization ${organizationId}.`);
    }
    const statuses = parseStatuses(args);
    const sort = args.values.sort ?? "name";
    if (!(SOURCE_SORTS as readonly unknown[]).includes(sort)) throw new CliUsageError(`--sort must be one of ${SOURCE_SORTS.join(", ")}`);
    const kind = args.values.kind;
    if (kind !== undefined && kind !== "csv" && kind !== "postgres_table" && kind !== "crm_object")
      throw new CliUsageError("--kind must be csv, postgres_table or crm_object");
    const search = typeof args.values.search === "string" ? args.values.search : undefined;
    // The same domain function, filters and sort as the dashboard's sources table (D486).
    const items = await everyPage((cursor) =>
      listDataSources(ctx.db, CLI_OPERATOR, { organizationId, statuses, kind, search, sort: sort as (typeof SOURCE_SORTS)[number], limit: MAX_LIMIT, cursor }),
    );
    ctx.print(items.map(listItemJson), describeList(items));
  },
};

function parseStatuses(args: CliArgs): SourceStatusFilter[] | undefined {
  const raw = args.values.status;
  if (typeof raw !== "string") return undefined;
  const statuses = raw
    .split(",")
    .map((value) => value.trim())
    .filter((value) => value !== "");
  const unknown = statuses.find((value) => !(SOURCE_STATUS_FILTERS as readonly string[]).includes(value));
  if (unknown !== undefined || statuses.length === 0) throw new CliUsageError(`--status must be one or more of ${SOURCE_STATUS_FILTERS.join(", ")}`);
  return statuses as SourceStatusFilter[];
}

/** snake_case, like `source show`; dates as ISO 8601. */
function listItemJson(item: SourceListItem): Record<string, unknown> {
  const iso = (date: Date | null) => date?.toISOString() ?? null;
  return {
    id: item.id,
    organization_id: item.organizationId,
    organization_name: item.organizationName,
    name: item.name,
    kind: item.kind,
    status: item.state,
    sync_status: item.syncStatus,
    sync_error: item.syncError,
    stale: item.stale,
    running: item.running,
    since: iso(item.since),
    last_synced_at: iso(item.lastSyncedAt),
    updated_at: iso(item.updatedAt),
    data_version: item.dataVersion,
    schema_version: item.schemaVersion,
    live_rows: item.liveRows,
    tombstones: item.tombstones,
    declined_deletions: item.declinedDeletions,
    columns: item.columns,
    sync_interval_seconds: item.syncIntervalSeconds,
    next_due_at: iso(item.nextDueAt),
  };
}

function describeList(items: SourceListItem[]): string {
  if (items.length === 0) return "No data sources match.";
  const header = ["ID", "ORGANIZATION", "NAME", "KIND", "STATUS", "LAST COMPLETED", "LAST RAN", "ROWS", "ERROR"];
  const rows = items.map((item) => [
    item.id,
    item.organizationName,
    item.name,
    item.kind,
    `${item.state}${item.stale ? " (stale)" : ""}${item.declinedDeletions > 0 ? ` (${item.declinedDeletions} deletions declined)` : ""}`,
    item.lastSyncedAt?.toISOString() ?? "never",
    item.syncStatus === null ? "never" : item.updatedAt.toISOString(),
    `${item.liveRows} live, ${item.tombstones} deleted`,
    item.syncError ? truncate(item.syncError, 80) : "",
  ]);
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i]!.length)));
  return [header, ...rows]
    .map((row) =>
      row
        .map((cell, i) => cell.padEnd(widths[i]!))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

function truncate(text: string, length: number): string {
  const line = text.replace(/\s+/g, " ");
  return line.length > length ? `${line.slice(0, length - 1)}…` : line;
}
