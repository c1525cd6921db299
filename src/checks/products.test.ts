// Each check passes what the spec allows and fails what it forbids, with a message that says what
// was seen: a check that cannot fail is a defect.
import { describe, expect, test } from 'vitest';
import type { CheckResult } from './check.ts';
import {
  breakdownCountsAllReviews,
  chooseSizeProbe,
  embedsItsShop,
  finalPriceIncludesCosts,
  finalPriceNullsGrouped,
  groupsIncluded,
  hasSizeInRange,
  historyDatesAreDays,
  historyNotOfAFewDays,
  historyWithinSixMonths,
  inContext,
  listWithin,
  locationEmbedsAddress,
  nonDecreasing,
  numericSizes,
  offeredFilterValues,
  productsByFinalPrice,
  productsByNetPrice,
  productsHave,
  ratingBreakdownConsistent,
  reviewScoreRounded,
  shopUidsContain,
  shopUidsEqual,
  sizeFilterKeepsExactly,
  specificationsInOrder,
  unstructuredAddressIsNull,
  zeroInstallmentsFalseReading,
  type ProductList,
} from './products.ts';

const passes = (result: CheckResult) => expect(result).toEqual({ ok: true });
const failsWith = (result: CheckResult, pattern: RegExp) => {
  expect(result.ok).toBe(false);
  expect(result.ok ? '' : result.message).toMatch(pattern);
};

const product = (id: number, price: number, blp: Record<string, number | null> = {}, extra: Record<string, unknown> = {}) => ({
  id,
  price,
  blp: { shipping_cost: 0, payment_method_cost: null, final_price: null, ...blp },
  ...extra,
});

describe('ordering', () => {
  test('nonDecreasing', () => {
    passes(nonDecreasing([1, 1, 2], 'x'));
    passes(nonDecreasing([], 'x'));
    failsWith(nonDecreasing([1, 3, 2], 'prices are'), /prices are not in ascending order: 3 comes before 2 \(position 3 of 3\)/);
  });
  test('productsByNetPrice', () => {
    passes(productsByNetPrice([product(1, 5), product(2, 5), product(3, 7.5)]));
    failsWith(productsByNetPrice([product(1, 9), product(2, 5)]), /9 comes before 5/);
    failsWith(productsByNetPrice([{ id: 4, price: '5' }]), /product 4 has price "5", not a number/);
  });
  test('productsByFinalPrice: known final prices ascending, nulls anywhere', () => {
    passes(productsByFinalPrice([product(1, 9, { final_price: 10 }), product(2, 1, { final_price: null }), product(3, 2, { final_price: 11 })]));
    passes(productsByFinalPrice([product(2, 1, { final_price: null }), product(1, 9, { final_price: 10 })]));
    failsWith(
      productsByFinalPrice([product(1, 1, { final_price: 21.58 }), product(2, 2, { final_price: 20.4 })]),
      /product 1 \(final_price 21.58\) comes before product 2 \(final_price 20.4\)/,
    );
    failsWith(productsByFinalPrice([{ id: 5, price: 1, blp: null }]), /product 5 has blp null/);
  });
  test('finalPriceNullsGrouped', () => {
    passes(finalPriceNullsGrouped([product(1, 1, { final_price: 2 }), product(2, 1)]));
    passes(finalPriceNullsGrouped([product(2, 1), product(1, 1, { final_price: 2 })]));
    failsWith(finalPriceNullsGrouped([product(1, 1), product(2, 1, { final_price: 2 }), product(3, 1)]), /scattered among the others \(null,n,null\)/);
  });
});

describe('blp', () => {
  test('finalPriceIncludesCosts: at least price + shipping + payment, to the cent', () => {
    passes(finalPriceIncludesCosts(product(1, 17.3, { shipping_cost: 0.31, payment_method_cost: 3.97, final_price: 21.58 })));
    passes(finalPriceIncludesCosts(product(1, 17.3, { shipping_cost: 0.31, payment_method_cost: 3.97, final_price: 21.57 })));
    passes(finalPriceIncludesCosts(product(1, 17.3, { shipping_cost: 0.31, payment_method_cost: null, final_price: null })));
    failsWith(
      finalPriceIncludesCosts(product(20011, 17.3, { shipping_cost: 0.31, payment_method_cost: 3.97, final_price: 17.61 })),
      /product 20011: final_price 17.61 is less than price 17.3 \+ shipping_cost 0.31 \+ payment_method_cost 3.97 = 21.58/,
    );
    failsWith(finalPriceIncludesCosts({ id: 2, price: 1, blp: 'x' }), /product 2 has blp "x"/);
  });
});

