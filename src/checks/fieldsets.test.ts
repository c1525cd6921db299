// The checks of suites/fieldsets.suite.ts: each passes what the spec allows (every reading of what
// it leaves open) and fails what it forbids.
import { describe, expect, test } from 'vitest';
import type { CheckResult } from './check.ts';
import {
  addedKeys,
  byObject,
  describeFieldset,
  embedIdsIsArrayOfIds,
  fieldsetProblems,
  fieldsetQuery,
  includedArrayKeys,
  includeResolves,
  keeps,
  linkedObjects,
  missingFields,
  pairById,
  parentIds,
  ruleOf,
} from './fieldsets.ts';

const failsWith = (result: CheckResult, pattern: RegExp) => {
  expect(result.ok).toBe(false);
  expect(result.ok ? '' : result.message).toMatch(pattern);
};

const DOC = new Set(['id', 'name', 'code', 'path']);
const FULL = { id: 1, name: 'Laptops', code: 'lap', path: '1,4', extra: 'x' };

describe('sparse fieldsets', () => {
  test('the query, the rule and what a fieldset keeps', () => {
    expect(fieldsetQuery('root', { only: ['id', 'name'], except: ['name'] })).toEqual({ 'fields[root]': 'id,name', 'fields_except[root]': 'name' });
    expect(describeFieldset('shop', { except: ['phone'] })).toBe('fields_except[shop]=phone');
    expect(ruleOf({ only: ['id'] })).toBe('inclusion');
    expect(ruleOf({ except: ['id'] })).toBe('exclusion');
    expect(ruleOf({ only: ['id'], except: ['id'] })).toBe('both');
    expect(ruleOf({})).toBeNull();
    // The exclusion is applied after the inclusion: a field in both goes.
    expect(keeps({ only: ['id', 'name'], except: ['name'] }, 'name')).toBe(false);
    expect(keeps({ only: ['id', 'name'], except: ['name'] }, 'id')).toBe(true);
    expect(keeps({ except: ['name'] }, 'code')).toBe(true);
  });

  test('fields[root]=A: exactly the fields of A stay', () => {
    expect(fieldsetProblems({ id: 1, name: 'x' }, FULL, 'root', { only: ['id', 'name'] }, DOC)).toEqual({ broken: [], noted: [] });
    const p = fieldsetProblems({ id: 1, code: 'lap' }, FULL, 'root', { only: ['id', 'name'] }, DOC);
    expect(p.broken).toEqual(['name is missing (fields[root] lists it)', 'code is still there (fields[root] does not list it)']);
    // The deployment's own field stays under fields[root]: only noted.
    const own = fieldsetProblems({ id: 1, extra: 'x' }, FULL, 'root', { only: ['id'] }, DOC);
    expect(own.broken).toEqual([]);
    expect(own.noted).toEqual(['extra is still there (fields[root] does not list it) (a field the spec does not document)']);
  });

  test('a listed field the full object lacks is not expected; one that appears is only noted', () => {
    expect(fieldsetProblems({ id: 1 }, { id: 1, name: 'x' }, 'root', { only: ['id', 'match_count'] }, new Set(['id', 'name', 'match_count'])).broken).toEqual([]);
    const p = fieldsetProblems({ id: 1, match_count: 3 }, { id: 1, name: 'x' }, 'root', { only: ['id', 'match_count'] }, new Set(['id', 'name', 'match_count']));
    expect(p.broken).toEqual([]);
    expect(p.noted[0]).toMatch(/match_count appeared/);
  });

  test('fields_except[root]=B removes B and keeps the rest', () => {
    expect(fieldsetProblems({ id: 1, code: 'lap', path: '1,4', extra: 'x' }, FULL, 'root', { except: ['name'] }, DOC)).toEqual({ broken: [], noted: [] });
    const p = fieldsetProblems({ id: 1, name: 'x', path: '1,4', extra: 'x' }, FULL, 'root', { except: ['name'] }, DOC);
    expect(p.broken).toEqual(['name is still there (fields_except[root] lists it)', 'code is missing (fields_except[root] does not list it)']);
  });

  test('both: A minus B (the exclusion after the inclusion)', () => {
    const set = { only: ['id', 'name'], except: ['name'] };
    expect(fieldsetProblems({ id: 1 }, FULL, 'root', set, DOC).broken).toEqual([]);
    // The inclusion applied after the exclusion keeps name.
    expect(fieldsetProblems({ id: 1, name: 'x' }, FULL, 'root', set, DOC).broken).toEqual([
      'name is still there (fields[root] lists it, but fields_except[root] lists it too and the exclusion is applied after the inclusion)',
    ]);
  });

  test('keys a link parameter added are left to the link rules', () => {
    expect(fieldsetProblems({ id: 1, shop: {} }, { ...FULL, shop: {} }, 'root', { only: ['id'] }, DOC, new Set(['shop'])).broken).toEqual([]);
  });

  test('missingFields and byObject: objects with the same problems are named together', () => {
    expect(missingFields({ id: 1 }, { id: 1, name: 'x' })).toEqual(['name']);
    expect(byObject([{ label: 'a', problems: [] }]).ok).toBe(true);
    failsWith(
      byObject([
        { label: 'location 1', problems: ['format is still there'] },
        { label: 'location 2', problems: ['format is still there'] },
        { label: 'location 3', problems: ['id is missing'] },
      ]),
      /^location 1, location 2: format is still there; location 3: id is missing$/,
    );
    failsWith(byObject(['a', 'b', 'c', 'd', 'e'].map((label) => ({ label, problems: ['x'] }))), /^a, b, c and 2 more: x$/);
  });

  test('pairById: by id when the object has one, else by position', () => {
    const full = [
      { id: 1, n: 'a' },
      { id: 2, n: 'b' },
    ];
    expect(pairById([{ id: 2 }, { id: 1 }], full).map(([, f]) => f?.['n'])).toEqual(['b', 'a']);
    expect(pairById([{ n: 'x' }, { n: 'y' }], full).map(([, f]) => f?.['id'])).toEqual([1, 2]);
  });
});

