// The requirement catalogue shows, per requirement, the tests that cover it
// (docs/requirement-coverage.md, kept current here), and every testable MUST statement has a
// test, or is listed in awaiting-tests.json with why none cites it yet: a new statement without a
// test fails here, and the count of those awaiting is printed. Every test's id (<suite>/<declared
// id>, which deviation files, `compare` and filters name it by) is well formed and its own.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, test } from 'vitest';
import { declaredIdProblem } from '../harness/conformance.ts';
import { requirements } from './catalogue.ts';
import { awaitingTests, collectDeclaredTests, COVERAGE_DOC, coverageByRequirement, coverageDocument, needsATest, type DeclaredTest } from './coverage.ts';

describe('requirement coverage of the suites', () => {
  let tests: DeclaredTest[];
  beforeAll(async () => {
    tests = await collectDeclaredTests();
  }, 60_000);

  test('every testable MUST statement is cited by a test, or listed as awaiting one (with why)', () => {
    const covered = coverageByRequirement(tests);
    const awaiting = awaitingTests();
    const uncited = [...requirements().values()].filter((r) => needsATest(r) && !covered.has(r.id));
    console.log(`uncited testable MUST: ${uncited.length} (each listed in src/requirements/awaiting-tests.json)`);
    const missing = uncited.filter((r) => !(r.id in awaiting));
    expect(
      missing.map((r) => `${r.id} (${r.section}): ${r.summary}`),
      'testable MUST statements without a test',
    ).toEqual([]);
  });

  test('the awaiting list names only testable MUST statements that still have no test', () => {
    const covered = coverageByRequirement(tests);
    const stale = Object.keys(awaitingTests()).filter((id) => covered.has(id) || !requirements().has(id) || !needsATest(requirements().get(id)!));
    expect(stale, 'remove these from src/requirements/awaiting-tests.json').toEqual([]);
  });

  test('every test has an id of its own: <suite>/<declared id>, kebab-case, unique', () => {
    const malformed = tests.flatMap((t) => {
      const [suite, declared, ...rest] = t.id.split('/');
      const problem = rest.length || !suite ? 'is not <suite>/<id>' : declaredIdProblem(declared);
      return problem ? [`${t.file} "${t.title}": ${t.id} ${problem}`] : [];
    });
    expect(malformed, 'malformed test ids').toEqual([]);
    const byId = new Map<string, DeclaredTest[]>();
    for (const t of tests) byId.set(t.id, [...(byId.get(t.id) ?? []), t]);
    const duplicates = [...byId].filter(([, same]) => same.length > 1).map(([id, same]) => `${id}: ${same.map((t) => `${t.file} "${t.title}"`).join(', ')}`);
    expect(duplicates, 'test ids declared twice (each test of a suite file needs its own id)').toEqual([]);
  });

  test('docs/requirement-coverage.md is current (run npm run coverage)', () => {
    expect(readFileSync(COVERAGE_DOC, 'utf8'), 'docs/requirement-coverage.md is stale: run npm run coverage').toBe(coverageDocument(tests));
  });
});