describe('sizes', () => {
  const sized = (id: number, ...sizes: string[]) => ({ id, sizes: sizes.map((value) => ({ value, mapping: { uk: '1' } })) });
  test('numericSizes and hasSizeInRange', () => {
    expect(numericSizes([{ value: '40.5' }, '41', 42, 'M'])).toEqual([40.5, 41, 42]);
    expect(numericSizes([])).toBeNull();
    expect(numericSizes(null)).toBeNull();
    expect(hasSizeInRange(sized(1, '40.5'), 40)).toBe(true);
    expect(hasSizeInRange(sized(1, '41'), 40)).toBe(false);
    expect(hasSizeInRange(sized(1, '39.5'), 40)).toBe(false);
  });
  test('chooseSizeProbe prefers a size with a product just past the upper bound', () => {
    const products = [sized(1, '38', '38.5'), sized(2, '40', '40.5'), sized(3, '41', '41.5')];
    expect(chooseSizeProbe(products)).toEqual({ size: 40, expected: [2], boundary: [3] });
    expect(chooseSizeProbe([sized(1, '38')])).toEqual({ size: 38, expected: [1], boundary: [] });
    expect(chooseSizeProbe([{ id: 1, sizes: [] }])).toBeNull();
  });
  test('sizeFilterKeepsExactly', () => {
    passes(sizeFilterKeepsExactly([sized(2, '40', '40.5')], 40, [2]));
    failsWith(sizeFilterKeepsExactly([sized(2, '40'), sized(3, '41', '41.5')], 40, [2]), /size=40 kept product 3 whose sizes \[41,41.5\] have none from 40 up to but excluding 41/);
    failsWith(sizeFilterKeepsExactly([], 40, [2]), /size=40 left out products 2/);
  });
});

describe('distance, availability and zero_installments filters', () => {
  const list = (ids: number[], extra: Partial<ProductList> = {}): ProductList => ({ products: ids.map((id) => ({ id })), total: ids.length, complete: true, ...extra });
  test('inContext prefixes a failure only', () => {
    passes(inContext('distance=10', { ok: true }));
    failsWith(inContext('distance=10', { ok: false, message: 'status 400, expected 200' }), /^distance=10: status 400, expected 200$/);
  });
  test('listWithin: ids judged only when the outer list is whole; totals always', () => {
    passes(listWithin(list([2]), 'filtered', list([1, 2, 3]), 'unfiltered'));
    passes(listWithin(list([]), 'filtered', list([]), 'unfiltered'));
    failsWith(
      listWithin(list([2, 9]), 'the list with distance=10', list([1, 2, 3]), 'the unfiltered list'),
      /the list with distance=10 lists product 9, which the unfiltered list \(3 products\) does not/,
    );
    // The outer list goes on past its page: an id not on it proves nothing.
    passes(listWithin(list([9], { complete: false }), 'filtered', list([1, 2], { total: 30, complete: false }), 'unfiltered'));
    failsWith(
      listWithin(list([1], { total: 31, complete: false }), 'filtered', list([1, 2], { total: 30, complete: false }), 'unfiltered'),
      /filtered has total_results 31, more than unfiltered \(30\)/,
    );
  });
  test('offeredFilterValues: numeric keys of a map, ascending', () => {
    expect(offeredFilterValues({ '10': 'Up to 10 km', '5': 'Up to 5 km', '2.5': 'x', near: 'Near', '-1': 'x' })).toEqual(['2.5', '5', '10']);
    expect(offeredFilterValues(['5', '10'])).toEqual([]);
    expect(offeredFilterValues(null)).toEqual([]);
    expect(offeredFilterValues({ 'Up to 5 km': '5' })).toEqual([]);
  });
  test('zeroInstallmentsFalseReading: the whole list or what true leaves out', () => {
    passes(zeroInstallmentsFalseReading(list([1, 2, 3]), list([1, 2, 3]), list([2])));
    passes(zeroInstallmentsFalseReading(list([3, 1]), list([1, 2, 3]), list([2])));
    passes(zeroInstallmentsFalseReading(list([1]), list([1, 2, 3], { complete: false }), list([2])));
    failsWith(
      zeroInstallmentsFalseReading(list([1]), list([1, 2, 3]), list([2])),
      /zero_installments=false lists 1 products \(1\): neither the whole list \(3\) nor the 2 that zero_installments=true leaves out/,
    );
    failsWith(zeroInstallmentsFalseReading(list([]), list([1, 2]), list([])), /lists 0 products \(none\)/);
  });
});

