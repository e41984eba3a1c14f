/**
 * Canonical JSON (keys sorted at every level): equal values always serialise equal.
 * NOTE: iterative with an explicit stack, so a deeply nested value (a customer's row, a request
 * body) cannot overflow the call stack; each node is visited once.
 */
export function canonicalJson(value: unknown): string {
  return (isPlainObject(value) && flatObjectJson(value)) || nestedJson(value);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value) && !(value instanceof Date);
}

/**
 * An object whose values are all primitives (a table row, a CSV row: most of what is hashed, a
 * million times in a first pass) written in one loop; null when a value is an object or array.
 * NOTE: the same text as nestedJson: keys in UTF-16 code-unit order (the default sort), undefined
 * values left out, anything JSON.stringify cannot write as null.
 */
function flatObjectJson(value: Record<string, unknown>): string | null {
  const keys = Object.keys(value).sort();
  let out = "{";
  for (const key of keys) {
    const child = value[key];
    if (child === undefined) continue;
    if (child !== null && typeof child === "object") return null;
    out += `${out.length > 1 ? "," : ""}${JSON.stringify(key)}:${JSON.stringify(child) ?? "null"}`;
  }
  return `${out}}`;
}

function nestedJson(value: unknown): string {
  const out: string[] = [];
  // A work item is either a value to write or a literal piece of punctuation.
  const pending: Array<{ value: unknown } | string> = [{ value }];
  for (let item = pending.pop(); item !== undefined; item = pending.pop()) {
    if (typeof item === "string") {
      out.push(item);
      continue;
    }
    const current = item.value;
    if (current === null || typeof current !== "object") {
      out.push(JSON.stringify(current) ?? "null");
    } else if (current instanceof Date) {
      out.push(JSON.stringify(current.toISOString()));
    } else if (Array.isArray(current)) {
      pending.push("]");
      for (let i = current.length - 1; i >= 0; i--) {
        pending.push({ value: current[i] });
        if (i > 0) pending.push(",");
      }
      out.push("[");
    } else {
      const entries = Object.entries(current as Record<string, unknown>)
        .filter(([, v]) => v !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      pending.push("}");
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, child] = entries[i]!;
        pending.push({ value: child });
        pending.push(`${i > 0 ? "," : ""}${JSON.stringify(key)}:`);
      }
      out.push("{");
    }
  }
  return out.join("");
}
