import { failure, success, type Result } from "@/server/modules/outbound/result";
import { SecretBoxError, type SecretBox } from "./secret-box";

/** Binds the ciphertext to its row: credentials copied onto another source do not open. */
function contextOf(sourceId: string): string {
  return `data_source:${sourceId}`;
}

export function sealCredentials(box: SecretBox, sourceId: string, credentials: object): string {
  return box.seal(JSON.stringify(credentials), contextOf(sourceId));
}

/** The decrypted credentials as JSON, or a readable reason (wrong key, missing, altered). */
export function openCredentials(box: SecretBox, sourceId: string, sealed: string | null): Result<unknown> {
  if (sealed === null) return failure("the source has no stored credentials");
  try {
    return success(JSON.parse(box.open(sealed, contextOf(sourceId))) as unknown);
  } catch (error) {
    if (error instanceof SecretBoxError) return failure(`the stored credentials cannot be read: ${error.message}`);
    throw error;
  }
}