describe('linked resources', () => {
  test('addedKeys, linkedObjects, parentIds, includedArrayKeys', () => {
    expect(addedKeys({ id: 1, shop_ids: [2] }, { id: 1 })).toEqual(['shop_ids']);
    expect(linkedObjects({ id: 2 })).toEqual([{ id: 2 }]);
    expect(linkedObjects([{ id: 2 }, { id: 3 }])).toHaveLength(2);
    expect(linkedObjects(null)).toBeNull();
    expect(linkedObjects(2)).toBeNull();
    expect(parentIds({ a: 3, b: [4, null], c: null }, ['a', 'b', 'c'])).toEqual([3, 4]);
    expect(includedArrayKeys({ specifications: [], groups: [], meta: [] }, { specifications: [], meta: {} })).toEqual(['groups']);
  });

  test('embed_ids: an array of ids under any key the parameter added', () => {
    for (const key of ['shop_ids', 'shop', 'shops']) {
      expect(embedIdsIsArrayOfIds({ id: 1, [key]: [7] }, { id: 1 }, 'shop', [7], 'product').ok, key).toBe(true);
    }
    // The key may replace one the object already had, under the name.
    expect(embedIdsIsArrayOfIds({ id: 1, shop: [7] }, { id: 1, shop: null }, 'shop', [7], 'product').ok).toBe(true);
    // No linked record (an unstructured location's address): an empty array, or nulls.
    expect(embedIdsIsArrayOfIds({ id: 1, address_ids: [] }, { id: 1 }, 'address', [null], 'location').ok).toBe(true);
    expect(embedIdsIsArrayOfIds({ id: 1, address_ids: [null] }, { id: 1 }, 'address', [], 'location').ok).toBe(true);
    // Unknown expected ids: any array of ids.
    expect(embedIdsIsArrayOfIds({ id: 1, shop_ids: [9] }, { id: 1 }, 'shop', null, 'product').ok).toBe(true);
  });

  test('embed_ids: a bare id, nothing added, other ids, or not ids fail', () => {
    failsWith(embedIdsIsArrayOfIds({ id: 1, shop_ids: 7 }, { id: 1 }, 'shop', [7], 'product'), /^embed_ids=shop: product has shop_ids: 7, not an array of ids$/);
    failsWith(embedIdsIsArrayOfIds({ id: 1 }, { id: 1 }, 'shop', [7], 'product'), /no key the parameter added/);
    failsWith(embedIdsIsArrayOfIds({ id: 1, shop_ids: [8] }, { id: 1 }, 'shop', [7], 'product'), /shop_ids: \[8\], while embed=shop embeds id 7/);
    failsWith(embedIdsIsArrayOfIds({ id: 1, shop_ids: [{ id: 7 }] }, { id: 1 }, 'shop', [7], 'product'), /not an array of ids/);
  });

  const without = { specifications: [{ id: 1 }, { id: 2 }], meta: {} };
  const label = (i: number) => `specification ${i + 1}`;

  test('include: ids in each parent, every one resolved by a top-level array the parameter added', () => {
    const parents = [
      { id: 1, group_id: 10 },
      { id: 2, group_id: 11 },
    ];
    for (const key of ['groups', 'group']) {
      const body = { specifications: parents, [key]: [{ id: 10 }, { id: 11 }], meta: {} };
      expect(includeResolves(body, without, parents, ['group_id'], 'group', true, label).ok, key).toBe(true);
    }
    // Arrays of ids in the parents, and a null for a parent without a linked record.
    const arrays = [
      { id: 1, group_ids: [10] },
      { id: 2, group_ids: null },
    ];
    expect(includeResolves({ specifications: arrays, groups: [{ id: 10 }] }, without, arrays, ['group_ids'], 'group', true, label).ok).toBe(true);
  });

  test('include: no top-level array, a parent without ids, or an id no member has fail', () => {
    const parents = [
      { id: 1, group_id: 10 },
      { id: 2, group_id: 11 },
    ];
    failsWith(includeResolves({ specifications: parents, meta: {} }, without, parents, ['group_id'], 'group', true, label), /no top-level array/);
    const body = { specifications: parents, groups: [{ id: 10 }] };
    failsWith(
      includeResolves(body, without, parents, ['group_id'], 'group', true, label),
      /^include=group: specification 2 has group_id 11, which no object of the top-level groups array has$/,
    );
    // Without the members' ids (a fieldset removed them) only presence is judged.
    expect(includeResolves(body, without, parents, ['group_id'], 'group', false, label).ok).toBe(true);
    failsWith(includeResolves(body, without, [{ id: 1 }], ['group_id'], 'group', true, label), /specification 1 carries no id/);
  });
});

