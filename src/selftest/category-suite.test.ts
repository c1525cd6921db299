// The category suite, run through the real CLI: it must pass against the reference (also with
// other data, a base path and the auth server on another origin) and fail against each category
// fault of the reference, naming the requirement the fault breaks.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { FAULTS, startReference, type RunningReference } from '../reference/server.ts';
import { AWAITING_SUITE, CAUGHT_BY } from './fault-coverage.ts';
import { requirements } from '../requirements/catalogue.ts';
import { targetArgs, type CliRun, runCliBatched } from '../testing/cli.ts';

/** Faults the category suite catches. */
const CAUGHT = CAUGHT_BY.categories;
/** Only the category suite, whatever other suites the directory holds. */
const SUITE = 'categories';
/** Pacing never waits: these self-tests are not about the rate limit. */
const LIMITS = { perMinute: 1_000_000, perDay: 1_000_000 };

/** What must never be in a report: the client secret, and any token not redacted. */
function expectNoSecrets(run: CliRun, ref: RunningReference): void {
  const text = run.allReportText() + run.stdout + run.stderr;
  expect(text).not.toContain(ref.client.secret);
  expect(text).not.toMatch(/Bearer (?!\[REDACTED\])[A-Za-z0-9._~+/=-]{6,}/);
  expect(text).not.toMatch(/(oauth_token|access_token|refresh_token|client_secret|code)=(?!\[REDACTED\])[A-Za-z0-9%._~+/=-]{6,}/);
  expect(text).not.toMatch(/"(access_token|refresh_token)"\s*:\s*"(?!\[REDACTED\])/);
}

test('every fault of the reference is either caught by a suite or awaiting one, never both', () => {
  const caught = Object.values(CAUGHT_BY).flat();
  expect(new Set(caught).size, 'a fault is listed under two suites').toBe(caught.length);
  expect([...caught, ...Object.keys(AWAITING_SUITE)].sort()).toEqual(Object.keys(FAULTS).sort());
  for (const fault of Object.values(FAULTS)) expect(requirements().has(fault.requirement)).toBe(true);
});

describe('against the reference server', () => {
  let run: CliRun;
  let ref: RunningReference;
  beforeAll(async () => {
    ref = await startReference({ limits: LIMITS });
    run = await runCliBatched([...targetArgs(ref), SUITE]);
  });
  afterAll(() => ref.close());

  test('passes: exit 0, no failure and no warning', () => {
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.results?.summary).toMatchObject({ failed: 0, warned: 0 });
    expect(run.results!.summary.passed).toBeGreaterThanOrEqual(10);
    expect(run.stdout).toMatch(/Tests: \d+ passed, 0 failed, 0 warned, 0 skipped/);
    expect(run.stdout).toContain('PASS: no MUST requirement failed');
  });

  test('results.json has the documented shape, and every test names known requirement ids', () => {
    const results = run.results!;
    expect(Object.keys(results.summary).sort()).toEqual(['expected', 'failed', 'passed', 'skipped', 'warned']);
    expect(results.requests.total).toBeGreaterThan(0);
    expect(results.requests.total).toBeLessThanOrEqual(results.requests.budget);
    const known = requirements();
    for (const t of results.tests) {
      expect(t).toMatchObject({ id: expect.any(String), title: expect.any(String), severity: expect.stringMatching(/^(MUST|WARN)$/), status: 'passed', message: '' });
      expect(t.requirements.length).toBeGreaterThan(0);
      for (const id of t.requirements) expect(known.has(id), id).toBe(true);
    }
    expect(new Set(results.tests.map((t) => t.id)).size).toBe(results.tests.length);
  });

  test('junit.xml parses and lists every test with its requirement ids as properties', () => {
    const junit = run.junit!;
    expect(XMLValidator.validate(junit)).toBe(true);
    type Property = { '@_name': string; '@_value': string };
    type Case = { '@_name': string; properties: { property: Property[] }; failure?: unknown; skipped?: unknown };
    const parsed = new XMLParser({ ignoreAttributes: false, isArray: (name) => ['testsuite', 'testcase', 'property'].includes(name) }).parse(junit) as {
      testsuites: { '@_failures': string; testsuite: { testcase: Case[] }[] };
    };
    expect(parsed.testsuites['@_failures']).toBe('0');
    const cases = parsed.testsuites.testsuite.flatMap((s) => s.testcase);
    expect(cases.map((c) => c['@_name'])).toEqual(run.results!.tests.map((t) => t.title));
    for (const [i, testCase] of cases.entries()) {
      const ids = testCase.properties.property.filter((p) => p['@_name'] === 'requirement').map((p) => p['@_value']);
      expect(ids).toEqual(run.results!.tests[i]!.requirements);
      expect(testCase.properties.property.find((p) => p['@_name'] === 'severity')?.['@_value']).toBe('MUST');
    }
  });
});

test('passes unchanged on other data, under a base path, with the auth server on another origin', async () => {
  const ref = await startReference({ dataset: 'alt', basePath: '/api', authOrigin: 'separate', limits: LIMITS });
  try {
    expect(new URL(ref.authUrl).origin).not.toBe(new URL(ref.baseUrl).origin);
    const run = await runCliBatched([...targetArgs(ref), SUITE]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.results!.summary).toMatchObject({ failed: 0, warned: 0, skipped: 0 });
  } finally {
    await ref.close();
  }
});

describe.concurrent('against a reference with one fault', () => {
  for (const fault of CAUGHT) {
    test(`${fault}: fails, naming ${FAULTS[fault]!.requirement}, with the exchange and no secret in the report`, async () => {
      // A base path too: the recorded exchanges must show it was kept.
      const ref = await startReference({ fault, basePath: '/api', limits: LIMITS });
      try {
        const run = await runCliBatched([...targetArgs(ref), SUITE]);
        expect(run.code, run.stdout + run.stderr).toBe(1);
        expect(run.stdout).toContain('FAIL: MUST requirements failed');
        const failed = run.results!.tests.filter((t) => t.status === 'failed');
        expect(failed.length).toBeGreaterThan(0);
        const named = failed.flatMap((t) => t.findings.flatMap((f) => f.requirements));
        expect(named).toContain(FAULTS[fault]!.requirement);
        expect(XMLValidator.validate(run.junit!)).toBe(true);
        // The failing exchange is in junit.xml, with a replayable curl line, under /api.
        expect(run.junit).toContain('replay: curl');
        expect(run.junit).toMatch(/\/api\/categories/);
        expect(run.junit).not.toMatch(/127\.0\.0\.1:\d+\/categories/);
        expectNoSecrets(run, ref);
      } finally {
        await ref.close();
      }
    });
  }
});
