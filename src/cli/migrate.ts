import path from "node:path";
import { env } from "@/env";
import { prepareDatabase } from "@/server/db/bootstrap";

/**
 * `npm run db:migrate`: applies pending migrations to DATABASE_URL, or to the embedded database
 * (which it starts, and leaves stopped unless another process uses it). `npm start` does the same
 * at boot; this is for deployments that migrate as a separate step.
 */
async function main(): Promise<void> {
  const say = (message: string) => process.stdout.write(`${message}\n`);
  const dataDir = path.resolve(env().GROUNDWORK_DATA_DIR ?? ".data");
  const database = await prepareDatabase({ dataDir: path.join(dataDir, "postgres"), log: say });
  await database.stop();
  say(`Migrations applied (${database.embedded ? "embedded Postgres" : "DATABASE_URL"}).`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`error: ${(error instanceof Error ? error.message : String(error)).split("\n")[0]}\n`);
    process.exit(1);
  },
);
