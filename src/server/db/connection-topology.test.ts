import { describe, expect, it } from "vitest";
import { withLocalTimeout } from "./client";
import { ConnectionTopologyError, planConnections, type Endpoint } from "./connection-topology";

const SET = "; SET LOCAL statement_timeout = 5000";
const postgres: Endpoint = { kind: "postgres" };
const bouncer: Endpoint = { kind: "pgbouncer", poolMode: "transaction" };
const probeBy = (byUrl: Record<string, Endpoint>) => async (url: string) => byUrl[url] ?? postgres;

describe("withLocalTimeout (the statement timeout behind a transaction pooler, D400)", () => {
  it("rides on a BEGIN, as a string or as Prisma's query config", () => {
    expect(withLocalTimeout("BEGIN", SET)).toBe(`BEGIN${SET}`);
    expect(withLocalTimeout({ text: "BEGIN", values: [], rowMode: "array" }, SET)).toEqual({ text: `BEGIN${SET}`, values: [], rowMode: "array" });
    expect(withLocalTimeout("BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY", SET)).toBe(`BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY${SET}`);
  });

  it("leaves every other statement, a parameterised one and a multi-statement one alone", () => {
    expect(withLocalTimeout("SELECT 1", SET)).toBe("SELECT 1");
    expect(withLocalTimeout({ text: "BEGIN", values: [1] }, SET)).toEqual({ text: "BEGIN", values: [1] });
    expect(withLocalTimeout("BEGIN; SET LOCAL work_mem = '1MB'", SET)).toBe("BEGIN; SET LOCAL work_mem = '1MB'");
    expect(withLocalTimeout({ text: "BEGINNING" }, SET)).toEqual({ text: "BEGINNING" });
  });
});

describe("planConnections (D400)", () => {
  it("runs everything on DATABASE_URL when it is PostgreSQL and nothing else is said", async () => {
    expect(await planConnections({ url: "postgres://db/app", probe: probeBy({}) })).toEqual({
      url: "postgres://db/app",
      directUrl: "postgres://db/app",
      poolMode: "session",
    });
  });

  it("refuses a pooler on DATABASE_URL without a direct URL beside it", async () => {
    const plan = planConnections({ url: "postgres://pool/app", probe: probeBy({ "postgres://pool/app": bouncer }) });
    await expect(plan).rejects.toThrow(ConnectionTopologyError);
    await expect(plan).rejects.toThrow(/DIRECT_DATABASE_URL is not set/);
  });

  it("refuses a pooler on DIRECT_DATABASE_URL", async () => {
    const plan = planConnections({ url: "postgres://db/app", directUrl: "postgres://pool/app", probe: probeBy({ "postgres://pool/app": bouncer }) });
    await expect(plan).rejects.toThrow(/DIRECT_DATABASE_URL points at PgBouncer/);
  });

  it("refuses a statement-mode pooler", async () => {
    const probe = probeBy({ "postgres://pool/app": { kind: "pgbouncer", poolMode: "statement" } });
    await expect(planConnections({ url: "postgres://pool/app", directUrl: "postgres://db/app", probe })).rejects.toThrow(/statement mode/);
  });

  it("takes a declared session mode at its word (no server check)", async () => {
    const plan = await planConnections({
      url: "postgres://pool/app",
      directUrl: "postgres://db/app",
      declaredPoolMode: "session",
      probe: probeBy({ "postgres://pool/app": bouncer }),
    });
    expect(plan).toEqual({ url: "postgres://pool/app", directUrl: "postgres://db/app", poolMode: "session" });
  });
});
