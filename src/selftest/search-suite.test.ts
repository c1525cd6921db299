// The search and manufacturer suites, run through the real CLI: they must pass against the
// reference (also with other data, a base path and the auth server on another origin) and fail
// against each search or manufacturer fault of the reference, naming the requirement it breaks.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CAUGHT_BY } from './fault-coverage.ts';
import { CATALOG_FAULTS } from '../reference/faults/catalog.ts';
import { FAULTS, startReference, type RunningReference } from '../reference/server.ts';
import { requirements } from '../requirements/catalogue.ts';
import { targetArgs, type CliRun, runCliBatched } from '../testing/cli.ts';

/** Only these two suites, whatever other suites the directory holds. */
const SUITES = ['suites/search.suite.ts', 'suites/manufacturers.suite.ts'];
/** Pacing never waits: the self-tests are not about the rate limit. */
const LIMITS = { perMinute: 1_000_000, perDay: 1_000_000 };

/** The faults of search, autocomplete and manufacturers (the other catalog faults concern the category listings). */
const CAUGHT = CAUGHT_BY['search, manufacturers'];

test('every fault these suites catch concerns search or manufacturers', () => {
  for (const fault of CAUGHT) expect(Object.keys(CATALOG_FAULTS)).toContain(fault);
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

  test('passes: exit 0, no failure, no warning, no skip', () => {
    expect(run.stderr).toBe('');
    expect(run.code, run.stdout).toBe(0);
    expect(run.results?.summary, run.stdout).toMatchObject({ failed: 0, warned: 0, skipped: 0 });
    expect(run.results!.summary.passed).toBeGreaterThanOrEqual(14);
    expect(run.stdout).toContain('PASS: no MUST requirement failed');
  });

  test('stays within its request budget (120 for both suites)', () => {
    expect(run.results!.requests.total).toBeLessThanOrEqual(120);
  });

  test('every test names known requirement ids', () => {
    const known = requirements();
    for (const t of run.results!.tests) for (const id of t.requirements) expect(known.has(id), id).toBe(true);
  });
});

test('passes unchanged on other data, under a base path, with the auth server on another origin', async () => {
  const ref = await startReference({ dataset: 'alt', basePath: '/api', authOrigin: 'separate', limits: LIMITS });
  try {
    const run = await runCliBatched([...targetArgs(ref), ...SUITES]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.results!.summary, run.stdout).toMatchObject({ failed: 0, warned: 0, skipped: 0 });
  } finally {
    await ref.close();
  }
});

// Each fault of CAUGHT failing these suites, naming its requirement: src/selftest/mutation.test.ts.
