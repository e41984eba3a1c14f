import { describe, expect, it } from "vitest";
import { checkPostgresTarget, parsePostgresUrl } from "./postgres-target";
import type { TargetPolicy } from "@/server/modules/outbound/target-policy";

const reason = (url: string) => {
  const parsed = parsePostgresUrl(url);
  return parsed.ok ? null : parsed.reason;
};

describe("a tenant's Postgres URL", () => {
  it("becomes an allow-listed target: decoded user and password, default port, database defaulting to the user", () => {
    expect(parsePostgresUrl("postgresql://app%40acme:p%40ss%2Fw@db.example.com/shop%20db?sslmode=verify-full")).toEqual({
      ok: true,
      value: { host: "db.example.com", port: 5432, database: "shop db", user: "app@acme", password: "p@ss/w", sslmode: "verify-full" },
    });
    expect(parsePostgresUrl("postgres://reader@[2001:db8::5]:6543")).toMatchObject({
      ok: true,
      value: { host: "2001:db8::5", port: 6543, database: "reader", password: null, sslmode: null },
    });
  });

  it("without a password has none (null), never one to be filled in from elsewhere", () => {
    expect(parsePostgresUrl("postgres://reader@db.example.com/shop")).toMatchObject({ ok: true, value: { password: null } });
    expect(parsePostgresUrl("postgres://reader:@db.example.com/shop")).toMatchObject({ ok: true, value: { password: null } });
  });

  it("is refused without a host or a user, naming what is missing", () => {
    expect(reason("postgres:///shop")).toMatch(/names no host/);
    expect(reason("postgres://reader@/shop")).toMatch(/names no host/);
    expect(reason("postgres://db.example.com/shop")).toMatch(/names no user/);
  });

  it("is refused when it names a Unix socket, several hosts or an unknown sslmode", () => {
    expect(reason("postgres://u@%2Fvar%2Frun%2Fpostgresql/shop")).toBe("the host /var/run/postgresql is a Unix socket; only TCP hosts are allowed");
    expect(reason("postgres://u@%2ftmp:5432/shop")).toMatch(/Unix socket/);
    expect(reason("postgres://u@h1,h2/shop")).toMatch(/is not a host name or IP address/);
    expect(reason("postgres://u@h/shop?sslmode=allow")).toMatch(/^parameter sslmode must be one of/);
    expect(reason("mysql://u@h/shop")).toMatch(/postgres:\/\//);
    expect(reason("postgres://u@h:99999/shop")).toMatch(/not valid/);
  });
});

describe("checking a target's addresses", () => {
  const target = (host: string, port = 5432, database = "shop") => ({ host, port, database, user: "u", password: null, sslmode: null });
  const dns =
    (answers: Record<string, string[]>): TargetPolicy["resolve"] =>
    async (host) =>
      answers[host] ?? [];

  it("refuses a name when any one of its addresses is private, naming it", async () => {
    const policy = { allowPrivate: false, resolve: dns({ "db.example.com": ["93.184.216.34", "10.0.0.7"] }) };
    expect(await checkPostgresTarget(target("db.example.com"), policy, undefined)).toEqual({
      ok: false,
      reason: "the host db.example.com (10.0.0.7) is a private address; the operator has not allowed private targets (GROUNDWORK_ALLOW_PRIVATE_TARGETS)",
    });
  });

  it("returns the checked address to connect to", async () => {
    const policy = { allowPrivate: false, resolve: dns({ "db.example.com": ["93.184.216.34"] }) };
    expect(await checkPostgresTarget(target("db.example.com"), policy, undefined)).toEqual({ ok: true, value: "93.184.216.34" });
  });

  it("refuses the service's own database, by any name of the same server, when private targets are allowed", async () => {
    const policy = { allowPrivate: true, resolve: dns({ localhost: ["::1", "127.0.0.1"], "db.internal": ["10.0.0.9"] }) };
    const own = "postgres://postgres:secret@127.0.0.1:5433/groundwork";
    for (const host of ["127.0.0.1", "localhost", "::1", "::ffff:127.0.0.1", "0.0.0.0", "127.0.0.2"]) {
      const checked = await checkPostgresTarget(target(host, 5433, "groundwork"), policy, own);
      expect(checked, host).toMatchObject({ ok: false, reason: expect.stringMatching(/is this service's own database/) });
    }
    expect((await checkPostgresTarget(target("localhost", 5433, "customers"), policy, own)).ok).toBe(true);
    expect((await checkPostgresTarget(target("localhost", 5432, "groundwork"), policy, own)).ok).toBe(true);
    const remote = "postgres://app:secret@db.internal/groundwork";
    expect(await checkPostgresTarget(target("10.0.0.9", 5432, "groundwork"), policy, remote)).toMatchObject({ ok: false });
  });
});
