// Each check passes what the spec allows and fails what it forbids, with a message that says what
// was seen: a check that cannot fail is a defect.
import { describe, expect, test } from 'vitest';
import { pass } from './check.ts';
import {
  findsTheSku,
  someSuggestionMatches,
  appliedQueryIsTheSentOne,
  carriesMatchCount,
  highlightIndexIsInKey,
  namesAreOrdered,
  nonsenseAnswerDiffers,
  notInReverseOrder,
  orderedByOneOf,
  pricesAreOrdered,
  sameMembers,
  skusBelongToManufacturer,
  strongMatchesHoldAtMostOneEach,
} from './search.ts';

const failsWith = (result: ReturnType<typeof pass>, pattern: RegExp) => {
  expect(result.ok).toBe(false);
  expect(result.ok ? '' : result.message).toMatch(pattern);
};

describe('search', () => {
  test('carriesMatchCount: a non-negative integer match_count on every search category', () => {
    expect(carriesMatchCount({ id: 1, match_count: 0 })).toEqual(pass());
    expect(carriesMatchCount({ id: 1, match_count: 12 })).toEqual(pass());
    failsWith(carriesMatchCount({ id: 1 }), /category 1 has no match_count/);
    failsWith(carriesMatchCount({ id: 1, match_count: '3' }), /match_count "3"/);
    failsWith(carriesMatchCount({ id: 1, match_count: -1 }), /non-negative integer/);
    failsWith(carriesMatchCount([]), /expected an object/);
  });

  test('strongMatchesHoldAtMostOneEach: one object per kind, absent or null when nothing matched', () => {
    expect(strongMatchesHoldAtMostOneEach({})).toEqual(pass());
    expect(strongMatchesHoldAtMostOneEach({ category: { id: 1 }, manufacturer: { id: 2 }, sku: { id: 3 } })).toEqual(pass());
    expect(strongMatchesHoldAtMostOneEach({ sku: null })).toEqual(pass());
    failsWith(strongMatchesHoldAtMostOneEach({ sku: [{ id: 1 }, { id: 2 }] }), /strong_matches.sku is an array of 2/);
    failsWith(strongMatchesHoldAtMostOneEach({ manufacturer: 'Acme' }), /strong_matches.manufacturer is "Acme"/);
    failsWith(strongMatchesHoldAtMostOneEach({ category: { name: 'x' } }), /strong_matches.category has id undefined/);
    failsWith(strongMatchesHoldAtMostOneEach([]), /meta.strong_matches is \[\]/);
    failsWith(strongMatchesHoldAtMostOneEach(undefined), /expected an object/);
  });

  test('appliedQueryIsTheSentOne: equal up to whitespace and case', () => {
    expect(appliedQueryIsTheSentOne('Air  conditioning ', 'air conditioning')).toEqual(pass());
    failsWith(appliedQueryIsTheSentOne('lamps', 'lamp'), /meta.q is "lamp", but q="lamps" was sent/);
    failsWith(appliedQueryIsTheSentOne('lamps', null), /meta.q is null, expected a string/);
  });

  test('highlightIndexIsInKey: i is an integer index into k', () => {
    expect(highlightIndexIsInKey({ k: 'Acme Echo', i: 0 })).toEqual(pass());
    expect(highlightIndexIsInKey({ k: 'Acme Echo', i: 5 })).toEqual(pass());
    expect(highlightIndexIsInKey({ k: '', i: 0 })).toEqual(pass());
    // Just after the typed text, where the completion starts: k's end when k is what was typed.
    expect(highlightIndexIsInKey({ k: 'Acme', i: 4 })).toEqual(pass());
    failsWith(highlightIndexIsInKey({ k: 'Acme', i: 5 }), /has i 5, outside the keyphrase \(length 4, 4 bytes in UTF-8, its end included\)/);
    // -1, as indexOf says it: q does not occur in k (a corrected suggestion); -2 is no index.
    expect(highlightIndexIsInKey({ k: 'Acme', i: -1 })).toEqual(pass());
    failsWith(highlightIndexIsInKey({ k: 'Acme', i: -2 }), /outside the keyphrase/);
    // Counted in UTF-8 bytes, an index may pass the length in UTF-16 units.
    expect(highlightIndexIsInKey({ k: 'Θήκες iPhone', i: 17 })).toEqual(pass());
    failsWith(highlightIndexIsInKey({ k: 'Acme', i: 1.5 }), /expected an integer/);
    failsWith(highlightIndexIsInKey({ k: 'Acme' }), /has i undefined/);
    failsWith(highlightIndexIsInKey({ k: 3, i: 0 }), /has k 3/);
  });
});

