// The user and notifications suites, run through the real CLI: they must pass against the
// reference (also with other data, a base path and the auth server on another origin, and with an
// older API version), leave the reference's data unchanged on a default run, and fail against each
// account fault they catch, naming the requirement the fault breaks.
import { describe, expect, test } from 'vitest';
import { CAUGHT_BY } from './fault-coverage.ts';
import { ACCOUNT_FAULTS } from '../reference/faults/account.ts';
import { FAULTS, startReference, type ReferenceOptions } from '../reference/server.ts';
import { runCli, targetArgs, type CliRun } from '../testing/cli.ts';

const LIMITS = { perMinute: 1_000_000, perDay: 1_000_000 };
const SUITES = ['user', 'notifications'];

/** Account faults the two suites catch. */
const CAUGHT = CAUGHT_BY['user, notifications'];

/** Not caught yet: logout needs a user token of its own, which the harness cannot give a test. */
const NOT_CAUGHT = ['logout-returns-body'];

/** Faults that show only in a profile beyond the default read,write. */
const PROFILES_OF: Record<string, string> = { 'notifications-view-not-persisted': 'read,write,destructive' };

async function runSuites(options: ReferenceOptions, env: Record<string, string> = {}): Promise<{ run: CliRun; unchanged: boolean }> {
  const ref = await startReference({ limits: LIMITS, ...options });
  try {
    const before = ref.stateDigest();
    const run = await runCli([...targetArgs(ref), ...SUITES], env);
    return { run, unchanged: ref.stateDigest() === before };
  } finally {
    await ref.close();
  }
}

const summary = (run: CliRun) =>
  run.stdout +
  run.stderr +
  JSON.stringify(run.results?.tests.filter((t) => t.status !== 'passed').map((t) => ({ title: t.title, status: t.status, message: t.message, findings: t.findings })), null, 1);

const skippedTitles = (run: CliRun) => run.results!.tests.filter((t) => t.status === 'skipped').map((t) => t.title);

test('every account fault is either caught or listed as not caught', () => {
  expect([...CAUGHT, ...NOT_CAUGHT].sort()).toEqual(Object.keys(ACCOUNT_FAULTS).sort());
});

describe.concurrent('the user and notifications suites against the reference', () => {
  test('pass on the default data, leave the data unchanged, within 120 requests; only logout and the destructive test skip', async () => {
    const { run, unchanged } = await runSuites({});
    expect(run.code, summary(run)).toBe(0);
    expect(run.results!.summary, summary(run)).toMatchObject({ failed: 0, warned: 0 });
    expect(skippedTitles(run).sort(), summary(run)).toEqual([
      'DELETE /user/logout > answers 200 with an empty body, on a user token of its own',
      'POST /notifications/view > makes an unviewed notification viewed (is_viewed false -> true, 204); cannot be undone',
    ]);
    expect(run.results!.summary.passed).toBeGreaterThanOrEqual(13);
    expect(run.results!.requests.total).toBeLessThanOrEqual(120);
    expect(unchanged, 'the default run changed the reference data').toBe(true);
  });

  test('pass unchanged on other data, under a base path, with the auth server on another origin', async () => {
    const { run, unchanged } = await runSuites({ dataset: 'alt', basePath: '/api', authOrigin: 'separate' });
    expect(run.code, summary(run)).toBe(0);
    expect(run.results!.summary, summary(run)).toMatchObject({ failed: 0, warned: 0 });
    expect(unchanged).toBe(true);
  });

  test('pass with the destructive profile (an unviewed notification gets viewed)', async () => {
    const { run } = await runSuites({}, { CATALOGUE_PROFILES: 'read,write,destructive' });
    expect(run.code, summary(run)).toBe(0);
    expect(run.results!.summary, summary(run)).toMatchObject({ failed: 0, warned: 0, skipped: 1 });
  });

  for (const version of ['3.1', '3']) {
    test(`pass with API version ${version} (the 3.2.0 user endpoints skip)`, async () => {
      const { run } = await runSuites({}, { CATALOGUE_API_VERSION: version });
      expect(run.code, summary(run)).toBe(0);
      expect(run.results!.summary, summary(run)).toMatchObject({ failed: 0, warned: 0 });
    });
  }

  test('the read profile skips every write and still passes', async () => {
    const { run, unchanged } = await runSuites({}, { CATALOGUE_PROFILES: 'read' });
    expect(run.code, summary(run)).toBe(0);
    expect(skippedTitles(run).length, summary(run)).toBe(7);
    expect(unchanged).toBe(true);
  });

  for (const fault of CAUGHT) {
    const requirement = FAULTS[fault as keyof typeof FAULTS]!.requirement;
    test(`${fault}: fails, naming ${requirement}`, async () => {
      const { run } = await runSuites({ fault: fault as keyof typeof FAULTS, basePath: '/api' }, PROFILES_OF[fault] ? { CATALOGUE_PROFILES: PROFILES_OF[fault] } : {});
      expect(run.code, summary(run)).toBe(1);
      const failed = run.results!.tests.filter((t) => t.status === 'failed');
      const named = failed.flatMap((t) => t.findings.filter((f) => f.severity === 'MUST').flatMap((f) => f.requirements));
      expect(named, summary(run)).toContain(requirement);
    });
  }
});
