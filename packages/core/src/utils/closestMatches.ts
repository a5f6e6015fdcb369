/** "Did you mean" suggestions: the candidates closest to a mistyped word. */

export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        substitution,
      );
    }
    previous = current;
  }
  return previous[b.length] as number;
}

/**
 * Up to `limit` candidates, best first: those containing the input (or contained in it) and those
 * within an edit distance of a third of the input's length (at least 3).
 */
export function closestMatches(input: string, candidates: readonly string[], limit = 3): string[] {
  const needle = input.toLowerCase();
  const budget = Math.max(3, Math.floor(needle.length / 3));
  return candidates
    .map((candidate) => {
      const lower = candidate.toLowerCase();
      const contains = needle.length > 2 && (lower.includes(needle) || needle.includes(lower));
      return { candidate, score: contains ? 0 : editDistance(needle, lower) };
    })
    .filter(({ score }) => score <= budget)
    .sort((a, b) => a.score - b.score || a.candidate.localeCompare(b.candidate))
    .slice(0, limit)
    .map(({ candidate }) => candidate);
}
