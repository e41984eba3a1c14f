import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { statusForCode } from "@/server/errors/http-status";
import { CLI_OPERATOR } from "@/server/modules/access/acting-principal";
import { useTestDatabase } from "@/test/db";
import { useCustomerDatabase } from "../testing/customer-database";
import { startFakeCrm, type FakeCrm } from "../testing/fake-crm-server";
import { startFakePostgres, type FakePostgres } from "../testing/fake-postgres-server";
import { createCrmSource, createTableSource, syncNow, testSecrets } from "../testing/source-fixtures";
import { editDataSource, type EditSourceInput } from "./edit-source";

// Issue 41, item 1: a stored secret is only ever sent to the destination it was stored for
// (D360). An edit that moves the destination without the secret is refused before any contact;
// refused and failed edits are audited with their outcome (D361).

const db = useTestDatabase();
const customer = useCustomerDatabase();
const deps = () => ({ db: db.prisma, secrets: testSecrets });
let fake: FakePostgres;
let crm: FakeCrm;
let stranger: FakeCrm;

beforeAll(async () => {
  fake = await startFakePostgres();
  crm = await startFakeCrm();
  stranger = await startFakeCrm();
});
afterAll(async () => {
  await fake?.close();
  await crm?.close();
  await stranger?.close();
});

async function refusal(sourceId: string, edit: EditSourceInput): Promise<{ code: string; message: string; status: number }> {
  const error = await editDataSource(deps(), CLI_OPERATOR, sourceId, edit).then(
    () => expect.unreachable("the edit was saved"),
    (caught: { code: string; message: string }) => caught,
  );
  return { code: error.code, message: error.message, status: statusForCode(error.code as "bad_request") };
}

const refusedEvents = (sourceId: string) =>
  db.prisma.auditEvent.findMany({ where: { targetId: sourceId, action: "data_source.edit_refused" }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });

describe("a Postgres source's stored password never moves", () => {
  it("a new host, port, database or user without the password is a 400 before any contact; with one, only that one is sent", async () => {
    const storedPassword = `stored-${randomBytes(6).toString("hex")}`;
    const role = `r_${randomBytes(4).toString("hex")}`;
    await customer.query(`CREATE ROLE ${role} LOGIN PASSWORD '${storedPassword}'`);
    const table = `t_${randomBytes(4).toString("hex")}`;
    await customer.query(`CREATE TABLE ${table} (id int PRIMARY KEY)`);
    await customer.query(`GRANT SELECT ON ${table} TO ${role}`);
    const url = new URL(customer.url);
    url.username = role;
    url.password = storedPassword;
    const sourceId = await createTableSource(db.prisma, { url: url.toString(), table: `public.${table}`, key: "id" });

    const refusals = [];
    for (const connection of [
      { host: fake.host, port: fake.port },
      { port: fake.port },
      { host: fake.host, port: fake.port, password: "" },
      { database: "elsewhere" },
      { user: "someone_else" },
    ]) {
      refusals.push(await refusal(sourceId, { connection }));
    }
    // (Before D360 the fake was handed the stored password here.)
    expect(fake.passwords).toEqual([]);
    expect(fake.connections).toBe(0);
    for (const refused of refusals) {
      expect(refused).toMatchObject({ code: "bad_request", status: 400 });
      expect(refused.message).toMatch(/^Give the password again to change the .+: the stored password is only ever sent to the destination it was saved for/);
    }

    // With a password given, the new destination gets that one, never the stored one.
    const given = `given-${randomBytes(6).toString("hex")}`;
    const failed = await refusal(sourceId, { connection: { host: fake.host, port: fake.port, password: given } });
    expect(failed.message).toMatch(/^Connection test failed, nothing was saved: .*password authentication failed/);
    expect(failed.message).not.toContain(given);
    expect(fake.passwords).toEqual([given]);
    expect(fake.startups).toEqual([role]);
    // Nothing was saved: the source still reads its own database with its stored password.
    expect((await syncNow(db.prisma, sourceId)).status).toBe("ok");

    // Every refused and failed edit is in the trail with its outcome, no secret in it.
    const events = await refusedEvents(sourceId);
    expect(events.map((event) => (event.metadata as { outcome: string }).outcome).sort()).toEqual(["connection_failed", ...Array(5).fill("refused")]);
    expect(events.map((event) => event.metadata)).toContainEqual(
      expect.objectContaining({
        kind: "postgres_table",
        attempted: ["connection.host", "connection.port"],
        reason: expect.stringMatching(/^Give the password again/),
      }),
    );
    expect(JSON.stringify(events)).not.toMatch(new RegExp(`${storedPassword}|${given}`));
    expect(await db.prisma.auditEvent.count({ where: { targetId: sourceId, action: "data_source.edited" } })).toBe(0);
  });

  it("a source stored without a password has no secret to move: its destination edits are judged as before", async () => {
    const noPassword = new URL(customer.url);
    noPassword.password = "";
    const sourceId = await createTableSource(db.prisma, { url: noPassword.toString(), table: "public.nothing", key: "id" });
    const before = fake.connections;
    const failed = await refusal(sourceId, { connection: { host: fake.host, port: fake.port } });
    expect(failed.message).toMatch(/^Connection test failed, nothing was saved/);
    expect(fake.connections).toBe(before + 1);
  });
});

describe("a CRM source's stored client secret never moves", () => {
  it("a new instance URL or client id without the secret is a 400 and the new token endpoint hears nothing", async () => {
    crm.setRecords("Account", ["Id", "Name"], [{ Id: "001000001", Name: "a" }]);
    stranger.setRecords("Account", ["Id", "Name"], [{ Id: "001000002", Name: "b" }]);
    const sourceId = await createCrmSource(db.prisma, { instanceUrl: crm.url, object: "Account", clientId: crm.clientId, clientSecret: crm.clientSecret });
    const heard = crm.requests.length;

    const refusals = [];
    for (const connection of [{ instanceUrl: stranger.url }, { instanceUrl: stranger.url, clientSecret: "" }, { clientId: "3MVGsomeone-else" }]) {
      refusals.push(await refusal(sourceId, { connection }));
    }
    // (Before D360 the stranger's token endpoint was sent the stored secret here.)
    expect(stranger.requests).toEqual([]);
    expect(crm.requests.length).toBe(heard);
    for (const refused of refusals) {
      expect(refused).toMatchObject({ code: "bad_request", status: 400 });
      expect(refused.message).toMatch(/^Give the client secret again to change the (instanceUrl|clientId).*only ever sent to the destination it was saved for/);
    }

    // With the new destination's own secret, it is tested there and saved; the stored secret was never offered.
    const edited = await editDataSource(deps(), CLI_OPERATOR, sourceId, {
      connection: { instanceUrl: stranger.url, clientId: stranger.clientId, clientSecret: stranger.clientSecret },
    });
    expect(edited.changed).toEqual(expect.arrayContaining(["connection.instanceUrl", "connection.clientSecret"]));
    expect(stranger.requests.filter((request) => request.includes("/oauth2/token")).length).toBeGreaterThan(0);
    expect(crm.requests.length).toBe(heard);
    const events = await refusedEvents(sourceId);
    expect(events.map((event) => (event.metadata as { outcome: string }).outcome)).toEqual(["refused", "refused", "refused"]);
    expect(JSON.stringify(events)).not.toContain(crm.clientSecret);
  });
});
