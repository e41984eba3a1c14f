/**
 * Canonical JSON (keys sorted at every level): equal values always serialise equal.
 * NOTE: iterative with an explicit stack, so a deeply nested value (a customer's row, a request
 * body) cannot overflow the call stack; each node is visited once.
 */
export function canonicalJson(value: unknown): string {
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
