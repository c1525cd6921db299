// The conditional-requests and rate-limits suites (suites/conditional-requests.suite.ts,
// suites/rate-limits.suite.ts), run through the real CLI: they pass against the reference (also
// with other data, a base path and the auth server on another origin, and at the reference's
// default limits of 100 a minute (on a scaled clock: the minute lasts a second), where a default run never gets a 403), leave its data as they
// found it, stay within 40 requests, and fail against each fault of their area, naming the
// requirement the fault breaks. The destructive profile, against a reference with low limits,
// sees the per-minute 403 and the daily lock-out.
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, test } from 'vitest';
import { EMBEDDED_WINDOW_MS, FAULTS, startReference, type ReferenceOptions, type RunningReference } from '../reference/server.ts';
import { requirements } from '../requirements/catalogue.ts';
import { CAUGHT_BY } from './fault-coverage.ts';
import { type CliRun, runCliBatched, runSummary, scaledMinuteOf, targetArgs } from '../testing/cli.ts';

const HIGH = { perMinute: 1_000_000, perDay: 1_000_000 };
/** Low enough to be reached in seconds, high enough that the OAuth window never makes the run wait. */
const LOW = { perMinute: 20, perDay: 80, windowMs: EMBEDDED_WINDOW_MS };
const SUITES = ['conditional-requests', 'rate-limits', 'daily-limit'];
const DESTRUCTIVE = { CATALOGUE_PROFILES: 'read,write,destructive', CATALOGUE_MAX_REQUESTS: '1000' };

/** Faults of enforcement, caught by the destructive profile only. */
const CAUGHT_DESTRUCTIVE: readonly string[] = ['ratelimit-status-429', 'ratelimit-not-enforced', 'ratelimit-403-without-message'];
const CAUGHT = CAUGHT_BY['conditional-requests, rate-limits, daily-limit'];

interface SuiteRun {
  run: CliRun;
  changed: boolean;
  statuses: number[];
}

