import { logger } from "@/server/logger";
import type { ExportSlot } from "./export-slots";

export interface ExportStreamOptions {
  slot: ExportSlot;
  /** Cut the download when the client has not asked for more for this long (D373). */
  stallTimeoutMs: number;
  requestId: string;
  /** "records export", "audit export": how the log names it. */
  what: string;
}

/**
 * Why a download ended early: its client stopped reading. NOTE: named an AbortError (what it is: the
 * download is aborted), so Next's response pipe destroys the socket without logging a "failed to
 * pipe response" error for a cut that is already logged here at info.
 */
class ExportStalled extends Error {
  override name = "AbortError";
}

/**
 * A download's body from its chunks, pulled as the client reads (D373). Whatever way it ends,
 * its slot is given back and its chunks are closed at once (`return()`: for records that ends the
 * export's own connection, so its cursor and transaction go with it):
 * - read to the end: closed normally;
 * - the client stops reading (no pull for `stallTimeoutMs`, the socket's buffers full): cut, the
 *   body errors, which ends the response; logged at info;
 * - the client goes away (the body is cancelled): logged at info, not as a failure, and nothing is
 *   enqueued after (the error "Controller is already closed" came from that);
 * - a chunk fails to be read: logged at error, the body errors (a failed download, not a short file).
 */
export function exportStream(chunks: AsyncGenerator<string, void, undefined>, options: ExportStreamOptions): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const fields = { request_id: options.requestId };
  let timer: NodeJS.Timeout | undefined;
  let ended = false;
  const end = async () => {
    if (ended) return;
    ended = true;
    clearTimeout(timer);
    options.slot.release();
    await chunks.return(undefined).catch(() => undefined);
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      clearTimeout(timer);
      if (ended) return;
      let next: IteratorResult<string, void>;
      try {
        next = await chunks.next();
      } catch (error) {
        if (ended) return;
        logger.error({ ...fields, err: error }, `${options.what} failed mid-stream`);
        await end();
        controller.error(error);
        return;
      }
      if (ended) return;
      if (next.done) {
        await end();
        controller.close();
        return;
      }
      controller.enqueue(encoder.encode(next.value));
      timer = setTimeout(() => {
        logger.info({ ...fields, stall_timeout_ms: options.stallTimeoutMs }, `${options.what} cut: the client stopped reading`);
        void end().then(() => controller.error(new ExportStalled(`the client read nothing for ${options.stallTimeoutMs} ms`)));
      }, options.stallTimeoutMs);
    },
    async cancel() {
      if (ended) return;
      logger.info(fields, `${options.what} ended: the client disconnected`);
      await end();
    },
  });
}
