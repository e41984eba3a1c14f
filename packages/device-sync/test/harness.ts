import { afterAll, beforeAll } from "vitest";
import { startApiProcess, type ApiProcess } from "@/test/api-process";
import { mintTestKey } from "@/test/api-client";
import { useTestDatabase } from "@/test/db";
import { insertRows, type SeedRow } from "@/test/rows";
import { SYSTEM } from "@/server/modules/access/acting-principal";
import { createOrganization } from "@/server/modules/organizations/create-organization";
import { createForm } from "@/server/modules/forms/create-form";
import type { Prisma } from "@/server/db/types";

/**
 * The real server for the package's tests: a test database and src/test/serve-api.ts in its own
 * OS process, reached over HTTP with the global fetch, as an app would reach it.
 */
export function serverUnderTest() {
  const database = useTestDatabase();
  let api: ApiProcess | undefined;
  let organizationId = "";
  let formId = "";
  const keys: Record<string, string> = {};
  beforeAll(async () => {
    api = await startApiProcess({ DATABASE_URL: database.url });
    organizationId = (await createOrganization(database.prisma, SYSTEM, "Device sync")).id;
    formId = (await createForm(database.prisma, SYSTEM, organizationId, "Visits")).id;
    keys.read = (await mintTestKey(database.prisma, { organizationId, scopes: ["data_sources:read"] })).token;
    keys.write = (await mintTestKey(database.prisma, { organizationId, scopes: ["records:write"] })).token;
  });
  afterAll(async () => {
    await api?.stop();
  });
  let clock = Date.now() - 3_600_000;
  /** Strictly increasing stamps, in the past (the rows are written directly, not by a pass). */
  const stamp = () => new Date((clock += 1000));
  return {
    get db() {
      return database.prisma;
    },
    get baseUrl() {
      if (!api) throw new Error("the server runs only inside hooks and tests");
      return api.baseUrl;
    },
    get organizationId() {
      return organizationId;
    },
    get formId() {
      return formId;
    },
    keys,
    async mintKey(scopes: string[], options: { rateLimit?: number; rateLimitWindowSeconds?: number } = {}) {
      return (await mintTestKey(database.prisma, { organizationId, scopes, ...options })).token;
    },
    async source(name: string, count: number): Promise<string> {
      const source = await database.prisma.dataSource.create({ data: { organizationId, name, kind: "csv", columns: ["name"] } });
      const rows: SeedRow[] = Array.from({ length: count }, (_, i) => {
        const at = stamp();
        return { externalId: `r${String(i).padStart(3, "0")}`, displayOrder: i, data: { name: `row ${i}` }, createdAt: at, updatedAt: at };
      });
      await insertRows(database.prisma, source.id, rows);
      return source.id;
    },
    /** Changes a row (or revives it) with a new stamp. */
    async update(sourceId: string, externalId: string, data: Prisma.InputJsonObject, displayOrder: number | null = null) {
      await database.prisma.dataSourceRow.update({
        where: { dataSourceId_externalId: { dataSourceId: sourceId, externalId } },
        data: { data, ...(displayOrder === null ? {} : { displayOrder }), updatedAt: stamp(), deletedAt: null },
      });
    },
    async remove(sourceId: string, externalId: string) {
      const at = stamp();
      await database.prisma.dataSourceRow.update({
        where: { dataSourceId_externalId: { dataSourceId: sourceId, externalId } },
        data: { updatedAt: at, deletedAt: at },
      });
    },
    async add(sourceId: string, externalId: string, data: Prisma.InputJsonObject, displayOrder: number) {
      const at = stamp();
      await insertRows(database.prisma, sourceId, [{ externalId, displayOrder, data, createdAt: at, updatedAt: at }]);
    },
    /** The server's live rows as a device should hold them, keyed by external_id. */
    async live(sourceId: string) {
      const rows = await database.prisma.dataSourceRow.findMany({ where: { dataSourceId: sourceId, deletedAt: null } });
      return new Map(rows.map((row) => [row.externalId, { data: row.data, displayOrder: row.displayOrder }]));
    },
  };
}

export type Server = ReturnType<typeof serverUnderTest>;
