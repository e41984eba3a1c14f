import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const alias = { "@": fileURLToPath(new URL("./src", import.meta.url)) };

// Two projects: `unit` (pure logic, *.test.ts) and `integration` (*.integration.test.ts,
// real Postgres; each test file gets its own database cloned from a migrated template).
export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          include: ["src/**/*.test.ts", "scripts/**/*.test.ts"],
          exclude: ["**/*.integration.test.ts", "node_modules/**"],
          environment: "node",
        },
      },
      {
        resolve: { alias },
        test: {
          name: "integration",
          include: ["src/**/*.integration.test.ts"],
          environment: "node",
          globalSetup: ["src/test/global-setup.ts"],
          // Customer databases and the fake CRM run on loopback: the operator setting that allows it.
          env: { GROUNDWORK_ALLOW_PRIVATE_TARGETS: "on" },
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        // packages/device-sync (D410): its own tests, run by `npm run test:device-sync` after the
        // package is built; those against the real server use the integration project's databases.
        resolve: { alias },
        test: {
          name: "device-sync",
          include: ["packages/device-sync/test/**/*.test.ts"],
          environment: "node",
          globalSetup: ["src/test/global-setup.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
