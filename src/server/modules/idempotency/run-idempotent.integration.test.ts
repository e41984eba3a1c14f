import { randomUUID } from "node:crypto";
import pg from "pg";
import { beforeAll, describe, expect, it } from "vitest";
import { isAppError } from "@/server/errors/app-error";
import { mintTestKey } from "@/test/api-client";
import { useTestDatabase } from "@/test/db";
import { runIdempotent } from "./run-idempotent";

const database = useTestDatabase();

let org: string;
let form: string;
let apiKeyId: string;

beforeAll(async () => {
  org = (await database.prisma.organization.create({ data: { name: "Domain" } })).id;
  form = (await database.prisma.form.create({ data: { organizationId: org, name: "F" } })).id;
  apiKeyId = (await mintTestKey(database.prisma, { organizationId: org, scopes: ["records:write"] })).id;
});

const request = (key: string) => ({ apiKeyId, key, fingerprint: "fp" });
const writeRecord = (createdBy: string) => async (tx: Parameters<Parameters<typeof runIdempotent>[2]>[0]) => {
  const record = await tx.record.create({ data: { organizationId: org, formId: form, createdBy, fieldValues: {} } });
  return { ok: true, value: record.id, statusCode: 201, body: () => JSON.stringify({ id: record.id }) };
};

describe("runIdempotent", () => {
  it("answers a duplicate that waits longer than the bound with the in-flight 503 (retryable, not 409), then replays once the first is done", async () => {
    const key = randomUUID();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const first = runIdempotent(database.prisma, request(key), async (tx) => {
      const result = await writeRecord("in-flight")(tx);
      await held;
      return result;
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const duplicate = await runIdempotent(database.prisma, request(key), writeRecord("in-flight"), { waitMs: 200 }).catch((e: unknown) => e);
    expect(isAppError(duplicate) && duplicate.code).toBe("service_unavailable");
    expect(isAppError(duplicate) && duplicate.headers).toEqual({ "Retry-After": "1" });
    release();
    expect((await first).kind).toBe("executed");
    const replay = await runIdempotent(database.prisma, request(key), writeRecord("in-flight"));
    expect(replay.kind).toBe("replayed");
    expect(await database.prisma.record.count({ where: { createdBy: "in-flight" } })).toBe(1);
  });

  it("commits the stored entry with the operation's writes: a failed operation leaves neither", async () => {
    const key = randomUUID();
    const failed = await runIdempotent(database.prisma, request(key), async (tx) => {
      await writeRecord("rolled-back")(tx);
      return { ok: false, value: "validation failed", statusCode: 400, body: () => "{}" };
    });
    expect(failed).toEqual({ kind: "failed", value: "validation failed" });
    const thrown = await runIdempotent(database.prisma, request(randomUUID()), async (tx) => {
      await writeRecord("rolled-back")(tx);
      throw new Error("crash after the write");
    }).catch((e: unknown) => e);
    expect(String(thrown)).toContain("crash after the write");
    expect(await database.prisma.record.count({ where: { createdBy: "rolled-back" } })).toBe(0);
    expect(await database.prisma.idempotencyEntry.count({ where: { key } })).toBe(0);
    const retried = await runIdempotent(database.prisma, request(key), writeRecord("rolled-back"));
    expect(retried.kind).toBe("executed");
  });

  it("does not mistake the operation's own lock waits for another request in flight", async () => {
    const key = randomUUID();
    // The operation waits 300 ms on a row lock, longer than the 100 ms bound for duplicates.
    const blocker = new pg.Client({ connectionString: database.url });
    await blocker.connect();
    let result: unknown;
    try {
      await blocker.query("BEGIN");
      await blocker.query("SELECT id FROM forms WHERE id = $1 FOR UPDATE", [form]);
      const pending = runIdempotent(database.prisma, request(key), writeRecord("slow-op"), { waitMs: 100 }).catch((e: unknown) => e);
      await new Promise((resolve) => setTimeout(resolve, 300));
      await blocker.query("COMMIT");
      result = await pending;
    } finally {
      await blocker.end();
    }
    expect(result).toMatchObject({ kind: "executed" });
  });
});
