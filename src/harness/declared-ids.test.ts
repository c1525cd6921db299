// A conformance test declares its id (issue 20, point 9): a missing or malformed one stops the
// suite file at declaration, naming the test, before any test of it runs.
import { describe, expect, test } from 'vitest';
import { conformanceTest, declaredIdProblem, type TestDeclaration } from './conformance.ts';

const declare = (declaration: Partial<TestDeclaration>) => () =>
  conformanceTest('is the root', { requirements: ['CAT-18'], ...declaration } as TestDeclaration, async () => undefined);

describe('declared test ids', () => {
  test('kebab-case of at most 48 characters is well formed', () => {
    for (const id of ['root-is-root', 'unknown-category-404', '304-counts-against-limit', 'a', 'x'.repeat(48)]) expect(declaredIdProblem(id), id).toBeNull();
  });

  test('anything else is refused, saying why', () => {
    expect(declaredIdProblem(undefined)).toBe('declares no id');
    expect(declaredIdProblem('')).toBe('declares no id');
    for (const id of ['Root-is-root', 'root_is_root', 'root is root', '-root', 'root-', 'root--is', 'categories/root-is-root'])
      expect(declaredIdProblem(id), id).toMatch(/not kebab-case/);
    expect(declaredIdProblem('x'.repeat(49))).toMatch(/longer than 48 characters/);
  });

  test('conformanceTest throws at declaration on a missing or malformed id, naming the test', () => {
    expect(declare({})).toThrow('test "is the root" declares no id');
    expect(declare({ id: 'Is the root' })).toThrow(/^test "is the root" declares id "Is the root", which is not kebab-case/);
  });
});
