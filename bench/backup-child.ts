import { createBackup } from "@/server/modules/backup/create-backup";
import { restoreBackup } from "@/server/modules/backup/restore-backup";

// One backup operation in a process of its own, so its peak RSS is its own (bench/backup-bench.ts):
// `tsx bench/backup-child.ts create|restore DATABASE_URL FILE`; prints one line of JSON.
const [operation, url, file] = process.argv.slice(2) as [string, string, string];
const passphrase = "bench passphrase";
const started = performance.now();
const result =
  operation === "create"
    ? await createBackup({
        databaseUrl: url,
        to: file,
        passphrase,
        secrets: { encryption_key: { base64: Buffer.alloc(32, 1).toString("base64"), from: "environment" } },
      })
    : await restoreBackup({ databaseUrl: url, file, passphrase, migrationsDir: "prisma/migrations" });
const seconds = (performance.now() - started) / 1000;
// maxRSS is in kilobytes: the process's high-water mark, module loading included.
process.stdout.write(
  `${JSON.stringify({ seconds, peakRssMb: process.resourceUsage().maxRSS / 1024, rows: result.rows, bytes: "bytes" in result ? result.bytes : null })}\n`,
);
process.exit(0);
