import { describe, expect, test } from 'vitest';
import { applyExpectedFailures, ExpectedFailuresError, parseExpectedFailures, type ExpectedFailure } from './expected.ts';
import { resultsOf, type TestRecord } from './results.ts';

const known = (id: string) => (['FAV-29', 'CAT-5', 'CAT-19', 'ERR-9'].includes(id) ? null : `"${id}" is not a requirement id of the catalogue`);
const parse = (value: unknown) => parseExpectedFailures(JSON.stringify(value), 'dev.json', known);

describe('parseExpectedFailures', () => {
  test('an array, or {expectedFailures: [...]}; each entry a requirement or a test, a reason, maybe a day', () => {
    const entries = [
      { requirement: 'FAV-29', reason: ' ticket 1 ', expires: '2027-01-31' },
      { test: 'favorites/x', reason: 'ticket 2' },
    ];
    expect(parse(entries)).toEqual([
      { requirement: 'FAV-29', reason: 'ticket 1', expires: '2027-01-31' },
      { test: 'favorites/x', reason: 'ticket 2' },
    ]);
    expect(parse({ expectedFailures: entries })).toHaveLength(2);
  });

  test.each([
    ['{', /dev\.json is not JSON/],
    [{ requirement: 'FAV-29' }, /must hold a JSON array/],
    [[{ requirement: 'FAV-29', test: 'x', reason: 'r' }], /entry 1: name either a "requirement" id or a "test" id, not both/],
    [[{ reason: 'r' }], /not neither/],
    [[{ requirement: 'FAV-29' }], /entry 1: a "reason" is required/],
    [[{ requirement: 'FAV-29', reason: 'r', expires: '31.01.2027' }], /"expires" must be a day, YYYY-MM-DD/],
    [[{ requirement: 'FAV-29', reason: 'r', until: '2027-01-01' }], /unknown key\(s\) until/],
    [[{ requirement: 'FAV-92', reason: 'r' }], /entry 1: "FAV-92" is not a requirement id/],
  ])('refused with the entry and why: %j', (value, message) => {
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    expect(() => parseExpectedFailures(text, 'dev.json', known)).toThrow(ExpectedFailuresError);
    expect(() => parseExpectedFailures(text, 'dev.json', known)).toThrow(message);
  });
});

describe('applyExpectedFailures', () => {
  const record = (id: string, status: TestRecord['status'], failures: string[][] = [], requirements = failures.flat()): TestRecord => ({
    id,
    title: id,
    suite: id.split('/')[0]!,
    requirements,
    severity: 'MUST',
    profile: 'read',
    status,
    message: failures.map((r) => `[${r.join(', ')}] broken`).join('\n'),
    failures: failures.map((r) => ({ requirements: r, severity: 'MUST', message: 'broken' })),
    warnings: [],
    exchanges: [],
    omittedExchanges: 0,
    requests: 1,
    durationMs: 1,
  });
  const TODAY = '2026-11-27';

  test('a failure is expected when its test is listed, or a requirement it cites is; else it stays a failure', () => {
    const results = resultsOf(
      [
        record('categories/a', 'failed', [['CAT-5', 'CAT-19']]),
        record('categories/b', 'failed', [['CAT-5']]),
        record('categories/c', 'failed', [['CAT-5'], ['ERR-9']]),
        record('favorites/d', 'failed', [['FAV-29', 'ERR-9']]),
        record('favorites/e', 'passed', [], ['FAV-29']),
      ],
      [],
    );
    const entries: ExpectedFailure[] = [
      { requirement: 'CAT-5', reason: 'r1' },
      { requirement: 'CAT-19', reason: 'r2' },
      { test: 'favorites/d', reason: 'r3' },
    ];
    const notes = applyExpectedFailures(results, entries, TODAY, 'dev.json');
    expect(results.tests.map((t) => [t.id, t.status])).toEqual([
      ['categories/a', 'expected'],
      ['categories/b', 'expected'],
      ['categories/c', 'failed'],
      ['favorites/d', 'expected'],
      ['favorites/e', 'passed'],
    ]);
    expect(results.summary).toMatchObject({ failed: 1, expected: 3, passed: 1 });
    expect(results.tests[0]!.message).toMatch(/^expected failure \(requirement CAT-5: r1; requirement CAT-19: r2\): \[CAT-5, CAT-19\] broken/);
    expect(notes).toEqual(['3 test(s) failed as dev.json expects: reported, not counted as failures']);
  });

  test('past its day an entry excuses nothing, and says so; an entry whose failure did not happen is to be removed', () => {
    const results = resultsOf(
      [record('categories/a', 'failed', [['CAT-5']]), record('favorites/e', 'passed', [], ['FAV-29']), record('favorites/f', 'skipped', [], ['ERR-9'])],
      [],
    );
    results.tests[2]!.message = 'profile write is not enabled';
    const notes = applyExpectedFailures(
      results,
      [
        { requirement: 'CAT-5', reason: 'old', expires: '2026-11-26' },
        { requirement: 'FAV-29', reason: 'fixed?' },
        { requirement: 'ERR-9', reason: 'unjudged' },
        { test: 'nowhere/x', reason: 'gone' },
      ],
      TODAY,
      'dev.json',
    );
    expect(results.tests[0]!.status).toBe('failed');
    expect(results.tests[0]!.message).toMatch(/\(its expected-failure entry requirement CAT-5 expired on 2026-11-26\)$/);
    expect(notes).toEqual([
      'the expected failure of requirement CAT-5 (old) expired on 2026-11-26: its failure fails the run again',
      'the expected failure of requirement FAV-29 (fixed?) did not happen: 1 test(s) citing it passed; remove it from dev.json',
      'the expected failure of requirement ERR-9 (unjudged) could not be judged: its tests did not run (profile write is not enabled)',
      'the expected failure of test nowhere/x (gone) matches no test of this run',
    ]);
    // The day itself still counts.
    const sameDay = resultsOf([record('categories/a', 'failed', [['CAT-5']])], []);
    applyExpectedFailures(sameDay, [{ requirement: 'CAT-5', reason: 'r', expires: TODAY }], TODAY, 'dev.json');
    expect(sameDay.tests[0]!.status).toBe('expected');
  });

  test('an entry naming a requirement excuses every test whose MUST findings all cite it, whatever else they cite; a consequence goes with its root', () => {
    const results = resultsOf(
      [
        record('pagination/a', 'failed', [['PAG-1', 'PAG-3']]),
        record('pagination/b', 'failed', [['PAG-4', 'PAG-1'], ['PAG-1']]),
        record('categories/c', 'failed', [['PAG-1']], ['CAT-1', 'PAG-1']),
        record('pagination/d', 'failed', [['PAG-1'], ['PAG-5']]),
        record('pagination/e', 'failed', [['PAG-5']]),
      ],
      [],
    );
    // d's Link finding follows from its total_pages finding: excused with it.
    results.tests[3]!.failures[1]!.follows = '[PAG-1] total_pages is 3, but 9 results at 5 per page make 2';
    applyExpectedFailures(results, [{ requirement: 'PAG-1', reason: 'ticket 9' }], TODAY, 'dev.json');
    expect(results.tests.map((t) => t.status)).toEqual(['expected', 'expected', 'expected', 'expected', 'failed']);
    expect(results.summary).toMatchObject({ failed: 1, expected: 4 });
  });
});