describe('products and embedding', () => {
  test('productsHave', () => {
    passes(productsHave([{ id: 1, sku_id: 7 }], 'sku_id', 7));
    failsWith(productsHave([{ id: 1, sku_id: 8 }], 'sku_id', 7), /product 1 has sku_id 8, expected 7/);
  });
  test('shopUidsContain and shopUidsEqual: a search by shop_uid may match partially, which only warns', () => {
    const found = [
      { id: 1, shop_uid: '123' },
      { id: 2, shop_uid: '1234' },
      { id: 3, shop_uid: 'A-123' },
    ];
    passes(shopUidsContain(found, '123'));
    passes(shopUidsEqual([found[0]!], '123'));
    failsWith(
      shopUidsEqual(found, '123'),
      /also found product 2 \(shop_uid "1234"\), product 3 \(shop_uid "A-123"\), whose shop_uid only contains it: a partial match, tolerated because the endpoint is a search/,
    );
    failsWith(shopUidsContain([...found, { id: 4, shop_uid: '99' }], '123'), /product 4 has shop_uid "99", which does not contain the shop_uid searched \("123"\)/);
    expect(shopUidsContain([{ id: 5, shop_uid: null }], '123')).toMatchObject({ ok: false, blank: true });
  });
  test('embedsItsShop', () => {
    passes(embedsItsShop({ id: 1, shop_id: 5, shop: { id: 5 } }));
    failsWith(embedsItsShop({ id: 1, shop_id: 5 }), /embed=shop: product 1 has shop undefined \(absent\)/);
    failsWith(embedsItsShop({ id: 1, shop_id: 5, shop: { id: 6 } }), /shop_id 5 but embeds shop 6/);
  });
});

describe('specifications', () => {
  test('specificationsInOrder', () => {
    passes(
      specificationsInOrder([
        { id: 1, order: 1 },
        { id: 2, order: 1 },
        { id: 3, order: 4 },
      ]),
    );
    failsWith(
      specificationsInOrder([
        { id: 1, order: 4 },
        { id: 2, order: 2 },
      ]),
      /specification 2 \(order 2\) comes after specification 1 \(order 4\)/,
    );
  });
  test('groupsIncluded', () => {
    passes(
      groupsIncluded({
        specifications: [
          { id: 1, group_id: 9 },
          { id: 2, group_id: null },
        ],
        groups: [{ id: 9 }],
      }),
    );
    failsWith(groupsIncluded({ specifications: [{ id: 1, group_id: 9 }] }), /no top-level groups array/);
    failsWith(groupsIncluded({ specifications: [{ id: 1 }], groups: [] }), /specification 1 has no group_id/);
    failsWith(groupsIncluded({ specifications: [{ id: 1, group_id: 8 }], groups: [{ id: 9 }] }), /group_id 8, which is not in the groups array/);
  });
});

