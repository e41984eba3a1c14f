import fs from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { API_TYPES_PATH, renderApiTypes } from "./api-types";

const repoRoot = fileURLToPath(new URL("..", import.meta.url));

describe("the typed client's generated types", () => {
  it("match what the routers generate now (run `npx tsx scripts/generate-api-types.ts` if not)", async () => {
    const checkedIn = await fs.readFile(path.join(repoRoot, API_TYPES_PATH), "utf8");
    const fresh = await renderApiTypes();
    // NOTE: compared as a whole, not by snapshot: a stale file must fail here, not be rewritten.
    expect(checkedIn === fresh, `${API_TYPES_PATH} is stale: run npx tsx scripts/generate-api-types.ts`).toBe(true);
  });

  it("declare every REST operation the router exposes", async () => {
    const fresh = await renderApiTypes();
    for (const operation of ["records-list", "records-create", "dataSourceRows-list", "organizations-list"]) {
      expect(fresh).toContain(`"${operation}": {`);
    }
    expect(fresh).toContain('"Idempotency-Key"?: string;');
  });
});
