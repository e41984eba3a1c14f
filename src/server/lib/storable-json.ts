/**
 * What Postgres cannot store in text or jsonb: U+0000, unpaired UTF-16 surrogates, and jsonb
 * nested a few thousand levels deep. Shared by the API (a 400 naming the field) and the sync
 * engine (a readable sync_error instead of a failed statement).
 */
export const NUL = "\u0000";
/** A UTF-16 surrogate without its partner: JSON can carry it as `\ud800`, UTF-8 and jsonb cannot. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Arrays and objects nested deeper than this are refused (docs/decisions.md, D40). */
export const MAX_BODY_DEPTH = 100;

export interface UnstorableValue {
  /** Where it is: `field_values.note`, `tags.2`, or `(body)`. */
  field: string;
  message: string;
}

/** One open array or object of the walk: its children are visited by index, never copied out. */
interface Frame {
  container: object;
  keys: string[] | null; // null for an array
  next: number;
  length: number;
  /** The key this container sits under in its parent, and the parent's frame: a path on demand. */
  key: string | undefined;
  parent: Frame | null;
  depth: number;
}

/**
 * The first string, key or nesting level of a parsed value that Postgres could not store, or null.
 * NOTE: Postgres stores neither U+0000 nor unpaired surrogates in text or jsonb, and refuses jsonb
 * nested a few thousand levels deep; left to the database each is a 500, so the pipeline answers
 * a 400 naming the field before any procedure runs. The walk keeps one frame per open level (memory
 * bounded by the depth cap, never by the number of nodes) and builds a field path only for the
 * value it reports: a path copied per node made a 1 MiB body of nested arrays cost ~1 GB.
 */
export function findUnstorable(body: unknown): UnstorableValue | null {
  if (typeof body === "string") {
    const problem = stringProblem(body);
    return problem ? { field: "(body)", message: problem } : null;
  }
  if (body === null || typeof body !== "object") return null;
  let frame: Frame | null = openFrame(body, undefined, null, 0);
  while (frame) {
    if (frame.depth >= MAX_BODY_DEPTH) {
      return { field: fieldName(frame, undefined), message: `must not nest arrays and objects more than ${MAX_BODY_DEPTH} levels deep` };
    }
    if (frame.next >= frame.length) {
      frame = frame.parent;
      continue;
    }
    const index = frame.next++;
    const key = frame.keys ? frame.keys[index]! : String(index);
    if (frame.keys) {
      const keyProblem = stringProblem(key);
      if (keyProblem) return { field: fieldName(frame, key), message: keyProblem };
    }
    const value: unknown = (frame.container as Record<string, unknown>)[key];
    if (typeof value === "string") {
      const problem = stringProblem(value);
      if (problem) return { field: fieldName(frame, key), message: problem };
    } else if (value !== null && typeof value === "object") {
      frame = openFrame(value, key, frame, frame.depth + 1);
    }
  }
  return null;
}

function openFrame(container: object, key: string | undefined, parent: Frame | null, depth: number): Frame {
  const keys = Array.isArray(container) ? null : Object.keys(container);
  const length = keys ? keys.length : (container as unknown[]).length;
  return { container, keys, next: 0, length, key, parent, depth };
}

export function stringProblem(text: string): string | null {
  if (text.includes(NUL)) return "must not contain the NUL character (U+0000)";
  if (LONE_SURROGATE.test(text)) return "must not contain an unpaired UTF-16 surrogate (U+D800 to U+DFFF)";
  return null;
}

const UNSTORABLE_CHARACTER = new RegExp(`${NUL}|${LONE_SURROGATE.source}`, "g");

/**
 * The text with U+0000 and unpaired surrogates written out as `\u0000`-style escapes (paired ones,
 * an emoji say, stay): storable, and never equal to what its unescaped form would have matched.
 */
export function escapeUnstorable(text: string): string {
  return text.replace(UNSTORABLE_CHARACTER, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** In JSON text: an escape (after an even run of backslashes) of U+0000 or of a surrogate. */
const UNSTORABLE_ESCAPE = /(?<!\\)((?:\\\\)*)\\u(0000|d[89a-f][0-9a-f]{2})/g;

/**
 * JSON.stringify's output made storable in Postgres json and jsonb, for text that goes to the
 * database in bulk (the request log's batches). NOTE: JSON.stringify writes U+0000 and unpaired
 * surrogates as `\u0000`-style escapes and pairs as the characters themselves, so every such
 * escape is one Postgres would refuse; each becomes the escape's own text, as escapeUnstorable
 * writes it, and the rest of the batch is stored as it came.
 */
export function storableJsonText(json: string): string {
  return json.includes("\\u") ? json.replace(UNSTORABLE_ESCAPE, "$1\\\\u$2") : json;
}

/** A readable path from the root to `key` under `frame`: odd characters escaped, a deep one shortened. */
function fieldName(frame: Frame, key: string | undefined): string {
  const path: string[] = key === undefined ? [] : [key];
  for (let at: Frame | null = frame; at && at.key !== undefined; at = at.parent) path.push(at.key);
  path.reverse();
  const escaped = path.map((part) => part.replace(/[\u0000\ud800-\udfff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`));
  if (escaped.length === 0) return "(body)";
  return escaped.length > 4 ? `${escaped.slice(0, 4).join(".")}…` : escaped.join(".");
}
