import path from "node:path";
import { CLI_OPERATOR } from "@/server/modules/access/acting-principal";
import { randomBytes } from "node:crypto";
import pg from "pg";
import pino from "pino";
import { appRouter } from "@/server/api/v1/root";
import { createDatabase, databaseUrl, dropDatabase, randomDatabaseName } from "@/server/db/admin";
import { createPrismaClient } from "@/server/db/client";
import { startEmbeddedPostgres } from "@/server/db/embedded";
import { applyMigrations } from "@/server/db/migrations";
import { createApiHandler } from "@/server/api/v1/pipeline/handle-api-request";
import { mintApiKey } from "@/server/modules/api-keys/mint-key";
import { createSecretBox } from "@/server/modules/data-sources/credentials/secret-box";
import { createMemoryRateLimitStore } from "@/server/modules/rate-limit/rate-limit-store";
import { createRowsApi } from "./rows-api";
import type { SimulationDeps } from "./run-scenario";
import { openLogicalCustomer } from "./logical-customer";

export interface SimulationEnvironment {
  deps: SimulationDeps;
  /** How the devices reach the API, for the summary. */
  transport: string;
  close(): Promise<void>;
}

/**
 * Without BASE_URL: a fresh, migrated database (on DATABASE_URL's server, else on an embedded
 * server under .data/sim-postgres) served by the production /api/v1 handler in-process, plus a
 * second fresh database for the customer's tables. Both are dropped at the end.
 * With BASE_URL: devices call that running app over HTTP; the writer needs DATABASE_URL, the
 * app's own database, to drive passes and uploads through the domain modules.
 * With `logical` (mode cdc): a customer database on a second embedded server with
 * wal_level = logical, started once and shared by every run.
 */
export async function openEnvironment(options: {
  repoRoot: string;
  databaseUrl?: string;
  baseUrl?: string;
  logical?: boolean;
}): Promise<SimulationEnvironment> {
  if (options.baseUrl && !options.databaseUrl) throw new Error("BASE_URL needs DATABASE_URL: the app's database, where the simulator drives sync passes");
  const server = options.databaseUrl
    ? undefined
    : await startEmbeddedPostgres({
        dataDir: path.join(options.repoRoot, ".data", "sim-postgres"),
        settings: { fsync: "off", synchronous_commit: "off", full_page_writes: "off" },
      });
  const adminUrl = options.databaseUrl ?? server?.adminUrl ?? "";
  const created: string[] = [];
  const fresh = async () => {
    const name = randomDatabaseName(`gw_sim_${process.pid}`);
    await createDatabase(adminUrl, name);
    created.push(name);
    return databaseUrl(adminUrl, name);
  };

  const appUrl = options.baseUrl ? (options.databaseUrl as string) : await fresh();
  if (!options.baseUrl) await applyMigrations(appUrl, { migrationsDir: path.join(options.repoRoot, "prisma", "migrations") });
  const customerUrl = await fresh();
  const db = createPrismaClient(appUrl);
  const customer = new pg.Pool({ connectionString: customerUrl, max: 4 });
  customer.on("error", () => undefined);

  // An instance key: each run creates its own organization.
  const key = await mintApiKey(db, CLI_OPERATOR, { name: "device simulator", scopes: ["data_sources:read"], organizationId: null, rateLimit: 1_000_000 });

  const send = options.baseUrl
    ? (request: Request) => fetch(request)
    : createApiHandler({ router: appRouter, db: () => db, log: pino({ level: "silent" }), rateLimiter: createMemoryRateLimitStore() });
  const logical = options.logical ? await openLogicalCustomer(options.repoRoot) : undefined;
  return {
    deps: {
      db,
      customer,
      customerUrl,
      secrets: createSecretBox(randomBytes(32)),
      api: createRowsApi(send, options.baseUrl ?? "http://simulator.local", key.token),
      library: { send, baseUrl: `${(options.baseUrl ?? "http://simulator.local").replace(/\/$/, "")}/api/v1`, token: key.token },
      ...(logical ? { logicalCustomer: { customer: logical.pool, url: logical.url } } : {}),
    },
    transport: options.baseUrl ? `HTTP to ${options.baseUrl}` : "the production /api/v1 handler in-process over a fresh database",
    async close() {
      await logical?.close();
      await Promise.allSettled([db.$disconnect(), customer.end()]);
      for (const name of created) await dropDatabase(adminUrl, name).catch(() => undefined);
      await server?.stop();
    },
  };
}
