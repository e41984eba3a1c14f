import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { CLI_OPERATOR } from "@/server/modules/access/acting-principal";
import { useTestDatabase } from "@/test/db";
import { useCustomerDatabase } from "./testing/customer-database";
import { createTableSource, testSecrets } from "./testing/source-fixtures";
import { discoverSavedSource, discoverSource } from "./discover-source";

// Issue 44, item 3 (D493): "Test connection" lists the tables the user may read, then a table's
// columns in order, through the guarded path a pass uses; a wrong password is a clear error
// that never carries the password.

const db = useTestDatabase();
const customer = useCustomerDatabase();
const targets = { policy: { allowPrivate: true }, serviceDatabaseUrl: () => undefined };
const deps = { secrets: testSecrets, targets };

/** A login role with SELECT on some tables only, and its connection fields. */
async function restrictedRole() {
  const suffix = randomBytes(4).toString("hex");
  const role = `disc_${suffix}`;
  const password = `pw-${randomBytes(8).toString("hex")}`;
  await customer.query(`CREATE ROLE ${role} LOGIN PASSWORD '${password}'`);
  await customer.query(`CREATE TABLE readable_${suffix} (zeta text, id int PRIMARY KEY, alpha timestamptz, "Mixed Case" int)`);
  await customer.query(`CREATE TABLE hidden_${suffix} (id int PRIMARY KEY)`);
  await customer.query(`CREATE TABLE partial_${suffix} (code text UNIQUE NOT NULL, secret text)`);
  await customer.query(`GRANT SELECT ON readable_${suffix} TO ${role}`);
  await customer.query(`GRANT SELECT (code) ON partial_${suffix} TO ${role}`);
  const url = new URL(customer.url);
  const fields = { host: url.hostname, port: Number(url.port), database: url.pathname.slice(1), user: role, password, sslmode: null };
  return { suffix, role, password, fields };
}

describe("discovery", () => {
  it("lists only the tables the user may read, then a table's readable columns in table order, with the key suggested", async () => {
    const { suffix, fields } = await restrictedRole();
    const listed = await discoverSource(deps, { credentials: fields });
    expect(listed.ok).toBe(true);
    if (!listed.ok) return;
    const mine = listed.tables.map((t) => t.name).filter((name) => name.endsWith(suffix));
    expect(mine.sort()).toEqual([`public.partial_${suffix}`, `public.readable_${suffix}`]);
    expect(listed.columns).toBeNull();
    expect(listed.check).toBeNull();

    const table = await discoverSource(deps, { credentials: fields, table: `public.readable_${suffix}` });
    expect(table.ok).toBe(true);
    if (!table.ok) return;
    expect(table.columns?.map((c) => c.name)).toEqual(["zeta", "id", "alpha", "Mixed Case"]);
    expect(table.columns?.map((c) => c.type)).toEqual(["text", "integer", "timestamp with time zone", "integer"]);
    expect(table.suggestedKey).toBe("id");
    // With a key, the probe "Test connection" always ran: capture modes, best first.
    expect(table.check?.ok).toBe(true);
    if (table.check?.ok) expect(table.check.captureModes.find((m) => m.supported)?.mode).toBe(table.check.bestCaptureMode);

    // Column-level grants: only the granted column; a unique NOT NULL column is suggested.
    const partial = await discoverSource(deps, { credentials: fields, table: `public.partial_${suffix}` });
    expect(partial.ok && partial.columns?.map((c) => c.name)).toEqual(["code"]);
    expect(partial.ok && partial.suggestedKey).toBe("code");

    const hidden = await discoverSource(deps, { credentials: fields, table: `public.hidden_${suffix}` });
    expect(hidden).toEqual({ ok: false, reason: `the table public.hidden_${suffix} does not exist or the user cannot read it` });
  });

  it("a wrong password is a clear error that does not carry the password", async () => {
    const { fields } = await restrictedRole();
    const wrong = `wrong-${randomBytes(8).toString("hex")}`;
    const outcome = await discoverSource(deps, { credentials: { ...fields, password: wrong } });
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.reason).toMatch(/^Could not connect: password authentication failed for user "disc_[0-9a-f]+" at .+ \(check the user and password/);
    expect(outcome.reason).not.toContain(wrong);
    expect(JSON.stringify(outcome)).not.toContain(wrong);
  });

  it("is refused by the target policy as a pass is, before any contact", async () => {
    const { fields } = await restrictedRole();
    const outcome = await discoverSource(
      { secrets: testSecrets, targets: { policy: { allowPrivate: false }, serviceDatabaseUrl: () => undefined } },
      { credentials: fields },
    );
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.reason).toMatch(/private|loopback|not allowed/i);
  });

  it("a bad field is named", async () => {
    const { fields } = await restrictedRole();
    const outcome = await discoverSource(deps, { credentials: { ...fields, host: "" } });
    expect(outcome).toEqual({ ok: false, reason: expect.stringMatching(/^Invalid settings: credentials.host: give the database server's host/) });
  });

  it("a saved source lists its own table's columns with the stored password; a new host needs the password again", async () => {
    const { suffix, fields } = await restrictedRole();
    const url = new URL(customer.url);
    url.username = fields.user;
    url.password = fields.password;
    const sourceId = await createTableSource(db.prisma, { url: url.toString(), table: `public.readable_${suffix}`, key: "id" });
    const saved = await discoverSavedSource({ db: db.prisma, ...deps }, CLI_OPERATOR, sourceId, {});
    expect(saved.ok && saved.columns?.map((c) => c.name)).toEqual(["zeta", "id", "alpha", "Mixed Case"]);
    await expect(discoverSavedSource({ db: db.prisma, ...deps }, CLI_OPERATOR, sourceId, { host: "127.0.0.2" })).rejects.toMatchObject({ code: "bad_request" });
  });
});
