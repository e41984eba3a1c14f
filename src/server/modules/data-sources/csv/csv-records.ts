import { CsvError, parse, type Info, type Options } from "csv-parse";
import { CSV_LIMITS } from "./csv-limits";
import { formatNumber, invalidCsv } from "./csv-errors";
import { TimeSlicer } from "./yield";

/** Text per parser write (parsed to its end at once): ~80 rows, a few ms at worst; writes go on while the turn's budget lasts (D140). */
const CHUNK_CHARS = 16 * 1024;

/** A whole file's text, or its bytes (UTF-8) or text as they arrive, e.g. a request body. */
export type CsvInput = string | AsyncIterable<Uint8Array | string>;

export interface CsvRecord {
  fields: string[];
  /** The line the record starts on (1-based): a quoted field may span several lines. */
  line: number;
}

/** The input in slices of at most CHUNK_CHARS; bytes decoded as UTF-8, a character split across chunks kept whole. */
async function* textSlices(content: CsvInput): AsyncGenerator<string> {
  if (typeof content === "string") {
    for (let offset = 0; offset < content.length; offset += CHUNK_CHARS) yield content.slice(offset, offset + CHUNK_CHARS);
    return;
  }
  const decoder = new TextDecoder("utf-8");
  for await (const chunk of content) {
    const text = typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
    for (let offset = 0; offset < text.length; offset += CHUNK_CHARS) yield text.slice(offset, offset + CHUNK_CHARS);
  }
  const tail = decoder.decode();
  if (tail !== "") yield tail;
}

/** Every record of the input, in order, with the line it starts on; a parse error is refused as invalid CSV naming the line. */
export async function streamRecords(content: CsvInput, onRecord: (record: CsvRecord) => void): Promise<void> {
  // The parser reports the line a record ends on; a record starts after the previous one
  // and after any empty lines skipped in between.
  let previousEnd = 0;
  let previousEmpty = 0;
  let failure: unknown = null;
  const parser = parse({
    bom: true,
    skip_empty_lines: true,
    relax_column_count: false,
    // Bounds the memory of one record before it ends: a runaway quote or a giant line is refused early.
    max_record_size: CSV_LIMITS.recordChars,
    // Stop one record past the limit: a huge file is refused without being held in memory.
    to: CSV_LIMITS.rows + 2,
    on_record: (fields: string[], info: Info) => {
      if (failure !== null) return null;
      const line = previousEnd + 1 + (info.empty_lines - previousEmpty);
      previousEnd = info.lines;
      previousEmpty = info.empty_lines;
      try {
        onRecord({ fields, line });
      } catch (error) {
        failure = error;
      }
      // Records are kept by onRecord; nothing is queued in the stream.
      return null;
    },
  } as Options);
  parser.resume();
  const done = new Promise<void>((resolve, reject) => {
    parser.once("end", resolve);
    parser.once("close", resolve);
    parser.once("error", reject);
  });
  done.catch(() => undefined);

  const slicer = new TimeSlicer();
  try {
    // Leaving the loop early (a failure) returns the iterator: a request body is not read further.
    for await (const slice of textSlices(content)) {
      parser.write(slice);
      if (failure !== null || parser.destroyed) break;
      await slicer.pause();
    }
    if (failure === null && !parser.destroyed) parser.end();
    if (failure === null) await done;
  } catch (error) {
    if (error instanceof CsvError) throw invalidCsv(describeCsvError(error, previousEnd + 1));
    throw error;
  } finally {
    if (!parser.destroyed) parser.destroy();
  }
  if (failure !== null) throw failure;
}

/** `recordStart`: the line where the record being parsed began. */
function describeCsvError(error: CsvError, recordStart: number): string {
  const line = typeof error.lines === "number" ? error.lines : undefined;
  const where = line === undefined ? "" : `line ${line}: `;
  switch (error.code) {
    case "CSV_RECORD_INCONSISTENT_FIELDS_LENGTH": {
      const counts = /expect (\d+), got (\d+)/.exec(error.message);
      return counts ? `${where}the row has ${counts[2]} fields but the header has ${counts[1]}` : `${where}${error.message}`;
    }
    case "CSV_QUOTE_NOT_CLOSED":
      // The parser only notices at the end of the file; the quote opened in the last record.
      return `line ${recordStart}: a quoted field that starts on this line is never closed`;
    case "CSV_MAX_RECORD_SIZE":
      return recordStart === 1
        ? `line 1: the header row is longer than ${formatNumber(CSV_LIMITS.headerChars)} characters, the limit`
        : `line ${recordStart}: the row is longer than ${formatNumber(CSV_LIMITS.recordChars)} characters, the limit`;
    case "INVALID_OPENING_QUOTE":
    case "CSV_INVALID_CLOSING_QUOTE":
    case "CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE":
      return `${where}a quote is misplaced (${error.message})`;
    default:
      return `${where}${error.message}`;
  }
}
