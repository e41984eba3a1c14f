import { randomBytes } from "node:crypto";
import path from "node:path";
import { env, type Env } from "@/env";
import { readOrCreateSecretFile } from "@/server/db/secret-file";

export const CURSOR_SECRET_FILE = "cursor.key";
const SECRET_BYTES = 32;

// Keyed by the environment it was read from (a new one after resetEnvCache): a process that runs
// the CLI for several data dirs (the tests, D564) signs with each one's key, as the CLI would.
let cached: { from: Env; secret: Buffer } | undefined;

/**
 * The key cursors are signed with (docs/decisions.md, D47): GROUNDWORK_CURSOR_SECRET when set
 * (every instance behind one load balancer must share it), else `<data dir>/cursor.key`, made
 * once with mode 0600 like the encryption key. Losing it only invalidates cursors in flight: a
 * client restarts its walk.
 */
export function cursorSecret(): Buffer {
  const current = env();
  if (cached?.from !== current) cached = { from: current, secret: loadSecret(current) };
  return cached.secret;
}

function loadSecret({ GROUNDWORK_CURSOR_SECRET, GROUNDWORK_DATA_DIR }: Env): Buffer {
  if (GROUNDWORK_CURSOR_SECRET !== undefined) return Buffer.from(GROUNDWORK_CURSOR_SECRET, "utf8");
  const file = path.resolve(GROUNDWORK_DATA_DIR ?? ".data", CURSOR_SECRET_FILE);
  // NOTE: read synchronously, once per process (per environment read), on the first cursor.
  return readOrCreateSecretFile(file, {
    what: "The cursor secret file",
    generate: () => randomBytes(SECRET_BYTES).toString("base64"),
    parse: (text) => {
      const secret = Buffer.from(text.trim(), "base64");
      if (secret.length !== SECRET_BYTES) throw new Error(`${file} must hold ${SECRET_BYTES} bytes as base64; delete it to make a new one.`);
      return secret;
    },
  });
}
