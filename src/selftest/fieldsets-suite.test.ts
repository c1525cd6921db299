// The sparse-fieldsets and linked-resources suite (suites/fieldsets.suite.ts), run through the real
// CLI: it passes against the reference (also with other data, a base path, the auth server on
// another origin, and API versions 3.1 and 3), stays within its request cap, fails against each
// fault of its area naming the requirement the fault breaks with the seed and the request in the
// message, and CATALOGUE_SEED replays the same requests.
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, test } from 'vitest';
import { FAULTS, startReference, type ReferenceOptions } from '../reference/server.ts';
import { CAUGHT_BY, FAULT_SETUP } from './fault-coverage.ts';
import { type CliRun, runAgainstReference, runSummary, targetArgs, runCliBatched } from '../testing/cli.ts';

const LIMITS = { perMinute: 1_000_000, perDay: 1_000_000 };
const SUITE = 'fieldsets';
/** Hard cap of a default run of the suite (discovery and tokens included). */
const MAX_REQUESTS = 170;

/** Faults the suite catches (the lead moves this list into fault-coverage.ts). */
const CAUGHT = CAUGHT_BY.fieldsets;

/** Faults a property finds (the others are judged by a test of fixed requests): all of them. */
const PROPERTY_FAULTS = new Set<string>(CAUGHT);

/** The reference serves 3.0, 3.1 and 3.2: the version=3.0 test asks 3.0 only when the run names it. */
const SERVED = { CATALOGUE_VERSIONS: '3.0,3.1,3.2' };
const runSuite = async (options: ReferenceOptions, env: Record<string, string> = {}): Promise<CliRun> => (await runAgainstReference([SUITE], options, { ...SERVED, ...env })).run;

/**
 * Runs the suite through a proxy in front of the reference's API that records each request's
 * method, path and query (the token endpoint is reached directly, as on another origin).
 */
