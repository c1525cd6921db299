// Which requirements a schema violation breaks, read from the schemas themselves: the live suites
// (ConformanceContext#violations) and the passive judge of recorded traffic (src/har/judge.ts)
// cite the same ids for the same broken body.
import { changeHistoryRows, versionRuleOf } from '../checks/versioning.ts';
import { requirements } from '../requirements/catalogue.ts';
import type { Violation } from './validator.ts';

let rows: Map<string, string> | undefined;

/** version (major.minor.patch) -> its Change history row (CHG-n). */
function changeRows(): Map<string, string> {
  return (rows ??= changeHistoryRows(requirements().values()));
}

/**
 * The ids the violations break: each one's schema node's `x-requirements`, and for an absent field
 * that a later version added, that version's Change history row.
 */
export function violationRequirements(violations: readonly Violation[]): string[] {
  const ids = new Set<string>();
  for (const v of violations) {
    for (const id of v.requirements ?? []) ids.add(id);
    const row = v.since ? changeRows().get(v.since) : undefined;
    if (row) ids.add(row);
  }
  return [...ids];
}

/**
 * The Versioning rule that chose the version an Accept header asks for (no version: the latest,
 * VER-7; a major only: the oldest, VER-8; a patch: ignored, VER-5; a minor: that one, VER-9, or
 * the previous when none matches, VER-10). Cited when a field of the chosen version is absent.
 */
export function versionRuleOfAccept(accept: string | undefined): string {
  return versionRuleOf(accept, [...changeRows().keys()]);
}
