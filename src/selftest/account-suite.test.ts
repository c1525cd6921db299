// The user, notifications and logout suites, run through the real CLI: they must pass against the
// reference (also with other data, a base path and the auth server on another origin, and with an
// older API version), leave the reference's data unchanged on a default run, and fail against each
// account fault they catch, naming the requirement the fault breaks.
import { describe, expect, test } from 'vitest';
import { CAUGHT_BY } from './fault-coverage.ts';
import { ACCOUNT_FAULTS } from '../reference/faults/account.ts';
import { startReference, type ReferenceOptions } from '../reference/server.ts';
import { type CliRun, runAgainstReference, runSummary, targetArgs, runCliBatched } from '../testing/cli.ts';
import { servicesFor } from '../testing/services.ts';
import { ApiClient } from '../harness/api.ts';
import { kitName } from '../util/kit-names.ts';

const LIMITS = { perMinute: 1_000_000, perDay: 1_000_000 };
const SUITES = ['user', 'notifications', 'logout'];

/** Account faults the three suites catch. */
const CAUGHT = CAUGHT_BY['user, notifications, logout'];

async function runSuites(options: ReferenceOptions, env: Record<string, string> = {}): Promise<{ run: CliRun; unchanged: boolean }> {
  const { run, changed } = await runAgainstReference(SUITES, options, env);
  return { run, unchanged: !changed };
}

const skippedTitles = (run: CliRun) => run.results!.tests.filter((t) => t.status === 'skipped').map((t) => t.title);

test('every account fault is caught', () => {
  expect([...CAUGHT].sort()).toEqual(Object.keys(ACCOUNT_FAULTS).sort());
});

describe.concurrent('the user, notifications and logout suites against the reference', () => {
  test('pass on the default data, leave the data unchanged, within 120 requests; only the destructive test skips', async () => {
    const { run, unchanged } = await runSuites({});
    expect(run.code, runSummary(run)).toBe(0);
    expect(run.results!.summary, runSummary(run)).toMatchObject({ failed: 0, warned: 0 });
    expect(skippedTitles(run).sort(), runSummary(run)).toEqual([
      'POST /notifications/view > makes an unviewed notification viewed (is_viewed false -> true, 204); cannot be undone',
    ]);
    expect(run.results!.tests.at(-1)!.title, 'logout runs last').toMatch(/^DELETE \/user\/logout/);
    expect(run.results!.summary.passed).toBeGreaterThanOrEqual(13);
    expect(run.results!.requests.total).toBeLessThanOrEqual(120);
    expect(unchanged, 'the default run changed the reference data').toBe(true);
  });

  test('pass unchanged on other data, under a base path, with the auth server on another origin', async () => {
    const { run, unchanged } = await runSuites({ dataset: 'alt', basePath: '/api', authOrigin: 'separate' });
    expect(run.code, runSummary(run)).toBe(0);
    expect(run.results!.summary, runSummary(run)).toMatchObject({ failed: 0, warned: 0 });
    expect(unchanged).toBe(true);
  });

  test('pass when logout ends every token of the user (its effect is not shown): logout runs after all else', async () => {
    const { run } = await runSuites({ logoutEnds: 'all-user-tokens' });
    expect(run.code, runSummary(run)).toBe(0);
    expect(run.results!.summary, runSummary(run)).toMatchObject({ failed: 0, warned: 0, skipped: 1 });
  });

  test('logout skips, saying why, when the kit cannot get a user token of its own (here consent is denied)', async () => {
    const ref = await startReference({ limits: LIMITS, consent: 'deny' });
    try {
      const run = await runCliBatched([...targetArgs(ref), 'logout']);
      expect(run.code, runSummary(run)).toBe(0);
      expect(
        run.results!.tests.map((t) => [t.status, t.message]),
        runSummary(run),
      ).toEqual([['skipped', 'no user token of its own: the deployment redirected with error=access_denied']]);
    } finally {
      await ref.close();
    }
  });

  test('pass with the destructive profile (an unviewed notification gets viewed)', async () => {
    const { run } = await runSuites({}, { CATALOGUE_PROFILES: 'read,write,destructive' });
    expect(run.code, runSummary(run)).toBe(0);
    expect(run.results!.summary, runSummary(run)).toMatchObject({ failed: 0, warned: 0, skipped: 0 });
  });

  for (const version of ['3.1', '3']) {
    test(`pass with API version ${version} (the 3.2.0 user endpoints skip)`, async () => {
      const { run } = await runSuites({}, { CATALOGUE_API_VERSION: version });
      expect(run.code, runSummary(run)).toBe(0);
      expect(run.results!.summary, runSummary(run)).toMatchObject({ failed: 0, warned: 0 });
    });
  }

  test('the read profile skips every write and still passes', async () => {
    const { run, unchanged } = await runSuites({}, { CATALOGUE_PROFILES: 'read' });
    expect(run.code, runSummary(run)).toBe(0);
    expect(skippedTitles(run).length, runSummary(run)).toBe(7);
    expect(unchanged).toBe(true);
  });

  // Each fault of CAUGHT failing this suite, naming its requirement: src/selftest/mutation.test.ts.
});

test("the user suite sweeps the kit's addresses of runs that are over, never those of a run still going (here or on another machine)", async () => {
  const ref = await startReference({ limits: LIMITS });
  try {
    const api = new ApiClient({ baseUrl: ref.baseUrl, apiVersion: '3.2', timeoutMs: 5_000, services: servicesFor(ref).services, holder: 'other run' });
    const form = JSON.parse((await api.get('/user/addresses/new', { auth: 'user' })).text) as { address_form: { regions: Record<string, number> } };
    const address = (label: string) => ({
      label,
      first_name: 'Other',
      last_name: 'Run',
      street_name: 'Test Street',
      street_number: '2',
      city: 'Testville',
      zip: 12345,
      region_id: Object.values(form.address_form.regions)[0],
    });
    const made = async (label: string) =>
      (JSON.parse((await api.request('POST', '/user/addresses', { auth: 'user', json: address(label) })).text) as { address: { id: number } }).address.id;
    // Another run's, going on for 20 more minutes; and one of a run over two hours ago.
    const live = await made(kitName('address', Date.now() + 20 * 60_000));
    const over = await made(kitName('address', Date.now() - 2 * 3600_000));
    const run = await runCliBatched([...targetArgs(ref), 'user.suite'], {});
    expect(run.code, runSummary(run)).toBe(0);
    const ids = (JSON.parse((await api.get('/user/addresses', { auth: 'user' })).text) as { addresses: { id: number }[] }).addresses.map((a) => a.id);
    expect(ids).toContain(live);
    expect(ids).not.toContain(over);
  } finally {
    await ref.close();
  }
});
