import { describe, expect, test } from 'vitest';
import type { TestCase, TestModule } from 'vitest/node';
import { ProgressReporter, type ProgressMode } from './progress.ts';

/** Just enough of vitest's TestModule and TestCase for the reporter. */
function fakeModule(file: string, tests: { title: string; requests: number; state: 'passed' | 'failed' | 'skipped'; warned?: boolean }[]) {
  const module = {
    moduleId: `/kit/suites/${file}.suite.ts`,
    children: { allTests: () => cases },
  } as unknown as TestModule;
  const cases = tests.map(
    (t) =>
      ({
        module,
        fullName: t.title,
        meta: () => ({ conformance: { requirements: ['X-1'], severity: 'MUST', profile: 'read', requests: t.requests }, outcome: { warnings: t.warned ? [{}] : [] } }),
        result: () => ({ state: t.state }),
      }) as unknown as TestCase,
  );
  return { module, cases };
}

function harness(mode: ProgressMode, suites = 2) {
  let now = 0;
  let used = 0;
  const out: string[] = [];
  const reporter = new ProgressReporter({ mode, write: (text) => out.push(text), suites, requests: () => ({ used, budget: 900 }), now: () => now });
  return {
    reporter,
    out,
    at: (ms: number, requests: number) => {
      now = ms;
      used = requests;
    },
    /** A suite file loaded, and its tests begun (as vitest reports it). */
    begin: (module: TestModule) => {
      reporter.onTestModuleCollected(module);
      reporter.onTestModuleStart(module);
    },
  };
}

describe('progress', () => {
  const categories = fakeModule('categories', [
    { title: 'GET /categories/root > a', requests: 30, state: 'passed' },
    { title: 'GET /categories/root > b', requests: 20, state: 'failed' },
  ]);
  const search = fakeModule('search', [{ title: 'GET /search > c', requests: 50, state: 'skipped' }]);

  test('lines (CI, a log): one line per finished suite, with the run so far and an ETA from the requests still reserved at the rate kept', () => {
    const { reporter, out, at, begin } = harness('lines');
    begin(categories.module);
    at(10_000, 20);
    reporter.onTestCaseResult(categories.cases[0]!);
    at(30_000, 50);
    reporter.onTestCaseResult(categories.cases[1]!);
    reporter.onTestModuleEnd(categories.module);
    // 50 requests in 30 s; 0 reserved left of categories, and search (not collected yet) counts as categories' 50.
    expect(out).toEqual(['categories: 1 passed, 1 failed (30.0 s) | suites 1/2, tests 2/2+, requests 50/900, 1 failed so far, ETA 0:30\n']);
    begin(search.module);
    at(31_000, 51);
    reporter.onTestCaseResult(search.cases[0]!);
    reporter.onTestModuleEnd(search.module);
    expect(out[1]).toBe('search: 0 passed, 0 failed, 1 skipped (1.0 s) | suites 2/2, tests 3/3, requests 51/900, 1 failed so far, ETA 0:00\n');
  });

  test('verbose: a line per test as well; quiet: nothing', () => {
    /** The whole of one suite, in the order vitest reports it. */
    const play = (mode: ProgressMode) => {
      const { reporter, out, begin } = harness(mode);
      begin(categories.module);
      for (const testCase of categories.cases) reporter.onTestCaseResult(testCase);
      reporter.onTestModuleEnd(categories.module);
      reporter.finish();
      return out;
    };
    expect(play('verbose').slice(0, 2)).toEqual(['  PASSED  categories > GET /categories/root > a\n', '  FAILED  categories > GET /categories/root > b\n']);
    expect(play('quiet')).toEqual([]);
  });

  test('live (a terminal): one line rewritten in place, cleared before the summary', () => {
    const { reporter, out, at, begin } = harness('live');
    begin(categories.module);
    at(500, 12);
    reporter.onTestCaseResult(categories.cases[1]!);
    expect(out).toEqual(['\r\x1b[2K[0/2+ tests] categories | requests 0/900 | 0 failed', '\r\x1b[2K[1/2+ tests] categories | requests 12/900 | 1 failed']);
    // Redrawn at most every 100 ms.
    reporter.onTestCaseResult(categories.cases[0]!);
    expect(out).toHaveLength(2);
    reporter.finish();
    expect(out[2]).toBe('\r\x1b[2K');
    reporter.finish();
    expect(out).toHaveLength(3);
  });
});
