import { z } from "zod";
import { sourceInput } from "./source.types";

/** The file's text; the browser reads it and posts it with upload progress (XHR). */
export const UPLOAD_CSV_MAX_CHARS = 20 * 1024 * 1024;
export const uploadCsvInput = sourceInput.extend({ content: z.string().max(UPLOAD_CSV_MAX_CHARS, "The file is larger than 20 MB") });
export const uploadCsvOutput = z.object({
  rows: z.number().int(),
  dataVersion: z.number().int(),
  schemaVersion: z.number().int(),
  columns: z.array(z.string()),
  inserted: z.number().int(),
  updated: z.number().int(),
  tombstoned: z.number().int(),
  revived: z.number().int(),
  unchanged: z.number().int(),
});
