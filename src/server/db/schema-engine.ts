import fs from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { PrismaPg } from "@prisma/adapter-pg";
import {
  bindMigrationAwareSqlAdapterFactory,
  type SqlDriverAdapter,
  type SqlMigrationAwareDriverAdapterFactory,
} from "@prisma/driver-adapter-utils";
import type { MigrationList, SchemaEngine } from "@prisma/schema-engine-wasm";
import pg from "pg";
import { createDatabase, databaseUrl, dropDatabase, randomDatabaseName } from "./admin";
import { DEFAULT_MIGRATIONS_DIR, readMigrations } from "./migrations";

// The one door to Prisma's WebAssembly schema engine (an internal, undocumented API: versions pinned
// exactly in package.json). Tooling and tests only: the app never loads it. It computes the SQL that
// takes the migrations directory, or a live database, to prisma/schema.prisma.
//
// Pairing: the JavaScript glue of @prisma/schema-engine-wasm 8.1.0-2 with the Prisma CLI's own
// build/schema_engine_bg.wasm (the glue version the CLI pins is not on the registry).

export const DEFAULT_SCHEMA_PATH = "prisma/schema.prisma";

export interface DiffOptions {
  /**
   * `migrations`: replay the migrations directory in a throwaway shadow database on this server.
   * `database`: the live database at `databaseUrl`, read only.
   */
  from: "migrations" | "database";
  /** For `migrations`: any database on a server where we may CREATE DATABASE. */
  databaseUrl: string;
  migrationsDir?: string;
  schemaPath?: string;
}

/** SQL that takes `from` to the schema; "" when there is no difference. */
export async function diff(options: DiffOptions): Promise<string> {
  const schemaPath = path.resolve(options.schemaPath ?? DEFAULT_SCHEMA_PATH);
  const schemaFiles = [{ path: schemaPath, content: await fs.readFile(schemaPath, "utf8") }];
  const filters = { externalTables: [], externalEnums: [] };
  const from =
    options.from === "migrations"
      ? { tag: "migrations" as const, ...(await migrationList(options.migrationsDir ?? DEFAULT_MIGRATIONS_DIR)) }
      : { tag: "schemaDatasource" as const, files: schemaFiles, configDir: path.dirname(schemaPath) };

  const result = await withEngine(options.databaseUrl, (engine) =>
    engine.diff({ from, to: { tag: "schemaDatamodel", files: schemaFiles }, script: true, exitCode: null, filters }),
  );
  return isEmptyScript(result.stdout ?? "") ? "" : (result.stdout ?? "");
}

/** The engine writes a comment-only script when nothing differs. */
function isEmptyScript(script: string): boolean {
  return script.split("\n").every((line) => line.trim() === "" || line.trim().startsWith("--"));
}

async function migrationList(migrationsDir: string): Promise<MigrationList> {
  const baseDir = path.resolve(migrationsDir);
  const lockfile = path.join(baseDir, "migration_lock.toml");
  return {
    baseDir,
    lockfile: { path: lockfile, content: await fs.readFile(lockfile, "utf8").catch(() => null) },
    shadowDbInitScript: "",
    migrationDirectories: (await readMigrations(baseDir)).map((migration) => ({
      path: migration.name,
      migrationFile: { path: "migration.sql", content: { tag: "ok", value: migration.sql } },
    })),
  };
}

async function withEngine<T>(url: string, run: (engine: SchemaEngine) => Promise<T>): Promise<T> {
  const pools = new Set<pg.Pool>();
  const adapters = bindMigrationAwareSqlAdapterFactory(engineAdapterFactory(url, pools));
  const SchemaEngineClass = await loadEngineClass();
  let engine: SchemaEngine | undefined;
  try {
    engine = await SchemaEngineClass.new({ datamodels: undefined }, () => undefined, adapters);
    return await run(engine);
  } catch (error) {
    throw engineError(error, adapters.errorRegistry);
  } finally {
    engine?.free();
    await Promise.all([...pools].map((pool) => pool.end().catch(() => undefined)));
  }
}

/**
 * The three workarounds @prisma/adapter-pg 7.10.1 needs when the schema engine drives it:
 * - one session per database (max: 1), so session state such as advisory locks behaves as with the
 *   native engine;
 * - a script goes to the server whole, in one simple-protocol query (the adapter's own executeScript
 *   splits on ";" and breaks `$$` bodies);
 * - the shadow database is created and dropped (WITH FORCE) here: the adapter's connectToShadowDb
 *   connects to the main database when given a connection string and drops the shadow while still
 *   connected to it.
 * The fourth, the "char" type, is handled per connection in `reportCharAsText`.
 */
