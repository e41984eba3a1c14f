import fs from "node:fs/promises";
import path from "node:path";
import { API_TYPES_PATH, renderApiTypes } from "./api-types";

// `npx tsx scripts/generate-api-types.ts`: rewrites the typed client's types from the routers.
// Run it after changing any procedure's input, output or meta, and commit the result.

async function main(): Promise<void> {
  const target = path.resolve(API_TYPES_PATH);
  await fs.mkdir(path.dirname(target), { recursive: true });
  await fs.writeFile(target, await renderApiTypes());
  console.log(`wrote ${API_TYPES_PATH}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
