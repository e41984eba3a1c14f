import { CLI_OPERATOR } from "@/server/modules/access/acting-principal";
import { readFile } from "node:fs/promises";
import { AppError } from "@/server/errors/app-error";
import { approveDeletions } from "@/server/modules/data-sources/approve-deletions";
import { listHeldRows } from "@/server/modules/data-sources/deletion-review";
import { createCsvSource } from "@/server/modules/data-sources/create-csv-source";
import { createManagedSource, type ManagedSourceInput } from "@/server/modules/data-sources/create-managed-source";
import { loadEncryptionKey } from "@/server/modules/data-sources/credentials/encryption-key";
import { createSecretBox, type SecretBox } from "@/server/modules/data-sources/credentials/secret-box";
import { replaceCsvRows } from "@/server/modules/data-sources/csv/replace-csv-rows";
import { getDataSourceDetails, type DataSourceDetails } from "@/server/modules/data-sources/get-data-source";
import { runSyncPass, type SyncPassOutcome } from "@/server/modules/data-sources/sync/run-sync-pass";
import { sourceListCommand } from "./source-list";
import { sourceRowsExportCommand } from "./source-rows-export";
import { optionalCaptureMode } from "./capture-mode-option";
import { describeFallback } from "@/server/modules/data-sources/capture/capture-modes";
import { sourceManageCommands } from "./source-manage";
import {
  CliUsageError,
  optionalOption,
  requireOption,
  wholeNumberOption,
  requireSecretOption,
  requirePositional,
  type CliArgs,
  type CliContext,
  type CliIo,
  type CommandGroup,
} from "../command";

const KINDS = ["csv", "postgres_table", "crm_object"] as const;

