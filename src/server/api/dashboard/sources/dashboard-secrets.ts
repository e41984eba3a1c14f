import path from "node:path";
import { env } from "@/env";
import { loadEncryptionKey } from "@/server/modules/data-sources/credentials/encryption-key";
import { createSecretBox, type SecretBox } from "@/server/modules/data-sources/credentials/secret-box";

let secrets: Promise<SecretBox> | undefined;

/** The same key the worker seals and opens connector credentials with (<data dir>/encryption.key). */
export function dashboardSecrets(): Promise<SecretBox> {
  secrets ??= loadEncryptionKey(path.resolve(env().GROUNDWORK_DATA_DIR ?? ".data")).then(createSecretBox);
  return secrets;
}
