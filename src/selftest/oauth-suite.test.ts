// The OAuth suite (suites/oauth.suite.ts), run through the real CLI: it must pass against the
// reference (also with other data, a base path and the auth server on another origin, with a
// deployment that denies consent at once, and with one that refuses publish_sku_review_actions),
// stay within its request cap, leave the data as it found it, leak no token or code into the
// reports, and fail against each fault of its area, naming the requirement the fault breaks.
import { describe, expect, test } from 'vitest';
import { FAULTS, startReference, type ReferenceOptions } from '../reference/server.ts';
import { requirements } from '../requirements/catalogue.ts';
import { CAUGHT_BY } from './fault-coverage.ts';
import { type CliRun, runSummary, targetArgs, runCliBatched } from '../testing/cli.ts';

const LIMITS = { perMinute: 1_000_000, perDay: 1_000_000 };
/**
 * Hard cap of a default run of the suite, token requests included: one of them shows the run's
 * application token still works after the suite was granted one (a server may revoke the earlier).
 */
const REQUEST_CAP = 55;

/** Faults the suite catches. */
const CAUGHT = CAUGHT_BY.oauth;

async function runSuite(options: ReferenceOptions, env: Record<string, string> = {}): Promise<{ run: CliRun; changed: boolean; secrets: string[] }> {
  const ref = await startReference({ limits: LIMITS, ...options });
  try {
    const before = ref.stateDigest();
    const expired = ref.expiredToken();
    const run = await runCliBatched([...targetArgs(ref), 'oauth'], { CATALOGUE_EXPIRED_TOKEN: expired, ...env });
    return { run, changed: ref.stateDigest() !== before, secrets: [expired, ref.client.secret] };
  } finally {
    await ref.close();
  }
}

const skipped = (run: CliRun) => run.results!.tests.filter((t) => t.status === 'skipped');

test('every caught fault names a known MUST requirement', () => {
  for (const fault of CAUGHT) expect(requirements().get(FAULTS[fault]!.requirement)?.level, fault).toBe('MUST');
});

describe.concurrent('the oauth suite against the reference', () => {
  test(`passes within ${REQUEST_CAP} requests, only the denial test skipped (consent is automatic), data unchanged, no secret in the reports`, async () => {
    const { run, changed, secrets } = await runSuite({});
    expect(run.code, runSummary(run)).toBe(0);
    expect(run.results!.summary, runSummary(run)).toMatchObject({ failed: 0, warned: 0, skipped: 1 });
    expect(skipped(run)[0]!.message).toContain('consents at once');
    expect(run.results!.requests.total).toBeLessThanOrEqual(REQUEST_CAP);
    expect(changed, 'the suite left the data changed').toBe(false);
    const reports = run.allReportText() + run.stdout + run.stderr;
    for (const secret of secrets) expect(reports.includes(secret), 'a secret leaked into the reports').toBe(false);
    // Codes and tokens of the flows are redacted wherever they appear.
    expect(reports).not.toMatch(/[?&]code=(?!\[REDACTED\])[^&"\s]{8,}/);
    expect(reports).not.toMatch(/"(access_token|refresh_token)":"(?!\[REDACTED\])/);
  });

  test('passes on other data, under a base path, with the auth server on another origin', async () => {
    const { run, changed } = await runSuite({ dataset: 'alt', basePath: '/api', authOrigin: 'separate' });
    expect(run.code, runSummary(run)).toBe(0);
    expect(run.results!.summary, runSummary(run)).toMatchObject({ failed: 0, warned: 0, skipped: 1 });
    expect(run.results!.requests.total).toBeLessThanOrEqual(REQUEST_CAP);
    expect(changed).toBe(false);
  });

  test('consent denied at once: the denial test runs and passes; those that need a code skip with the reason', async () => {
    const { run, changed } = await runSuite({ consent: 'deny' });
    expect(run.code, runSummary(run)).toBe(0);
    const denial = run.results!.tests.find((t) => t.title.includes('denial'))!;
    expect(denial.status, runSummary(run)).toBe('passed');
    const skips = skipped(run);
    expect(skips.map((t) => t.title).sort(), runSummary(run)).toEqual(
      run
        .results!.tests.filter((t) => /consent redirect carries the code|refresh grant|scope public alone/.test(t.title))
        .map((t) => t.title)
        .sort(),
    );
    for (const skip of skips) expect(skip.message).toContain('error=access_denied');
    expect(run.results!.summary.failed).toBe(0);
    expect(changed).toBe(false);
  });

  test('consent shown as a page: the code-flow tests skip with the reason, the rest passes', async () => {
    const { run } = await runSuite({ consent: 'page' });
    expect(run.code, runSummary(run)).toBe(0);
    expect(run.results!.summary, runSummary(run)).toMatchObject({ failed: 0, skipped: 4 });
    for (const skip of skipped(run)) expect(skip.message).toContain('consent page');
  });

  test('publish_sku_review_actions refused by the authorization step: passes all the same', async () => {
    const { run, changed } = await runSuite({ reviewActionsScope: 'refused' });
    expect(run.code, runSummary(run)).toBe(0);
    expect(run.results!.summary, runSummary(run)).toMatchObject({ failed: 0, warned: 0, skipped: 1 });
    expect(changed).toBe(false);
  });

  test('without an expired token the expired-token test skips with the reason', async () => {
    const { run } = await runSuite({}, { CATALOGUE_EXPIRED_TOKEN: '' });
    expect(run.code, runSummary(run)).toBe(0);
    expect(skipped(run).map((t) => t.message)).toContain('no expired token (CATALOGUE_EXPIRED_TOKEN)');
  });

  // Each fault of CAUGHT failing this suite, naming its requirement: src/selftest/mutation.test.ts.
});
