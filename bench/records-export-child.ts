import { createWriteStream } from "node:fs";
import { once } from "node:events";
import { createPrismaClient } from "@/server/db/client";
import { openRecordsExport } from "@/server/modules/records/export-records";

/**
 * One export in a process of its own, so its peak RSS (VmHWM) is the export's: the CSV goes to
 * /dev/null with backpressure, as a slow HTTP client would pull it. Prints one JSON line.
 * argv: DATABASE_URL ORG_ID FORM_ID
 */
async function main(): Promise<void> {
  const [url, organizationId, formId] = process.argv.slice(2) as [string, string, string];
  const db = createPrismaClient(url);
  const sink = createWriteStream("/dev/null");
  const rssBeforeMb = process.memoryUsage().rss / 1048576;
  const started = performance.now();
  const opened = await openRecordsExport(db, organizationId, { formId });
  let bytes = 0;
  let lines = 0;
  for await (const chunk of opened.chunks) {
    bytes += Buffer.byteLength(chunk);
    for (let i = chunk.indexOf("\r\n"); i !== -1; i = chunk.indexOf("\r\n", i + 2)) lines++;
    if (!sink.write(chunk)) await once(sink, "drain");
  }
  sink.end();
  const seconds = (performance.now() - started) / 1000;
  await db.$disconnect();
  // maxRSS is in KiB: the high-water mark of the whole process, start-up included.
  process.stdout.write(
    `${JSON.stringify({ rows: lines - 1, columns: opened.fields.length + 3, mb: bytes / 1048576, seconds, rssBeforeMb, peakRssMb: process.resourceUsage().maxRSS / 1024 })}\n`,
  );
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
