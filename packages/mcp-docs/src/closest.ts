/**
 * "Did you mean": the known names nearest to what was asked, so a tool error can offer them.
 */

/** The number of single-character edits between two strings (Levenshtein). */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * The candidates nearest to `wanted`, ignoring case: those containing it
 * first, then by edit distance, keeping only those within half the longer length.
 *
 * @param wanted - What was asked for.
 * @param candidates - The names that exist.
 * @param limit - How many to return at most.
 */
export function closestMatches(wanted: string, candidates: readonly string[], limit = 5): string[] {
  const target = wanted.trim().toLowerCase();
  if (target === '') return candidates.slice(0, limit);
  return candidates
    .map((candidate) => {
      const lower = candidate.toLowerCase();
      const contains = lower.includes(target);
      const distance = editDistance(target, lower);
      return { candidate, rank: contains ? -1 : distance, distance, length: lower.length };
    })
    .filter(({ rank, distance, length }) => rank < 0 || distance <= Math.max(2, length / 2))
    .sort((a, b) => a.rank - b.rank || a.distance - b.distance)
    .slice(0, limit)
    .map(({ candidate }) => candidate);
}
