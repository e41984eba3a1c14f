/**
 * Remembers `compute`'s answer per key, for values that are costly to derive on a hot path but
 * repeat (a walk's cursor binding, a peer's address). At most `limit` answers are kept; the
 * oldest goes first, so a stream of distinct keys cannot grow it.
 */
export function boundedMemo<V>(limit: number): (key: string, compute: () => V) => V {
  const answers = new Map<string, V>();
  return (key, compute) => {
    if (answers.has(key)) return answers.get(key)!;
    const answer = compute();
    if (answers.size >= limit) answers.delete(answers.keys().next().value!);
    answers.set(key, answer);
    return answer;
  };
}
