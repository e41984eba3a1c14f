import { randomBytes } from "node:crypto";
import path from "node:path";
import { readOrCreateSecretFile } from "@/server/db/secret-file";

export const AUTH_SECRET_FILE = "nextauth.secret";

/**
 * The key that signs and encrypts dashboard sessions (D65): NEXTAUTH_SECRET when set, else
 * `<dataDir>/nextauth.secret`, generated once (mode 0600) and reused, so sessions survive a
 * restart and no two installations share a secret. Never a constant in the code.
 */
export async function loadAuthSecret(dataDir: string, fromEnv: string | undefined): Promise<string> {
  if (fromEnv !== undefined) {
    if (fromEnv.length < 32) throw new Error("NEXTAUTH_SECRET must be at least 32 characters (e.g. `openssl rand -base64 32`).");
    return fromEnv;
  }
  const file = path.join(dataDir, AUTH_SECRET_FILE);
  return readOrCreateSecretFile(file, {
    what: "The session secret file",
    generate: () => randomBytes(32).toString("base64url"),
    parse: (text) => {
      const secret = text.trim();
      if (secret.length < 32) throw new Error(`${file} must hold a secret of at least 32 characters; delete it to make a new one.`);
      return secret;
    },
  });
}
