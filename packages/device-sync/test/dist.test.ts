import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// `npm run test:device-sync` builds the package first: what an app installs is dist/, so it is checked too.
const root = path.resolve(import.meta.dirname, "..");
const manifest = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { exports: Record<string, { types: string; import: string }> };

describe("the built package", () => {
  it("has an ESM module and type declarations for every export, and imports nothing of the server", async () => {
    for (const [subpath, target] of Object.entries(manifest.exports).filter(([, value]) => typeof value === "object")) {
      expect(existsSync(path.join(root, target.types)), `${subpath} types`).toBe(true);
      expect(existsSync(path.join(root, target.import)), `${subpath} module`).toBe(true);
    }
    const main = (await import(path.join(root, "dist/index.js"))) as Record<string, unknown>;
    for (const name of [
      "createDeviceSync",
      "memoryStore",
      "submitRecord",
      "UnauthorizedError",
      "ForbiddenError",
      "SourceGoneError",
      "UnavailableError",
      "StaleCursorError",
    ]) {
      expect(typeof main[name], name).toBe("function");
    }
    const sqlite = (await import(path.join(root, "dist/sqlite.js"))) as Record<string, unknown>;
    expect(typeof sqlite.sqliteStore).toBe("function");
    const built = ["index", "sync", "client", "store", "submit", "retry", "errors", "canonical", "sqlite"].map((file) =>
      readFileSync(path.join(root, "dist", `${file}.js`), "utf8"),
    );
    for (const source of built) expect(source).not.toMatch(/from "(@\/|\.\.\/\.\.\/|node:(?!module))/);
  });
});
