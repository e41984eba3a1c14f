import path from "node:path";
import { parseArgs } from "node:util";
import { ZodError } from "zod";
import { env } from "@/env";
import { prepareDatabase } from "@/server/db/bootstrap";
import { createPrismaClient } from "@/server/db/client";
import { isAppError } from "@/server/errors/app-error";
import { inputIssues, summarizeIssues } from "@/server/errors/zod-issues";
import { alertOnSourceState } from "@/server/modules/alerts/note-source-state";
import { CliUsageError, type CliContext, type CliIo, type CommandGroup } from "./command";
import { alertCommands } from "./commands/alert";
import { auditCommands } from "./commands/audit";
import { backupCommands } from "./commands/backup";
import { formCommands } from "./commands/form";
import { keyCommands } from "./commands/key";
import { memberCommands } from "./commands/member";
import { orgCommands } from "./commands/org";
import { ownerCommands } from "./commands/owner";
import { recordCommands } from "./commands/record";
import { requestCommands } from "./commands/request";
import { sourceCommands } from "./commands/source";
import { userCommands } from "./commands/user";

const groups: Record<string, CommandGroup> = {
  owner: ownerCommands,
  org: orgCommands,
  key: keyCommands,
  form: formCommands,
  source: sourceCommands,
  user: userCommands,
  member: memberCommands,
  request: requestCommands,
  audit: auditCommands,
  record: recordCommands,
  alert: alertCommands,
  backup: backupCommands,
};

function usage(): string {
  const lines = ["Usage: npm run -s cli -- <command> [options] [--json]", ""];
  for (const group of Object.values(groups)) {
    for (const command of Object.values(group)) lines.push(`  ${command.usage.padEnd(72)} ${command.summary}`);
  }
  return lines.join("\n");
}

/**
 * The admin command line, given its arguments and streams: the exit code, and on any failure one
 * line of error on stderr (2: the operator's usage or input was refused; 1: anything else).
 * main.ts runs it for the process; tests run it in theirs (D564).
 */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  // `source sync` runs a pass in this process: alerts hear its result as the worker's do (D537).
  // Unsubscribed after: in a test's process, runs follow each other and its own passes go on.
  const unsubscribe = alertOnSourceState();
  try {
    return await runCommand(argv, io);
  } catch (error) {
    // A domain function's input check: the operator's input was refused, named field by field.
    const refusedInput = error instanceof ZodError;
    const message = refusedInput
      ? `invalid input: ${summarizeIssues(inputIssues(error, "(input)"))}`
      : error instanceof CliUsageError || isAppError(error) || error instanceof Error
        ? error.message
        : String(error);
    io.stderr.write(`error: ${message.split("\n")[0]}\n`);
    return error instanceof CliUsageError || refusedInput ? 2 : 1;
  } finally {
    unsubscribe();
  }
}

async function runCommand(argv: string[], io: CliIo): Promise<number> {
  const [groupName, firstName, ...remaining] = argv;
  // Two-word commands ("alert channel create") are keyed by both words.
  const twoWords = firstName !== undefined && remaining[0] !== undefined && groups[groupName ?? ""]?.[`${firstName} ${remaining[0]}`] !== undefined;
  const commandName = twoWords ? `${firstName} ${remaining[0]}` : firstName;
  const rest = twoWords ? remaining.slice(1) : remaining;
  if (!groupName || groupName === "help" || groupName === "--help") {
    io.stdout.write(`${usage()}\n`);
    return groupName ? 0 : 2;
  }
  const command = groups[groupName]?.[commandName ?? ""];
  if (!command) throw new CliUsageError(`unknown command "${[groupName, commandName].filter(Boolean).join(" ")}"; run "npm run cli -- help"`);

  const { values, positionals } = parseArgs({
    args: rest,
    options: { ...command.options, json: { type: "boolean", default: false } },
    allowPositionals: true,
    strict: true,
  });
  const dataDir = path.resolve(env().GROUNDWORK_DATA_DIR ?? ".data");
  const json = values.json === true;
  const print = (value: unknown, human: string) => io.stdout.write(`${json ? JSON.stringify(value, null, 2) : human}\n`);
  const args = { values: values as Record<string, string | boolean | undefined>, positionals };
  if (command.database === "none") {
    const unavailable = () => {
      throw new Error("this command runs without a database");
    };
    await command.run(
      {
        get db() {
          return unavailable();
        },
        get databaseUrl() {
          return unavailable();
        },
        dataDir,
        json,
        io,
        print,
      },
      args,
    );
    return 0;
  }
  const database = await prepareDatabase({ dataDir: path.join(dataDir, "postgres"), log: () => {}, migrate: command.database !== "as-is" });
  // An admin tool runs passes, exports, backups in-process: a session of its own, never a pooler's (D400).
  const db = createPrismaClient(database.directUrl);
  const ctx: CliContext = { db, databaseUrl: database.directUrl, dataDir, json, io, print };
  try {
    await command.run(ctx, args);
    return 0;
  } finally {
    await db.$disconnect();
    await database.stop();
  }
}