describe('price history', () => {
  const now = new Date('2026-11-21T02:00:00Z');
  test('historyDatesAreDays', () => {
    passes(historyDatesAreDays([{ date: '2026-05-25', price: 1 }]));
    failsWith(historyDatesAreDays([{ date: '2026-05-25T00:00:00Z' }]), /not YYYY-MM-DD/);
    failsWith(historyDatesAreDays([{ date: '2026-02-30' }]), /not a calendar date/);
  });
  test('historyWithinSixMonths: from 6 months back (184 days at most, a day of slack) to today', () => {
    passes(historyWithinSixMonths([{ date: '2026-05-21' }, { date: '2026-05-20' }, { date: '2026-11-21' }, { date: '2026-11-22' }], now));
    failsWith(
      historyWithinSixMonths([{ date: '2026-03-26' }], now),
      /point on 2026-03-26, older than the last 6 months \(184 days at most, and a day of slack: before 2026-05-20\)/,
    );
    failsWith(historyWithinSixMonths([{ date: '2026-05-19' }], now), /older than the last 6 months/);
    failsWith(historyWithinSixMonths([{ date: '2026-11-24' }], now), /after today/);
  });
  test('historyWithinSixMonths: a window of 183 or 184 days, or six calendar months clamped to the month end, is the last 6 months', () => {
    // 183 days back (half a year rounded up): a day before 6 calendar months back (26 February) and its day of slack.
    passes(historyWithinSixMonths([{ date: '2025-02-25' }], new Date('2025-08-27T12:00:00Z')));
    // Rails' 6.months.ago and dateutil on 31 August: 28 February (JavaScript's month arithmetic rolls over to 3 March).
    passes(historyWithinSixMonths([{ date: '2025-02-28' }, { date: '2025-03-01' }], new Date('2025-08-31T12:00:00Z')));
    // 184 days over a span with February.
    passes(historyWithinSixMonths([{ date: '2025-01-28' }], new Date('2025-07-31T00:30:00Z')));
    failsWith(
      historyWithinSixMonths([{ date: '2025-02-22' }], new Date('2025-08-27T12:00:00Z')),
      /point on 2025-02-22, older than the last 6 months \(184 days at most, and a day of slack: before 2025-02-23\)/,
    );
    // The fault's 240 days stay far beyond.
    failsWith(historyWithinSixMonths([{ date: '2024-12-30' }], new Date('2025-08-27T12:00:00Z')), /older than the last 6 months/);
  });
  test('historyNotOfAFewDays', () => {
    passes(historyNotOfAFewDays([]));
    passes(historyNotOfAFewDays([{ date: '2026-01-01' }, { date: '2026-01-09' }]));
    failsWith(historyNotOfAFewDays([{ date: '2026-01-01' }, { date: '2026-01-03' }]), /spans only 3 day\(s\) \(2 points\)/);
  });
});

