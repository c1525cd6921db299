// The favorites suite, run through the real CLI: it must pass against the reference (also with
// other data, a base path, the auth server on another origin, and API version 3.1, where owned
// favorites are still listed) and fail against each favorites fault of the reference, naming the
// requirement the fault breaks.
import { describe, expect, test } from 'vitest';
import { CAUGHT_BY } from './fault-coverage.ts';
import { FAVORITE_FAULTS } from '../reference/faults/favorites.ts';
import { startReference, type ReferenceOptions } from '../reference/server.ts';
import { type CliRun, runSummary, targetArgs, runCliBatched } from '../testing/cli.ts';

const LIMITS = { perMinute: 1_000_000, perDay: 1_000_000 };

async function runSuite(options: ReferenceOptions, version?: string): Promise<CliRun> {
  const ref = await startReference({ limits: LIMITS, ...options });
  try {
    return await runCliBatched([...targetArgs(ref), 'favorites.suite'], version ? { CATALOGUE_API_VERSION: version } : {});
  } finally {
    await ref.close();
  }
}

test('the favorites suite is listed as catching every favorites fault', () => {
  expect([...CAUGHT_BY.favorites].sort()).toEqual(Object.keys(FAVORITE_FAULTS).sort());
});

describe.concurrent('the favorites suite against the reference', () => {
  test('passes on the default data: no failure, no warning, no skip, within 120 requests', async () => {
    const run = await runSuite({});
    expect(run.code, runSummary(run)).toBe(0);
    expect(run.results!.summary, runSummary(run)).toMatchObject({ failed: 0, warned: 0, skipped: 0 });
    expect(run.results!.summary.passed).toBeGreaterThanOrEqual(9);
    expect(run.results!.requests.total).toBeLessThanOrEqual(120);
  });

  test('passes unchanged on other data, under a base path, with the auth server on another origin', async () => {
    const run = await runSuite({ dataset: 'alt', basePath: '/api', authOrigin: 'separate' });
    expect(run.code, runSummary(run)).toBe(0);
    expect(run.results!.summary, runSummary(run)).toMatchObject({ failed: 0, warned: 0, skipped: 0 });
  });

  for (const version of ['3.1', '3']) {
    test(`passes with API version ${version} (owned favorites listed before 3.2.0)`, async () => {
      const run = await runSuite({}, version);
      expect(run.code, runSummary(run)).toBe(0);
      expect(run.results!.summary, runSummary(run)).toMatchObject({ failed: 0, warned: 0 });
    });
  }

  test('the read profile skips the three write tests and still passes', async () => {
    const ref = await startReference({ limits: LIMITS });
    try {
      const run = await runCliBatched([...targetArgs(ref), 'favorites.suite'], { CATALOGUE_PROFILES: 'read' });
      expect(run.code, runSummary(run)).toBe(0);
      expect(run.results!.tests.filter((t) => t.status === 'skipped').length).toBe(3);
    } finally {
      await ref.close();
    }
  });

  // Each fault of CAUGHT failing this suite, naming its requirement: src/selftest/mutation.test.ts.
});
