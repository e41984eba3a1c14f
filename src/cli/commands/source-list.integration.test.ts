import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliRunner } from "@/test/cli-process";
import { useTestDatabase } from "@/test/db";
import { CLI_OPERATOR } from "@/server/modules/access/acting-principal";
import { createCsvSource } from "@/server/modules/data-sources/create-csv-source";
import { createManagedSource } from "@/server/modules/data-sources/create-managed-source";
import { useCustomerDatabase } from "@/server/modules/data-sources/testing/customer-database";
import { createTestOrganization, syncNow, testSecrets } from "@/server/modules/data-sources/testing/source-fixtures";

const database = useTestDatabase();
const customer = useCustomerDatabase();
let dataDir: string;
let orgA: string;
let orgB: string;

const { cli } = cliRunner(() => ({ DATABASE_URL: database.url, GROUNDWORK_DATA_DIR: dataDir, GROUNDWORK_ENCRYPTION_KEY: "" }));

async function listed(args: string[]): Promise<Array<Record<string, unknown>>> {
  const result = await cli(["source", "list", ...args, "--json"]);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as Array<Record<string, unknown>>;
}

async function tableSource(organizationId: string, name: string, rows: number): Promise<string> {
  await customer.query(`CREATE TABLE public.${name} (id int PRIMARY KEY, label text)`);
  await customer.query(`INSERT INTO public.${name} SELECT g, 'l' || g FROM generate_series(1, ${rows}) g`);
  const { id } = await createManagedSource(db(), testSecrets, CLI_OPERATOR, {
    kind: "postgres_table",
    organizationId,
    name,
    syncIntervalSeconds: null,
    config: { table: `public.${name}`, keyColumn: "id" },
    credentials: { url: customer.url },
  });
  expect((await syncNow(db(), id)).status).toBe("ok");
  return id;
}
const db = () => database.prisma;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "gw-cli-list-"));
  orgA = await createTestOrganization(db());
  orgB = await createTestOrganization(db());
  const guarded = await tableSource(orgA, "guarded", 10);
  await customer.query(`DELETE FROM public.guarded WHERE id <= 6`);
  expect((await syncNow(db(), guarded)).status).toBe("needs_attention");
  const broken = await tableSource(orgA, "broken", 2);
  await customer.query(`DROP TABLE public.broken`);
  expect((await syncNow(db(), broken)).status).toBe("error");
  await createCsvSource(db(), CLI_OPERATOR, { organizationId: orgA, name: "uploads" });
  await tableSource(orgB, "healthy", 3);
}, 120_000);
afterAll(() => rm(dataDir, { recursive: true, force: true }));

describe("source list", () => {
  it("lists every source with its status, and filters by status and organization", { timeout: 120_000 }, async () => {
    const all = await listed([]);
    expect(all.map((item) => [item.name, item.status])).toEqual([
      ["broken", "error"],
      ["guarded", "needs_attention"],
      ["healthy", "ok"],
      ["uploads", "never_synced"],
    ]);
    expect(all.find((item) => item.name === "guarded")).toMatchObject({
      sync_status: "needs_attention",
      sync_error: null,
      declined_deletions: 6,
      live_rows: 10,
      tombstones: 0,
      organization_id: orgA,
    });

    expect((await listed(["--status", "needs_attention"])).map((item) => item.name)).toEqual(["guarded"]);
    expect((await listed(["--status", "ok", "--org", orgB])).map((item) => item.name)).toEqual(["healthy"]);
    expect(await listed(["--status", "ok", "--org", orgA])).toEqual([]);

    const human = await cli(["source", "list", "--status", "error,needs_attention", "--sort", "since"]);
    expect(human.code, human.stderr).toBe(0);
    const lines = human.stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^ID\s+ORGANIZATION\s+NAME\s+KIND\s+STATUS/);
    expect(lines.slice(1).map((line) => line.split(/\s{2,}/)[2])).toEqual(["guarded", "broken"]);
    expect(human.stdout).toMatch(/needs_attention \(6 deletions declined\)/);
    expect(human.stdout).toMatch(/error .*public\.broken does not exist/);
  });

  it("searches by name, filters by kind and sorts like the dashboard's table (D486)", { timeout: 60_000 }, async () => {
    expect((await listed(["--search", "AR"])).map((item) => item.name)).toEqual(["guarded"]);
    expect(await listed(["--search", "%"])).toEqual([]);
    expect((await listed(["--kind", "csv"])).map((item) => item.name)).toEqual(["uploads"]);
    expect((await listed(["--kind", "postgres_table", "--sort=-name"])).map((item) => item.name)).toEqual(["healthy", "guarded", "broken"]);
    expect((await cli(["source", "list", "--kind", "excel"])).code).toBe(2);
  });

  it("refuses an unknown status or organization in one line", { timeout: 60_000 }, async () => {
    const bad = await cli(["source", "list", "--status", "broken"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^error: --status must be one or more of ok, needs_attention, error, never_synced, stale$/m);
    const missing = await cli(["source", "list", "--org", "no-such-org"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^error: No organization no-such-org\.$/m);
  });

  it("creates managed sources on the default schedule unless --interval off", { timeout: 60_000 }, async () => {
    await customer.query(`CREATE TABLE public.scheduled (id int PRIMARY KEY)`);
    const create = (extra: string[]) =>
      cli([
        "source",
        "create",
        "--org",
        orgB,
        "--name",
        "S",
        "--kind",
        "postgres_table",
        "--url",
        customer.url,
        "--table",
        "public.scheduled",
        "--key",
        "id",
        ...extra,
        "--json",
      ]);
    const scheduled = await create([]);
    expect(scheduled.code, scheduled.stderr).toBe(0);
    expect(JSON.parse(scheduled.stdout)).toMatchObject({ sync_interval_seconds: 900 });
    const manual = await create(["--interval", "off"]);
    expect(JSON.parse(manual.stdout)).toMatchObject({ sync_interval_seconds: null });
  });
});
