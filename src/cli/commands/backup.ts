import path from "node:path";
import { env } from "@/env";
import { recordAuditEvent } from "@/server/modules/audit/record-audit-event";
import { createBackup } from "@/server/modules/backup/create-backup";
import { backupAuditMetadata, defaultArchiveName } from "@/server/modules/backup/scheduled-backup";
import { readArchiveHeader, verifyArchive } from "@/server/modules/backup/read-archive";
import { restoreBackup } from "@/server/modules/backup/restore-backup";
import {
  collectSecrets,
  MIN_PASSPHRASE_LENGTH,
  openSecrets,
  SECRET_VARIABLES,
  writeSecrets,
  type SecretName,
  type SecretOutcome,
} from "@/server/modules/backup/secrets-envelope";
import { CliUsageError, optionalOption, readText, requirePositional, type CliContext, type CliIo, type CommandGroup } from "../command";

/** GROUNDWORK_BACKUP_PASSPHRASE, else the first line piped on standard input (never an argument: `ps` shows those). */
async function passphrase(io: CliIo): Promise<string> {
  let value = env().GROUNDWORK_BACKUP_PASSPHRASE;
  if (value === undefined) {
    if (io.stdin.isTTY) throw new CliUsageError("set GROUNDWORK_BACKUP_PASSPHRASE or pipe the passphrase on standard input");
    value = (await readText(io.stdin)).split(/\r?\n/)[0] ?? "";
  }
  if (value.length < MIN_PASSPHRASE_LENGTH) throw new CliUsageError(`the backup passphrase must be at least ${MIN_PASSPHRASE_LENGTH} characters`);
  return value;
}

/** Progress on stderr, only when it is a terminal (a script's log gets the summary alone). */
function progress(
  verb: string,
  stderr: CliIo["stderr"],
): { update: (p: { table: string; tableIndex: number; tables: number; rows: number }) => void; done: () => void } {
  if (!stderr.isTTY) return { update: () => undefined, done: () => undefined };
  let last = 0;
  return {
    update: ({ table, tableIndex, tables, rows }) => {
      const now = Date.now();
      if (now - last < 200) return;
      last = now;
      stderr.write(`\r\x1b[K${verb}: table ${tableIndex + 1}/${tables} ${table}: ${rows.toLocaleString("en-US")} rows`);
    },
    done: () => stderr.write("\r\x1b[K"),
  };
}

async function audit(ctx: CliContext, action: string, file: string, metadata: Record<string, string | number | boolean | null>): Promise<void> {
  try {
    await recordAuditEvent(ctx.db, { action, actor: { type: "cli" }, target: { type: "backup", id: path.basename(file) }, metadata });
  } catch (error) {
    ctx.io.stderr.write(`warning: the audit event ${action} was not recorded (${(error as Error).message.split("\n")[0]})\n`);
  }
}

/** The CLI's JSON speaks snake_case, like the API. */
function snake(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`), item]));
}

const megabytes = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;

function describeSecrets(outcomes: Record<SecretName, SecretOutcome>, dataDir: string): string {
  return Object.entries(outcomes)
    .map(([name, outcome]) => {
      const variable = SECRET_VARIABLES[name as SecretName];
      if (outcome === "written") return `${name}: written to ${dataDir}`;
      if (outcome === "set_in_environment") return `${name}: ${variable} is set, left as it is`;
      if (outcome === "already_there") return `${name}: already in ${dataDir}`;
      if (outcome === "needs_environment") return `${name}: set ${variable} to the backed-up instance's value (it was a variable there)`;
      return `${name}: not in the archive`;
    })
    .join("\n");
}

