// The fieldsets suite's generator (suites/fieldsets.suite.ts): it draws only fieldsets of the
// fields a resource serves, as valid parameters, keeps id on shared rows, and tries the
// combinations its rules turn on before the random cases.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { fieldsetQuery, keeps, ruleOf, type Fieldset } from './fieldsets.ts';
import { bothArbitrary, fieldsetArbitrary, linkArbitrary, linkExamples, rootArbitrary, rootExamples, type LinkRow, type RootRow } from './fieldsets-arbitraries.ts';

const FIELDS = ['id', 'name', 'path', 'children_count'];
const draw = <T>(arbitrary: fc.Arbitrary<T>, numRuns = 300): T[] => fc.sample(arbitrary, { seed: 7, numRuns });
const named = (set: Fieldset) => [...(set.only ?? []), ...(set.except ?? [])];

describe('fieldsets', () => {
  test('each is fields[t], fields_except[t] or both, of served fields only, none empty or repeated', () => {
    const sets = draw(fieldsetArbitrary(FIELDS));
    for (const set of sets) {
      expect(ruleOf(set)).not.toBeNull();
      expect(named(set).every((f) => FIELDS.includes(f))).toBe(true);
      for (const [key, value] of Object.entries(fieldsetQuery('root', set))) {
        expect(key).toMatch(/^fields(_except)?\[root\]$/);
        expect(value).toMatch(/^[a-z_]+(,[a-z_]+)*$/);
        expect(new Set(value.split(',')).size).toBe(value.split(',').length);
      }
    }
    // Every rule is drawn.
    expect(new Set(sets.map(ruleOf))).toEqual(new Set(['inclusion', 'exclusion', 'both']));
  });

  test('a kept field (id on a shared row) is always kept, when served', () => {
    for (const set of draw(fieldsetArbitrary(FIELDS, 'id'))) expect(keeps(set, 'id'), JSON.stringify(set)).toBe(true);
    expect(draw(fieldsetArbitrary(['id'], 'id'), 20).every((s) => JSON.stringify(s) === '{"only":["id"]}')).toBe(true);
    // Not served: drawn as any other.
    expect(draw(fieldsetArbitrary(['name', 'path'], 'id')).every((s) => !named(s).includes('id'))).toBe(true);
  });

  test('both parameters: the exclusion names some of the included fields, never the kept one', () => {
    for (const set of draw(bothArbitrary(FIELDS, 'id'))) {
      expect(set.only?.[0]).toBe('id');
      expect(set.except?.length).toBeGreaterThan(0);
      expect(set.except!.every((f) => set.only!.includes(f) && f !== 'id')).toBe(true);
    }
    expect(draw(bothArbitrary(['id'], 'id'), 5)).toEqual(Array(5).fill({ only: ['id'] }));
  });
});

describe('root cases', () => {
  const rows: RootRow[] = [
    { single: false, fields: ['id', 'name', 'path'] },
    { single: true, fields: ['id', 'name'] },
    { single: false, shared: true, fields: ['id', 'title'] },
    { single: true, fields: ['id'] },
  ];

  test('a case names a row and draws from its fields', () => {
    for (const c of draw(rootArbitrary(rows))) {
      expect(named(c.set).every((f) => rows[c.r]!.fields.includes(f))).toBe(true);
      if (rows[c.r]!.shared) expect(keeps(c.set, 'id')).toBe(true);
    }
  });

  test('the examples: a field in both and each parameter alone, then both on every other row, the same for a seed', () => {
    const examples = rootExamples(rows, 7);
    expect(examples.slice(0, 4)).toEqual([
      { r: 1, set: { only: ['id', 'name'], except: ['name'] } },
      { r: 1, set: { only: ['id'] } },
      { r: 0, set: { only: ['id', 'name', 'path'], except: ['name'] } },
      { r: 0, set: { except: ['name'] } },
    ]);
    expect(examples.map((e) => e.r).sort()).toEqual([0, 0, 1, 1, 2, 3]);
    expect(keeps(examples.find((e) => e.r === 2)!.set, 'id')).toBe(true);
    expect(rootExamples(rows, 7)).toEqual(examples);
  });
});

describe('link cases', () => {
  const answer = { body: {}, items: [] };
  const rows: LinkRow[] = [
    { single: false, link: 'shop', included: answer, rootFields: ['id', 'shop_id'], linkFields: ['id', 'name', 'phone'] },
    { single: true, link: 'shop', included: null, rootFields: ['name', 'shop', 'id'], linkFields: ['id'] },
  ];

  test('include only on a row that answered it; fieldsets only when the version has them', () => {
    const cases = draw(linkArbitrary(rows, true));
    expect(cases.some((c) => c.mode === 'include' && c.r === 0)).toBe(true);
    expect(cases.some((c) => c.mode === 'include' && c.r === 1)).toBe(false);
    for (const c of cases) {
      if (c.root) expect(named(c.root).every((f) => rows[c.r]!.rootFields.includes(f))).toBe(true);
      if (c.assoc) expect(named(c.assoc).every((f) => rows[c.r]!.linkFields.includes(f))).toBe(true);
    }
    expect(draw(linkArbitrary(rows, false)).every((c) => c.root === null && c.assoc === null)).toBe(true);
  });

  test('the examples: embed_ids alone, a root fieldset next to the embedded link, include alone and with an association fieldset', () => {
    expect(linkExamples(rows, true)).toEqual([
      { r: 1, mode: 'embed_ids', root: null, assoc: null },
      { r: 1, mode: 'embed', root: { only: ['name', 'shop'] }, assoc: null },
      { r: 0, mode: 'include', root: null, assoc: null },
      { r: 0, mode: 'include', root: null, assoc: { only: ['id', 'name'] } },
      { r: 0, mode: 'embed', root: null, assoc: { except: ['name'] } },
    ]);
    expect(linkExamples(rows, false)).toEqual([
      { r: 1, mode: 'embed_ids', root: null, assoc: null },
      { r: 0, mode: 'include', root: null, assoc: null },
    ]);
  });
});
