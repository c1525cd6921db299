// The category listings suite (suites/category-listings.suite.ts), run through the real CLI: it
// must pass against the reference (also with other data, a base path, the auth server on another
// origin, and older API versions) and fail against each category-listing fault of the reference,
// naming the requirement the fault breaks.
import { describe, expect, test } from 'vitest';
import { CAUGHT_BY } from './fault-coverage.ts';
import { CATALOG_FAULTS } from '../reference/faults/catalog.ts';
import { CATEGORY_FAULTS } from '../reference/faults/categories.ts';
import { FAULTS, type ReferenceOptions } from '../reference/server.ts';
import { requirements } from '../requirements/catalogue.ts';
import { type CliRun, runAgainstReference, runSummary } from '../testing/cli.ts';

/** Faults this suite catches. */
const CAUGHT = CAUGHT_BY['category-listings'];

const runSuite = async (options: ReferenceOptions, env: Record<string, string> = {}): Promise<CliRun> => (await runAgainstReference(['category-listings'], options, env)).run;

test('every fault listed is a catalog or category fault naming a known requirement', () => {
  for (const fault of CAUGHT) {
    expect([...Object.keys(CATALOG_FAULTS), ...Object.keys(CATEGORY_FAULTS)]).toContain(fault);
    expect(requirements().has(FAULTS[fault]!.requirement)).toBe(true);
  }
});

describe.concurrent('the category listings suite against the reference', () => {
  test('passes on the default data: no failure, no warning, no skip, within 120 requests', async () => {
    const run = await runSuite({});
    expect(run.code, runSummary(run)).toBe(0);
    expect(run.results!.summary, runSummary(run)).toMatchObject({ failed: 0, warned: 0, skipped: 0 });
    expect(run.results!.summary.passed).toBeGreaterThanOrEqual(15);
    expect(run.results!.requests.total).toBeLessThanOrEqual(120);
    const known = requirements();
    for (const t of run.results!.tests) for (const id of t.requirements) expect(known.has(id), id).toBe(true);
  });

  test('passes unchanged on other data, under a base path, with the auth server on another origin', async () => {
    const run = await runSuite({ dataset: 'alt', basePath: '/api', authOrigin: 'separate' });
    expect(run.code, runSummary(run)).toBe(0);
    expect(run.results!.summary, runSummary(run)).toMatchObject({ failed: 0, warned: 0, skipped: 0 });
  });

  for (const version of ['3.2', '3.1', '3.0', '3']) {
    test(`passes with API version ${version}`, async () => {
      const run = await runSuite({}, { CATALOGUE_API_VERSION: version });
      expect(run.code, runSummary(run)).toBe(0);
      expect(run.results!.summary, runSummary(run)).toMatchObject({ failed: 0, warned: 0 });
    });
  }

  // Each fault of CAUGHT failing this suite, naming its requirement: src/selftest/mutation.test.ts.
});