// GEN-8: "blank fields are present with value null". A null where the spec types a value is blank
// (a warning citing GEN-8); a wrong value that is not null still fails, not blank.
describe('GEN-8: a null is blank, a wrong value a failure', () => {
  const isBlank = (result: CheckResult) => expect(result).toMatchObject({ ok: false, blank: true });
  const isHard = (result: CheckResult) => {
    expect(result.ok).toBe(false);
    expect(result).not.toHaveProperty('blank');
  };
  const without = { specifications: [{ id: 1 }, { id: 2 }], meta: {} };
  const label = (i: number) => `specification ${i + 1}`;

  test('embed_ids: null where the array of ids should be is blank, a bare id fails', () => {
    isBlank(embedIdsIsArrayOfIds({ id: 1, shop_ids: null }, { id: 1 }, 'shop', [7], 'product'));
    isHard(embedIdsIsArrayOfIds({ id: 1, shop_ids: 7 }, { id: 1 }, 'shop', [7], 'product'));
  });

  test('include: a null top-level array, or an included object with id null, is blank', () => {
    const parents = [
      { id: 1, group_id: 10 },
      { id: 2, group_id: 11 },
    ];
    isBlank(includeResolves({ specifications: parents, groups: null, meta: {} }, without, parents, ['group_id'], 'group', true, label));
    isHard(includeResolves({ specifications: parents, groups: 5, meta: {} }, without, parents, ['group_id'], 'group', true, label));
    isBlank(includeResolves({ specifications: parents, groups: [{ id: 10 }, { id: null }] }, without, parents, ['group_id'], 'group', true, label));
    isHard(includeResolves({ specifications: parents, groups: [{ id: 10 }] }, without, parents, ['group_id'], 'group', true, label));
  });
});
