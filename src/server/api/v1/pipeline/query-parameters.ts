import { AppError } from "@/server/errors/app-error";

/**
 * A query parameter the operation does not declare is a 400 naming it (D153), as Stripe's API
 * answers: a misspelled `updated_since` must not quietly turn a delta into a full walk.
 * `accepted`: the operation's declared query parameters (none for POST and PATCH, whose input
 * is the body).
 */
export function assertKnownQueryParameters(url: URL, accepted: readonly string[]): void {
  for (const name of new Set(url.searchParams.keys())) {
    if (accepted.includes(name)) continue;
    const takes = accepted.length === 0 ? "this operation takes no query parameters" : `it takes ${accepted.join(", ")}`;
    const suggestion = closest(name, accepted);
    throw new AppError("bad_request", `Unknown query parameter "${shorten(name)}"${suggestion ? ` (did you mean ${suggestion}?)` : ""}; ${takes}.`, {
      details: { parameter: shorten(name), issues: [{ field: shorten(name), message: "is not a query parameter of this endpoint" }] },
    });
  }
}

function shorten(name: string): string {
  return name.length > 100 ? `${name.slice(0, 100)}…` : name;
}

/**
 * A likely intended name: one within a third of its length in edits, or else the only accepted
 * name sharing its first word (`updated_since` → `updated_after`).
 */
function closest(name: string, accepted: readonly string[]): string | null {
  if (name.length > 100) return null;
  const lower = name.toLowerCase();
  let best: { name: string; distance: number } | null = null;
  for (const candidate of accepted) {
    const distance = editDistance(lower, candidate);
    if (best === null || distance < best.distance) best = { name: candidate, distance };
  }
  if (best !== null && best.distance <= Math.max(2, Math.floor(best.name.length / 3))) return best.name;
  const word = lower.split("_")[0]!;
  const sharing = lower.includes("_") ? accepted.filter((candidate) => candidate.split("_")[0] === word) : [];
  return sharing.length === 1 ? sharing[0]! : null;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}
