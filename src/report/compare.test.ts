import { describe, expect, test } from 'vitest';
import { compareResults, isRegression, type ComparedResults } from './compare.ts';

type T = ComparedResults['tests'][number];
const t = (id: string, status: string, overrides: Partial<T> = {}): T => ({
  id,
  title: id,
  requirements: [`R-${id}`],
  severity: 'MUST',
  status,
  message: `${id} ${status}`,
  ...overrides,
});
const results = (tests: T[], bySuite: Record<string, number> = {}, durationMs = 1000): ComparedResults => ({
  summary: {},
  tests,
  requests: { total: Object.values(bySuite).reduce((a, b) => a + b, 0), bySuite },
  run: { kit: { version: '0.1.0', commit: 'a'.repeat(40) }, catalogue: { sha256: 'x' }, target: 'https://api.example', durationMs },
});

describe('compareResults', () => {
  test('each kind of change, by test id; a new failure is a regression, the others are not', () => {
    const before = results(
      [
        t('a', 'passed'),
        t('b', 'failed'),
        t('c', 'failed'),
        t('d', 'passed'),
        t('e', 'warned'),
        t('f', 'passed'),
        t('g', 'skipped'),
        t('h', 'passed', { severity: 'WARN' }),
        t('gone', 'passed'),
      ],
      { categories: 10, favorites: 5 },
      1000,
    );
    const after = results(
      [
        t('a', 'failed', {
          requirements: ['R-a', 'R-other'],
          findings: [
            { requirements: ['R-a'], severity: 'MUST' },
            { requirements: ['R-other'], severity: 'WARN' },
          ],
        }),
        t('b', 'passed'),
        t('c', 'failed'),
        t('d', 'warned'),
        t('e', 'passed'),
        t('f', 'skipped'),
        t('g', 'passed'),
        t('h', 'passed', { severity: 'MUST' }),
        t('new', 'failed'),
      ],
      { categories: 12, favorites: 5 },
      2500,
    );
    const c = compareResults(before, after);
    expect(c.newFailures.map((x) => [x.id, x.before])).toEqual([
      ['a', 'passed'],
      ['new', 'absent'],
    ]);
    expect(c.fixed.map((x) => x.id)).toEqual(['b']);
    expect(c.stillFailing.map((x) => x.id)).toEqual(['c']);
    expect(c.newWarnings.map((x) => x.id)).toEqual(['d']);
    expect(c.warningsGone.map((x) => x.id)).toEqual(['e']);
    expect(c.noLongerJudged.map((x) => [x.id, x.after])).toEqual([
      ['f', 'skipped'],
      ['gone', 'absent'],
    ]);
    expect(c.newlyJudged.map((x) => x.id)).toEqual(['g', 'new']);
    expect(c.severityChanged.map((x) => [x.id, x.before, x.after])).toEqual([['h', 'WARN', 'MUST']]);
    expect(c.requirementsNewlyFailing).toEqual(['R-a', 'R-new']);
    expect(c.requests).toEqual({ before: 15, after: 17, bySuite: [{ suite: 'categories', before: 10, after: 12 }] });
    expect(c.durationMs).toEqual({ before: 1000, after: 2500 });
    expect(c.differences).toEqual([]);
    expect(isRegression(c)).toBe(true);
    expect(isRegression(compareResults(after, before))).toBe(true); // b fails again
    expect(isRegression(compareResults(before, before))).toBe(false);
  });

  test('what differs in how the verdicts were made is said', () => {
    const before = results([t('a', 'passed')]);
    const after = { ...results([t('a', 'passed')]), run: { kit: { version: '0.2.0', commit: null }, catalogue: { sha256: 'y' }, target: 'https://other.example' } };
    expect(compareResults(before, after).differences).toEqual([
      `kit 0.1.0 ${'a'.repeat(12)} before, 0.2.0 after`,
      'the requirement catalogue differs (its statements or their ids may have changed)',
      'target https://api.example before, https://other.example after',
    ]);
  });
});