/** A pass-through proxy in front of the reference that records every status it answered. */
async function recordingProxy(target: RunningReference): Promise<{ server: Server; url: string; statuses: number[] }> {
  const origin = new URL(target.baseUrl);
  const statuses: number[] = [];
  const server = createServer((req, res) => {
    const upstream = request({ host: origin.hostname, port: origin.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      statuses.push(answer.statusCode ?? 0);
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, statuses };
}

async function runSuites(options: ReferenceOptions, env: Record<string, string> = {}, suites = SUITES, proxied = false): Promise<SuiteRun> {
  const ref = await startReference({ limits: HIGH, ...options });
  const proxy = proxied ? await recordingProxy(ref) : null;
  try {
    const before = ref.stateDigest();
    let args = targetArgs(ref);
    if (proxy) {
      const base = new URL(ref.baseUrl);
      args = args.map((a) => (a === ref.baseUrl ? `${proxy.url}${base.pathname.replace(/\/$/, '')}` : a === ref.authUrl ? proxy.url : a));
    }
    const run = await runCliBatched([...args, ...suites], env, 300_000, scaledMinuteOf(ref));
    return { run, changed: ref.stateDigest() !== before, statuses: proxy?.statuses ?? [] };
  } finally {
    if (proxy) await new Promise<void>((resolve) => proxy.server.close(() => resolve()));
    await ref.close();
  }
}

const byTitle = (run: CliRun, part: string) => run.results!.tests.find((t) => t.title.includes(part))!;

test('the caught faults name known MUST requirements', () => {
  for (const fault of CAUGHT) expect(requirements().get(FAULTS[fault]!.requirement)?.level, fault).toBe('MUST');
});

describe.concurrent('the conditional-requests and rate-limits suites against the reference', () => {
  test('pass on the default data within 40 requests, the destructive tests skipped, the data unchanged', async () => {
    const { run, changed } = await runSuites({});
    expect(run.code, runSummary(run)).toBe(0);
    // The one warning: X-RateLimit-Limit is not the spec's 100 (the self-test's limit is a million).
    expect(run.results!.summary, runSummary(run)).toMatchObject({ failed: 0, passed: 5, warned: 1, skipped: 2 });
    for (const t of run.results!.tests.filter((x) => x.status === 'skipped')) expect(t.message).toMatch(/profile destructive is not enabled/);
    expect(run.results!.requests.total, runSummary(run)).toBeLessThanOrEqual(40);
    expect(changed, 'the suites left the data changed').toBe(false);
  });

  test('pass unchanged on other data, under a base path, with the auth server on another origin', async () => {
    const { run, changed } = await runSuites({ dataset: 'alt', basePath: '/api', authOrigin: 'separate' });
    expect(run.code, runSummary(run)).toBe(0);
    expect(run.results!.summary, runSummary(run)).toMatchObject({ failed: 0, passed: 5, warned: 1, skipped: 2 });
    expect(changed).toBe(false);
  });

  test("at the reference's default limits (100 a minute): pass without a warning, and no request gets a 403", async () => {
    const { run, changed, statuses } = await runSuites({ limits: { perMinute: 100, perDay: 1000, windowMs: EMBEDDED_WINDOW_MS } }, {}, SUITES, true);
    expect(run.code, runSummary(run)).toBe(0);
    expect(run.results!.summary, runSummary(run)).toMatchObject({ failed: 0, passed: 6, warned: 0, skipped: 2 });
    expect(statuses.length).toBeGreaterThan(20);
    expect(statuses.filter((s) => s === 403 || s === 429)).toEqual([]);
    expect(changed).toBe(false);
  });

  test('the read profile skips the write test and still passes', async () => {
    const { run } = await runSuites({}, { CATALOGUE_PROFILES: 'read' });
    expect(run.code, runSummary(run)).toBe(0);
    expect(byTitle(run, 'after the resource changes').status).toBe('skipped');
  });

  test('destructive, with low limits: the per-minute 403 with {message} and the daily lock-out are seen', async () => {
    const { run, changed } = await runSuites({ limits: LOW }, DESTRUCTIVE, ['rate-limits', 'daily-limit']);
    expect(run.code, runSummary(run)).toBe(0);
    expect(run.results!.summary, runSummary(run)).toMatchObject({ failed: 0, skipped: 0 });
    expect(byTitle(run, 'over the per-minute limit').status, runSummary(run)).toBe('passed');
    expect(byTitle(run, 'past the daily call limit').status, runSummary(run)).toBe('passed');
    expect(changed).toBe(false);
  });

  test('destructive, when the budget cannot reach the daily limit: the lock-out test is skipped saying so', async () => {
    const { run } = await runSuites({}, { ...DESTRUCTIVE, CATALOGUE_MAX_REQUESTS: '40' }, ['rate-limits', 'daily-limit']);
    expect(run.code, runSummary(run)).toBe(0);
    const daily = byTitle(run, 'past the daily call limit');
    expect(daily.status, runSummary(run)).toBe('skipped');
    expect(daily.message).toMatch(/daily call limit was not reached within the run's request budget/);
  });

  test("daily-limit-not-enforced: told the deployment's daily limit, the destructive profile fails naming RATE-3; a correct deployment told the same passes, also one that answers the call past the limit 403 {message}", async () => {
    const env = { ...DESTRUCTIVE, CATALOGUE_DAILY_LIMIT: String(LOW.perDay) };
    const [faulty, correct, limit403] = await Promise.all([
      runSuites({ fault: 'daily-limit-not-enforced', basePath: '/api', limits: LOW }, env, ['daily-limit']),
      runSuites({ limits: LOW }, env, ['daily-limit']),
      runSuites({ limits: LOW, variants: ['daily-limit-403'] }, env, ['daily-limit']),
    ]);
    expect(faulty.run.code, runSummary(faulty.run)).toBe(1);
    const failed = byTitle(faulty.run, 'past the daily call limit');
    expect(
      failed.findings.filter((f) => f.severity === 'MUST').flatMap((f) => f.requirements),
      runSummary(faulty.run),
    ).toContain('RATE-3');
    expect(failed.message).toMatch(/more than twice the daily limit of \d+ \(CATALOGUE_DAILY_LIMIT\)/);
    expect(correct.run.code, runSummary(correct.run)).toBe(0);
    expect(byTitle(correct.run, 'past the daily call limit').status).toBe('passed');
    expect(limit403.run.code, runSummary(limit403.run)).toBe(0);
    expect(byTitle(limit403.run, 'past the daily call limit').status).toBe('passed');
  });

  // Each fault of CAUGHT failing this suite, naming its requirement: src/selftest/mutation.test.ts.

  for (const fault of CAUGHT_DESTRUCTIVE) {
    const requirement = FAULTS[fault]!.requirement;
    test(`${fault}: the destructive profile fails, naming ${requirement}; a default run passes`, async () => {
      const [destructive, plain] = await Promise.all([runSuites({ fault, basePath: '/api', limits: LOW }, DESTRUCTIVE, ['rate-limits']), runSuites({ fault })]);
      expect(destructive.run.code, runSummary(destructive.run)).toBe(1);
      const failed = byTitle(destructive.run, 'over the per-minute limit');
      expect(failed.status, runSummary(destructive.run)).toBe('failed');
      expect(failed.findings.filter((f) => f.severity === 'MUST').flatMap((f) => f.requirements)).toContain(requirement);
      expect(plain.run.code, runSummary(plain.run)).toBe(0);
    });
  }
});
