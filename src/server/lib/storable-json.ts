/**
 * What Postgres cannot store in text or jsonb: U+0000, unpaired UTF-16 surrogates, and jsonb
 * nested a few thousand levels deep. Shared by the API (a 400 naming the field) and the sync
 * engine (a readable sync_error instead of a failed statement).
 */
export const NUL = "\u0000";
/** A UTF-16 surrogate without its partner: JSON can carry it as `\ud800`, UTF-8 and jsonb cannot. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Arrays and objects nested deeper than this are refused. */
export const MAX_BODY_DEPTH = 100;

export interface UnstorableValue {
  /** Where it is: `field_values.note`, `tags.2`, or `(body)`. */
  field: string;
  message: string;
}

/**
 * The first string, key or nesting level of a parsed body that Postgres could not store, or null.
 * NOTE: Postgres stores neither U+0000 nor unpaired surrogates in text or jsonb, and refuses jsonb
 * nested a few thousand levels deep; left to the database each is a 500, so the pipeline answers
 * a 400 naming the field before any procedure runs. The walk keeps its own stack: a recursive one
 * would overflow on a deep enough body.
 */
export function findUnstorable(body: unknown): UnstorableValue | null {
  const pending: Array<{ value: unknown; path: string[] }> = [{ value: body, path: [] }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value, path } = next;
    const key = path[path.length - 1];
    const keyProblem = key === undefined ? null : stringProblem(key);
    if (keyProblem) return { field: fieldName(path), message: keyProblem };
    if (typeof value === "string") {
      const problem = stringProblem(value);
      if (problem) return { field: fieldName(path), message: problem };
      continue;
    }
    if (value === null || typeof value !== "object") continue;
    if (path.length >= MAX_BODY_DEPTH) {
      return { field: fieldName(path), message: `must not nest arrays and objects more than ${MAX_BODY_DEPTH} levels deep` };
    }
    const children = Array.isArray(value) ? value.map((item, i) => [String(i), item] as const) : Object.entries(value);
    // Reversed onto the stack, so the first problem in document order is the one reported.
    for (let i = children.length - 1; i >= 0; i--) pending.push({ value: children[i]![1], path: [...path, children[i]![0]] });
  }
  return null;
}

export function stringProblem(text: string): string | null {
  if (text.includes(NUL)) return "must not contain the NUL character (U+0000)";
  if (LONE_SURROGATE.test(text)) return "must not contain an unpaired UTF-16 surrogate (U+D800 to U+DFFF)";
  return null;
}

/** A readable path: odd characters escaped, and a very deep one shortened. */
function fieldName(path: string[]): string {
  const escaped = path.map((part) =>
    part.replace(/[\u0000\ud800-\udfff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`),
  );
  if (escaped.length === 0) return "(body)";
  return escaped.length > 4 ? `${escaped.slice(0, 4).join(".")}…` : escaped.join(".");
}