describe('shops', () => {
  test('reviewScoreRounded', () => {
    passes(reviewScoreRounded({ id: 1, review_score: 4.7 }));
    passes(reviewScoreRounded({ id: 1, review_score: 0 }));
    failsWith(reviewScoreRounded({ id: 2009, review_score: 4.666666666666667 }), /shop 2009 has review_score 4.666666666666667, not rounded to 1 decimal/);
  });
  test('ratingBreakdownConsistent', () => {
    passes(
      ratingBreakdownConsistent([
        { impression: 'positive', percentage: 67, count: 2 },
        { impression: 'negative', percentage: 33, count: 1 },
      ]),
    );
    passes(
      ratingBreakdownConsistent([
        { impression: 'positive', percentage: 66, count: 2 },
        { impression: 'negative', percentage: 34, count: 1 },
      ]),
    );
    passes(ratingBreakdownConsistent([{ impression: 'positive', percentage: 0, count: 0 }]));
    passes(ratingBreakdownConsistent([]));
    failsWith(
      ratingBreakdownConsistent([
        { impression: 'positive', percentage: 50, count: 3 },
        { impression: 'negative', percentage: 50, count: 1 },
      ]),
      /"positive" has percentage 50 but 3 of 4 counted reviews is 75.0%/,
    );
    failsWith(ratingBreakdownConsistent([{ impression: 'positive', percentage: 10, count: 0 }]), /counts no review but gives percentages \[10\]/);
    failsWith(ratingBreakdownConsistent([{ impression: 'positive' }, { impression: 'positive' }]), /lists impression "positive" more than once/);
    failsWith(ratingBreakdownConsistent({}), /expected an array/);
  });
  test('breakdownCountsAllReviews', () => {
    passes(breakdownCountsAllReviews([{ count: 2 }, { count: 1 }], 3));
    failsWith(breakdownCountsAllReviews([{ count: 2 }], 3), /counts 2 reviews, the listing has total_results 3/);
  });
  test('unstructuredAddressIsNull', () => {
    const nulls = { id: null, street_number: null, street: null, postcode: null, city: null, region: null, country: null };
    passes(unstructuredAddressIsNull({ id: 1, format: 'unstructured', address: nulls }));
    passes(unstructuredAddressIsNull({ id: 1, format: 'unstructured', address: { ...nulls, id: 4 } }));
    passes(unstructuredAddressIsNull({ id: 1, format: 'structured', address: { ...nulls, street: 'High Street' } }));
    failsWith(
      unstructuredAddressIsNull({ id: 3, format: 'unstructured', address: { ...nulls, street: 'Stand 12' } }),
      /location 3 is unstructured but its address has street "Stand 12"/,
    );
  });
  test('locationEmbedsAddress', () => {
    passes(locationEmbedsAddress({ id: 1, format: 'structured', address: {} }));
    passes(locationEmbedsAddress({ id: 1, format: 'unstructured', address: null }));
    failsWith(locationEmbedsAddress({ id: 1, format: 'structured' }), /embed=address: location 1 has address undefined \(absent\)/);
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

  test('orders: a null price or blp is not placed; the others are still judged', () => {
    isBlank(
      productsByNetPrice([
        { id: 1, price: 1 },
        { id: 2, price: null },
        { id: 3, price: 2 },
      ]),
    );
    isHard(
      productsByNetPrice([
        { id: 1, price: 3 },
        { id: 2, price: null },
        { id: 3, price: 2 },
      ]),
    );
    isHard(productsByNetPrice([{ id: 1, price: '1' }]));
    isBlank(productsByFinalPrice([product(1, 1, { final_price: 2 }), { id: 2, price: 1, blp: null }, product(3, 1, { final_price: 3 })]));
    isHard(productsByFinalPrice([product(1, 1, { final_price: 4 }), { id: 2, price: 1, blp: null }, product(3, 1, { final_price: 3 })]));
    isHard(productsByFinalPrice([{ id: 2, price: 1, blp: 5 }]));
    // A null blp has no final price to group: left out, so the nulls stay together.
    passes(finalPriceNullsGrouped([product(1, 1, { final_price: 2 }), { id: 2, price: 1, blp: null }, product(3, 1, { final_price: 3 })]));
  });

  test('blp, sizes, embedded shop, groups, history dates', () => {
    isBlank(finalPriceIncludesCosts({ id: 1, price: 1, blp: null }));
    isHard(finalPriceIncludesCosts({ id: 1, price: 1, blp: 5 }));
    isBlank(sizeFilterKeepsExactly([{ id: 1, sizes: null }], 40, []));
    isHard(sizeFilterKeepsExactly([{ id: 1, sizes: ['41'] }], 40, []));
    isHard(productsHave([{ id: 1, sku_id: null }], 'sku_id', 5));
    isHard(
      productsHave(
        [
          { id: 1, sku_id: 6 },
          { id: 2, sku_id: null },
        ],
        'sku_id',
        5,
      ),
    );
    isBlank(embedsItsShop({ id: 1, shop_id: 3, shop: null }));
    isBlank(embedsItsShop({ id: 1, shop_id: 3, shop: { id: null } }));
    isBlank(embedsItsShop({ id: 1, shop_id: null, shop: { id: 3 } }));
    isHard(embedsItsShop({ id: 1, shop_id: 3, shop: { id: 4 } }));
    isHard(embedsItsShop({ id: 1, shop_id: 3 }));
    isBlank(groupsIncluded({ specifications: [], groups: null }));
    isHard(groupsIncluded({ specifications: [], groups: {} }));
    isBlank(historyDatesAreDays([{ date: null, price: 1 }]));
    isHard(historyDatesAreDays([{ date: '2024-1-1', price: 1 }]));
  });

  test('rating breakdown and embedded address', () => {
    isBlank(ratingBreakdownConsistent(null));
    isHard(ratingBreakdownConsistent({}));
    // Two null impressions are not one impression listed twice.
    passes(
      ratingBreakdownConsistent([
        { impression: null, percentage: 50, count: 1 },
        { impression: null, percentage: 50, count: 1 },
      ]),
    );
    isBlank(
      breakdownCountsAllReviews(
        [
          { impression: 'positive', percentage: 100, count: 2 },
          { impression: 'negative', percentage: 0, count: null },
        ],
        3,
      ),
    );
    isHard(
      breakdownCountsAllReviews(
        [
          { impression: 'positive', percentage: 100, count: 2 },
          { impression: 'negative', percentage: 0, count: 0 },
        ],
        3,
      ),
    );
    isBlank(locationEmbedsAddress({ id: 1, format: 'structured', address: null }));
    isHard(locationEmbedsAddress({ id: 1, format: 'structured', address: 'Main St 1' }));
  });

  test('inContext keeps a blank blank', () => {
    isBlank(inContext('distance=10', { ok: false, message: 'x is null', blank: true }));
    isHard(inContext('distance=10', { ok: false, message: 'x is 3' }));
  });
});