async function recordedRun(env: Record<string, string>): Promise<{ run: CliRun; requests: string[] }> {
  const ref = await startReference({ limits: LIMITS });
  const target = new URL(ref.baseUrl);
  const requests: string[] = [];
  const proxy = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    const upstream = httpRequest({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  try {
    const base = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}${target.pathname.replace(/\/+$/, '')}`;
    const args = targetArgs(ref).map((a) => (a === ref.baseUrl ? base : a));
    const run = await runCliBatched([...args, SUITE], env);
    // The requests with a fieldset or a link parameter: the properties' and their answers without fieldsets.
    return { run, requests: requests.filter((r) => /[?&](fields|fields_except|embed|embed_ids|include)(%5B|\[|=)/.test(r)) };
  } finally {
    await new Promise((resolve) => proxy.close(resolve));
    await ref.close();
  }
}

/** The MUST findings of failed tests. */
const mustFindings = (run: CliRun) => run.results!.tests.filter((t) => t.status === 'failed').flatMap((t) => t.findings.filter((f) => f.severity === 'MUST'));

/** A message without the reference's port, to compare runs. */
const portless = (text: string) => text.replace(/127\.0\.0\.1:\d+/g, 'HOST');

test('every fault the suite is said to catch exists, and breaks a fieldset or link requirement', () => {
  for (const fault of CAUGHT) expect(FAULTS[fault]?.requirement, fault).toMatch(/^(FIELDS|LINK|CHG)-\d+$/);
});

describe.concurrent('the fieldsets suite against the reference', () => {
  test(`passes on the default data: no failure, no warning, no skip, within ${MAX_REQUESTS} requests`, async () => {
    const run = await runSuite({});
    expect(run.code, runSummary(run)).toBe(0);
    expect(run.results!.summary, runSummary(run)).toMatchObject({ passed: 3, failed: 0, warned: 0, skipped: 0 });
    expect(run.results!.requests.total).toBeLessThanOrEqual(MAX_REQUESTS);
  });

  test('passes unchanged on other data, under a base path, with the auth server on another origin', async () => {
    const run = await runSuite({ dataset: 'alt', basePath: '/api', authOrigin: 'separate' });
    expect(run.code, runSummary(run)).toBe(0);
    expect(run.results!.summary, runSummary(run)).toMatchObject({ passed: 3, failed: 0, warned: 0, skipped: 0 });
    expect(run.results!.requests.total).toBeLessThanOrEqual(MAX_REQUESTS);
  });

  test('passes with API version 3.1 (the latest 3.1 patch has fieldsets)', async () => {
    const run = await runSuite({}, { CATALOGUE_API_VERSION: '3.1' });
    expect(run.code, runSummary(run)).toBe(0);
    expect(run.results!.summary, runSummary(run)).toMatchObject({ passed: 3, failed: 0, warned: 0, skipped: 0 });
  });

  test('with API version 3 (the oldest, 3.0): the fieldset tests skip with the reason, the 3.0 test passes', async () => {
    const run = await runSuite({}, { CATALOGUE_API_VERSION: '3' });
    expect(run.code, runSummary(run)).toBe(0);
    expect(run.results!.summary, runSummary(run)).toMatchObject({ passed: 1, failed: 0, warned: 0, skipped: 2 });
    for (const t of run.results!.tests.filter((x) => x.status === 'skipped')) expect(t.message).toMatch(/sparse fieldsets arrived in 3\.1\.1/);
  });

  test('CATALOGUE_SEED replays the same requests; another seed draws others', async () => {
    const [a, b, c] = await Promise.all([recordedRun({ CATALOGUE_SEED: '20240310' }), recordedRun({ CATALOGUE_SEED: '20240310' }), recordedRun({ CATALOGUE_SEED: '7' })]);
    for (const { run } of [a, b, c]) expect(run.code, runSummary(run)).toBe(0);
    expect(a.requests.length).toBeGreaterThan(30);
    expect(b.requests).toEqual(a.requests);
    expect(c.requests).not.toEqual(a.requests);
  });

  test('a failure names its seed, and CATALOGUE_SEED=<seed> reproduces the same shrunk request', async () => {
    const fault = 'association-fieldset-ignored';
    const first = await runSuite({ fault });
    expect(first.code, runSummary(first)).toBe(1);
    const message = mustFindings(first)[0]!.message;
    const seed = /fast-check seed (-?\d+)/.exec(message)?.[1];
    expect(seed, message).toBeDefined();
    const again = await runSuite({ fault }, { CATALOGUE_SEED: seed! });
    expect(again.code, runSummary(again)).toBe(1);
    const replayed = mustFindings(again)[0]!.message;
    expect(replayed).toContain(`fast-check seed ${seed}, from CATALOGUE_SEED`);
    const request = (m: string) => portless(/Shrunk counterexample: (GET \S+)/.exec(m)?.[1] ?? '');
    expect(request(replayed)).not.toBe('');
    expect(request(replayed)).toBe(request(message));
  });

  for (const fault of CAUGHT) {
    const requirement = FAULTS[fault]!.requirement;
    test(`${fault}: fails, naming ${requirement}, with the request${PROPERTY_FAULTS.has(fault) ? ', the seed and the shrunk counterexample' : ''}`, async () => {
      // Some faults show only in a version other than the default (fieldsets-ignored-in-3-1: 3.1).
      const run = await runSuite({ fault, basePath: '/api' }, FAULT_SETUP[fault]?.env ?? {});
      expect(run.code, runSummary(run)).toBe(1);
      const findings = mustFindings(run).filter((f) => f.requirements.includes(requirement));
      expect(findings.length, runSummary(run)).toBeGreaterThan(0);
      for (const f of findings) {
        expect(f.message).toMatch(/GET http:\/\/127\.0\.0\.1:\d+\/api\/\S+\?\S+/);
        if (PROPERTY_FAULTS.has(fault)) expect(f.message).toMatch(/fast-check seed -?\d+.*CATALOGUE_SEED=-?\d+ replays it\)\. Shrunk counterexample: GET /);
      }
    });
  }
});
