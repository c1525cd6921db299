// Issue 20, point 7: CATALOGUE_EXPECTED_FAILURES against the reference with a fault switched on.
// The failures it lists are reported as expected (exit 0; junit.xml shows them skipped, with the
// reason); past its day an entry excuses nothing (exit 1); an entry whose failure did not happen
// is named, to be removed; a file that is wrong stops the run before any request (exit 2).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { runAgainstReference } from '../testing/cli.ts';

const FAULT = 'children-count-off-by-one';

function deviations(entries: unknown): string {
  const file = join(mkdtempSync(join(tmpdir(), 'cc-dev-')), 'deviations.json');
  writeFileSync(file, JSON.stringify(entries));
  return file;
}

const day = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

describe('known deviations', () => {
  test('listed by test id, then by requirement: exit 0, the failures reported as expected; expired: exit 1 again', { timeout: 180_000 }, async () => {
    const faulty = await runAgainstReference(['categories'], { fault: FAULT });
    expect(faulty.run.code).toBe(1);
    const failed = faulty.run.results!.tests.filter((t) => t.status === 'failed');
    const broken = [...new Set(failed.flatMap((t) => t.findings.filter((f) => f.severity === 'MUST').flatMap((f) => f.requirements)))];

    const [byTest, byRequirement, expired] = await Promise.all([
      runAgainstReference(['categories'], { fault: FAULT }, { CATALOGUE_EXPECTED_FAILURES: deviations(failed.map((t) => ({ test: t.id, reason: 'ticket 42' }))) }),
      runAgainstReference(
        ['categories'],
        { fault: FAULT },
        { CATALOGUE_EXPECTED_FAILURES: deviations(broken.map((id) => ({ requirement: id, reason: 'ticket 43', expires: day(30) }))) },
      ),
      runAgainstReference(
        ['categories'],
        { fault: FAULT },
        { CATALOGUE_EXPECTED_FAILURES: deviations(broken.map((id) => ({ requirement: id, reason: 'ticket 44', expires: day(-2) }))) },
      ),
    ]);
    for (const { run } of [byTest, byRequirement]) {
      expect(run.code, run.stdout).toBe(0);
      expect(run.results!.summary).toMatchObject({ failed: 0, expected: failed.length });
      expect(run.stdout).toMatch(new RegExp(`^Tests: .*, ${failed.length} expected failures`, 'm'));
      expect(run.stdout).toMatch(/^EXPECTED categories > .*\(.*ticket 4[23]\)$/m);
      // CI sees them skipped, with the reason.
      const testCase = /<testcase [^>]*>(?:(?!<\/testcase>)[\s\S])*name="status" value="expected"(?:(?!<\/testcase>)[\s\S])*<\/testcase>/.exec(run.junit!)?.[0] ?? '';
      expect(testCase).toMatch(/<skipped\/>/);
      expect(testCase).toMatch(/name="skip_reason" value="expected failure \((test|requirement) [^"]*ticket 4[23]/);
      expect(testCase).not.toMatch(/<failure/);
      expect(run.stdout).toMatch(/^PASS/m);
    }
    expect(expired.run.code, expired.run.stdout).toBe(1);
    expect(expired.run.stdout).toMatch(/^NOTE the expected failure of requirement \S+ \(ticket 44\) expired on \d{4}-\d\d-\d\d: its failure fails the run again$/m);
  });

  test('an entry whose failure did not happen is named, to be removed; a wrong file stops the run at once (exit 2)', { timeout: 180_000 }, async () => {
    const clean = await runAgainstReference(['categories'], {}, { CATALOGUE_EXPECTED_FAILURES: deviations([{ requirement: 'CAT-5', reason: 'ticket 45' }]) });
    expect(clean.run.code, clean.run.stdout).toBe(0);
    expect(clean.run.stdout).toMatch(
      /^NOTE the expected failure of requirement CAT-5 \(ticket 45\) did not happen: \d+ test\(s\) citing it passed; remove it from \S+deviations\.json$/m,
    );

    const wrong = await runAgainstReference(['categories'], {}, { CATALOGUE_EXPECTED_FAILURES: deviations([{ requirement: 'CAT-55x', reason: 'r' }]) });
    expect(wrong.run.code).toBe(2);
    expect(`${wrong.run.stdout}${wrong.run.stderr}`).toMatch(
      /CATALOGUE_EXPECTED_FAILURES \(--expected-failures\): \S+deviations\.json, entry 1: "CAT-55x" is not a requirement id of the catalogue; did you mean CAT-5\?/,
    );
    expect(wrong.run.results).toBeNull();
  });
});
