import { runHostileBodiesBench } from "./hostile-bodies";
import { runSyncMemoryBench } from "./sync-memory";

/**
 * `npm run bench`: every benchmark, one after the other. Results are printed and kept under
 * bench/results/ (not committed).
 */
async function main(): Promise<void> {
  await runSyncMemoryBench();
  await runHostileBodiesBench();
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`benchmark failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
