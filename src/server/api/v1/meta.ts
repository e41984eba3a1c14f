import type { OpenApiMeta } from "trpc-to-openapi";

/**
 * Who may call a procedure:
 * - `public`: no API key (none of /api/v1 is public today except /health, a plain route);
 * - `bearer`: any valid key, subject to `scope` and organization binding;
 * - `instance`: an instance-scoped key only (spec 5.8).
 */
type Access = "public" | "bearer" | "instance";

export type ApiMeta = OpenApiMeta<{
  access?: Access;
  /** The `<resource>:<action>` scope the key must hold. */
  scope?: string;
  /** The path parameter naming the organization addressed, checked against the key's binding. */
  orgParam?: string;
  /** The status of a successful answer; 200 unless stated (creates say 201). */
  successStatus?: 200 | 201;
  /**
   * Writes the answer's JSON text, for an operation whose answers are too hot for
   * JSON.stringify (D341); the same JSON, checked outside production (answerBody, output-contract.ts).
   */
  writeBody?: (output: never) => string;
}>;
