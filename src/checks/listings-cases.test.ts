// What the category listings suite asks and how it reads the answers: each helper gives what the
// suite relies on, and each judgement fails what it must, saying what was seen.
import { describe, expect, test } from 'vitest';
import type { CheckResult } from './check.ts';
import {
  caseLabel,
  combinationCases,
  combinationQuery,
  countMismatchCites,
  directionFields,
  favoriteSkuSets,
  favoritesPageOf,
  groupsOfCategoryOrAncestors,
  skuManufacturersListed,
  groupsOfCategory,
  hasAppliedFilters,
  keepsNothing,
  keepsTheSku,
  listsSome,
  manufacturerIdsOf,
  methodsBothWays,
  orderMethodsOf,
  priceMethodOf,
  reversedCites,
  sameTotalBothWays,
  totalResultsSent,
  visibleOrders,
} from './listings-cases.ts';

const failsWith = (result: CheckResult, pattern: RegExp) => {
  expect(result.ok).toBe(false);
  expect(result.ok ? '' : result.message).toMatch(pattern);
};

describe('the orders of the SKU listing', () => {
  test('visibleOrders: the first price method, and rating only where the version orders by it', () => {
    expect(priceMethodOf(['name', 'pricevat', 'price'])).toBe('pricevat');
    expect(priceMethodOf(['name', 'popularity'])).toBeUndefined();
    expect(visibleOrders(['name', 'price', 'rating'], true)).toEqual({ priceMethod: 'price', rating: 'rating' });
    expect(visibleOrders(['name', 'price', 'rating'], false)).toEqual({ priceMethod: 'price' });
    expect(visibleOrders(['name', 'popularity'], true)).toEqual({});
  });

  test('orderMethodsOf: the keys of meta.order_by_methods, none when it is not an object', () => {
    expect(orderMethodsOf({ order_by_methods: { name: 'Name', price: 'Price' } })).toEqual(['name', 'price']);
    expect(orderMethodsOf({ order_by_methods: ['name'] })).toEqual([]);
    expect(orderMethodsOf({})).toEqual([]);
  });

  test('methodsBothWays: the visible orders, else the method meta.ordered_by names, else none', () => {
    expect(methodsBothWays({ priceMethod: 'price', rating: 'rating' }, 'name')).toEqual(['price', 'rating']);
    expect(methodsBothWays({ rating: 'rating' }, 'name')).toEqual(['rating']);
    expect(methodsBothWays({}, 'name')).toEqual(['name']);
    expect(methodsBothWays({}, null)).toEqual([]);
  });

  test('directionFields: reviewscore for rating, the prices for the price method, nothing else', () => {
    expect(directionFields('rating', 'price')).toEqual({ fields: ['reviewscore'] });
    expect(directionFields('pricevat', 'pricevat')).toEqual({ fields: ['price_min', 'price_max'] });
    expect(directionFields('price', 'pricevat')).toEqual({ fields: [] });
    expect(directionFields('name', undefined)).toEqual({ fields: [] });
  });

  test('countMismatchCites: a filter listing the whole leaf where its count says fewer took no effect (its own); else the count or the filter', () => {
    const listing = (total_results: number) => ({ pagination: { total_results } });
    expect(countMismatchCites('CAT-31', 3, listing(6), listing(6))).toEqual(['CAT-31']);
    expect(countMismatchCites('CAT-32', 1, listing(4), listing(6))).toEqual(['CAT-32', 'FILT-3']);
    expect(countMismatchCites('CAT-32', 6, listing(5), listing(6))).toEqual(['CAT-32', 'FILT-3']);
  });

  test('reversedCites: one way only order_dir (CAT-28); both ways the rating order itself (CHG-22), a price method still CAT-28', () => {
    expect(reversedCites('rating', false)).toEqual(['CAT-28']);
    expect(reversedCites('rating', true)).toEqual(['CHG-22']);
    expect(reversedCites('pricevat', true)).toEqual(['CAT-28']);
    expect(reversedCites('pricevat', false)).toEqual(['CAT-28']);
  });

  test('totalResultsSent: an integer or null as sent, undefined for anything else', () => {
    expect(totalResultsSent({ pagination: { total_results: 12 } })).toBe(12);
    expect(totalResultsSent({ pagination: { total_results: null } })).toBeNull();
    expect(totalResultsSent({ pagination: { total_results: '12' } })).toBeUndefined();
    expect(totalResultsSent({ pagination: { total_results: 1.5 } })).toBeUndefined();
    expect(totalResultsSent({})).toBeUndefined();
    expect(totalResultsSent(undefined)).toBeUndefined();
  });

  test('sameTotalBothWays: passes equal totals, fails different ones naming both', () => {
    expect(sameTotalBothWays('price', 7, 7).ok).toBe(true);
    failsWith(sameTotalBothWays('price', 7, 6), /^order_by=price: order_dir=asc lists 7 SKUs, order_dir=desc 6$/);
  });
});

