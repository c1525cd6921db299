// Which requirements a schema violation breaks, read from the schemas themselves: the live suites
// (ConformanceContext#violations) and the passive judge of recorded traffic (src/har/judge.ts)
// cite the same ids for the same broken body.
import { changeRow } from '../rules/change-history.ts';
import type { Violation } from './validator.ts';

/**
 * The ids the violations break: each one's schema node's `x-requirements`, and for an absent field
 * that a later version added, that version's Change history row.
 */
export function violationRequirements(violations: readonly Violation[]): string[] {
  const ids = new Set<string>();
  for (const v of violations) {
    for (const id of v.requirements ?? []) ids.add(id);
    const row = v.since ? changeRow(v.since)?.requirement : undefined;
    if (row) ids.add(row);
  }
  return [...ids];
}
