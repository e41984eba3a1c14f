import type { RequestLogEntry } from "./entry";

/**
 * The port the /api/v1 pipeline writes to (D194). `record` must never block or throw: it only
 * hands the entry over. A deployment that outgrows Postgres implements `RequestLogSink` for an
 * analytics store (docs/request-log.md); the buffer in front of it stays the same.
 */
export interface RequestLogWriter {
  record(entry: RequestLogEntry): void;
  /** Writes whatever is buffered now; resolves when it is stored (or dropped and counted). */
  flush(): Promise<void>;
  /** Flushes and stops the timer; later records are dropped and counted. */
  close(): Promise<void>;
}

/** Where batches go: one call per batch, all or nothing. */
export interface RequestLogSink {
  writeBatch(entries: RequestLogEntry[]): Promise<void>;
}

export interface BufferedWriterOptions {
  /** Entries held at most; past it new entries are dropped and counted (D192). */
  capacity?: number;
  /** Entries per write. */
  batchSize?: number;
  /** Longest an entry waits before its batch is written. */
  flushIntervalMs?: number;
  onDrop?: (count: number, reason: "overflow" | "write_failed" | "closed") => void;
  onWriteError?: (error: unknown, entries: number) => void;
}

export interface BufferedWriter extends RequestLogWriter {
  stats(): { buffered: number; written: number; dropped: number };
}

/**
 * A bounded in-process buffer in front of a sink. Writes happen on a timer or when a batch is
 * full, one at a time, never on the request's path. NOTE: a failed batch is retried once with
 * the next one (a database blip should not lose it), then dropped and counted.
 */
export function createBufferedWriter(sink: RequestLogSink, options: BufferedWriterOptions = {}): BufferedWriter {
  const capacity = options.capacity ?? 20_000;
  const batchSize = options.batchSize ?? 1_000;
  const intervalMs = options.flushIntervalMs ?? 1_000;
  const buffer: RequestLogEntry[] = [];
  let retry: RequestLogEntry[] = [];
  let written = 0;
  let dropped = 0;
  let closed = false;
  let inFlight: Promise<void> | null = null;
  let soon = false;

  const drop = (count: number, reason: "overflow" | "write_failed" | "closed") => {
    dropped += count;
    options.onDrop?.(count, reason);
  };

  const writeOnce = async (): Promise<void> => {
    while (buffer.length > 0 || retry.length > 0) {
      const again = retry.length > 0;
      const batch = again ? retry : buffer.splice(0, batchSize);
      retry = [];
      try {
        await sink.writeBatch(batch);
        written += batch.length;
      } catch (error) {
        options.onWriteError?.(error, batch.length);
        if (again || closed) drop(batch.length, "write_failed");
        else retry = batch;
        return;
      }
    }
  };

  const flush = (): Promise<void> => {
    if (inFlight) return inFlight.then(() => (buffer.length > 0 || retry.length > 0 ? flush() : undefined));
    inFlight = writeOnce().finally(() => {
      inFlight = null;
    });
    return inFlight;
  };

  const timer = setInterval(() => void flush(), intervalMs);
  timer.unref();

  return {
    record(entry) {
      if (closed) return drop(1, "closed");
      if (buffer.length >= capacity) return drop(1, "overflow");
      buffer.push(entry);
      if (buffer.length >= batchSize && !soon && !inFlight) {
        soon = true;
        setImmediate(() => {
          soon = false;
          void flush();
        });
      }
    },
    flush,
    async close() {
      clearInterval(timer);
      await flush();
      closed = true;
      if (retry.length > 0 || buffer.length > 0) await flush();
    },
    stats: () => ({ buffered: buffer.length + retry.length, written, dropped }),
  };
}
