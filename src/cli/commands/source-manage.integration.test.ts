import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { runMigrations } from "graphile-worker";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliRunner } from "@/test/cli-process";
import { useTestDatabase } from "@/test/db";
import { useCustomerDatabase } from "@/server/modules/data-sources/testing/customer-database";

const database = useTestDatabase();
const customer = useCustomerDatabase();
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "gw-cli-manage-"));
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

const { cli, cliJson } = cliRunner(() => ({ DATABASE_URL: database.url, GROUNDWORK_DATA_DIR: dataDir, GROUNDWORK_ENCRYPTION_KEY: "" }));

/** A failure: non-zero exit, one line on stderr, nothing on stdout. */
async function cliFails(args: string[], message: RegExp): Promise<void> {
  const result = await cli([...args, "--json"]);
  expect(result.code).not.toBe(0);
  expect(result.stdout).toBe("");
  expect(result.stderr.trim().split("\n")).toHaveLength(1);
  expect(result.stderr).toMatch(message);
}

describe("source edit, pause, resume, resync and delete", () => {
  it("work with --json and fail with one clear line", { timeout: 240_000 }, async () => {
    await customer.query(`CREATE TABLE public.things (id int PRIMARY KEY, name text)`);
    await customer.query(`INSERT INTO public.things SELECT g, 't' || g FROM generate_series(1, 30) g`);
    const org = await cliJson<{ id: string }>(["org", "create", "--name", "Cli Manage"]);
    const created = await cliJson<{ id: string }>([
      "source",
      "create",
      "--org",
      org.id,
      "--name",
      "Things",
      "--kind",
      "postgres_table",
      "--url",
      customer.url,
      "--table",
      "public.things",
      "--key",
      "id",
      "--interval",
      "300",
    ]);
    const id = created.id;
    expect(await cliJson(["source", "sync", id])).toMatchObject({ status: "ok", inserted: 30 });

    // test: the edit form's "Test connection", on the stored connection
    const tested = await cliJson<{ ok: boolean; columns: string[]; capture_modes: { mode: string; supported: boolean }[]; best_capture_mode: string }>([
      "source",
      "test",
      id,
    ]);
    expect(tested).toMatchObject({ id, ok: true, columns: ["id", "name"], rows_sampled: 5 });
    expect(tested.capture_modes).toEqual(
      expect.arrayContaining([expect.objectContaining({ mode: "compare", supported: true }), expect.objectContaining({ mode: "xmin", supported: true })]),
    );
    expect(tested.capture_modes.find((m) => m.mode === tested.best_capture_mode)?.supported).toBe(true);
    const csv = await cliJson<{ id: string }>(["source", "create", "--org", org.id, "--name", "Sheet", "--kind", "csv", "--key", "code"]);
    const untestable = await cli(["source", "test", csv.id, "--json"]);
    expect(untestable.code).toBe(1);
    expect(JSON.parse(untestable.stdout)).toEqual({ id: csv.id, ok: false, reason: "CSV sources are uploaded by hand; they have no connection to test" });
    expect(untestable.stderr).toMatch(/^error: connection test failed: CSV sources/);
    await cliFails(["source", "test", "no-such-source"], /^error: No data source no-such-source/);

    // edit
    expect(await cliJson(["source", "edit", id, "--name", "Things v2", "--interval", "off", "--columns", "id"])).toEqual({
      id,
      changed: ["name", "syncIntervalSeconds", "config.columns"],
    });
    expect(await cliJson(["source", "show", id])).toMatchObject({ name: "Things v2", sync_interval_seconds: null, config: { columns: ["id"] } });
    await cliFails(["source", "edit", id, "--key", "name"], /^error: The key column cannot change.*new source/);
    await cliFails(["source", "edit", id, "--password", "not-the-password"], /^error: Connection test failed, nothing was saved/);
    await cliFails(
      ["source", "edit", id, "--port", "6543"],
      /^error: Give the password again to change the port: the stored password is only ever sent to the destination it was saved for/,
    );
    await cliFails(["source", "edit", id], /^error: nothing to change/);

    // pause / resume
    expect(await cliJson(["source", "pause", id])).toMatchObject({ id, paused_at: expect.any(String) });
    await cliFails(["source", "pause", id], /^error: .*already paused/);
    await cliFails(["source", "sync", id], /^error: .*is paused; resume it first/);
    await cliFails(["source", "resync", id], /^error: .*is paused; resume it first/);
    expect(await cliJson(["source", "resume", id])).toMatchObject({ id, pass_queued: false });
    await cliFails(["source", "resume", id], /^error: .*is not paused/);

    // resync: needs the queue (a worker installs it); without it the one line says so.
    await cliFails(["source", "resync", id], /^error: No sync worker has started/);
    await runMigrations({ connectionString: database.url });
    expect(await cliJson(["source", "resync", id])).toMatchObject({ id, requested_at: expect.any(String) });
    const jobs = await database.prisma.$queryRawUnsafe<{ key: string }[]>("SELECT key FROM graphile_worker.jobs WHERE task_identifier = 'sync_source'");
    expect(jobs.map((job) => job.key)).toEqual([`sync_source:resync:${id}`]);
    // With the queue: an unscheduled source's resume queues nothing; a scheduled one's queues its pass.
    await cliJson(["source", "pause", id]);
    expect(await cliJson(["source", "resume", id])).toMatchObject({ id, pass_queued: false, scheduled: false });
    await cliJson(["source", "edit", id, "--interval", "300"]);
    await cliJson(["source", "pause", id]);
    expect(await cliJson(["source", "resume", id])).toMatchObject({ id, pass_queued: true, scheduled: true });
    const queued = await database.prisma.$queryRawUnsafe<{ key: string }[]>(
      "SELECT key FROM graphile_worker.jobs WHERE task_identifier = 'sync_source' ORDER BY key",
    );
    expect(queued.map((job) => job.key)).toEqual([`sync_source:manual:${id}`, `sync_source:resync:${id}`]);

    // delete
    await cliFails(["source", "delete", id], /^error: missing --confirm/);
    await cliFails(["source", "delete", id, "--confirm", "Things"], /^error: To delete this source, type its name exactly/);
    expect(await cliJson(["source", "delete", id, "--confirm", "Things v2"])).toEqual({
      id,
      name: "Things v2",
      kind: "postgres_table",
      live_rows: 30,
      tombstones: 0,
      status: "deleting",
    });
    await cliFails(["source", "show", id], /^error: No data source/);
    const deleteJobs = await database.prisma.$queryRawUnsafe<{ n: number }[]>(
      "SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE task_identifier = 'delete_source'",
    );
    expect(deleteJobs[0]!.n).toBe(1);
    const actions = await database.prisma.auditEvent.findMany({
      where: { targetId: id },
      orderBy: { createdAt: "asc" },
      select: { action: true, actorType: true },
    });
    expect(actions.map((a) => a.action)).toEqual([
      "data_source.created",
      "data_source.edited",
      "data_source.edit_refused",
      "data_source.edit_refused",
      "data_source.edit_refused",
      "data_source.paused",
      "data_source.resumed",
      "data_source.resync_requested",
      "data_source.paused",
      "data_source.resumed",
      "data_source.edited",
      "data_source.paused",
      "data_source.resumed",
      "data_source.deleted",
    ]);
    expect(actions.every((a) => a.actorType === "cli")).toBe(true);
  });
});

