import { afterAll, beforeAll } from "vitest";
import { createPostgresSink } from "@/server/modules/request-log/postgres-sink";
import { createBufferedWriter, type BufferedWriter } from "@/server/modules/request-log/writer";
import type { TestDatabase } from "./db";

/**
 * A request log writer over a test file's database, for the dashboard's route handlers (D561).
 * Their default, the process's writer, reaches for DATABASE_URL, which a test process has not:
 * each batch and its hourly maintenance failed, and logged or threw, while the file ran.
 * Call at file level after useTestDatabase(); read `writer` inside tests.
 */
export function useTestRequestLog(database: TestDatabase): { readonly writer: BufferedWriter } {
  let writer: BufferedWriter | undefined;
  beforeAll(() => {
    writer = createBufferedWriter(createPostgresSink(() => database.prisma));
  });
  afterAll(async () => {
    await writer?.close();
  });
  return {
    get writer() {
      if (!writer) throw new Error("useTestRequestLog(): the writer exists only inside hooks and tests");
      return writer;
    },
  };
}