describe('the combination property', () => {
  test('manufacturerIdsOf: the integer manufacturer ids, each once, ascending', () => {
    expect(manufacturerIdsOf([{ manufacturer_id: 9 }, { manufacturer_id: 3 }, { manufacturer_id: 9 }, { manufacturer_id: null }, { manufacturer_id: '4' }, {}])).toEqual([3, 9]);
  });

  test('combinationCases: first the first manufacturer by the price method, descending; then the random cases, drawn again by the seed', () => {
    const cases = combinationCases([3, 9, 12], ['name', 'pricevat'], 42, 5);
    expect(cases).toHaveLength(6);
    expect(cases[0]).toEqual({ manufacturers: [3], orderBy: 'pricevat', orderDir: 'desc', per: null });
    for (const c of cases.slice(1)) {
      expect(c.manufacturers.length).toBeGreaterThanOrEqual(1);
      expect(c.manufacturers.length).toBeLessThanOrEqual(2);
      expect(c.manufacturers.every((m) => [3, 9, 12].includes(m))).toBe(true);
      expect([null, 'name', 'pricevat']).toContain(c.orderBy);
      expect([null, 'asc', 'desc']).toContain(c.orderDir);
      expect(c.per === null || (Number.isInteger(c.per) && c.per >= 1 && c.per <= 5)).toBe(true);
    }
    expect(combinationCases([3, 9, 12], ['name', 'pricevat'], 42, 5)).toEqual(cases);
    expect(combinationCases([3, 9], ['name'], 1, 0)).toEqual([{ manufacturers: [3], orderBy: 'name', orderDir: 'desc', per: null }]);
    expect(combinationCases([3, 9], [], 1, 2).every((c) => c.orderBy === null)).toBe(true);
  });

  test('combinationCases: a leaf whose SKUs have a single manufacturer gets cases of that one (fast-check threw before)', () => {
    const cases = combinationCases([7], ['name'], 3, 4);
    expect(cases).toHaveLength(5);
    expect(cases.every((c) => c.manufacturers.length === 1 && c.manufacturers[0] === 7)).toBe(true);
  });

  test('combinationQuery and caseLabel: only the parameters a case has, and the seed of a random case', () => {
    const full = combinationQuery({ manufacturers: [3, 9], orderBy: 'price', orderDir: 'asc', per: 2 });
    expect(full).toEqual({ 'manufacturer_ids[]': [3, 9], order_by: 'price', order_dir: 'asc', per: 2 });
    expect(combinationQuery({ manufacturers: [3], orderBy: null, orderDir: null, per: null })).toEqual({ 'manufacturer_ids[]': [3] });
    expect(caseLabel(full, 0, 7)).toBe('manufacturer_ids[]=3,9&order_by=price&order_dir=asc&per=2');
    expect(caseLabel({ 'manufacturer_ids[]': [3] }, 2, 7)).toBe('manufacturer_ids[]=3 (random case 2 of seed 7; CATALOGUE_SEED=7 draws it again)');
  });
});

describe("the user's favorites", () => {
  test('favoritesPageOf: the favorite objects, complete only when meta.pagination says one page', () => {
    const page = (total_pages: number) => ({ page: 1, per: 25, total_pages, total_results: 1 });
    expect(favoritesPageOf({ favorites: [{ sku_id: 1 }, 'x'], meta: { pagination: page(1) } })).toEqual({ items: [{ sku_id: 1 }], complete: true });
    expect(favoritesPageOf({ favorites: [{ sku_id: 1 }], meta: { pagination: page(2) } })).toEqual({ items: [{ sku_id: 1 }], complete: false });
    expect(favoritesPageOf({ favorites: [] })).toEqual({ items: [], complete: false });
    expect(favoritesPageOf(null)).toEqual({ items: [], complete: false });
  });

  test('favoriteSkuSets: owned favorites are in no list before 3.2.0; not favorited only when every favorite is known', () => {
    const listed = { items: [{ sku_id: 1 }, { sku_id: 2, have_it: true }, { sku_id: 'x' }], complete: true };
    const before = favoriteSkuSets(listed, { items: [], complete: true }, false);
    expect([...before.inLists]).toEqual([1]);
    expect([1, 2, 3].map(before.notFavorited)).toEqual([false, false, true]);
    const after = favoriteSkuSets(listed, { items: [{ sku_id: 4 }], complete: true }, true);
    expect([...after.inLists]).toEqual([1, 2]);
    expect([3, 4].map(after.notFavorited)).toEqual([true, false]);
    expect(favoriteSkuSets(listed, null, true).notFavorited(3)).toBe(false);
    expect(favoriteSkuSets({ ...listed, complete: false }, { items: [], complete: true }, true).notFavorited(3)).toBe(false);
    expect(favoriteSkuSets(listed, { items: [], complete: false }, true).notFavorited(3)).toBe(false);
  });
});

