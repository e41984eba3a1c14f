import type { Writable } from "node:stream";
import type { ParseArgsConfig } from "node:util";
import type { PrismaClient } from "@/server/db/types";
import type { Page } from "@/server/modules/pagination/page";

type CliOptions = NonNullable<ParseArgsConfig["options"]>;

export interface CliArgs {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
}

/** Where a command writes and reads: the process's streams, or a test's when it runs in-process (D564). */
export interface CliIo {
  stdout: Writable & { isTTY?: boolean };
  stderr: Writable & { isTTY?: boolean };
  stdin: AsyncIterable<string | Uint8Array> & { isTTY?: boolean };
}

export interface CliContext {
  db: PrismaClient;
  databaseUrl: string;
  dataDir: string;
  json: boolean;
  io: CliIo;
  /** Prints `value` as JSON under --json, else the human text. */
  print(value: unknown, human: string): void;
}

export interface CliCommand {
  /** e.g. `key mint --name N --scopes a:read,b:write (--org ORG_ID | --instance)` */
  usage: string;
  summary: string;
  options?: CliOptions;
  /**
   * migrated (the default): the database migrated to this code first. as-is: not migrated (a
   * backup saves the schema it finds; a restore wants an empty database). none: no database at all.
   */
  database?: "migrated" | "as-is" | "none";
  run(ctx: CliContext, args: CliArgs): Promise<void>;
}

export type CommandGroup = Record<string, CliCommand>;

/** A required option, or a one-line usage error. */
export function requireOption(args: CliArgs, name: string): string {
  const value = args.values[name];
  if (typeof value !== "string" || value.trim() === "") throw new CliUsageError(`missing --${name}`);
  return value;
}

/** An option's text when given, undefined when left out. */
export function optionalOption(args: CliArgs, name: string): string | undefined {
  const value = args.values[name];
  return typeof value === "string" ? value : undefined;
}

/** Every item of a list paged by cursor, read page after page (a command prints the whole list). */
export async function everyPage<T>(readPage: (cursor: string | undefined) => Promise<Page<T>>): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    const page = await readPage(cursor);
    items.push(...page.items);
    cursor = page.meta.next_cursor ?? undefined;
  } while (cursor);
  return items;
}

/**
 * A whole-number option from `min` to `max` (digits only: `1e3`, `0x10` or ` 5` are refused, not
 * read as numbers), or a one-line usage error; undefined when the option is left out.
 */
export function wholeNumberOption(args: CliArgs, name: string, range: { min: number; max?: number }): number | undefined {
  const value = args.values[name];
  if (value === undefined) return undefined;
  const number = typeof value === "string" && /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (number >= range.min && number <= (range.max ?? Number.MAX_SAFE_INTEGER)) return number;
  throw new CliUsageError(`--${name} must be a whole number ${range.max === undefined ? `of at least ${range.min}` : `from ${range.min} to ${range.max}`}`);
}

export function requirePositional(args: CliArgs, index: number, name: string): string {
  const value = args.positionals[index];
  if (!value) throw new CliUsageError(`missing ${name}`);
  return value;
}

export class CliUsageError extends Error {
  override name = "CliUsageError";
}

/**
 * A required secret option. `--name -` reads it from standard input instead, so a password or
 * connection URL need not appear in `ps` or the shell history.
 */
export async function requireSecretOption(args: CliArgs, name: string, stdin: CliIo["stdin"]): Promise<string> {
  const value = requireOption(args, name);
  if (value !== "-") return value;
  const fromStdin = (await readText(stdin)).replace(/\r?\n$/, "");
  if (fromStdin === "") throw new CliUsageError(`--${name} - was given but standard input was empty`);
  return fromStdin;
}

/** All of standard input, as UTF-8. */
export async function readText(stdin: CliIo["stdin"]): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(typeof chunk === "string" ? Buffer.from(chunk, "utf8") : Buffer.from(chunk));
  return Buffer.concat(chunks).toString("utf8");
}
