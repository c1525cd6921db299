// Issue 20, point 8 (acceptance): `catalogue-conformance compare` on two runs, one with a fault
// switched on, exits 1 and names the new failure; the other way round it is a fix, exit 0; an
// input that is not a run's results is exit 2 with one line.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { runAgainstReference, runCli } from '../testing/cli.ts';

describe('compare', () => {
  test('a run with a fault after one without: exit 1, the new failure named with its requirement; reversed: fixed, exit 0', { timeout: 180_000 }, async () => {
    const [clean, faulty] = await Promise.all([runAgainstReference(['categories']), runAgainstReference(['categories'], { fault: 'children-count-off-by-one' })]);
    expect(clean.run.code).toBe(0);
    expect(faulty.run.code).toBe(1);
    const failed = faulty.run.results!.tests.filter((t) => t.status === 'failed');
    expect(failed.length).toBeGreaterThan(0);

    const regression = await runCli(['compare', clean.run.reportDir, faulty.run.reportDir]);
    expect(regression.code, regression.stderr).toBe(1);
    expect(regression.stdout).toMatch(/^NEW FAILURES \(\d+\):/m);
    // Each new failure by its id, with the requirements its findings broke.
    for (const test of failed)
      expect(regression.stdout).toContain(
        `${test.id} (passed before) [${[...new Set(test.findings.filter((f) => f.severity === 'MUST').flatMap((f) => f.requirements))].join(', ')}]`,
      );
    expect(regression.stdout).toMatch(/^REGRESSION: \d+ test\(s\) fail that did not$/m);

    const fix = await runCli(['compare', join(faulty.run.reportDir, 'latest', 'results.json'), clean.run.reportDir]);
    expect(fix.code, fix.stderr).toBe(0);
    expect(fix.stdout).toMatch(/^FIXED \(\d+\):/m);
    expect(fix.stdout).toMatch(/^NO REGRESSION/m);
  });

  test('an input that is not a run: exit 2, one line; --help: the usage, exit 0', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cc-compare-'));
    writeFileSync(join(dir, 'other.json'), '{"hello": 1}');
    const missing = await runCli(['compare', join(dir, 'nothing'), join(dir, 'other.json')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^catalogue-conformance compare: \S+nothing does not exist$/m);
    const notResults = await runCli(['compare', join(dir, 'other.json'), join(dir, 'other.json')]);
    expect(notResults.code).toBe(2);
    expect(notResults.stderr).toContain('is not a results.json of the kit');
    const one = await runCli(['compare', dir]);
    expect(one.code).toBe(2);
    const help = await runCli(['compare', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^usage: catalogue-conformance compare <before> <after>/);
  });
});