describe('the judgements of the tests', () => {
  test('groupsOfCategory: every group has the category_id listed under', () => {
    expect(groupsOfCategory([{ id: 1, category_id: 5 }], 5).ok).toBe(true);
    failsWith(
      groupsOfCategory(
        [
          { id: 1, category_id: 5 },
          { id: 2, category_id: 6 },
        ],
        5,
      ),
      /filter group 2 has category_id 6, listed under category 5/,
    );
  });

  test('hasAppliedFilters: present, whatever its shape; absent names the keys there are', () => {
    expect(hasAppliedFilters({ applied_filters: null }, 5).ok).toBe(true);
    failsWith(hasAppliedFilters({ pagination: {}, ordered_by: 'name' }, 5), /on leaf 5: meta has no applied_filters \(keys: pagination, ordered_by\)/);
  });

  test('listsSome: a manufacturer of the listing lists at least one SKU', () => {
    expect(listsSome(3, 1).ok).toBe(true);
    failsWith(listsSome(3, 0), /manufacturer_ids\[\]=3 lists no SKU/);
  });

  test('keepsTheSku and keepsNothing: the SKU named is kept; letters no catalogue holds keep none', () => {
    const sku = { id: 8, name: 'Quiet kettle' };
    expect(keepsTheSku('kettle', sku, [{ id: 7 }, { id: 8 }], 2).ok).toBe(true);
    failsWith(keepsTheSku('kettle', sku, [{ id: 7 }], 1), /q=kettle, a word of the name of SKU 8 \("Quiet kettle"\), lists 1 SKU\(s\), not that one/);
    expect(keepsNothing('zzqx', 0, 0, 40).ok).toBe(true);
    failsWith(keepsNothing('zzqx', 40, 25, 40), /q=zzqx, letters no catalogue holds, lists 40 SKU\(s\) of the leaf's 40/);
    failsWith(keepsNothing('zzqx', 0, 1, 40), /lists 0 SKU\(s\)/);
  });
});

describe('the listings of a category are its own (issue 38: CAT-24#3, CAT-21#2)', () => {
  test("filter groups: the category's own or an ancestor's pass (CAT-24.d); another category's fail; an unreadable path judges nothing", () => {
    const groups = [
      { id: 1, category_id: 9 },
      { id: 2, category_id: 3 },
    ];
    expect(groupsOfCategoryOrAncestors(groups, 9, [1, 3, 9]).ok).toBe(true);
    const other = groupsOfCategoryOrAncestors([...groups, { id: 3, category_id: 12 }], 9, [1, 3, 9]);
    expect(other.ok).toBe(false);
    expect((other as { message: string }).message).toMatch(/group 3 of category 12; the category's path .* is 1,3,9/);
    expect(groupsOfCategoryOrAncestors([{ id: 3, category_id: 12 }], 9, null).ok).toBe(true);
    expect(groupsOfCategoryOrAncestors([{ id: 3, category_id: null }], 9, [1, 9]).ok).toBe(true);
  });

  test("manufacturers: each of the SKUs' manufacturers listed; a missing one fails, in a tiles category only warns (CAT-21.f); a listing of several pages is not judged", () => {
    const skus = [
      { id: 1, manufacturer_id: 5 },
      { id: 2, manufacturer_id: 6 },
    ];
    const listed = [{ id: 5 }, { id: 6 }, { id: 7 }];
    expect(skuManufacturersListed(skus, listed, true, 'list', 4)).toEqual({ result: { ok: true }, warnOnly: false });
    const missing = skuManufacturersListed(skus, [{ id: 5 }], true, 'list', 4);
    expect(missing.warnOnly).toBe(false);
    expect((missing.result as { message: string }).message).toMatch(/lacks manufacturer\(s\) 6 of the category's SKUs/);
    expect(skuManufacturersListed(skus, [{ id: 5 }], true, 'tiles', 4).warnOnly).toBe(true);
    expect(skuManufacturersListed(skus, [{ id: 5 }], false, 'list', 4).result.ok).toBe(true);
  });
});