export const sourceCommands: CommandGroup = {
  create: {
    usage:
      "source create --org ORG --name N --kind postgres_table --url URL --table schema.table --key COL [--order COL] [--columns a,b] [--interval SECONDS|off] [--capture-mode compare|xmin|cdc] | --kind crm_object --instance-url URL --object NAME --client-id ID --client-secret S [--fields a,b] [--interval SECONDS|off] [--capture-mode compare|modified_since] | --kind csv [--key COL]",
    summary: "Create a data source (credentials are stored encrypted, never shown)",
    options: {
      org: { type: "string" },
      name: { type: "string" },
      kind: { type: "string" },
      url: { type: "string" },
      table: { type: "string" },
      key: { type: "string" },
      order: { type: "string" },
      columns: { type: "string" },
      interval: { type: "string" },
      "instance-url": { type: "string" },
      object: { type: "string" },
      "client-id": { type: "string" },
      "client-secret": { type: "string" },
      fields: { type: "string" },
      "capture-mode": { type: "string" },
    },
    async run(ctx, args) {
      const organizationId = requireOption(args, "org");
      const name = requireOption(args, "name");
      const kind = requireOption(args, "kind");
      if (!(KINDS as readonly string[]).includes(kind)) throw new CliUsageError(`--kind must be one of ${KINDS.join(", ")}`);
      const created =
        kind === "csv"
          ? await createCsvSource(ctx.db, CLI_OPERATOR, { organizationId, name, keyColumn: optionalString(args, "key") })
          : await createManagedSource(ctx.db, await secretBox(ctx), CLI_OPERATOR, await managedInput(kind, organizationId, name, args, ctx.io.stdin));
      await printSource(ctx, created.id, "Created data source");
    },
  },
  upload: {
    usage: "source upload SOURCE_ID FILE [--dry-run]",
    summary: "Replace a CSV source's rows with a file, reconciled on its key (data_version + 1); --dry-run only counts",
    options: { "dry-run": { type: "boolean" } },
    async run(ctx, args) {
      const dryRun = args.values["dry-run"] === true;
      const sourceId = requirePositional(args, 0, "SOURCE_ID");
      const file = requirePositional(args, 1, "FILE");
      const content = await readFile(file, "utf8").catch((error: NodeJS.ErrnoException) => {
        throw new CliUsageError(`cannot read ${file}: ${error.code ?? error.message}`);
      });
      const result = await replaceCsvRows(ctx.db, CLI_OPERATOR, sourceId, content, { dryRun });
      const counts = `${result.inserted} new, ${result.updated} changed, ${result.tombstoned} removed, ${result.revived} back, ${result.unchanged} unchanged`;
      ctx.print(
        {
          id: sourceId,
          dry_run: dryRun,
          rows: result.rows,
          data_version: result.dataVersion,
          schema_version: result.schemaVersion,
          columns: result.columns,
          inserted: result.inserted,
          updated: result.updated,
          tombstoned: result.tombstoned,
          revived: result.revived,
          unchanged: result.unchanged,
        },
        dryRun
          ? `Dry run, nothing changed: uploading these ${result.rows} rows would make ${counts}.`
          : `Uploaded ${result.rows} rows (data_version ${result.dataVersion}, schema_version ${result.schemaVersion}): ${counts}.`,
      );
    },
  },
  sync: {
    usage: "source sync SOURCE_ID",
    summary: "Run a sync pass of a managed source now, in this process",
    async run(ctx, args) {
      const sourceId = requirePositional(args, 0, "SOURCE_ID");
      const outcome = await runSyncPass({ db: ctx.db, secrets: await secretBox(ctx) }, sourceId, { trigger: "cli" });
      if (outcome.skipped === "deleted") throw new AppError("not_found", `No data source ${sourceId}.`);
      if (outcome.skipped === "paused") throw new AppError("conflict", `Data source ${sourceId} is paused; resume it first (source resume ${sourceId}).`);
      ctx.print(outcomeJson(sourceId, outcome), describeOutcome(outcome));
      // The result is printed either way; the exit code tells scripts the pass failed.
      if (outcome.status === "error") throw new AppError("service_unavailable", `sync failed: ${outcome.error}`);
    },
  },
  "approve-deletions": {
    usage: "source approve-deletions SOURCE_ID",
    summary: "Let the next pass apply the deletions the guardrail declined",
    async run(ctx, args) {
      const sourceId = requirePositional(args, 0, "SOURCE_ID");
      const approved = await approveDeletions(ctx.db, CLI_OPERATOR, sourceId);
      ctx.print(
        { id: sourceId, deletions_approved_at: approved.approvedAt.toISOString(), approved_deletions: approved.count },
        `Approved ${approved.count} deletions; the next sync pass applies them.`,
      );
    },
  },
  "held-rows": {
    usage: "source held-rows SOURCE_ID [--search TEXT] [--limit N] [--cursor C]",
    summary: "List every row the guardrail holds back (what approve-deletions would tombstone), paged by cursor",
    options: { search: { type: "string" }, limit: { type: "string" }, cursor: { type: "string" } },
    async run(ctx, args) {
      const sourceId = requirePositional(args, 0, "SOURCE_ID");
      const page = await listHeldRows(ctx.db, CLI_OPERATOR, sourceId, {
        search: optionalOption(args, "search"),
        cursor: optionalOption(args, "cursor"),
        limit: wholeNumberOption(args, "limit", { min: 1, max: 1000 }),
      });
      ctx.print(
        {
          items: page.items.map((row) => ({ external_id: row.externalId, data: row.data, updated_at: row.updatedAt.toISOString() })),
          next_cursor: page.nextCursor,
          matching: page.matching,
        },
        [
          `${page.matching} held-back row(s)${page.nextCursor ? ` (more: --cursor ${page.nextCursor})` : ""}`,
          ...page.items.map((row) => `  ${row.externalId}  ${JSON.stringify(row.data)}`),
        ].join("\n"),
      );
    },
  },
  list: sourceListCommand,
  "rows-export": sourceRowsExportCommand,
  ...sourceManageCommands,
  show: {
    usage: "source show SOURCE_ID",
    summary: "Show a data source: sync status, versions, row counts, declined deletions",
    async run(ctx, args) {
      await printSource(ctx, requirePositional(args, 0, "SOURCE_ID"));
    },
  },
};

async function managedInput(kind: string, organizationId: string, name: string, args: CliArgs, stdin: CliIo["stdin"]): Promise<ManagedSourceInput> {
  const syncIntervalSeconds = optionalInterval(args);
  const captureMode = optionalCaptureMode(args);
  if (kind === "postgres_table") {
    return {
      kind,
      organizationId,
      name,
      syncIntervalSeconds,
      captureMode,
      config: {
        table: requireOption(args, "table"),
        keyColumn: requireOption(args, "key"),
        orderColumn: optionalString(args, "order"),
        columns: optionalList(args, "columns"),
      },
      credentials: { url: await requireSecretOption(args, "url", stdin) },
    };
  }
  return {
    kind: "crm_object",
    organizationId,
    name,
    syncIntervalSeconds,
    captureMode,
    config: { instanceUrl: requireOption(args, "instance-url"), object: requireOption(args, "object"), fields: optionalList(args, "fields") },
    credentials: { clientId: requireOption(args, "client-id"), clientSecret: await requireSecretOption(args, "client-secret", stdin) },
  };
}

async function secretBox(ctx: CliContext): Promise<SecretBox> {
  return createSecretBox(await loadEncryptionKey(ctx.dataDir));
}

