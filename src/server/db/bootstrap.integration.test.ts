import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterEach, describe, expect, it, vi } from "vitest";
import { resetEnvCache } from "@/env";
import { embeddedServerSettings, prepareDatabase } from "./bootstrap";

const MB = 2 ** 20;

describe("the embedded server's memory (D335)", () => {
  it("is a quarter of the machine's memory, within 128 MB and 1 GB", () => {
    expect(embeddedServerSettings(256 * MB)).toEqual({ shared_buffers: "128MB" });
    expect(embeddedServerSettings(2048 * MB)).toEqual({ shared_buffers: "512MB" });
    expect(embeddedServerSettings(24 * 1024 * MB)).toEqual({ shared_buffers: "1024MB" });
  });

  afterEach(() => {
    vi.unstubAllEnvs();
    resetEnvCache();
  });

  it("is what the embedded server `npm start` prepares runs with", async () => {
    vi.stubEnv("DATABASE_URL", "");
    resetEnvCache();
    const dataDir = await mkdtemp(path.join(os.tmpdir(), "gw-bootstrap-"));
    const database = await prepareDatabase({ dataDir, log: () => undefined });
    try {
      expect(database.embedded).toBe(true);
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      const { rows } = await client.query<{ shared_buffers: string }>("SHOW shared_buffers");
      await client.end();
      const expected = embeddedServerSettings(os.totalmem()).shared_buffers!;
      expect(rows[0]!.shared_buffers).toBe(expected === "1024MB" ? "1GB" : expected);
    } finally {
      await database.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
