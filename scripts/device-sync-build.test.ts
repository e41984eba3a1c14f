import fs from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { DEVICE_SYNC_TYPES, renderDeviceSyncTypes } from "./device-sync-build";

describe("packages/device-sync's generated client types", () => {
  it("match the OpenAPI document the routers generate now (run `npm run device-sync:build` if not)", async () => {
    const checkedIn = await fs.readFile(DEVICE_SYNC_TYPES, "utf8");
    expect(checkedIn === (await renderDeviceSyncTypes()), "packages/device-sync/src/generated/api.ts is stale: run npm run device-sync:build").toBe(true);
  });
});
