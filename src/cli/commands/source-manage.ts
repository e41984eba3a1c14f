import { CLI_OPERATOR } from "@/server/modules/access/acting-principal";
import { loadEncryptionKey } from "@/server/modules/data-sources/credentials/encryption-key";
import { createSecretBox } from "@/server/modules/data-sources/credentials/secret-box";
import { deleteDataSource } from "@/server/modules/data-sources/manage/delete-source";
import { editDataSource, type EditSourceInput } from "@/server/modules/data-sources/manage/edit-source";
import { pauseDataSource, resumeDataSource } from "@/server/modules/data-sources/manage/pause-source";
import { requestResync } from "@/server/modules/data-sources/manage/resync-source";
import { testSourceConnection } from "@/server/modules/data-sources/test-connection";
import { AppError } from "@/server/errors/app-error";
import { optionalCaptureMode } from "./capture-mode-option";
import { CliUsageError, requirePositional, requireSecretOption, type CliArgs, type CliIo, type CommandGroup } from "../command";

/** Day-two commands (issue 20): the same domain functions as the source page's buttons. */
export const sourceManageCommands: CommandGroup = {
  test: {
    usage: "source test SOURCE_ID",
    summary: "Test a managed source's stored connection: columns, rows sampled, and the capture modes its target allows",
    async run(ctx, args) {
      const sourceId = requirePositional(args, 0, "SOURCE_ID");
      const secrets = createSecretBox(await loadEncryptionKey(ctx.dataDir));
      const check = await testSourceConnection({ db: ctx.db, secrets }, CLI_OPERATOR, sourceId);
      if (!check.ok) {
        ctx.print({ id: sourceId, ok: false, reason: check.reason }, `Connection failed: ${check.reason}`);
        // Printed either way; the exit code tells scripts the test failed.
        throw new AppError("service_unavailable", `connection test failed: ${check.reason}`);
      }
      const modes = check.captureModes.map((m) => ({ mode: m.mode, supported: m.supported, ...(m.reason ? { reason: m.reason } : {}) }));
      ctx.print(
        { id: sourceId, ok: true, columns: check.columns, rows_sampled: check.rowsSampled, capture_modes: modes, best_capture_mode: check.bestCaptureMode },
        [
          `Connected: ${check.columns.length} column(s) (${check.columns.join(", ")}), ${check.rowsSampled} row(s) sampled.`,
          ...modes.map((m) => `  ${m.mode}: ${m.supported ? "supported" : `not supported (${m.reason ?? "no reason given"})`}`),
          `Best capture mode: ${check.bestCaptureMode}`,
        ].join("\n"),
      );
    },
  },
  edit: {
    usage:
      "source edit SOURCE_ID [--name N] [--interval SECONDS|off] [--host H] [--port P] [--database D] [--user U] [--password P|-] [--sslmode M] [--order COL|none] [--columns a,b|all] [--instance-url URL] [--client-id ID] [--client-secret S|-] [--fields a,b|all] [--capture-mode compare|xmin|cdc|modified_since]",
    summary: "Edit a source's name, schedule, settings or connection (tested before it is saved)",
    options: {
      name: { type: "string" },
      interval: { type: "string" },
      host: { type: "string" },
      port: { type: "string" },
      database: { type: "string" },
      user: { type: "string" },
      password: { type: "string" },
      sslmode: { type: "string" },
      table: { type: "string" },
      key: { type: "string" },
      order: { type: "string" },
      columns: { type: "string" },
      "instance-url": { type: "string" },
      "client-id": { type: "string" },
      "client-secret": { type: "string" },
      object: { type: "string" },
      fields: { type: "string" },
      "capture-mode": { type: "string" },
    },
    async run(ctx, args) {
      const sourceId = requirePositional(args, 0, "SOURCE_ID");
      const edit = await editInput(args, ctx.io.stdin);
      if (Object.keys(edit).length === 0) throw new CliUsageError("nothing to change: give at least one option (see npm run cli -- help)");
      const secrets = createSecretBox(await loadEncryptionKey(ctx.dataDir));
      const result = await editDataSource({ db: ctx.db, secrets }, CLI_OPERATOR, sourceId, edit);
      ctx.print(
        { id: sourceId, changed: result.changed },
        result.changed.length === 0 ? "Nothing changed." : `Edited data source ${sourceId}: ${result.changed.join(", ")}.`,
      );
    },
  },
  pause: {
    usage: "source pause SOURCE_ID",
    summary: "Pause a managed source: no pass runs until it is resumed; its rows stay served",
    async run(ctx, args) {
      const sourceId = requirePositional(args, 0, "SOURCE_ID");
      const { pausedAt } = await pauseDataSource(ctx.db, CLI_OPERATOR, sourceId);
      ctx.print({ id: sourceId, paused_at: pausedAt.toISOString() }, `Paused data source ${sourceId}.`);
    },
  },
  resume: {
    usage: "source resume SOURCE_ID",
    summary: "Resume a paused source; a scheduled one's next pass is queued at once",
    async run(ctx, args) {
      const sourceId = requirePositional(args, 0, "SOURCE_ID");
      const resumed = await resumeDataSource(ctx.db, CLI_OPERATOR, sourceId);
      ctx.print(
        { id: sourceId, resumed_at: resumed.resumedAt.toISOString(), pass_queued: resumed.passQueued, scheduled: resumed.scheduled },
        `Resumed data source ${sourceId}; ${resumeOutcome(resumed)}.`,
      );
    },
  },
  resync: {
    usage: "source resync SOURCE_ID",
    summary: "Queue a pass that reads and compares every row (for suspected drift)",
    async run(ctx, args) {
      const sourceId = requirePositional(args, 0, "SOURCE_ID");
      const { requestedAt } = await requestResync(ctx.db, CLI_OPERATOR, sourceId);
      ctx.print({ id: sourceId, requested_at: requestedAt.toISOString() }, `Queued a full re-read of data source ${sourceId}.`);
    },
  },
  delete: {
    usage: "source delete SOURCE_ID --confirm NAME",
    summary: "Delete a source (type its name to confirm); its rows are removed in the background",
    options: { confirm: { type: "string" } },
    async run(ctx, args) {
      const sourceId = requirePositional(args, 0, "SOURCE_ID");
      const confirm = args.values.confirm;
      if (typeof confirm !== "string") throw new CliUsageError("missing --confirm NAME (the source's name, to confirm the deletion)");
      const deleted = await deleteDataSource(ctx.db, CLI_OPERATOR, sourceId, confirm);
      ctx.print(
        { id: deleted.id, name: deleted.name, kind: deleted.kind, live_rows: deleted.liveRows, tombstones: deleted.tombstones, status: "deleting" },
        `Deleted data source ${deleted.id} (${deleted.name}); its ${deleted.liveRows + deleted.tombstones} rows are being removed in the background.`,
      );
    },
  },
};

