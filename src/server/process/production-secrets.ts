import { existsSync } from "node:fs";
import path from "node:path";
import type { Env } from "@/env";
import { AUTH_SECRET_FILE } from "@/server/auth/secret";
import { ENCRYPTION_KEY_FILE } from "@/server/modules/data-sources/credentials/encryption-key";
import { CURSOR_SECRET_FILE } from "@/server/modules/pagination/cursor-secret";

/** The secrets a process would otherwise generate into the data dir: variable, file, what it guards. */
const INSTANCE_SECRETS = [
  { variable: "GROUNDWORK_ENCRYPTION_KEY", file: ENCRYPTION_KEY_FILE, guards: "encrypts every connector credential" },
  { variable: "GROUNDWORK_CURSOR_SECRET", file: CURSOR_SECRET_FILE, guards: "signs pagination cursors" },
  { variable: "NEXTAUTH_SECRET", file: AUTH_SECRET_FILE, guards: "signs dashboard sessions" },
] as const;

export type SecretVariable = (typeof INSTANCE_SECRETS)[number]["variable"];

/**
 * Why a production start must not go on, or null (D395). With NODE_ENV=production and an external
 * DATABASE_URL, a secret that is neither in the environment nor already in the data dir would be
 * generated into this machine's data dir: a second box (or a new one after a disk loss) would
 * generate a different one, and every credential, cursor and session made under the first would
 * stop working. The embedded default is exempt: its database lives in that same data dir.
 * `uses`: the secrets this process would generate (all three for `npm start`; the worker only
 * decrypts credentials).
 */
export function generatedSecretsRefusal(
  config: Env,
  dataDir: string,
  options: { uses?: readonly SecretVariable[]; exists?: (file: string) => boolean } = {},
): string | null {
  if (config.NODE_ENV !== "production" || config.DATABASE_URL === undefined || config.GROUNDWORK_ALLOW_GENERATED_SECRETS === "on") return null;
  const exists = options.exists ?? existsSync;
  const used = INSTANCE_SECRETS.filter(({ variable }) => !options.uses || options.uses.includes(variable));
  const missing = used.filter(({ variable, file }) => config[variable] === undefined && !exists(path.join(dataDir, file)));
  if (missing.length === 0) return null;
  return (
    `NODE_ENV=production with an external DATABASE_URL, but ${missing.map(({ variable }) => variable).join(", ")} ` +
    `${missing.length === 1 ? "is" : "are"} not set and would be generated into ${dataDir}. Set ` +
    missing.map(({ variable, guards }) => `${variable} (${guards})`).join(", ") +
    " in the service's environment, the same on every process and machine (e.g. `openssl rand -base64 32` each; docs/operations.md, Secrets)," +
    " or set GROUNDWORK_ALLOW_GENERATED_SECRETS=on to generate them into the data dir anyway."
  );
}