async function printSource(ctx: CliContext, sourceId: string, heading?: string): Promise<void> {
  const details = await getDataSourceDetails(ctx.db, CLI_OPERATOR, sourceId);
  const json = sourceJson(details);
  const human = Object.entries(json)
    .filter(([key]) => key !== "last_run")
    .map(([key, value]) => `  ${key.padEnd(22)} ${typeof value === "object" && value !== null ? JSON.stringify(value) : String(value)}`);
  const run = details.lastRun;
  if (run) human.push(`  ${"last_run".padEnd(22)} ${run.status} (${run.trigger}, started ${run.startedAt.toISOString()})${run.error ? `: ${run.error}` : ""}`);
  if (run?.captureMode) {
    const how = run.fullCompare ? `full compare${run.fallbackReason ? ` (${describeFallback(run.fallbackReason)})` : ""}` : "incremental";
    human.push(
      `  ${"last_run_capture".padEnd(22)} ${run.captureMode}, ${how}; customer side: ${run.customerStatements ?? "?"} statements, ${run.customerRowsRead ?? "?"} rows read`,
    );
  }
  ctx.print(json, [heading ? `${heading} ${details.id}` : `Data source ${details.id}`, ...human].join("\n"));
}

/** snake_case, like the API; dates as ISO 8601. */
function sourceJson(source: DataSourceDetails): Record<string, unknown> {
  const iso = (date: Date | null) => date?.toISOString() ?? null;
  return {
    id: source.id,
    organization_id: source.organizationId,
    name: source.name,
    kind: source.kind,
    config: source.config,
    has_credentials: source.hasCredentials,
    columns: source.columns,
    sync_status: source.syncStatus,
    sync_error: source.syncError,
    last_synced_at: iso(source.lastSyncedAt),
    updated_at: iso(source.updatedAt),
    data_version: source.dataVersion,
    schema_version: source.schemaVersion,
    declined_deletions: source.declinedDeletions,
    deletions_approved_at: iso(source.deletionsApprovedAt),
    sync_interval_seconds: source.syncIntervalSeconds,
    paused_at: iso(source.pausedAt),
    paused_by: source.pausedAt ? { type: source.pausedByActorType, id: source.pausedByActorId } : null,
    created_at: iso(source.createdAt),
    live_rows: source.liveRows,
    tombstones: source.tombstones,
    capture_mode: source.captureMode,
    last_full_compare_at: iso(source.lastFullCompareAt),
    last_run: source.lastRun && {
      id: source.lastRun.id,
      trigger: source.lastRun.trigger,
      status: source.lastRun.status,
      started_at: iso(source.lastRun.startedAt),
      finished_at: iso(source.lastRun.finishedAt),
      inserted: source.lastRun.inserted,
      updated: source.lastRun.updated,
      tombstoned: source.lastRun.tombstoned,
      revived: source.lastRun.revived,
      declined: source.lastRun.declined,
      error: source.lastRun.error,
      capture_mode: source.lastRun.captureMode,
      full_compare: source.lastRun.fullCompare,
      fallback_reason: source.lastRun.fallbackReason,
      customer_statements: source.lastRun.customerStatements,
      customer_rows_read: source.lastRun.customerRowsRead,
    },
  };
}

function outcomeJson(sourceId: string, outcome: SyncPassOutcome): Record<string, unknown> {
  return { id: sourceId, status: outcome.status, sync_run_id: outcome.syncRunId, error: outcome.error, ...outcome.counts };
}

function describeOutcome(outcome: SyncPassOutcome): string {
  if (outcome.status === "error") return `Sync failed: ${outcome.error}`;
  const c = outcome.counts;
  const counts = `${c.inserted} inserted, ${c.updated} updated, ${c.tombstoned} tombstoned, ${c.revived} revived`;
  if (outcome.status === "needs_attention") {
    return `Needs attention: ${counts}; ${c.declined} deletions declined (more than half of the rows). Review the source, then run "source approve-deletions".`;
  }
  return `Synced (${outcome.status}): ${counts}.`;
}

function optionalString(args: CliArgs, name: string): string | null {
  const value = args.values[name];
  return typeof value === "string" && value.trim() !== "" ? value.trim() : null;
}

function optionalList(args: CliArgs, name: string): string[] | null {
  const value = optionalString(args, name);
  return value === null
    ? null
    : value
        .split(",")
        .map((item) => item.trim())
        .filter((item) => item !== "");
}

/** Left out: the default schedule; `off`: synced only on request. */
function optionalInterval(args: CliArgs): number | null | undefined {
  const value = optionalString(args, "interval");
  if (value === null) return undefined;
  if (value === "off") return null;
  const number = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(number)) throw new CliUsageError("--interval must be a whole number of seconds, or off");
  return number;
}
