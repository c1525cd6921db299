// The requirement catalogue shows, per requirement, the tests that cover it
// (docs/requirement-coverage.md, kept current here), and every requirement about an endpoint has
// a test, or is listed in awaiting-tests.json with the issue that brings its suite.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, test } from 'vitest';
import { requirements } from './catalogue.ts';
import { awaitingTests, collectDeclaredTests, COVERAGE_DOC, coverageByRequirement, coverageDocument, isEndpointRequirement, type DeclaredTest } from './coverage.ts';

describe('requirement coverage of the suites', () => {
  let tests: DeclaredTest[];
  beforeAll(async () => {
    tests = await collectDeclaredTests();
  }, 60_000);

  test('every requirement about an endpoint is cited by a test, or awaits its suite', () => {
    const covered = coverageByRequirement(tests);
    const awaiting = awaitingTests();
    const missing = [...requirements().values()].filter((r) => isEndpointRequirement(r) && !covered.has(r.id) && !(r.id in awaiting));
    expect(missing.map((r) => `${r.id} (${r.section}): ${r.summary}`), 'requirements about an endpoint without a test').toEqual([]);
  });

  test('the awaiting list names only endpoint requirements that still have no test', () => {
    const covered = coverageByRequirement(tests);
    const stale = Object.keys(awaitingTests()).filter((id) => covered.has(id) || !isEndpointRequirement(requirements().get(id)!));
    expect(stale, 'remove these from src/requirements/awaiting-tests.json').toEqual([]);
  });

  test('docs/requirement-coverage.md is current (run npm run coverage)', () => {
    expect(readFileSync(COVERAGE_DOC, 'utf8'), 'docs/requirement-coverage.md is stale: run npm run coverage').toBe(coverageDocument(tests));
  });
});
