import { isDeepStrictEqual } from "node:util";
import type { z } from "zod";
import { env } from "@/env";
import type { ApiMeta } from "./meta";

/**
 * Whether a procedure's answer is parsed by its output schema on every call (D262).
 * NOTE: through env(), where an unset NODE_ENV means production, as everywhere else: `npm start`
 * does not set it, and reading process.env directly had left the parse on in production.
 */
export function checksOutputs(): boolean {
  const { NODE_ENV, GROUNDWORK_CHECK_OUTPUT } = env();
  return NODE_ENV !== "production" || GROUNDWORK_CHECK_OUTPUT === "on";
}

/**
 * An /api/v1 operation's output schema, for `.output()`. It is the contract: the OpenAPI document
 * is generated from it, and outside production (every test, `npm run dev`) each answer is parsed
 * by it, so an answer that drifts from the document fails the suite. In production the parse is
 * skipped (D262): on a `limit=100` rows page it cost as much CPU as serialising the page, to
 * re-check objects the DTO mappers (`toRowDto`…) build field by field from typed rows.
 * `GROUNDWORK_CHECK_OUTPUT=on` turns it back on in production.
 */
export function outputContract<T extends z.ZodType>(schema: T): T {
  // NOTE: the check parses the answer as the client receives it (JSON text, so a JsonText is its
  // parsed value, D341) and passes the answer itself on, as production does.
  const parse = checksOutputs()
    ? (value: unknown) => {
        schema.parse(value === undefined ? value : JSON.parse(JSON.stringify(value)));
        return value;
      }
    : (value: unknown) => value;
  // The same schema object to the document generator (every property but the parse functions
  // reads through); tRPC's output middleware finds `parse`.
  return new Proxy(schema, {
    get: (target, prop, receiver) =>
      prop === "parse" ? parse : prop === "parseAsync" ? async (value: unknown) => parse(value) : Reflect.get(target, prop, receiver),
  });
}

/**
 * A procedure's answer as JSON text: the operation's own writer when it has one (D341), else
 * JSON.stringify. NOTE: outside production every written body is checked against
 * JSON.stringify of the same answer (as JSON values: a jsonb's text keeps Postgres's spacing and
 * its numbers' exact digits), so a writer that drops or misspells a field fails the tests that
 * call its operation.
 */
export function answerBody(meta: ApiMeta, output: unknown): string {
  if (!meta.writeBody) return JSON.stringify(output);
  const body = meta.writeBody(output as never);
  if (checksOutputs() && !isDeepStrictEqual(JSON.parse(body), JSON.parse(JSON.stringify(output)))) {
    throw new Error(`${meta.openapi?.method} ${meta.openapi?.path}: the operation's body writer does not write its answer`);
  }
  return body;
}