describe('search finds what the catalogue holds', () => {
  const sku = { id: 7, name: 'Acme Phone 12', pathIds: [1, 3, 9] };
  test('findsTheSku: the SKU as the strong match, or a category on its path (leaf or above): passes', () => {
    expect(findsTheSku([], { sku: { id: 7 } }, sku, false).result.ok).toBe(true);
    expect(findsTheSku([{ id: 9 }], {}, sku, false).result.ok).toBe(true);
    expect(findsTheSku([{ id: 44 }, { id: 3 }], {}, sku, false).result.ok).toBe(true);
  });
  test('findsTheSku: nothing, or only other categories, fails (only noted when later pages may hold it)', () => {
    const none = findsTheSku([], {}, sku, false);
    expect(none.result.ok).toBe(false);
    expect((none.result as { message: string }).message).toMatch(/found nothing/);
    expect(findsTheSku([{ id: 44 }], { sku: null }, sku, false).result.ok).toBe(false);
    expect(findsTheSku([{ id: 44 }], {}, sku, true).onLaterPage).toBe(true);
  });
  test('someSuggestionMatches: q where i points, as a character or a word index, ignoring case and accents', () => {
    expect(someSuggestionMatches([{ k: 'Gaming Laptops', i: 7 }], 'lap').ok).toBe(true);
    expect(someSuggestionMatches([{ k: 'Gaming Laptops', i: 1 }], 'lap').ok).toBe(true);
    expect(
      someSuggestionMatches(
        [
          { k: 'Cafés', i: 0 },
          { k: 'Tables', i: 0 },
        ],
        'cafe',
      ).ok,
    ).toBe(true);
    expect(someSuggestionMatches([], 'lap').ok).toBe(true);
  });
  test('someSuggestionMatches: i just after the typed text, where the completion starts', () => {
    expect(someSuggestionMatches([{ k: 'Laptops', i: 3 }], 'Lap').ok).toBe(true);
    expect(someSuggestionMatches([{ k: 'Gaming Laptops', i: 10 }], 'lap').ok).toBe(true);
    expect(someSuggestionMatches([{ k: 'Lap', i: 3 }], 'lap').ok).toBe(true);
    expect(someSuggestionMatches([{ k: 'Gaming Laptops', i: 9 }], 'lap').ok).toBe(false);
  });
  test('someSuggestionMatches: i counted in code points as well as UTF-16 units', () => {
    // '😀' is one code point, two UTF-16 units: 'Laptops' starts at code point 2, unit 3.
    expect(someSuggestionMatches([{ k: '😀 Laptops', i: 2 }], 'lap').ok).toBe(true);
    expect(someSuggestionMatches([{ k: '😀 Laptops', i: 3 }], 'lap').ok).toBe(true);
    expect(someSuggestionMatches([{ k: '😀 Laptops', i: 5 }], 'lap').ok).toBe(true); // after it, in code points
    expect(someSuggestionMatches([{ k: '😀 Laptops', i: 1 }], 'lap').ok).toBe(false);
  });

  test('someSuggestionMatches: i counted in UTF-8 bytes (a server that indexes bytes)', () => {
    // 'Θήκες για ' is 10 characters and 18 bytes in UTF-8.
    expect(someSuggestionMatches([{ k: 'Θήκες για iPhone', i: 18 }], 'iph').ok).toBe(true);
    expect(someSuggestionMatches([{ k: 'Θήκες για iPhone', i: 10 }], 'iph').ok).toBe(true);
    expect(someSuggestionMatches([{ k: 'Θήκες για iPhone', i: 17 }], 'iph').ok).toBe(false);
  });
  test('someSuggestionMatches: suggestions that do not begin with q anywhere i points fail', () => {
    expect(
      someSuggestionMatches(
        [
          { k: 'Televisions', i: 0 },
          { k: 'Tablets', i: 0 },
        ],
        'lap',
      ).ok,
    ).toBe(false);
  });
});

