// Version numbers compared as numbers (the rules of which version an answer is served are
// src/rules/version-scope.ts).

/** Compares major[.minor[.patch]] versions numerically (missing parts are 0): negative, 0 or positive. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}
