import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createSecretBox, SecretBoxError } from "./secret-box";
import { openCredentials, sealCredentials } from "./source-credentials";

const box = createSecretBox(randomBytes(32));

describe("the secret box (AES-256-GCM)", () => {
  it("round-trips, and never shows the plaintext in the sealed form", () => {
    const sealed = box.seal("postgres://app:s3cret-pass@db:5432/crm", "data_source:1");
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain("s3cret");
    expect(box.open(sealed, "data_source:1")).toBe("postgres://app:s3cret-pass@db:5432/crm");
  });

  it("uses a fresh nonce each time", () => {
    expect(box.seal("same", "c")).not.toBe(box.seal("same", "c"));
  });

  it("refuses another context, another key, or an altered ciphertext", () => {
    const sealed = box.seal("secret", "data_source:1");
    expect(() => box.open(sealed, "data_source:2")).toThrow(SecretBoxError);
    expect(() => createSecretBox(randomBytes(32)).open(sealed, "data_source:1")).toThrow(SecretBoxError);
    const parts = sealed.split(".");
    parts[3] = Buffer.from("tampered").toString("base64url");
    expect(() => box.open(parts.join("."), "data_source:1")).toThrow(SecretBoxError);
    expect(() => box.open("not-sealed", "data_source:1")).toThrow("not in a known format");
  });

  it("refuses a key that is not 32 bytes", () => {
    expect(() => createSecretBox(randomBytes(16))).toThrow("32 bytes");
  });

  it("binds source credentials to their source", () => {
    const sealed = sealCredentials(box, "source-a", { url: "postgres://u:p@h/db" });
    expect(openCredentials(box, "source-a", sealed)).toEqual({ ok: true, value: { url: "postgres://u:p@h/db" } });
    expect(openCredentials(box, "source-b", sealed)).toEqual({
      ok: false,
      reason: "the stored credentials cannot be read: the stored secret does not open with this instance's encryption key",
    });
    expect(openCredentials(box, "source-a", null)).toEqual({ ok: false, reason: "the source has no stored credentials" });
  });
});
