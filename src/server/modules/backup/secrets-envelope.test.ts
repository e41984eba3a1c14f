import { mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { collectSecrets, openSecrets, sealSecrets, writeSecrets, WrongPassphraseError } from "./secrets-envelope";

const none = { GROUNDWORK_ENCRYPTION_KEY: undefined, GROUNDWORK_CURSOR_SECRET: undefined, NEXTAUTH_SECRET: undefined };

function dataDirWithSecrets(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "gw-secrets-"));
  writeFileSync(path.join(dir, "encryption.key"), `${Buffer.alloc(32, 7).toString("base64")}\n`, { mode: 0o600 });
  writeFileSync(path.join(dir, "cursor.key"), `${Buffer.alloc(32, 9).toString("base64")}\n`, { mode: 0o600 });
  return dir;
}

describe("the sealed secrets of an archive", () => {
  it("open with the passphrase and with no other; a changed byte fails", () => {
    const secrets = collectSecrets(dataDirWithSecrets(), none);
    expect(Object.keys(secrets)).toEqual(["encryption_key", "cursor_key"]);
    const sealed = sealSecrets(secrets, "correct horse");
    expect(sealed.ciphertext).not.toContain(secrets.encryption_key?.base64 ?? "-");
    expect(openSecrets(sealed, "correct horse")).toEqual(secrets);
    expect(() => openSecrets(sealed, "correct horsE")).toThrow(WrongPassphraseError);
    const tampered = { ...sealed, ciphertext: Buffer.from(Buffer.from(sealed.ciphertext, "base64").map((b, i) => (i === 0 ? b ^ 1 : b))).toString("base64") };
    expect(() => openSecrets(tampered, "correct horse")).toThrow(WrongPassphraseError);
  });

  it("take a variable's value when it is set, as the loaders do", () => {
    const secrets = collectSecrets(dataDirWithSecrets(), { ...none, NEXTAUTH_SECRET: "s".repeat(40), GROUNDWORK_ENCRYPTION_KEY: "ab".repeat(32) });
    expect(secrets.session_secret).toEqual({ base64: Buffer.from("s".repeat(40)).toString("base64"), from: "environment" });
    expect(Buffer.from(secrets.encryption_key?.base64 ?? "", "base64")).toEqual(Buffer.from("ab".repeat(32), "hex"));
  });

  it("are written where the environment does not set them, privately, never over a different file", () => {
    const secrets = collectSecrets(dataDirWithSecrets(), none);
    const target = mkdtempSync(path.join(os.tmpdir(), "gw-restore-"));
    expect(writeSecrets(target, secrets, { ...none, GROUNDWORK_CURSOR_SECRET: "c".repeat(32) }, { force: false })).toEqual({
      encryption_key: "written",
      cursor_key: "set_in_environment",
      session_secret: "not_in_archive",
    });
    expect(statSync(path.join(target, "encryption.key")).mode & 0o777).toBe(0o600);
    expect(collectSecrets(target, none).encryption_key).toEqual(secrets.encryption_key);
    expect(writeSecrets(target, secrets, none, { force: false }).encryption_key).toBe("already_there");
    writeFileSync(path.join(target, "encryption.key"), `${Buffer.alloc(32, 1).toString("base64")}\n`);
    expect(writeSecrets(target, secrets, none, { force: false }).encryption_key).toBe("differs");
    expect(writeSecrets(target, secrets, none, { force: true }).encryption_key).toBe("written");
    expect(readFileSync(path.join(target, "encryption.key"), "utf8").trim()).toBe(secrets.encryption_key?.base64);
  });
});
