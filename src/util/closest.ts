// "Did you mean ...?" for a name the kit does not know (a configuration key, a flag, a suite):
// the known name at the least edit distance, when it is close enough to be a slip.

/** Levenshtein distance between `a` and `b` (insertions, deletions, substitutions). */
export function editDistance(a: string, b: string): number {
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

/**
 * The known name closest to `name` (case ignored), or null when none is within a third of the
 * longer name's length: a slip, not another word.
 */
export function closestName(name: string, known: readonly string[]): string | null {
  let best: { name: string; distance: number } | null = null;
  for (const candidate of known) {
    const distance = editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (best === null || distance < best.distance) best = { name: candidate, distance };
  }
  if (best === null) return null;
  return best.distance <= Math.max(1, Math.floor(Math.max(name.length, best.name.length) / 3)) ? best.name : null;
}

/** "; did you mean X?" for `name`, or "" when nothing known is close. */
export function didYouMean(name: string, known: readonly string[]): string {
  const closest = closestName(name, known);
  return closest === null ? '' : `; did you mean ${closest}?`;
}
