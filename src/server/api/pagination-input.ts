import { z } from "zod";
import { DEFAULT_LIMIT, MAX_LIMIT } from "@/server/modules/pagination/page";

/** The query parameters every list endpoint shares (spec 4.2), with its own sort allow-list. */
export function paginationInput<const S extends readonly [string, ...string[]]>(sorts: S, defaultSort: S[number]) {
  return {
    // NOTE: only plain decimal digits: Number() would also read `1e2`, `0x10`, `+5` and `010`,
    // and a parameter that means different things to different parsers is not one we accept.
    limit: z
      .preprocess(
        (value) => (typeof value === "string" && /^[0-9]{1,4}$/.test(value) && !/^0./.test(value) ? Number(value) : value),
        z
          .number({ error: `must be an integer from 1 to ${MAX_LIMIT}` })
          .int(`must be an integer from 1 to ${MAX_LIMIT}`)
          .min(1, `must be an integer from 1 to ${MAX_LIMIT}`)
          .max(MAX_LIMIT, `must be an integer from 1 to ${MAX_LIMIT}`)
          .default(DEFAULT_LIMIT),
      )
      .describe(`Rows per page (default ${DEFAULT_LIMIT}, max ${MAX_LIMIT}).`),
    cursor: z.string().min(1).max(2048).describe("Copy verbatim from the previous page's meta.next_cursor.").optional(),
    sort: z
      .enum(sorts, { error: `must be one of ${sorts.join(", ")}` })
      .default(defaultSort as never)
      .describe(`Sort field; a leading - means descending. Default ${defaultSort}.`),
  };
}
