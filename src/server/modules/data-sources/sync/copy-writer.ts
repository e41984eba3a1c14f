import type pg from "pg";
import { from as copyFrom } from "pg-copy-streams";

export interface CopyWriter {
  /** Sends text in COPY's text format; resolves once the stream can take more (backpressure). */
  write(text: string): Promise<void>;
  /** Ends the COPY; rejects with the server's error if it refused a row. */
  end(): Promise<void>;
  /** Cancels the COPY (CopyFail) and waits until the connection can take the next statement. */
  abort(): Promise<void>;
}

/**
 * One `COPY … FROM STDIN` for a whole pass, fed batch by batch (D123): the server parses and
 * indexes one batch while the next is read and encoded, instead of one COPY statement (and one
 * round trip, one wait) per batch.
 */
export function openCopy(tx: pg.ClientBase, sql: string): CopyWriter {
  const stream = tx.query(copyFrom(sql));
  let failure: Error | null = null;
  const finished = new Promise<void>((resolve, reject) => {
    stream.once("finish", resolve);
    stream.once("error", (error: Error) => {
      failure = error;
      reject(error);
    });
  });
  // Observed here so a refusal while the caller is busy elsewhere is not an unhandled rejection;
  // write() and end() report it.
  finished.catch(() => undefined);
  const closed = new Promise<void>((resolve) => stream.once("close", resolve));
  return {
    async write(text) {
      if (failure) throw failure;
      if (!stream.write(text)) await Promise.race([new Promise((resolve) => stream.once("drain", resolve)), finished]);
      if (failure) throw failure;
    },
    async end() {
      stream.end();
      await finished;
    },
    async abort() {
      if (stream.destroyed || stream.writableFinished) return;
      stream.destroy();
      await closed;
    },
  };
}

/**
 * Iterates `source` one item ahead: the next batch is read (on the source's connection) while
 * the caller writes this one. Ending early waits for that read, then closes the source.
 */
export async function* readAhead<T>(source: AsyncIterable<T>): AsyncGenerator<T> {
  const iterator = source[Symbol.asyncIterator]();
  let next = iterator.next();
  // Observed at once: the read may fail while the caller is still busy with the last item.
  next.catch(() => undefined);
  let done = false;
  try {
    for (;;) {
      const current = await next;
      if (current.done) {
        done = true;
        return;
      }
      next = iterator.next();
      next.catch(() => undefined);
      yield current.value;
    }
  } finally {
    if (!done) {
      await next.catch(() => undefined);
      await iterator.return?.();
    }
  }
}
