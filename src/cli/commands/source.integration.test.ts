import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliRunner } from "@/test/cli-process";
import { useTestDatabase } from "@/test/db";
import { useCustomerDatabase } from "@/server/modules/data-sources/testing/customer-database";

const database = useTestDatabase();
const customer = useCustomerDatabase();
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "gw-cli-source-"));
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

const { cli, cliJson } = cliRunner(() => ({ DATABASE_URL: database.url, GROUNDWORK_DATA_DIR: dataDir, GROUNDWORK_ENCRYPTION_KEY: "" }));

describe("source commands", () => {
  it("create, sync, guardrail, approve-deletions and show a Postgres table source, all as JSON", { timeout: 180_000 }, async () => {
    await customer.query(`CREATE TABLE public.customers (id int PRIMARY KEY, name text)`);
    await customer.query(`INSERT INTO public.customers SELECT g, 'c' || g FROM generate_series(1, 10) g`);
    const org = await cliJson<{ id: string }>(["org", "create", "--name", "Acme"]);
    // (The test server's password may be a common word: look for the URL and its userinfo.)
    const userinfo = `${new URL(customer.url).username}:${new URL(customer.url).password}@`;

    const created = await cli([
      "source",
      "create",
      "--org",
      org.id,
      "--name",
      "Customers",
      "--kind",
      "postgres_table",
      "--url",
      customer.url,
      "--table",
      "public.customers",
      "--key",
      "id",
      "--interval",
      "300",
      "--json",
    ]);
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).not.toContain(userinfo);
    const source = JSON.parse(created.stdout) as Record<string, unknown>;
    expect(source).toMatchObject({
      kind: "postgres_table",
      has_credentials: true,
      sync_status: null,
      sync_interval_seconds: 300,
      data_version: 1,
      schema_version: 1,
    });
    expect(source.config).toEqual({ table: "public.customers", keyColumn: "id", orderColumn: null, columns: null });
    const id = source.id as string;
    // At rest the connection URL is ciphertext, under a key generated into the data dir.
    const stored = await database.prisma.dataSource.findUniqueOrThrow({ where: { id } });
    expect(stored.credentialsEncrypted).toMatch(/^v1\./);
    expect(stored.credentialsEncrypted).not.toContain(userinfo);
    expect(JSON.stringify(stored.config)).not.toContain(userinfo);

    expect(await cliJson(["source", "sync", id])).toMatchObject({
      id,
      status: "ok",
      error: null,
      inserted: 10,
      updated: 0,
      tombstoned: 0,
      revived: 0,
      declined: 0,
    });

    await customer.query(`DELETE FROM public.customers WHERE id <= 6`);
    const declined = await cli(["source", "sync", id]);
    expect(declined.code).toBe(0);
    expect(declined.stdout).toMatch(/Needs attention: .*6 deletions declined/);

    const shown = await cliJson(["source", "show", id]);
    expect(shown).toMatchObject({
      sync_status: "needs_attention",
      sync_error: null,
      declined_deletions: 6,
      deletions_approved_at: null,
      live_rows: 10,
      tombstones: 0,
    });
    for (const field of ["sync_status", "sync_error", "last_synced_at", "updated_at", "data_version", "schema_version"]) expect(shown).toHaveProperty(field);
    expect(shown.last_run).toMatchObject({ status: "needs_attention", declined: 6, trigger: "cli" });

    // Every held row, by cursor and by search (D465): the same domain function as the review panel.
    const first = await cliJson<{ items: { external_id: string }[]; next_cursor: string | null; matching: number }>([
      "source",
      "held-rows",
      id,
      "--limit",
      "4",
    ]);
    expect(first).toMatchObject({ matching: 6 });
    expect(first.items.map((r) => r.external_id)).toEqual(["1", "2", "3", "4"]);
    const rest = await cliJson<{ items: { external_id: string }[]; next_cursor: string | null }>([
      "source",
      "held-rows",
      id,
      "--limit",
      "4",
      "--cursor",
      first.next_cursor!,
    ]);
    expect(rest).toMatchObject({ next_cursor: null });
    expect(rest.items.map((r) => r.external_id)).toEqual(["5", "6"]);
    expect(await cliJson(["source", "held-rows", id, "--search", "6"])).toMatchObject({ matching: 1, items: [{ external_id: "6" }] });

    expect(await cliJson(["source", "approve-deletions", id])).toMatchObject({ id, approved_deletions: 6 });
    expect(await cliJson(["source", "sync", id])).toMatchObject({ status: "ok", tombstoned: 6 });
    expect(await cliJson(["source", "show", id])).toMatchObject({ sync_status: "ok", declined_deletions: 0, live_rows: 4, tombstones: 6 });

    // A failing pass prints its result and exits non-zero with one error line.
    await database.prisma.dataSource.update({ where: { id }, data: { config: { table: "public.gone", keyColumn: "id" } } });
    const failed = await cli(["source", "sync", id, "--json"]);
    expect(failed.code).not.toBe(0);
    expect(JSON.parse(failed.stdout)).toMatchObject({ status: "error", error: expect.stringContaining("public.gone does not exist") });
    expect(failed.stderr).toMatch(/^error: sync failed: /m);
  });

  it("create and upload a CSV source; a malformed file changes nothing and names the line", { timeout: 120_000 }, async () => {
    const org = await cliJson<{ id: string }>(["org", "create", "--name", "Shop"]);
    const { id } = await cliJson<{ id: string }>(["source", "create", "--org", org.id, "--name", "Prices", "--kind", "csv", "--key", "sku"]);
    const good = path.join(dataDir, "prices.csv");
    await writeFile(good, "sku,price\nA,1\nB,2\n");
    expect(await cliJson(["source", "upload", id, good])).toEqual({
      id,
      dry_run: false,
      rows: 2,
      data_version: 2,
      schema_version: 1,
      columns: ["sku", "price"],
      inserted: 2,
      updated: 0,
      tombstoned: 0,
      revived: 0,
      unchanged: 0,
    });

    // --dry-run (D496): the upload's counts against the live rows; nothing changes.
    const next = path.join(dataDir, "prices-next.csv");
    await writeFile(next, "sku,price\nA,1\nB,3\nC,4\nD,5\n");
    expect(await cliJson(["source", "upload", id, next, "--dry-run"])).toMatchObject({
      id,
      dry_run: true,
      rows: 4,
      data_version: 2,
      inserted: 2,
      updated: 1,
      tombstoned: 0,
      unchanged: 1,
    });
    const human = await cli(["source", "upload", id, next, "--dry-run"]);
    expect(human.stdout).toMatch(/^Dry run, nothing changed: uploading these 4 rows would make 2 new, 1 changed, 0 removed, 0 back, 1 unchanged\.$/m);
    expect(await cliJson(["source", "show", id])).toMatchObject({ data_version: 2, live_rows: 2 });

    const bad = path.join(dataDir, "bad.csv");
    await writeFile(bad, "sku,price\nC,3\nD\n");
    const failed = await cli(["source", "upload", id, bad]);
    expect(failed.code).not.toBe(0);
    expect(failed.stderr).toMatch(/^error: Invalid CSV: line 3: the row has 1 fields but the header has 2\. Nothing was changed\.$/m);
    expect(await cliJson(["source", "show", id])).toMatchObject({ data_version: 2, live_rows: 2 });
    expect((await cli(["source", "sync", id])).stderr).toMatch(/CSV source; it changes only by upload/);
  });

  it("creates a CRM object source without ever printing the client secret", { timeout: 60_000 }, async () => {
    const org = await cliJson<{ id: string }>(["org", "create", "--name", "Sales"]);
    const result = await cli([
      "source",
      "create",
      "--org",
      org.id,
      "--name",
      "Accounts",
      "--kind",
      "crm_object",
      "--instance-url",
      "https://203.0.113.10/",
      "--object",
      "Account",
      "--client-id",
      "3MVG9abc",
      "--client-secret",
      "very-secret-value",
      "--fields",
      "Name,Industry",
      "--json",
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).not.toContain("very-secret-value");
    expect(JSON.parse(result.stdout)).toMatchObject({
      kind: "crm_object",
      has_credentials: true,
      config: { instanceUrl: "https://203.0.113.10", object: "Account", fields: ["Name", "Industry"], apiVersion: "v60.0" },
    });
    const invalid = await cli([
      "source",
      "create",
      "--org",
      org.id,
      "--name",
      "X",
      "--kind",
      "crm_object",
      "--instance-url",
      "https://x.example",
      "--object",
      "Account; DROP",
      "--client-id",
      "a",
      "--client-secret",
      "b",
    ]);
    expect(invalid.code).not.toBe(0);
    expect(invalid.stderr).toMatch(/^error: Invalid data source\. config\.object: must be an API name/m);
  });

  it("refuses connector targets that bypass the rules, naming the refused part, and stores nothing", { timeout: 120_000 }, async () => {
    const org = await cliJson<{ id: string }>(["org", "create", "--name", "Targets"]);
    const strict = { GROUNDWORK_ALLOW_PRIVATE_TARGETS: "off" };
    const table = ["--table", "public.t", "--key", "id"];
    const cases: [string[], RegExp][] = [
      [
        ["--kind", "postgres_table", "--url", "postgres://u:p@203.0.113.5/shop?%73slcert=/etc/passwd", ...table],
        /credentials\.url: parameter sslcert is not allowed/,
      ],
      [
        ["--kind", "postgres_table", "--url", "postgres://u:p@[::ffff:127.0.0.1]:5432/shop", ...table],
        /credentials\.url: the host ::ffff:7f00:1 is a loopback address/,
      ],
      [
        ["--kind", "postgres_table", "--url", "postgres://u:p@%2Fvar%2Frun%2Fpostgresql/shop", ...table],
        /credentials\.url: the host \/var\/run\/postgresql is a Unix socket/,
      ],
      [
        ["--kind", "crm_object", "--instance-url", "http://127.0.0.1:8080", "--object", "Account", "--client-id", "a", "--client-secret", "b"],
        /config\.instanceUrl: the instance URL must use https/,
      ],
    ];
    for (const [args, message] of cases) {
      const result = await cli(["source", "create", "--org", org.id, "--name", "X", ...args], strict);
      expect(result.code, args.join(" ")).toBe(1);
      expect(result.stderr).toMatch(new RegExp(`^error: Invalid data source\\. ${message.source}`));
    }
    expect(await database.prisma.dataSource.count({ where: { organizationId: org.id } })).toBe(0);
  });
});
