// The reviews suite (suites/reviews.suite.ts), run through the real CLI: it must pass against the
// reference (whose authorization step grants publish_sku_review_actions, or refuses it as the
// spec's step-1 table allows, so that the kit's user token lacks it; also with other data, a base
// path, the auth server on another origin, and older API versions) and leave the reference's data
// as it found it. Its faults: src/selftest/mutation.test.ts.
import { describe, expect, test } from 'vitest';
import { CAUGHT_BY } from './fault-coverage.ts';
import { REVIEW_FAULTS } from '../reference/faults/reviews.ts';
import { FAULTS, type ReferenceOptions } from '../reference/server.ts';
import { requirements } from '../requirements/catalogue.ts';
import { runAgainstReference, runSummary } from '../testing/cli.ts';

/** Review faults the suite catches. */
const CAUGHT = CAUGHT_BY.reviews;

const runSuite = (options: ReferenceOptions, env: Record<string, string> = {}) => runAgainstReference(['reviews'], options, env);

test('the list of caught faults is every review fault, each naming a known requirement', () => {
  expect([...CAUGHT].sort()).toEqual(Object.keys(REVIEW_FAULTS).sort());
  for (const fault of CAUGHT) expect(requirements().has(FAULTS[fault]!.requirement)).toBe(true);
});

describe.concurrent('the reviews suite against the reference', () => {
  test('with a token that may vote: passes with no failure, warning or skip, within 120 requests, and leaves the data unchanged', async () => {
    const { run, changed } = await runSuite({});
    expect(run.code, runSummary(run)).toBe(0);
    expect(run.results!.summary, runSummary(run)).toMatchObject({ failed: 0, warned: 0, skipped: 0 });
    expect(run.results!.summary.passed).toBeGreaterThanOrEqual(8);
    expect(run.results!.requests.total).toBeLessThanOrEqual(120);
    expect(changed, 'the suite left the data changed').toBe(false);
  });

  test('when the authorization step refuses publish_sku_review_actions: passes, the vote test skipped with its reason', async () => {
    const { run, changed } = await runSuite({ reviewActionsScope: 'refused' });
    expect(run.code, runSummary(run)).toBe(0);
    expect(run.results!.summary, runSummary(run)).toMatchObject({ failed: 0, warned: 0, skipped: 1 });
    const skipped = run.results!.tests.find((t) => t.status === 'skipped')!;
    expect(skipped.message).toContain('publish_sku_review_actions');
    expect(run.results!.requests.total).toBeLessThanOrEqual(120);
    expect(changed).toBe(false);
  });

  test('passes unchanged on other data, under a base path, with the auth server on another origin', async () => {
    const { run, changed } = await runSuite({ dataset: 'alt', basePath: '/api', authOrigin: 'separate' });
    expect(run.code, runSummary(run)).toBe(0);
    expect(run.results!.summary, runSummary(run)).toMatchObject({ failed: 0, warned: 0, skipped: 0 });
    expect(changed).toBe(false);
  });

  for (const version of ['3.1', '3']) {
    test(`passes with API version ${version} (no review writes, forms or later fields)`, async () => {
      const { run } = await runSuite({}, { CATALOGUE_API_VERSION: version });
      expect(run.code, runSummary(run)).toBe(0);
      expect(run.results!.summary, runSummary(run)).toMatchObject({ failed: 0, warned: 0 });
    });
  }

  test('the read profile skips the two write tests and still passes', async () => {
    const { run, changed } = await runSuite({}, { CATALOGUE_PROFILES: 'read' });
    expect(run.code, runSummary(run)).toBe(0);
    expect(run.results!.tests.filter((t) => t.status === 'skipped').length, runSummary(run)).toBe(2);
    expect(changed).toBe(false);
  });

  // Each fault of CAUGHT failing this suite, naming its requirement: src/selftest/mutation.test.ts.
});