describe('a search for letters no catalogue holds', () => {
  const named = { q: 'Laptops', ids: [4, 3, 1], total: 3 };
  test('nonsenseAnswerDiffers: another answer than a catalogue name gets (a fuzzy match) passes', () => {
    expect(nonsenseAnswerDiffers({ q: 'qxzjvqkx', ids: [7, 9], total: 2 }, named)).toEqual(pass());
    expect(nonsenseAnswerDiffers({ q: 'qxzjvqkx', ids: [1, 3, 4], total: 3 }, named)).toEqual(pass());
  });
  test('nonsenseAnswerDiffers: the very answer a catalogue name gets fails: q is not applied', () => {
    failsWith(
      nonsenseAnswerDiffers({ q: 'qxzjvqkx', ids: [4, 3, 1], total: 3 }, named),
      /q="qxzjvqkx".*and q="Laptops".*both find the same 3 categories \(ids 4, 3, 1\): q is not applied/,
    );
  });
});

describe('manufacturers', () => {
  test('namesAreOrdered: accepts any usual collation, in the direction asked', () => {
    expect(namesAreOrdered(['acme', 'Bolt', 'cedar'], 'asc')).toEqual(pass()); // case-insensitive
    expect(namesAreOrdered(['Bolt', 'acme', 'cedar'], 'asc')).toEqual(pass()); // code point
    expect(namesAreOrdered(['Éclair', 'Fig'], 'asc')).toEqual(pass()); // locale
    expect(namesAreOrdered(['cedar', 'Bolt', 'acme'], 'desc')).toEqual(pass());
    expect(namesAreOrdered(['same', 'same'], 'desc')).toEqual(pass());
    expect(namesAreOrdered([], 'asc')).toEqual(pass());
    failsWith(namesAreOrdered(['acme', 'cedar', 'bolt'], 'asc'), /not in asc order.*"cedar" comes before "bolt"/);
    failsWith(namesAreOrdered(['acme', 'bolt'], 'desc'), /not in desc order/);
    failsWith(namesAreOrdered(['acme', 7], 'asc'), /item 1 has name 7/);
  });

  test('pricesAreOrdered: by price_min or by price_max, in the direction asked', () => {
    const sku = (price_min: number, price_max: number) => ({ price_min, price_max });
    expect(pricesAreOrdered([sku(1, 9), sku(2, 3), sku(5, 5)], 'asc')).toEqual(pass()); // by price_min
    expect(pricesAreOrdered([sku(4, 5), sku(2, 6), sku(1, 9)], 'asc')).toEqual(pass()); // by price_max
    expect(pricesAreOrdered([sku(5, 5), sku(2, 3), sku(1, 9)], 'desc')).toEqual(pass());
    failsWith(pricesAreOrdered([sku(3, 3), sku(1, 1), sku(2, 2)], 'asc'), /not in asc order by price_min \(\[3,1,2\]\) nor by price_max/);
    failsWith(pricesAreOrdered([sku(1, 1), sku(2, 2)], 'desc'), /not in desc order/);
    failsWith(pricesAreOrdered([{ price_min: '1' }, { price_min: '2' }], 'asc'), /not in asc order/);
  });

  test('orderedByOneOf: any of the fields in the direction asked orders the items', () => {
    expect(orderedByOneOf([{ reviewscore: 4.5 }, { reviewscore: 4.5 }, { reviewscore: 3 }], ['reviewscore'], 'desc')).toEqual(pass());
    failsWith(orderedByOneOf([{ reviewscore: 3 }, { reviewscore: 4 }], ['reviewscore'], 'desc'), /SKUs are not in desc order by reviewscore \(\[3,4\]\)/);
  });

  test('notInReverseOrder: fails only when every field runs against the direction, two steps or more', () => {
    const sku = (price_min: unknown, price_max: unknown) => ({ price_min, price_max });
    failsWith(
      notInReverseOrder([sku(1, 2), sku(2, 3), sku(2, 4), sku(3, 5)], ['price_min', 'price_max'], 'desc'),
      /order_dir=desc lists the SKUs in ascending order: price_min \[1,2,2,3\]; price_max \[2,3,4,5\]/,
    );
    failsWith(notInReverseOrder([{ reviewscore: 5 }, { reviewscore: 4 }, { reviewscore: 2 }], ['reviewscore'], 'asc'), /order_dir=asc lists the SKUs in descending order/);
    // One step against the direction may be an unrated item placed last: not enough to fail.
    expect(notInReverseOrder([{ reviewscore: 5 }, { reviewscore: 0 }], ['reviewscore'], 'asc')).toEqual(pass());
    // In the direction asked by one field, unordered by one, all equal, too short, not numbers: not reversed.
    expect(notInReverseOrder([sku(1, 9), sku(2, 3)], ['price_min', 'price_max'], 'desc')).toEqual(pass());
    expect(notInReverseOrder([sku(1, 1), sku(3, 3), sku(2, 2)], ['price_min'], 'desc')).toEqual(pass());
    expect(notInReverseOrder([sku(2, 2), sku(2, 2)], ['price_min'], 'desc')).toEqual(pass());
    expect(notInReverseOrder([sku(1, 1)], ['price_min'], 'desc')).toEqual(pass());
    expect(notInReverseOrder([sku('1', 1), sku('2', 1)], ['price_min'], 'desc')).toEqual(pass());
    // A null is left out.
    failsWith(notInReverseOrder([sku(1, 1), sku(null, null), sku(3, 3), sku(4, 4)], ['price_min'], 'desc'), /ascending order: price_min \[1,3,4\]/);
  });

  test('skusBelongToManufacturer: every manufacturer_id is the one asked for', () => {
    expect(skusBelongToManufacturer([{ id: 1, manufacturer_id: 7 }], 7)).toEqual(pass());
    expect(skusBelongToManufacturer([], 7)).toEqual(pass());
    failsWith(
      skusBelongToManufacturer(
        [
          { id: 1, manufacturer_id: 7 },
          { id: 2, manufacturer_id: 8 },
        ],
        7,
      ),
      /SKU 2 has manufacturer_id 8, listed under manufacturer 7/,
    );
    expect(
      skusBelongToManufacturer(
        [
          { id: 1, manufacturer_id: 7 },
          { id: 2, manufacturer_id: 8 },
        ],
        [7, 8],
      ),
    ).toEqual(pass());
    failsWith(skusBelongToManufacturer([{ id: 3, manufacturer_id: 9 }], [7, 8]), /SKU 3 has manufacturer_id 9, listed under manufacturer 7 or 8/);
  });

  test('sameMembers: the same ids, whatever the order', () => {
    expect(sameMembers('x', [{ id: 1 }, { id: 2 }], [{ id: 2 }, { id: 1 }])).toEqual(pass());
    failsWith(sameMembers('asc vs desc', [{ id: 1 }, { id: 2 }], [{ id: 2 }, { id: 3 }]), /asc vs desc: 2 vs 2 items; only in the first \[1\], only in the second \[3\]/);
    failsWith(sameMembers('x', [{ id: 1 }], [{ id: 1 }, { id: 1 }]), /1 vs 2 items/);
  });
});

