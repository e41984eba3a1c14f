import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { capSyncError, describeUrl, MAX_SYNC_ERROR_LENGTH, redactSecrets, redactUrlPasswords } from "./redact";

describe("redactSecrets", () => {
  it("drops the password of any URL in the text", () => {
    expect(redactSecrets("connect to postgres://app:p%40ss@db:5432/x failed")).toBe("connect to postgres://app:***@db:5432/x failed");
    expect(redactSecrets("https://user:tok@host/path and http://other/")).toBe("https://user:***@host/path and http://other/");
  });

  it("removes each given secret, raw or URL-encoded", () => {
    expect(redactSecrets("secret is s3cr3t/+= and s3cr3t%2F%2B%3D", ["s3cr3t/+="])).toBe("secret is *** and ***");
    expect(redactSecrets("abc", [undefined, null, "", "ab"])).toBe("abc");
  });

  it("describeUrl keeps everything but the password", () => {
    expect(describeUrl("postgres://app:hunter22@db:5432/crm?sslmode=require")).toBe("postgres://app:***@db:5432/crm?sslmode=require");
  });
});

/** The former pattern: correct but quadratic; kept here only as the oracle for the scanner. */
const FORMER = /([a-z][a-z0-9+.-]*:\/\/)([^:@/\s]*):[^@\s]*@/gi;

describe("redactUrlPasswords", () => {
  it("answers exactly as the former regex did, on texts built from URL-ish pieces", () => {
    const piece = fc.constantFrom("postgres", "A1", "1", "://", ":", "@", "/", " ", "\n", "u", "p%40", "+.-", "é", "x");
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 40 }).map((parts) => parts.join("")),
        (text) => {
          expect(redactUrlPasswords(text)).toBe(text.replace(FORMER, (_m, scheme: string, user: string) => `${scheme}${user}:***@`));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("is linear by construction: its module holds no regex with a quantifier, so nothing can backtrack", () => {
    const source = readFileSync(fileURLToPath(new URL("./redact.ts", import.meta.url)), "utf8");
    const code = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/\/\/.*$/gm, "");
    const literals = [...code.matchAll(/(?<![\w)\]])\/((?:\\.|\[(?:\\.|[^\]])*\]|[^/\n\\[])+)\/[a-z]*/g)].map((m) => m[1]!);
    expect(literals.length).toBeGreaterThan(0);
    for (const literal of literals) {
      const outsideClasses = literal.replace(/\\./g, "").replace(/\[[^\]]*\]/g, "");
      expect(outsideClasses, literal).not.toMatch(/[*+?{]/);
    }
  });

  it("redacts a 96 KB Postgres-like error in one pass", () => {
    const noise = `detail: ${"relation_name_without_separators ".repeat(3000)}`;
    const text = `connect to postgres://app:hunter22@db:5432/x failed: ${noise}${"a".repeat(1000)}://`;
    expect(text.length).toBeGreaterThan(96_000);
    const redacted = redactUrlPasswords(text);
    expect(redacted).not.toContain("hunter22");
    expect(redacted.length).toBe(text.length - "hunter22".length + 3);
  });
});

describe("capSyncError", () => {
  it("keeps short reasons and cuts long ones to MAX_SYNC_ERROR_LENGTH, saying how much was cut", () => {
    expect(capSyncError("table missing")).toBe("table missing");
    const long = "x".repeat(96_000);
    const capped = capSyncError(long);
    expect(capped.length).toBeLessThanOrEqual(MAX_SYNC_ERROR_LENGTH);
    expect(capped).toMatch(/ … \(\d+ characters cut\)$/);
    expect(Number(/\((\d+) characters/.exec(capped)![1]) + capped.indexOf(" …")).toBe(long.length);
  });

  it("never splits a surrogate pair", () => {
    const capped = capSyncError("🌱".repeat(5000));
    expect(capped).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
  });
});
