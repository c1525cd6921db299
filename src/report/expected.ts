// Known deviations (issue 20, point 7): CATALOGUE_EXPECTED_FAILURES names a JSON file of the
// failures a team knows of and has not fixed yet, each with its reason and, if it likes, the day
// it expires. A failure it lists is reported as expected and does not fail the run; an expected
// failure that did not happen is said, so that the list shrinks; past its day, an entry no longer
// excuses anything, and its failures fail the run again.
//
// The file: a JSON array (or {"expectedFailures": [...]}) of
//   {"requirement": "FAV-29", "reason": "ticket 123", "expires": "2027-01-31"}   or
//   {"test": "favorites/<test id>", "reason": "..."}
// A failure is expected when its test is listed, or when it cites a requirement that is listed (an
// entry for PAG-1 excuses every test whose MUST findings all cite PAG-1); a consequence of another
// finding (Finding.follows) goes with its root.
import type { Finding } from '../results/model.ts';
import type { RunResults, TestRecord } from './results.ts';

export interface ExpectedFailure {
  requirement?: string;
  test?: string;
  reason: string;
  /** YYYY-MM-DD: the last day the entry excuses a failure. */
  expires?: string;
}

export class ExpectedFailuresError extends Error {
  override name = 'ExpectedFailuresError';
}

const DAY = /^\d{4}-\d\d-\d\d$/;

/** The entries of the file's text, checked: each names one requirement (a known id) or one test, a reason, and a valid day if any. */
export function parseExpectedFailures(text: string, source: string, knownRequirement: (id: string) => string | null): ExpectedFailure[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new ExpectedFailuresError(`${source} is not JSON: ${(error as Error).message}`);
  }
  const list = Array.isArray(data)
    ? data
    : typeof data === 'object' && data !== null && Array.isArray((data as Record<string, unknown>)['expectedFailures'])
      ? (data as Record<string, unknown[]>)['expectedFailures']!
      : null;
  if (!list) throw new ExpectedFailuresError(`${source} must hold a JSON array of entries, or {"expectedFailures": [...]}`);
  return list.map((raw, i) => {
    const where = `${source}, entry ${i + 1}`;
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new ExpectedFailuresError(`${where}: not an object`);
    const entry = raw as Record<string, unknown>;
    const unknownKeys = Object.keys(entry).filter((k) => !['requirement', 'test', 'reason', 'expires'].includes(k));
    if (unknownKeys.length) throw new ExpectedFailuresError(`${where}: unknown key(s) ${unknownKeys.join(', ')} (known: requirement, test, reason, expires)`);
    const { requirement, test, reason, expires } = entry;
    if ((requirement === undefined) === (test === undefined))
      throw new ExpectedFailuresError(`${where}: name either a "requirement" id or a "test" id, not ${requirement === undefined ? 'neither' : 'both'}`);
    if (requirement !== undefined && typeof requirement !== 'string') throw new ExpectedFailuresError(`${where}: "requirement" must be a string`);
    if (test !== undefined && (typeof test !== 'string' || test === '')) throw new ExpectedFailuresError(`${where}: "test" must be a test id (as results.json names it)`);
    if (typeof requirement === 'string') {
      const problem = knownRequirement(requirement);
      if (problem) throw new ExpectedFailuresError(`${where}: ${problem}`);
    }
    if (typeof reason !== 'string' || reason.trim() === '') throw new ExpectedFailuresError(`${where}: a "reason" is required (why the failure is expected)`);
    if (expires !== undefined && (typeof expires !== 'string' || !DAY.test(expires) || Number.isNaN(Date.parse(`${expires}T00:00:00Z`)))) {
      throw new ExpectedFailuresError(`${where}: "expires" must be a day, YYYY-MM-DD, got ${JSON.stringify(expires)}`);
    }
    return {
      ...(requirement !== undefined ? { requirement } : {}),
      ...(test !== undefined ? { test: test as string } : {}),
      reason: reason.trim(),
      ...(expires !== undefined ? { expires: expires as string } : {}),
    };
  });
}

