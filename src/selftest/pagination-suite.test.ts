// The pagination suite (suites/pagination.suite.ts), run through the real CLI: it must pass against
// the reference (also with other data, a base path and the auth server on another origin, and
// with API version 3.1), stay within its request cap, leave the data as it found it, skip the user
// collections with the reason when no user token can be had, and fail against each pagination
// fault of the reference, naming the requirement the fault breaks.
import { describe, expect, test } from 'vitest';
import { PAGINATION_FAULTS } from '../reference/faults/pagination.ts';
import { FAULTS, type FaultName, type ReferenceOptions } from '../reference/server.ts';
import { requirements } from '../requirements/catalogue.ts';
import { CAUGHT_BY } from './fault-coverage.ts';
import { type CliRun, runAgainstReference, runSummary } from '../testing/cli.ts';

/** Hard cap of a default run of the suite, token and discovery requests included. */
const REQUEST_CAP = 90;
/** Paginated collections of the spec (schemas/endpoints.json), one test each. */
const COLLECTIONS = 22;
/** Collections read with the user token. */
const USER_COLLECTIONS = 6;

/** Faults the suite catches (the lead moves this list into fault-coverage.ts). */
const CAUGHT: readonly FaultName[] = [
  ...CAUGHT_BY.pagination,
  // Listed under the categories suite, which caught them first; this suite catches them on every collection.
  'pagination-total-pages-off-by-one',
  'link-header-missing',
  'default-per-not-25',
  'page-param-ignored',
  'link-next-drops-query',
];

const runSuite = (options: ReferenceOptions, env: Record<string, string> = {}) => runAgainstReference(['pagination'], options, env);

const skipped = (run: CliRun) => run.results!.tests.filter((t) => t.status === 'skipped');

/** A skip for a collection too small to page says so; no other skip is expected. */
const TOO_FEW = /holds [01] items? here: only the meta.pagination of its one page was judged/;

test('the caught faults include every new pagination fault, each naming a known MUST requirement', () => {
  for (const fault of Object.keys(PAGINATION_FAULTS)) expect(CAUGHT).toContain(fault);
  for (const fault of CAUGHT) expect(requirements().get(FAULTS[fault]!.requirement)?.level, fault).toBe('MUST');
});

describe.concurrent('the pagination suite against the reference', () => {
  test(`passes within ${REQUEST_CAP} requests, one test per paginated collection, data unchanged`, async () => {
    const { run, changed } = await runSuite({});
    expect(run.code, runSummary(run)).toBe(0);
    expect(run.results!.tests.length).toBe(COLLECTIONS);
    expect(run.results!.summary, runSummary(run)).toMatchObject({ failed: 0, warned: 0 });
    // A shop's search by shop_uid finds its one product: that collection cannot be paged.
    for (const t of skipped(run)) expect(t.message, runSummary(run)).toMatch(TOO_FEW);
    expect(run.results!.summary.passed, runSummary(run)).toBeGreaterThanOrEqual(COLLECTIONS - 2);
    expect(run.results!.requests.total, runSummary(run)).toBeLessThanOrEqual(REQUEST_CAP);
    expect(changed, 'the suite left the data changed').toBe(false);
  });

  test('passes unchanged on other data, under a base path, with the auth server on another origin', async () => {
    const { run, changed } = await runSuite({ dataset: 'alt', basePath: '/api', authOrigin: 'separate' });
    expect(run.code, runSummary(run)).toBe(0);
    expect(run.results!.summary, runSummary(run)).toMatchObject({ failed: 0, warned: 0 });
    for (const t of skipped(run)) expect(t.message, runSummary(run)).toMatch(TOO_FEW);
    expect(run.results!.summary.passed, runSummary(run)).toBeGreaterThanOrEqual(COLLECTIONS - 2);
    expect(run.results!.requests.total, runSummary(run)).toBeLessThanOrEqual(REQUEST_CAP);
    expect(changed).toBe(false);
  });

  test('without a user token (consent denied): the user collections skip with the reason, the rest passes', async () => {
    const { run } = await runSuite({ consent: 'deny' });
    expect(run.code, runSummary(run)).toBe(0);
    expect(run.results!.summary, runSummary(run)).toMatchObject({ failed: 0, warned: 0 });
    const userSkips = skipped(run).filter((t) => !TOO_FEW.test(t.message));
    expect(userSkips.length, runSummary(run)).toBe(USER_COLLECTIONS);
    for (const t of userSkips) expect(t.message, runSummary(run)).toMatch(/access_denied|user token/);
  });

  test('passes with API version 3.1 (no saved orders list before 3.2.0: skipped with the reason)', async () => {
    const { run } = await runSuite({}, { CATALOGUE_API_VERSION: '3.1' });
    expect(run.code, runSummary(run)).toBe(0);
    expect(run.results!.summary, runSummary(run)).toMatchObject({ failed: 0, warned: 0 });
    expect(
      skipped(run)
        .map((t) => t.message)
        .find((m) => m.includes('saved_orders')),
      runSummary(run),
    ).toContain('came with 3.2.0');
  });

  // Each fault of CAUGHT failing this suite, naming its requirement: src/selftest/mutation.test.ts.
});
