import { env } from "@/env";
import { loadEncryptionKey } from "@/server/modules/data-sources/credentials/encryption-key";
import { createSecretBox, type SecretBox } from "@/server/modules/data-sources/credentials/secret-box";

let secrets: Promise<SecretBox> | undefined;

/**
 * The same key the worker seals and opens connector credentials with (<data dir>/encryption.key).
 * NOTE (D491): the data directory goes to loadEncryptionKey as configured, relative paths staying
 * relative to the working directory (as the file system reads them). A `path.resolve()` of it here
 * was the one file-system path in the dashboard's bundle that Turbopack could not scope: it traced
 * the whole project into the server output and printed a 35-line warning at every build.
 */
export function dashboardSecrets(): Promise<SecretBox> {
  secrets ??= loadEncryptionKey(env().GROUNDWORK_DATA_DIR ?? ".data").then(createSecretBox);
  return secrets;
}