describe("source create/edit --capture-mode", () => {
  it("offers only the modes the connection test allows, shows the mode and how the last pass read", { timeout: 240_000 }, async () => {
    await customer.query(`CREATE TABLE public.modes (id int PRIMARY KEY, name text); CREATE VIEW public.modes_view AS SELECT * FROM public.modes`);
    await customer.query(`INSERT INTO public.modes SELECT g, 'm' || g FROM generate_series(1, 5) g`);
    const org = await cliJson<{ id: string }>(["org", "create", "--name", "Cli Modes"]);
    const base = ["source", "create", "--org", org.id, "--kind", "postgres_table", "--url", customer.url, "--key", "id"];
    await cliFails(
      [...base, "--name", "On view", "--table", "public.modes_view", "--capture-mode", "xmin"],
      /^error: Capture mode xmin is not available for this source: .*is a view/,
    );
    await cliFails(
      [...base, "--name", "Bad", "--table", "public.modes", "--capture-mode", "fastest"],
      /^error: --capture-mode must be one of compare, xmin, cdc, modified_since/,
    );
    const { id } = await cliJson<{ id: string }>([...base, "--name", "Modes", "--table", "public.modes", "--capture-mode", "compare"]);
    expect(await cliJson(["source", "show", id])).toMatchObject({ capture_mode: "compare" });

    expect(await cliJson(["source", "edit", id, "--capture-mode", "xmin"])).toEqual({ id, changed: ["captureMode"] });
    const audit = await database.prisma.auditEvent.findFirstOrThrow({ where: { targetId: id, action: "data_source.edited" }, orderBy: { createdAt: "desc" } });
    expect(audit.metadata).toMatchObject({ changed: ["captureMode"], changes: { captureMode: { from: "compare", to: "xmin" } } });
    await cliJson(["source", "sync", id]);
    await customer.query(`UPDATE public.modes SET name = 'changed' WHERE id = 1`);
    expect(await cliJson(["source", "sync", id])).toMatchObject({ status: "ok", updated: 1 });
    expect(await cliJson(["source", "show", id])).toMatchObject({
      capture_mode: "xmin",
      last_run: { capture_mode: "xmin", full_compare: false, fallback_reason: null, customer_rows_read: 1, customer_statements: expect.any(Number) },
    });
  });
});
