/**
 * Spec 8: a sync pass never removes more than half of a source's live rows. Exactly half is
 * allowed. Counted against the live rows before the pass, so rows the pass itself inserts
 * cannot make a mass deletion look small.
 */
export function exceedsGuardrail(liveBefore: number, toRemove: number): boolean {
  return toRemove * 2 > liveBefore;
}

export type DeletionDecision =
  { apply: true; reason: "nothing_to_remove" | "within_guardrail" | "approved" } | { apply: false; reason: "exceeds_guardrail" | "exceeds_approval" };

/**
 * Whether a pass tombstones the rows it found removed. All or nothing: declining only some of
 * the deletions would leave a mirror that matches neither the old nor the new source.
 *
 * An owner's approval covers the count they saw declined (`approvedCount`). If the source
 * now wants to remove even more, that is a new situation and needs a new look.
 */
export function decideDeletions(input: { liveBefore: number; toRemove: number; approvedCount: number | null }): DeletionDecision {
  if (input.toRemove === 0) return { apply: true, reason: "nothing_to_remove" };
  if (!exceedsGuardrail(input.liveBefore, input.toRemove)) return { apply: true, reason: "within_guardrail" };
  if (input.approvedCount === null) return { apply: false, reason: "exceeds_guardrail" };
  return input.toRemove <= input.approvedCount ? { apply: true, reason: "approved" } : { apply: false, reason: "exceeds_approval" };
}