const nameOf = (e: ExpectedFailure) => (e.test !== undefined ? `test ${e.test}` : `requirement ${e.requirement}`);
const expired = (e: ExpectedFailure, today: string) => e.expires !== undefined && e.expires < today;

/** The entries that excuse `finding` of `test`: its test's, or those naming a requirement the finding cites. */
function excusing(test: TestRecord, finding: Finding, entries: readonly ExpectedFailure[]): ExpectedFailure[] | null {
  const byTest = entries.filter((e) => e.test === test.id);
  if (byTest.length) return byTest;
  const byRequirement = entries.filter((e) => e.requirement !== undefined && finding.requirements.includes(e.requirement));
  return byRequirement.length ? byRequirement : null;
}

/** The findings an entry must excuse for the test to be excused: its MUST findings, a consequence going with its root. */
const roots = (test: TestRecord): Finding[] => test.failures.filter((f) => f.follows === undefined);

/**
 * Marks the failed tests whose every MUST failure the entries excuse (as of `today`, YYYY-MM-DD)
 * as expected, recounts the summary, and returns the notes: what was excused, what expired,
 * and which entries found no failure (to be removed). Mutates `results`.
 */
export function applyExpectedFailures(results: RunResults, entries: readonly ExpectedFailure[], today: string, source: string): string[] {
  if (!entries.length) return [];
  const live = entries.filter((e) => !expired(e, today));
  const used = new Set<ExpectedFailure>();
  const expiredUsed = new Set<ExpectedFailure>();
  for (const test of results.tests) {
    if (test.status !== 'failed' || !roots(test).length) continue;
    const excuses = roots(test).map((f) => excusing(test, f, live));
    if (excuses.every((e) => e !== null)) {
      const by = [...new Set(excuses.flat() as ExpectedFailure[])];
      by.forEach((e) => used.add(e));
      test.status = 'expected';
      test.message = `expected failure (${by.map((e) => `${nameOf(e)}: ${e.reason}`).join('; ')}): ${test.message}`;
    } else {
      // A failure an entry would excuse but for its day: said on the failure itself.
      const stale = roots(test).flatMap(
        (f) =>
          excusing(
            test,
            f,
            entries.filter((e) => expired(e, today)),
          ) ?? [],
      );
      stale.forEach((e) => expiredUsed.add(e));
      if (stale.length)
        test.message += ` (its expected-failure entry ${[...new Set(stale.map(nameOf))].join(', ')} expired on ${[...new Set(stale.map((e) => e.expires))].join(', ')})`;
    }
  }
  const summary = results.summary;
  for (const status of Object.keys(summary) as (keyof typeof summary)[]) summary[status] = 0;
  for (const test of results.tests) summary[test.status]++;

  const notes: string[] = [];
  const expectedCount = summary.expected;
  if (expectedCount) notes.push(`${expectedCount} test(s) failed as ${source} expects: reported, not counted as failures`);
  for (const entry of entries) {
    if (expired(entry, today)) {
      notes.push(`the expected failure of ${nameOf(entry)} (${entry.reason}) expired on ${entry.expires}${expiredUsed.has(entry) ? ': its failure fails the run again' : ''}`);
      continue;
    }
    if (used.has(entry)) continue;
    const citing = results.tests.filter((t) => (entry.test !== undefined ? t.id === entry.test : t.requirements.includes(entry.requirement!)));
    const judged = citing.filter((t) => t.status === 'passed' || t.status === 'warned');
    if (judged.length) notes.push(`the expected failure of ${nameOf(entry)} (${entry.reason}) did not happen: ${judged.length} test(s) citing it passed; remove it from ${source}`);
    else if (!citing.length) notes.push(`the expected failure of ${nameOf(entry)} (${entry.reason}) matches no test of this run`);
    else notes.push(`the expected failure of ${nameOf(entry)} (${entry.reason}) could not be judged: its tests did not run (${citing[0]!.message})`);
  }
  return notes;
}