// GEN-8: "blank fields are present with value null". A null where the spec types a value is blank
// (a warning citing GEN-8); a wrong value that is not null still fails, not blank.
describe('GEN-8: a null is blank, a wrong value a failure', () => {
  const isBlank = (result: ReturnType<typeof pass>) => expect(result).toMatchObject({ ok: false, blank: true });
  const isHard = (result: ReturnType<typeof pass>) => {
    expect(result.ok).toBe(false);
    expect(result).not.toHaveProperty('blank');
  };

  test('pricesAreOrdered: a null price is not placed; the others still in order give a blank, out of order a failure', () => {
    const sku = (price_min: unknown, price_max: unknown) => ({ price_min, price_max });
    isBlank(pricesAreOrdered([sku(1, 1), sku(null, null), sku(2, 2)], 'asc'));
    isHard(pricesAreOrdered([sku(3, 3), sku(null, null), sku(2, 2)], 'asc'));
    expect(pricesAreOrdered([sku(1, null), sku(2, 5), sku(3, 6)], 'asc')).toEqual(pass());
  });

  test('skusBelongToManufacturer', () => {
    isBlank(skusBelongToManufacturer([{ id: 1, manufacturer_id: null }], 4));
    isHard(
      skusBelongToManufacturer(
        [
          { id: 1, manufacturer_id: 5 },
          { id: 2, manufacturer_id: null },
        ],
        4,
      ),
    );
  });
});

test('strongMatchesHoldAtMostOneEach: meta.strong_matches null is blank (GEN-8), an array a failure', () => {
  expect(strongMatchesHoldAtMostOneEach(null)).toMatchObject({ ok: false, blank: true });
  expect(strongMatchesHoldAtMostOneEach([])).not.toHaveProperty('blank');
  expect(strongMatchesHoldAtMostOneEach([]).ok).toBe(false);
});
