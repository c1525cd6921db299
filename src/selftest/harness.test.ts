// The harness's verdicts, end to end through the CLI, on the fixture suites in
// fixtures/harness-suites: MUST fails the run, WARN never does, a crash fails, and whatever cannot
// run is skipped with its reason.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startReference, type RunningReference } from '../reference/server.ts';
import { runAgainstOwnReference, runCli, type CliRun } from '../testing/cli.ts';

const SUITES = 'fixtures/harness-suites';
let ref: RunningReference;

/** Target arguments without a redirect URI: the run has no way to a user token. */
const argsFor = (ref: RunningReference) => [
  '--base-url',
  ref.baseUrl,
  '--auth-url',
  ref.authUrl,
  '--client-id',
  ref.client.id,
  '--client-secret',
  ref.client.secret,
  '--suites-dir',
  SUITES,
];
const args = () => argsFor(ref);

/** A run of fixture suites against a reference of its own: the concurrent tests' runs go in one child process. */
const fixtureRun = (extra: string[]): Promise<CliRun> => runAgainstOwnReference((own) => [...argsFor(own), ...extra]);

function byTitle(run: CliRun) {
  return new Map(run.results!.tests.map((t) => [t.title, t]));
}

beforeAll(async () => {
  ref = await startReference({});
});
afterAll(() => ref.close());

describe.concurrent('verdicts', () => {
  test('MUST failures fail the test and the run; require stops; a crash fails', async () => {
    const run = await fixtureRun(['verdicts']);
    expect(run.code, run.stdout + run.stderr).toBe(1);
    const tests = byTitle(run);
    expect(tests.get('a passing MUST check passes')?.status).toBe('passed');
    const both = tests.get('a failing MUST check fails, and the test goes on to the next check')!;
    expect(both.status).toBe('failed');
    expect(both.findings.map((f) => [f.requirements, f.message])).toEqual([
      [['CAT-18'], 'first failure'],
      [['CAT-6'], 'second failure'],
    ]);
    const stopped = tests.get('a failing require stops the test')!;
    expect(stopped.findings.map((f) => f.message)).toEqual(['stopped here']);
    const crashed = tests.get('a test that crashes fails, saying the test itself failed')!;
    expect(crashed.status).toBe('failed');
    expect(crashed.message).toMatch(/the test itself failed: TypeError/);
  });

  test("a finding shows the exchange that broke the rule (about(answer, ...), an HttpError's own), with a self-contained replay", async () => {
    const run = await fixtureRun(['verdicts']);
    for (const title of ['a finding about an earlier answer shows that answer, not the latest request', 'a request with no usable answer shows that request, not a later one']) {
      const block = run.stdout.split(`FAIL verdicts > ${title}\n`)[1]?.split(/\n(?=FAIL|WARN|SKIP|EXPECTED|\n)/)[0] ?? '';
      expect(block, run.stdout).toMatch(/^ {7}GET http:\/\/127\.0\.0\.1:\d+\/categories\/root -> 200$/m);
      expect(block).not.toMatch(/\/categories -> /);
      // How to get the token the replay needs, never the token.
      expect(block).toMatch(
        /^ {7}token: {2}export ACCESS_TOKEN="\$\(curl -s -X POST 'http:\/\/127\.0\.0\.1:\d+\/oauth2\/token' --data-urlencode grant_type=client_credentials --data-urlencode scope=public --data-urlencode client_id="\$CATALOGUE_CLIENT_ID" --data-urlencode client_secret="\$CATALOGUE_CLIENT_SECRET" \| sed -E .*# an application token$/m,
      );
      expect(block).toMatch(/^ {7}replay: curl -i 'http:\/\/127\.0\.0\.1:\d+\/categories\/root' .*-H 'authorization: Bearer '"\$ACCESS_TOKEN"/m);
    }
  });

  test('warnings alone leave the run passing (exit 0)', async () => {
    const run = await fixtureRun(['warnings']);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.results!.summary).toEqual({ passed: 0, failed: 0, warned: 2, skipped: 0, expected: 0 });
    for (const t of run.results!.tests) for (const f of t.findings) expect(f.severity).toBe('WARN');
    expect(byTitle(run).get('a WARN test never fails, even when its MUST checks fail')?.message).toBe('[CAT-13] downgraded');
    expect(run.stdout).toContain('WARN warnings > a failing warn in a MUST test only warns');
  });

  test('what cannot run is skipped with its reason', async () => {
    const run = await fixtureRun(['--profiles', 'read', 'skips']);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const tests = byTitle(run);
    expect(tests.get('a user test without a user token is skipped')).toMatchObject({
      status: 'skipped',
      message: expect.stringMatching(/^no user token: set CATALOGUE_USER_TOKEN/),
    });
    expect(tests.get('a write test is skipped when the write profile is off')).toMatchObject({
      status: 'skipped',
      message: 'profile write is not enabled (CATALOGUE_PROFILES=read)',
    });
    expect(tests.get('a test whose role cannot be discovered is skipped')).toMatchObject({ status: 'skipped', message: 'discovery: unknown role unicorn' });
  });

  // Its own process: the fixture reads CC_ORDER_FILE from the environment of the run's workers.
  test('suites under last/ start only after every other suite has finished', async () => {
    const order = join(mkdtempSync(join(tmpdir(), 'cc-order-')), 'order.txt');
    const run = await runCli([...args(), 'ordering'], { CC_ORDER_FILE: order });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.results!.summary).toEqual({ passed: 3, failed: 0, warned: 0, skipped: 0, expected: 0 });
    // Each first-pass test sleeps 1.5 s; in one pass the quick test would finish first.
    const lines = readFileSync(order, 'utf8').trim().split('\n');
    expect(lines.slice(0, 2).sort()).toEqual(['first-pass a', 'first-pass b']);
    expect(lines[2]).toBe('last');
  });

  test('a test that outgrows the budget is stopped at the cap and skipped, not failed', async () => {
    const run = await fixtureRun(['--max-requests', '10', 'budget']);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const [only] = run.results!.tests;
    expect(only).toMatchObject({ status: 'skipped', message: expect.stringMatching(/^request budget spent: 10 of CATALOGUE_MAX_REQUESTS=10/) });
    expect(run.results!.requests).toMatchObject({ total: 10, budget: 10 });
  });
});
