import { checksOutputs } from "@/server/api/v1/output-contract";
import type { ApiMeta } from "@/server/api/v1/meta";
import { isDeepStrictEqual } from "node:util";

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
