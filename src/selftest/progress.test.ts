// Issue 20, point 2: what the CLI shows while a run goes. In CI (no terminal) one line per finished
// suite, before the summary; --verbose adds a line per test; --quiet shows the summary alone.
// (The live line of a terminal is src/report/progress.test.ts's.)
import { describe, expect, test } from 'vitest';
import { startReference } from '../reference/server.ts';
import { runCli, SELFTEST_LIMITS, targetArgs } from '../testing/cli.ts';

const SUITE_LINE = /^(categories|search): \d+ passed, 0 failed.* \| suites [12]\/2, tests \d+\/\d+\+?, requests \d+\/900, 0 failed so far/m;

describe('progress while the run goes', () => {
  test.concurrent.each([
    ['default in CI', [], true, false],
    ['--verbose', ['--verbose'], true, true],
    ['--quiet', ['--quiet'], false, false],
  ] as const)('%s', { timeout: 60_000 }, async (_name, flags, suiteLines, testLines) => {
    const ref = await startReference({ limits: SELFTEST_LIMITS });
    try {
      const run = await runCli([...targetArgs(ref), ...flags, 'categories', 'search']);
      expect(run.code, run.stdout).toBe(0);
      expect(SUITE_LINE.test(run.stdout), run.stdout).toBe(suiteLines);
      expect(/^ {2}PASSED {2}categories > /m.test(run.stdout), run.stdout).toBe(testLines);
      // The progress comes before the summary, which is whole.
      const summaryAt = run.stdout.indexOf('catalogue-conformance: ');
      expect(summaryAt).toBeGreaterThanOrEqual(0);
      if (suiteLines) expect(run.stdout.search(SUITE_LINE)).toBeLessThan(summaryAt);
      expect(run.stdout).toMatch(/^PASS: no MUST requirement failed$/m);
    } finally {
      await ref.close();
    }
  });

  test('--quiet and --verbose together: refused, exit 2', async () => {
    const run = await runCli(['--quiet', '--verbose']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--quiet and --verbose cannot both be given/);
  });
});
