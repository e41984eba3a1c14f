import { describe, expect, it } from "vitest";
import { displayPrefix, generateToken, hasValidChecksum, hashesEqual, hashToken, isWellFormedToken } from "./token";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

describe("API key tokens", () => {
  it("10 000 mints: all well-formed, no duplicates, random characters uniform by χ²", () => {
    const tokens = Array.from({ length: 10_000 }, (_, i) => generateToken(i % 2 ? "live" : "test"));
    for (const token of tokens) expect(token).toMatch(/^gw_(live|test)_[A-Z0-9]{32}$/);
    expect(new Set(tokens).size).toBe(tokens.length);

    const counts = new Map<string, number>(ALPHABET.split("").map((c) => [c, 0]));
    // The 26 random characters; the last 6 are their checksum.
    for (const token of tokens) for (const c of token.slice(-32, -6)) counts.set(c, (counts.get(c) ?? 0) + 1);
    const total = tokens.length * 26;
    const expected = total / ALPHABET.length;
    const chiSquare = [...counts.values()].reduce((sum, observed) => sum + (observed - expected) ** 2 / expected, 0);
    // 35 degrees of freedom: mean 35, sd ≈ 8.4. 90 is ≈ 6.5 sd out (a false alarm ~1e-8), while
    // a `byte % 36` modulo bias alone would push χ² above 500.
    expect(chiSquare).toBeLessThan(90);
    expect(counts.size).toBe(36);
  });

  it("recognises only the exact format", () => {
    const token = generateToken("live");
    expect(isWellFormedToken(token)).toBe(true);
    for (const bad of [
      token.toLowerCase(),
      token.slice(0, -1),
      `${token}A`,
      token.replace("gw_", "xx_"),
      token.replace("_live_", "_prod_"),
      ` ${token}`,
      token.replace(/.$/, "!"),
    ]) {
      expect(isWellFormedToken(bad)).toBe(false);
    }
  });

  it("ends every minted token in a checksum that any one changed character breaks", () => {
    for (let i = 0; i < 200; i++) {
      const token = generateToken(i % 2 ? "live" : "test");
      expect(hasValidChecksum(token)).toBe(true);
      // One character of the 32 replaced by each other character: the typo is caught.
      const at = "gw_live_".length + (i % 32);
      for (const c of ALPHABET) {
        if (c === token[at]) continue;
        expect(hasValidChecksum(`${token.slice(0, at)}${c}${token.slice(at + 1)}`)).toBe(false);
      }
    }
    // The environment is part of what the checksum covers.
    const live = generateToken("live");
    expect(hasValidChecksum(live.replace("_live_", "_test_"))).toBe(false);
    // A made-up key (the bench's unknown key, a key from before checksums) fails it.
    expect(hasValidChecksum("gw_live_00000000000000000000000000000000")).toBe(false);
  });

  it("hashes with SHA-256 and compares in constant time", () => {
    const token = generateToken("test");
    const hash = hashToken(token);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hashesEqual(hash, hashToken(token))).toBe(true);
    expect(hashesEqual(hash, hashToken(generateToken("test")))).toBe(false);
    expect(hashesEqual(hash, "abcd")).toBe(false);
  });

  it("shows a prefix that reveals only 4 secret characters", () => {
    const token = generateToken("live");
    expect(displayPrefix(token)).toBe(token.slice(0, "gw_live_".length + 4));
  });
});