async function editInput(args: CliArgs, stdin: CliIo["stdin"]): Promise<EditSourceInput> {
  const text = (name: string) => {
    const value = args.values[name];
    return typeof value === "string" ? value.trim() : undefined;
  };
  const edit: EditSourceInput = {};
  if (text("name") !== undefined) edit.name = text("name");
  const captureMode = optionalCaptureMode(args);
  if (captureMode !== null) edit.captureMode = captureMode;
  const interval = text("interval");
  if (interval !== undefined) {
    if (interval === "off") edit.syncIntervalSeconds = null;
    else if (/^\d+$/.test(interval)) edit.syncIntervalSeconds = Number(interval);
    else throw new CliUsageError("--interval must be a whole number of seconds, or off");
  }
  const config: Record<string, unknown> = {};
  const list = (value: string) =>
    value === "all"
      ? null
      : value
          .split(",")
          .map((item) => item.trim())
          .filter(Boolean);
  if (text("table") !== undefined) config.table = text("table");
  if (text("key") !== undefined) config.keyColumn = text("key");
  if (text("object") !== undefined) config.object = text("object");
  if (text("order") !== undefined) config.orderColumn = text("order") === "none" ? null : text("order");
  if (text("columns") !== undefined) config.columns = list(text("columns")!);
  if (text("fields") !== undefined) config.fields = list(text("fields")!);
  if (Object.keys(config).length > 0) edit.config = config;

  const connection: Record<string, unknown> = {};
  for (const name of ["host", "database", "user", "sslmode"] as const) if (text(name) !== undefined) connection[name] = text(name);
  const port = text("port");
  if (port !== undefined) {
    if (!/^\d+$/.test(port)) throw new CliUsageError("--port must be a number");
    connection.port = Number(port);
  }
  if (args.values.password !== undefined) connection.password = await requireSecretOption(args, "password", stdin);
  if (text("instance-url") !== undefined) connection.instanceUrl = text("instance-url");
  if (text("client-id") !== undefined) connection.clientId = text("client-id");
  if (args.values["client-secret"] !== undefined) connection.clientSecret = await requireSecretOption(args, "client-secret", stdin);
  if (Object.keys(connection).length > 0) edit.connection = connection;
  return edit;
}

function resumeOutcome(resumed: { passQueued: boolean; scheduled: boolean }): string {
  if (!resumed.scheduled) return "it has no schedule, so it syncs when someone asks";
  return resumed.passQueued ? "its next pass is queued" : "the worker's next tick runs its pass";
}
