// Which SKUs the favorites suite may favorite (src/checks/favorites-skus.ts).
import { describe, expect, test } from 'vitest';
import { heldSkuIds, otherLeaves, takeFreeSku, unfavoritedSkus } from './favorites-skus.ts';

describe('unfavoritedSkus', () => {
  const body = {
    skus: [
      { id: 1, category_id: 7, favorited: false },
      { id: 2, category_id: 7, favorited: true },
      { id: 3, category_id: 7 },
      { id: '4', category_id: 7, favorited: false },
      { id: 5, category_id: null, favorited: false },
      { id: 6, category_id: 8, favorited: false, name: 'x' },
    ],
  };
  test('favorited false on the listing (3.1.0 on): those SKUs, with their category, ids and categories integers', () => {
    expect(unfavoritedSkus(body, null)).toEqual([
      { id: 1, category_id: 7 },
      { id: 6, category_id: 8 },
    ]);
  });
  test("before 3.1.0 the user's favorited SKUs decide, whatever the listing's favorited says", () => {
    expect(unfavoritedSkus(body, new Set([1, 6]))).toEqual([
      { id: 2, category_id: 7 },
      { id: 3, category_id: 7 },
    ]);
  });
  test('no listing, no SKU', () => {
    expect(unfavoritedSkus(undefined, null)).toEqual([]);
    expect(unfavoritedSkus(null, null)).toEqual([]);
    expect(unfavoritedSkus({ skus: { id: 1 } }, null)).toEqual([]);
  });
});

test("otherLeaves: the leaves but the discovered one, in the listing's order, those to avoid last", () => {
  const listed = [
    { id: 1, children_count: 2 },
    { id: 2, children_count: 0 },
    { id: 3, children_count: 0 },
    { id: 4, children_count: 0 },
    { id: '5', children_count: 0 },
    { id: 6 },
    { id: 7, children_count: 0 },
  ];
  expect(otherLeaves(listed, 4, new Set())).toEqual([2, 3, 7]);
  expect(otherLeaves(listed, 4, new Set([2, 4]))).toEqual([3, 7, 2]);
  expect(otherLeaves([], 4, new Set([2]))).toEqual([]);
});

test('takeFreeSku hands a SKU out once: it leaves the kept ones', () => {
  const a = { id: 1, category_id: 7 };
  const b = { id: 2, category_id: 7 };
  const kept = [a, b];
  expect(takeFreeSku(kept, b)).toBe(b);
  expect(kept).toEqual([a]);
  expect(takeFreeSku(kept, a)).toBe(a);
  expect(kept).toEqual([]);
});

test('heldSkuIds: the integer sku_ids of the favorites of every body; a body without favorites adds none', () => {
  const listed = { favorites: [{ id: 1, sku_id: 10 }, { id: 2, sku_id: '11' }, { id: 3 }, 'x'] };
  const owned = { favorites: [{ id: 4, sku_id: 12, have_it: true }] };
  expect([...heldSkuIds([listed, owned, null, { favorites: {} }])].sort()).toEqual([10, 12]);
  expect(heldSkuIds([])).toEqual(new Set());
});
