// The requirement catalogue shows, per requirement, the tests that cover it
// (docs/requirement-coverage.md, kept current here), and every testable MUST statement has a
// test, or is listed in awaiting-tests.json with why none cites it yet: a new statement without a
// test fails here, and the count of those awaiting is printed. Every test's id (<suite>/<declared
// id>, which deviation files, `compare` and filters name it by) is well formed and its own.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, test } from 'vitest';
import { declaredIdProblem } from '../harness/conformance.ts';
import { clauses, requirements } from './catalogue.ts';
import { awaitingClauses, awaitingTests, collectDeclaredTests, COVERAGE_DOC, coverageByRequirement, coverageDocument, needsATest, type DeclaredTest } from './coverage.ts';

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

  test('every clause of the catalogue is checked by a test that names it (issue 38), says why none can, or is listed as awaiting its check', () => {
    const checked = new Set(tests.flatMap((t) => t.clauses));
    const all = [...clauses().values()];
    const untestable = all.filter((c) => c.untestable !== undefined);
    const testable = all.filter((c) => c.untestable === undefined);
    const awaiting = awaitingClauses();
    const split = [...requirements().values()].filter((r) => needsATest(r) && r.clauses?.length);
    const statements = [...requirements().values()].filter(needsATest);
    console.log(
      `clauses: ${testable.length}, checked ${testable.filter((c) => checked.has(c.id)).length} (${Object.keys(awaiting).length} awaiting a check, listed in src/requirements/awaiting-clauses.json; ${untestable.length} more that no black-box check can judge, each saying why; ${split.length} of the ${statements.length} testable MUST statements split into clauses)`,
    );
    expect(
      testable.filter((c) => !checked.has(c.id) && !(c.id in awaiting)).map((c) => `${c.id} (${c.kind}): ${c.text}`),
      'clauses no test names: add the check that fails a server breaking the clause alone, and name the clause in its test',
    ).toEqual([]);
    expect(
      Object.keys(awaiting).filter((id) => checked.has(id) || !clauses().has(id) || clauses().get(id)!.untestable !== undefined),
      'remove these from src/requirements/awaiting-clauses.json: checked, unknown or untestable',
    ).toEqual([]);
    expect(
      untestable.filter((c) => checked.has(c.id)).map((c) => c.id),
      'clauses marked untestable that a test names',
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
