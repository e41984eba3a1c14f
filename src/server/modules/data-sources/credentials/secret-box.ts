import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { ENCRYPTION_KEY_BYTES } from "./encryption-key";

/**
 * AES-256-GCM with a fresh 96-bit nonce per message. The context (e.g. the data source id) is
 * bound as associated data, so a ciphertext copied onto another row does not open there.
 * Sealed form: `v1.<nonce>.<tag>.<ciphertext>`, base64url parts.
 */
export interface SecretBox {
  seal(plaintext: string, context: string): string;
  /** Throws SecretBoxError when the key is wrong or the text was altered. */
  open(sealed: string, context: string): string;
}

export class SecretBoxError extends Error {
  override name = "SecretBoxError";
}

const VERSION = "v1";

export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== ENCRYPTION_KEY_BYTES) throw new Error(`the encryption key must be ${ENCRYPTION_KEY_BYTES} bytes`);
  return {
    seal(plaintext, context) {
      const nonce = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, nonce);
      cipher.setAAD(Buffer.from(context, "utf8"));
      const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
      return [VERSION, nonce, cipher.getAuthTag(), ciphertext].map((part) => (typeof part === "string" ? part : part.toString("base64url"))).join(".");
    },
    open(sealed, context) {
      const [version, nonce, tag, ciphertext, ...rest] = sealed.split(".");
      if (version !== VERSION || nonce === undefined || tag === undefined || ciphertext === undefined || rest.length > 0) {
        throw new SecretBoxError("the stored secret is not in a known format");
      }
      try {
        const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(nonce, "base64url"));
        decipher.setAAD(Buffer.from(context, "utf8"));
        decipher.setAuthTag(Buffer.from(tag, "base64url"));
        return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
      } catch {
        throw new SecretBoxError("the stored secret does not open with this instance's encryption key");
      }
    },
  };
}