export const backupCommands: CommandGroup = {
  create: {
    usage: "backup create [--to FILE] [--without-request-log]",
    summary: "One archive of the database and the instance's secrets (passphrase: GROUNDWORK_BACKUP_PASSPHRASE or stdin)",
    options: { to: { type: "string" }, "without-request-log": { type: "boolean" } },
    database: "as-is",
    async run(ctx, args) {
      const secret = await passphrase(ctx.io);
      const to = path.resolve(optionalOption(args, "to") ?? defaultArchiveName(new Date()));
      const shown = progress("backup", ctx.io.stderr);
      const summary = await createBackup({
        databaseUrl: ctx.databaseUrl,
        to,
        passphrase: secret,
        secrets: collectSecrets(ctx.dataDir, env()),
        withoutRequestLog: args.values["without-request-log"] === true,
        onProgress: shown.update,
      }).finally(shown.done);
      await audit(ctx, "backup.created", to, backupAuditMetadata(summary));
      const { perTable, ...rest } = summary;
      ctx.print(
        snake({ ...rest, perTable }),
        `backup written: ${to} (${megabytes(summary.bytes)}; ${summary.tables} tables, ${summary.rows} rows; schema at ${summary.migration ?? "none"}; ` +
          `secrets: ${summary.secrets.join(", ") || "none"}) in ${(summary.durationMs / 1000).toFixed(1)} s`,
      );
    },
  },
  verify: {
    usage: "backup verify FILE",
    summary: "Reads an archive through: checksums, row counts, and that its secrets open with the passphrase",
    database: "none",
    async run(ctx, args) {
      const file = path.resolve(requirePositional(args, 0, "FILE"));
      const secret = await passphrase(ctx.io);
      const { openedSecrets, ...summary } = await verifyArchive(file, secret);
      void openedSecrets;
      ctx.print(
        snake({ ok: true, ...summary }),
        `archive ok: ${file} (made ${summary.createdAt} on PostgreSQL ${summary.serverVersion}; ${summary.tables} tables, ${summary.rows} rows, checksums match; ` +
          `schema at ${summary.migration ?? "none"}; secrets open: ${summary.secrets.join(", ") || "none"})`,
      );
    },
  },
  restore: {
    usage: "backup restore FILE [--force]",
    summary: "Into an empty database: schema at the archive's version, every row, then migrated forward; secrets into the data dir",
    options: { force: { type: "boolean" } },
    database: "as-is",
    async run(ctx, args) {
      const file = path.resolve(requirePositional(args, 0, "FILE"));
      const secret = await passphrase(ctx.io);
      const force = args.values.force === true;
      // Before any change: the passphrase opens the secrets, and no different secret is in the way.
      const planned = writeSecrets(ctx.dataDir, openSecrets((await readArchiveHeader(file)).secrets, secret), env(), { force, dryRun: true });
      const clashing = Object.entries(planned)
        .filter(([, outcome]) => outcome === "differs")
        .map(([name]) => name);
      if (clashing.length > 0) {
        throw new CliUsageError(
          `${ctx.dataDir} already holds a different ${clashing.join(", ")}: the restored data needs the archive's; move the file away or pass --force to overwrite it`,
        );
      }
      const shown = progress("restore", ctx.io.stderr);
      const summary = await restoreBackup({ databaseUrl: ctx.databaseUrl, file, passphrase: secret, force, onProgress: shown.update }).finally(shown.done);
      const outcomes = writeSecrets(ctx.dataDir, summary.secrets, env(), { force });
      await audit(ctx, "backup.restored", file, {
        tables: summary.tables,
        rows: summary.rows,
        migration: summary.migration,
        migrated_forward: summary.migratedForward.length,
      });
      const { secrets, ...rest } = summary;
      void secrets;
      ctx.print(
        snake({ ...rest, secrets: outcomes }),
        `restored ${file}: ${summary.tables} tables, ${summary.rows} rows in ${(summary.durationMs / 1000).toFixed(1)} s (schema at ${summary.migration ?? "none"}` +
          `${summary.migratedForward.length ? `, then migrated forward: ${summary.migratedForward.join(", ")}` : ""})\n${describeSecrets(outcomes, ctx.dataDir)}`,
      );
    },
  },
};
