// The SKU, product and shop suites (suites/skus.suite.ts, suites/shops.suite.ts), run through the
// real CLI: they must pass against the reference (also with other data, a base path and the auth
// server on another origin) and fail against each product fault of the reference, naming the
// requirement the fault breaks.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CAUGHT_BY } from './fault-coverage.ts';
import { PRODUCT_FAULTS } from '../reference/faults/products.ts';
import { FAULTS, startReference, type RunningReference } from '../reference/server.ts';
import { requirements } from '../requirements/catalogue.ts';
import { targetArgs, type CliRun, runCliBatched } from '../testing/cli.ts';

const SUITES = ['skus', 'shops'];
const LIMITS = { perMinute: 1_000_000, perDay: 1_000_000 };

/** Product faults these suites catch: every product fault of the reference. */
const CAUGHT = CAUGHT_BY['skus, shops'];

test('every product fault is caught by these suites', () => {
  expect([...CAUGHT].sort()).toEqual(Object.keys(PRODUCT_FAULTS).sort());
  for (const fault of CAUGHT) expect(requirements().has(FAULTS[fault]!.requirement)).toBe(true);
});

describe('against the reference server', () => {
  let run: CliRun;
  let ref: RunningReference;
  beforeAll(async () => {
    ref = await startReference({ limits: LIMITS });
    run = await runCliBatched([...targetArgs(ref), ...SUITES]);
  });
  afterAll(() => ref.close());

  test('passes: exit 0, no failure, no warning, no skip, under the request budget', () => {
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.results?.summary).toMatchObject({ failed: 0, warned: 0, skipped: 0 });
    expect(run.results!.summary.passed).toBeGreaterThanOrEqual(20);
    expect(run.results!.requests.total).toBeLessThan(120);
    const known = requirements();
    for (const t of run.results!.tests) for (const id of t.requirements) expect(known.has(id), id).toBe(true);
  });
});

test('passes unchanged on other data, under a base path, with the auth server on another origin', async () => {
  const ref = await startReference({ dataset: 'alt', basePath: '/api', authOrigin: 'separate', limits: LIMITS });
  try {
    const run = await runCliBatched([...targetArgs(ref), ...SUITES]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.results!.summary).toMatchObject({ failed: 0, warned: 0, skipped: 0 });
  } finally {
    await ref.close();
  }
});

// Each fault of CAUGHT failing these suites, naming its requirement: src/selftest/mutation.test.ts.
