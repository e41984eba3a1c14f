import { randomBytes } from "node:crypto";
import { beforeAll } from "vitest";
import { createTestHandler, mintTestKey } from "@/test/api-client";
import { useTestDatabase } from "@/test/db";
import { createSecretBox } from "@/server/modules/data-sources/credentials/secret-box";
import { useCustomerDatabase } from "@/server/modules/data-sources/testing/customer-database";
import { createRowsApi } from "../rows-api";
import type { SimulationDeps } from "../run-scenario";

/**
 * The simulator inside vitest: the file's own database behind the production /api/v1 handler
 * (in-process) and a customer database. Read `deps()` inside hooks and tests.
 */
export function simulationHarness(): { deps: () => SimulationDeps; db: ReturnType<typeof useTestDatabase> } {
  const db = useTestDatabase();
  const customer = useCustomerDatabase();
  let deps: SimulationDeps | undefined;
  beforeAll(async () => {
    const key = await mintTestKey(db.prisma, { organizationId: null, scopes: ["data_sources:read"], rateLimit: 1_000_000 });
    const handler = createTestHandler(() => db.prisma);
    deps = {
      db: db.prisma,
      customer,
      customerUrl: customer.url,
      secrets: createSecretBox(randomBytes(32)),
      api: createRowsApi(handler, "http://localhost", key.token),
      library: { send: handler, baseUrl: "http://localhost/api/v1", token: key.token },
    };
  });
  return {
    db,
    deps: () => {
      if (!deps) throw new Error("simulationHarness(): use it inside hooks and tests");
      return deps;
    },
  };
}