function engineAdapterFactory(url: string, pools: Set<pg.Pool>): SqlMigrationAwareDriverAdapterFactory {
  const connect = async (target: string, onDispose?: () => Promise<void>): Promise<SqlDriverAdapter> => {
    const pool = new pg.Pool({ connectionString: target, max: 1 });
    pool.on("connect", reportCharAsText);
    pools.add(pool);
    const inner = await new PrismaPg(pool).connect();
    return {
      provider: inner.provider,
      adapterName: inner.adapterName,
      queryRaw: (query) => inner.queryRaw(query),
      executeRaw: (query) => inner.executeRaw(query),
      startTransaction: (isolationLevel) => inner.startTransaction(isolationLevel),
      getConnectionInfo: () => inner.getConnectionInfo(),
      executeScript: async (script) => {
        // No parameters: node-postgres then uses the simple protocol, which runs several statements.
        await inner.executeRaw({ sql: script, args: [], argTypes: [] });
      },
      dispose: async () => {
        await inner.dispose();
        await pool.end().catch(() => undefined);
        pools.delete(pool);
        await onDispose?.();
      },
    };
  };
  return {
    provider: "postgres",
    adapterName: "@prisma/adapter-pg",
    connect: () => connect(url),
    connectToShadowDb: async () => {
      const shadow = randomDatabaseName("gw_shadow");
      await createDatabase(url, shadow);
      return connect(databaseUrl(url, shadow), () => dropDatabase(url, shadow));
    },
  };
}

/**
 * The engine's introspection selects columns of type "char" (OID 18, e.g. pg_class.relkind), which
 * the adapter rejects as unsupported. Its text form is the character itself: relabel it as text (25).
 */
function reportCharAsText(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  const relabel = (result: unknown): unknown => {
    for (const each of Array.isArray(result) ? result : [result]) {
      for (const field of (each as Partial<pg.QueryResult>).fields ?? []) {
        if (field.dataTypeID === 18) field.dataTypeID = 25;
      }
    }
    return result;
  };
  const patched = (...args: unknown[]) => {
    const outcome = query(...args);
    return outcome instanceof Promise ? outcome.then(relabel) : outcome;
  };
  client.query = patched as typeof client.query;
}

type SchemaEngineClass = typeof SchemaEngine;
let engineClass: Promise<SchemaEngineClass> | undefined;

/** Instantiated once per process: wasm-bindgen keeps module-level state and fails on a second load. */
function loadEngineClass(): Promise<SchemaEngineClass> {
  engineClass ??= (async () => {
    const glue = await import("@prisma/schema-engine-wasm/schema_engine_bg");
    const wasmPath = path.join(path.dirname(createRequire(import.meta.url).resolve("prisma/package.json")), "build", "schema_engine_bg.wasm");
    const module = new WebAssembly.Module(await fs.readFile(wasmPath));
    const imports: Record<string, unknown> = { ...glue };
    // NOTE: the engine arms a ~10 s timer that would keep a finished command-line tool alive; ours
    // are unref'd so the process exits as soon as its real work is done.
    for (const name of Object.keys(glue).filter((key) => key.startsWith("__wbg_setTimeout_"))) {
      const setTimer = glue[name as keyof typeof glue] as (...args: unknown[]) => unknown;
      imports[name] = (...args: unknown[]) => {
        const timer = setTimer(...args);
        (timer as { unref?: () => void }).unref?.();
        return timer;
      };
    }
    const instance = new WebAssembly.Instance(module, { "./schema_engine_bg.js": imports as WebAssembly.ModuleImports });
    glue.__wbg_set_wasm(instance.exports);
    (instance.exports.__wbindgen_start as () => void)();
    return glue.SchemaEngine;
  })();
  return engineClass;
}

/** Engine failures arrive as plain objects, or as ids of JavaScript errors kept in the registry. */
function engineError(error: unknown, registry: { consumeError(id: number): { error: unknown } | undefined }): Error {
  const { message, code, id } = (error ?? {}) as { message?: string; code?: string; id?: number };
  const original = typeof id === "number" ? registry.consumeError(id)?.error : undefined;
  if (original instanceof Error) return original;
  if (error instanceof Error) return error;
  return new Error(`Prisma schema engine${code ? ` ${code}` : ""}: ${message ?? JSON.stringify(error)}`);
}
