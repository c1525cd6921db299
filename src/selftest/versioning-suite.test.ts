// The versioning suite (suites/versioning.suite.ts), run through the real CLI: it must pass against
// the reference (also with other data, a base path, the auth server on another origin, other API
// versions, and every version the reference serves found or listed in CATALOGUE_VERSIONS), stay within its request
// cap, leave the reference's data as it found it, and fail against each versioning fault of the
// reference, naming the requirement the fault breaks.
import { describe, expect, test } from 'vitest';
import { VERSIONING_FAULTS } from '../reference/faults/versioning.ts';
import { FAULTS, type ReferenceOptions } from '../reference/server.ts';
import { requirements } from '../requirements/catalogue.ts';
import { CAUGHT_BY } from './fault-coverage.ts';
import { runAgainstReference, runSummary } from '../testing/cli.ts';

/** Faults the suite catches. */
const CAUGHT = CAUGHT_BY.versioning;
/** Every version the reference serves is found before the suites: none of the matrix tests skips. */
const OTHER_VERSIONS_SKIPPED = 0;

/** Requests of a default run of the suite (discovery, tokens and the versions' probe included). */
const DEFAULT_CAP = 70;

const runSuite = (options: ReferenceOptions, env: Record<string, string> = {}) => runAgainstReference(['versioning'], options, env);

test('the caught faults include every fault of faults/versioning.ts, each naming a known requirement', () => {
  for (const fault of Object.keys(VERSIONING_FAULTS)) expect(CAUGHT).toContain(fault);
  for (const fault of CAUGHT) expect(requirements().has(FAULTS[fault]!.requirement)).toBe(true);
});

describe.concurrent('the versioning suite against the reference', () => {
  test(`passes with no failure, warning or skip, within ${DEFAULT_CAP} requests, and leaves the data unchanged`, async () => {
    const { run, changed } = await runSuite({});
    expect(run.code, runSummary(run)).toBe(0);
    expect(run.results!.summary, runSummary(run)).toMatchObject({ failed: 0, warned: 0, skipped: OTHER_VERSIONS_SKIPPED, passed: 11 });
    expect(run.results!.run?.notes ?? []).toContainEqual(expect.stringMatching(/^versions: 3.0, 3.1, 3.2 found served/));
    expect(run.results!.requests.total).toBeLessThanOrEqual(DEFAULT_CAP);
    expect(changed, 'the suite left the data changed').toBe(false);
  });

  test('passes unchanged on other data, under a base path, with the auth server on another origin', async () => {
    const { run, changed } = await runSuite({ dataset: 'alt', basePath: '/api', authOrigin: 'separate' });
    expect(run.code, runSummary(run)).toBe(0);
    expect(run.results!.summary, runSummary(run)).toMatchObject({ failed: 0, warned: 0, skipped: OTHER_VERSIONS_SKIPPED });
    expect(changed).toBe(false);
  });

  test('CATALOGUE_VERSIONS=3.0,3.1,3.2 (every version the reference serves): passes, the fields of each version checked', async () => {
    const { run, changed } = await runSuite({ dataset: 'alt' }, { CATALOGUE_VERSIONS: '3.0,3.1,3.2' });
    expect(run.code, runSummary(run)).toBe(0);
    expect(run.results!.summary, runSummary(run)).toMatchObject({ failed: 0, warned: 0, skipped: 0, passed: 11 });
    for (const version of ['3.0', '3.1', '3.2']) expect(run.results!.tests.filter((t) => t.title.includes(`version ${version}:`)).length).toBe(2);
    expect(run.results!.requests.total).toBeLessThanOrEqual(DEFAULT_CAP);
    expect(changed).toBe(false);
  });

  for (const version of ['3.1', '3.0']) {
    test(`passes with API version ${version}`, async () => {
      const { run } = await runSuite({}, { CATALOGUE_API_VERSION: version });
      expect(run.code, runSummary(run)).toBe(0);
      expect(run.results!.summary, runSummary(run)).toMatchObject({ failed: 0, warned: 0, skipped: OTHER_VERSIONS_SKIPPED });
    });
  }

  test('passes with API version 3 (major only): the patch test judges the latest minor found served', async () => {
    const { run } = await runSuite({}, { CATALOGUE_API_VERSION: '3' });
    expect(run.code, runSummary(run)).toBe(0);
    expect(run.results!.summary, runSummary(run)).toMatchObject({ failed: 0, warned: 0, skipped: OTHER_VERSIONS_SKIPPED });
  });

  test('a minor not served (series-3-1-skipped) is found so and its tests skip with the reason; the rest pass', async () => {
    const { run } = await runSuite({ variants: ['series-3-1-skipped'] });
    expect(run.code, runSummary(run)).toBe(0);
    const skipped = run.results!.tests.filter((t) => t.status === 'skipped');
    expect(skipped.map((t) => t.id).sort()).toEqual(['versioning/public-fields-3-1', 'versioning/user-fields-3-1']);
    expect(skipped[0]!.message).toMatch(/version 3.1 is not among the versions the deployment serves \(versions: 3.0, 3.2 found served .*version=3.1: answered as version=3.0/);
  });

  // Each fault of CAUGHT failing this suite, naming its requirement: src/selftest/mutation.test.ts.
});
