// Each check passes what the spec allows and fails what it forbids, with a message that says what
// was seen: a check that cannot fail is a defect.
import { describe, expect, test } from 'vitest';
import { pass, type CheckResult } from './check.ts';
import {
  favoritedMatchesFavorites,
  availableCountsWithinTotal,
  cachedPrivatelyFor300,
  chooseFilter,
  chooseOption,
  filterCountMatches,
  keywordOf,
  narrows,
  noGroupIdWithoutInclude,
  noSkuInInnerCategory,
  optionCountMatches,
  orderedByEchoes,
  orderedByIsAMethod,
  orderMetaIsWellFormed,
  rarestManufacturer,
  shopCountMatches,
  skusInCategory,
  specificationsInOrderOverallOrByGroup,
} from './listings.ts';

const failsWith = (result: CheckResult, pattern: RegExp) => {
  expect(result.ok).toBe(false);
  expect(result.ok ? '' : result.message).toMatch(pattern);
};

describe('category listings', () => {
  test('cachedPrivatelyFor300: max-age=300 and private, in any order and case, other directives allowed', () => {
    expect(cachedPrivatelyFor300({ 'cache-control': 'max-age=300, private' })).toEqual(pass());
    expect(cachedPrivatelyFor300({ 'cache-control': 'Private, Max-Age=300' })).toEqual(pass());
    expect(cachedPrivatelyFor300({ 'cache-control': 'private,max-age=300,must-revalidate' })).toEqual(pass());
    failsWith(cachedPrivatelyFor300({}), /no Cache-Control header/);
    failsWith(cachedPrivatelyFor300({ 'cache-control': 'max-age=300' }), /no private directive/);
    failsWith(cachedPrivatelyFor300({ 'cache-control': 'private' }), /no max-age directive/);
    failsWith(cachedPrivatelyFor300({ 'cache-control': 'max-age=60, private' }), /max-age=60 instead of max-age=300/);
    failsWith(cachedPrivatelyFor300({ 'cache-control': 'max-age=3000, private' }), /max-age=3000 instead/);
    failsWith(cachedPrivatelyFor300({ 'cache-control': 'no-cache, public' }), /no max-age directive, no private directive/);
  });

  test('noGroupIdWithoutInclude: group_id only with include=group', () => {
    expect(noGroupIdWithoutInclude([{ id: 1 }, { id: 2 }])).toEqual(pass());
    expect(noGroupIdWithoutInclude([])).toEqual(pass());
    failsWith(noGroupIdWithoutInclude([{ id: 1 }, { id: 2, group_id: 7 }]), /specification 2 has group_id 7 without include=group/);
    failsWith(noGroupIdWithoutInclude([{ id: 3, group_id: null }]), /specification 3 has group_id null/);
  });

  test('skusInCategory: every SKU names the leaf', () => {
    expect(
      skusInCategory(
        [
          { id: 1, category_id: 4 },
          { id: 2, category_id: 4 },
        ],
        4,
      ),
    ).toEqual(pass());
    expect(skusInCategory([], 4)).toEqual(pass());
    failsWith(
      skusInCategory(
        [
          { id: 1, category_id: 4 },
          { id: 2, category_id: 5 },
        ],
        4,
      ),
      /SKU 2 has category_id 5, listed under leaf 4/,
    );
    failsWith(skusInCategory([{ id: 3 }], 4), /SKU 3 has category_id undefined/);
    failsWith(skusInCategory([{ id: 3, category_id: '4' }], 4), /category_id "4"/);
  });

  test('noSkuInInnerCategory: no SKU names a category with children', () => {
    expect(
      noSkuInInnerCategory(
        [
          { id: 1, category_id: 4 },
          { id: 2, category_id: 5 },
        ],
        3,
      ),
    ).toEqual(pass());
    expect(noSkuInInnerCategory([], 3)).toEqual(pass());
    failsWith(
      noSkuInInnerCategory(
        [
          { id: 1, category_id: 4 },
          { id: 2, category_id: 3 },
        ],
        3,
      ),
      /SKU 2 has category_id 3, a category with children/,
    );
  });

  test('orderMetaIsWellFormed: ordered_by a string, order_by_methods a map (absent allowed before 3.2.0)', () => {
    expect(orderMetaIsWellFormed({ ordered_by: 'rank', order_by_methods: { rank: 'Relevance', price: 'Price' } }, true)).toEqual(pass());
    // Before 3.2.0 ("dynamic order_by methods in category SKUs") meta may name no methods.
    expect(orderMetaIsWellFormed({ ordered_by: 'rank' }, false)).toEqual(pass());
    failsWith(orderMetaIsWellFormed({ ordered_by: 'rank' }, true), /meta.order_by_methods is undefined/);
    failsWith(orderMetaIsWellFormed({ order_by_methods: { rank: 'Relevance' } }, true), /meta.ordered_by is undefined/);
    failsWith(orderMetaIsWellFormed({ ordered_by: 'rank', order_by_methods: ['rank'] }, false), /order_by_methods is \["rank"\]/);
    failsWith(orderMetaIsWellFormed(null, true), /meta is null/);
  });

  test('orderedByIsAMethod: ordered_by is a key of order_by_methods, the message says why that is open', () => {
    expect(orderedByIsAMethod({ ordered_by: 'rank', order_by_methods: { rank: 'Relevance', price: 'Price' } })).toEqual(pass());
    failsWith(
      orderedByIsAMethod({ ordered_by: 'name', order_by_methods: { rank: 'Relevance', price: 'Price' } }),
      /"name" is not a key of meta.order_by_methods \(rank, price\): the spec does not say whether the current \(default\) method must be one a client can choose/,
    );
    // What orderMetaIsWellFormed judges is not judged again.
    expect(orderedByIsAMethod({ ordered_by: 'rank' })).toEqual(pass());
    expect(orderedByIsAMethod(null)).toEqual(pass());
  });

  test('specificationsInOrderOverallOrByGroup: in order overall, or group by group with the groups in their order', () => {
    const spec = (id: number, order: number, group_id: number) => ({ id, order, group_id });
    const groups = [
      { id: 1, name: 'General', order: 1 },
      { id: 2, name: 'Display', order: 2 },
    ];
    expect(specificationsInOrderOverallOrByGroup([spec(1, 1, 2), spec(2, 2, 1), spec(3, 3, 2)], groups)).toEqual(pass());
    // Group by group: the order restarts in each group.
    expect(specificationsInOrderOverallOrByGroup([spec(1, 2, 1), spec(2, 5, 1), spec(3, 1, 2), spec(4, 3, 2)], groups)).toEqual(pass());
    failsWith(
      specificationsInOrderOverallOrByGroup([spec(1, 5, 1), spec(2, 2, 1), spec(3, 1, 2)], groups),
      /in order neither overall \(specification 2 \(order 2\) comes after specification 1 \(order 5\)\) nor group by group \(in group 1, specification 2/,
    );
    failsWith(specificationsInOrderOverallOrByGroup([spec(1, 2, 1), spec(2, 1, 2), spec(3, 3, 1)], groups), /the specifications of group 1 are not together/);
    failsWith(specificationsInOrderOverallOrByGroup([spec(1, 2, 2), spec(2, 1, 1)], groups), /group 1 \(order 1\) comes after group 2 \(order 2\)/);
    // Specifications of no group are each a group of their own: placed anywhere, with any order (a
    // deployment ordering group by group, as the mutation bundle's variant specifications-by-group).
    const loose = (id: number, order: number) => ({ id, order, group_id: null });
    expect(specificationsInOrderOverallOrByGroup([loose(1, 1), spec(2, 1, 1), spec(3, 2, 1), loose(4, 1), spec(5, 1, 2)], groups)).toEqual(pass());
    failsWith(specificationsInOrderOverallOrByGroup([loose(1, 2), spec(2, 1, 2), loose(3, 1), spec(4, 1, 1)], groups), /group 1 \(order 1\) comes after group 2/);
  });

  test('orderedByEchoes: meta.ordered_by is the method sent', () => {
    expect(orderedByEchoes({ ordered_by: 'pricevat' }, 'pricevat')).toEqual(pass());
    failsWith(orderedByEchoes({ ordered_by: 'rank' }, 'pricevat'), /order_by=pricevat: meta.ordered_by is "rank"/);
    failsWith(orderedByEchoes(undefined, 'price'), /meta.ordered_by is undefined/);
  });

  test('narrows: a filter never adds SKUs', () => {
    expect(narrows(3, 6, 'q=x')).toEqual(pass());
    expect(narrows(6, 6, 'q=x')).toEqual(pass());
    expect(narrows(0, 6, 'q=x')).toEqual(pass());
    failsWith(narrows(7, 6, 'q=x'), /q=x gives 7 SKUs, more than the 6 without it/);
  });

  test('filterCountMatches: filter_ids[] lists as many SKUs as available_filters counts', () => {
    expect(filterCountMatches('12', 3, 3)).toEqual(pass());
    expect(filterCountMatches('12', 0, 0)).toEqual(pass());
    failsWith(filterCountMatches('12', 3, 6), /gives 3 matching SKUs for filter 12, but filter_ids\[\]=12 lists 6/);
  });

  test('shopCountMatches: shop_ids[] lists as many SKUs as available_filters.shops counts', () => {
    expect(shopCountMatches('2007', 3, 3)).toEqual(pass());
    expect(shopCountMatches('2007', 0, 0)).toEqual(pass());
    failsWith(shopCountMatches('2007', 1, 6), /shops gives 1 matching SKUs for shop 2007, but shop_ids\[\]=2007 lists 6/);
  });

  test('chooseOption: an option counting some but not all SKUs first, else one counting some, else the first', () => {
    const opts = [
      { id: 1, label: 'a', count: 0 },
      { id: 2, label: 'b', count: 6 },
      { id: 3, label: 'c', count: 2 },
    ];
    expect(chooseOption(opts, 6)).toEqual({ id: 3, label: 'c', count: 2 });
    expect(chooseOption(opts.slice(0, 2), 6)).toEqual({ id: 2, label: 'b', count: 6 });
    expect(chooseOption(opts.slice(0, 1), 6)).toEqual({ id: 1, label: 'a', count: 0 });
    expect(chooseOption([{ id: '4', count: 2 }, { id: 5 }], 6)).toEqual({ id: 5, label: undefined, count: undefined });
    expect(chooseOption([{ id: 1.5, count: 2 }, 'x'], 6)).toBeNull();
    expect(chooseOption([], 6)).toBeNull();
    expect(chooseOption({ 1: 2 }, 6)).toBeNull();
  });

  test('optionCountMatches: the option count against the SKUs listed, saying the count is not defined', () => {
    expect(optionCountMatches('distances', 'distance', { id: 3, label: 'Up to 25 km', count: 4 }, 4)).toEqual(pass());
    failsWith(
      optionCountMatches('availabilities', 'availability', { id: 1, label: 'now', count: 5 }, 3),
      /availabilities gives count 5 for option 1 \("now"\), but availability=1 lists 3 SKUs \(whether that count counts SKUs or offers is not stated\)/,
    );
    failsWith(optionCountMatches('distances', 'distance', { id: 2, label: 'x', count: undefined }, 0), /count undefined/);
  });

  test('availableCountsWithinTotal: no count exceeds the SKUs of the listing', () => {
    const ok = { filters: { '1': 2, '2': 0 }, manufacturers: { '7': 5 }, shops: {}, availabilities: [{ id: 1, label: 'now', count: 5 }], distances: [] };
    expect(availableCountsWithinTotal(ok, 5)).toEqual(pass());
    expect(availableCountsWithinTotal({ filters: {}, manufacturers: {} }, 0)).toEqual(pass()); // absent keys are the schema's
    failsWith(availableCountsWithinTotal({ ...ok, filters: { '1': 6 } }, 5), /available_filters.filters\[1\] is 6, more than the 5 SKUs/);
    failsWith(availableCountsWithinTotal({ ...ok, shops: { '9': 9 } }, 5), /available_filters.shops\[9\] is 9/);
    expect(availableCountsWithinTotal({ ...ok, distances: [{ id: 2, label: '10 km', count: 8 }] }, 5)).toEqual(pass()); // may count offers
    failsWith(availableCountsWithinTotal([], 5), /meta.available_filters is \[\]/);
  });

  test('chooseFilter: a filter matching some but not all SKUs first, else one matching some', () => {
    expect(chooseFilter({ '1': 6, '2': 0, '3': 2 }, 6)).toEqual({ id: '3', count: 2 });
    expect(chooseFilter({ '1': 6, '2': 0 }, 6)).toEqual({ id: '1', count: 6 });
    expect(chooseFilter({ '1': 0 }, 6)).toBeNull();
    expect(chooseFilter({ x: 2 }, 6)).toBeNull();
    expect(chooseFilter(null, 6)).toBeNull();
  });

  test('rarestManufacturer: the manufacturer of the fewest SKUs', () => {
    expect(rarestManufacturer([{ manufacturer_id: 1 }, { manufacturer_id: 2 }, { manufacturer_id: 1 }])).toBe(2);
    expect(rarestManufacturer([{ manufacturer_id: 5 }])).toBe(5);
    expect(rarestManufacturer([{ manufacturer_id: '5' }, {}])).toBeNull();
  });

  test('keywordOf: the longest word of 3 or more characters', () => {
    expect(keywordOf('Acme X1 Ultrabook 14"')).toBe('Ultrabook');
    expect(keywordOf('Čajník Ø 20')).toBe('Čajník');
    expect(keywordOf('A B 12')).toBeNull();
    expect(keywordOf(null)).toBeNull();
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

  test('category_id of listed SKUs', () => {
    // The leaf listed is the value stated: null is a wrong value (issue 38, point 3).
    isHard(
      skusInCategory(
        [
          { id: 1, category_id: 5 },
          { id: 2, category_id: null },
        ],
        5,
      ),
    );
    isHard(
      skusInCategory(
        [
          { id: 1, category_id: 6 },
          { id: 2, category_id: null },
        ],
        5,
      ),
    );
  });

  test('meta.ordered_by and meta.order_by_methods', () => {
    isBlank(orderMetaIsWellFormed(null, true));
    isBlank(orderMetaIsWellFormed({ order_by_methods: null, ordered_by: 'price' }, true));
    isBlank(orderMetaIsWellFormed({ order_by_methods: { price: 'Price' }, ordered_by: null }, true));
    isHard(orderMetaIsWellFormed({ order_by_methods: { price: 'Price' }, ordered_by: 5 }, true));
    isHard(orderedByIsAMethod({ order_by_methods: { price: 'Price' }, ordered_by: 'name' }));
    isBlank(orderedByEchoes(null, 'price'));
    // The order asked is the value stated: null is a wrong value (issue 38, point 3).
    isHard(orderedByEchoes({ ordered_by: null }, 'price'));
    isHard(orderedByEchoes({ ordered_by: 'name' }, 'price'));
    isHard(orderedByEchoes({}, 'price'));
  });

  test('available_filters and the count of an option', () => {
    isBlank(availableCountsWithinTotal(null, 3));
    isHard(availableCountsWithinTotal([], 3));
    isBlank(optionCountMatches('distances', 'distance', { id: 1, label: '10 km', count: null }, 3));
    isHard(optionCountMatches('distances', 'distance', { id: 1, label: '10 km', count: 4 }, 3));
  });
});

describe("favoritedMatchesFavorites: favorited tells the user's favorites", () => {
  const skus = [{ id: 1, favorited: true }, { id: 2, favorited: false }, { id: 3, favorited: true }, { id: 4 }];
  test('true in a list, false where none; an owned-only favorite (3) either way; a SKU without the field not judged', () => {
    expect(favoritedMatchesFavorites(skus, new Set([1]), (id) => id === 2).ok).toBe(true);
    expect(favoritedMatchesFavorites(skus, new Set([1]), () => false).ok).toBe(true);
  });
  test('false for a SKU in a list, or true for one never favorited: fails', () => {
    expect(favoritedMatchesFavorites(skus, new Set([1, 2]), () => false).ok).toBe(false);
    expect(favoritedMatchesFavorites(skus, new Set([1]), (id) => id === 3).ok).toBe(false);
  });
});
