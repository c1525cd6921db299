// The favorites suite's SKUs and journal entries (src/engines/favorites.ts), against a stand-in for
// the test's client: a SKU is handed out once, a category listing read once per target, categories
// to avoid taken last; a list the server made along with a favorite is journalled, no other.
import { describe, expect, test } from 'vitest';
import type { ConformanceContext } from '../harness/conformance.ts';
import type { HttpResponse } from '../http/client.ts';
import { FreeSkus, listMadeAlong } from './favorites.ts';

const response = (status: number, body: unknown) => ({ status, json: () => body }) as unknown as HttpResponse;

describe('listMadeAlong', () => {
  const along = listMadeAlong(new Set([-1, 4]));
  test('a list the 201 answer shows that the user did not have: its DELETE is journalled', () => {
    expect(along(response(201, { favorite: { favorite_list_id: -2 } }))).toEqual([
      { action: { method: 'DELETE', path: '/favorite_lists/-2' }, what: 'the favorite list -2 the server created along with a favorite' },
    ]);
  });
  test('a known list, no list, another status: nothing', () => {
    expect(along(response(201, { favorite: { favorite_list_id: -1 } }))).toEqual([]);
    expect(along(response(201, { favorite: { favorite_list_id: null } }))).toEqual([]);
    expect(along(response(201, { favorite: { favorite_list_id: 2.5 } }))).toEqual([]);
    expect(along(response(200, { favorite: { favorite_list_id: -2 } }))).toEqual([]);
  });
});

/** A deployment's category listings: leaf 7 (discovered) and 8, 9 in GET /categories. */
function fakeContext(target: string, skus: Record<number, unknown[]>, favorites: unknown[] = []) {
  const gets: string[] = [];
  const t = {
    api: {
      url: (path: string) => `${target}${path}`,
      get: async (path: string) => {
        gets.push(path);
        if (path === '/categories')
          return response(200, {
            categories: [
              { id: 1, children_count: 3 },
              { id: 8, children_count: 0 },
              { id: 9, children_count: 0 },
              { id: 7, children_count: 0 },
            ],
          });
        if (path === '/favorites') return response(200, { favorites });
        const id = Number(/^\/categories\/(\d+)\/skus$/.exec(path)?.[1]);
        return response(200, { skus: skus[id] ?? [] });
      },
    },
    has: (feature: string) => feature === 'favorited-on-category-skus',
    discover: async () => 7,
    skip: (reason: string): never => {
      throw new Error(`skipped: ${reason}`);
    },
  } as unknown as ConformanceContext;
  return { t, gets };
}

describe('FreeSkus', () => {
  const listings = {
    7: [
      { id: 70, category_id: 7, favorited: false },
      { id: 71, category_id: 7, favorited: true },
      { id: 72, category_id: 7, favorited: false },
    ],
    8: [{ id: 80, category_id: 8, favorited: false }],
  };

  test('hands each free SKU out once, the discovered leaf first, and reads a listing once per target', async () => {
    const skus = new FreeSkus();
    const { t, gets } = fakeContext('http://a', listings);
    const taken = [await skus.find(t), await skus.find(t), await skus.find(t)];
    expect(taken).toEqual([
      { sku: { id: 70, category_id: 7 }, preferred: true },
      { sku: { id: 72, category_id: 7 }, preferred: true },
      { sku: { id: 80, category_id: 8 }, preferred: true },
    ]);
    expect(gets.filter((g) => g === '/categories/7/skus')).toHaveLength(1);
    expect(gets.filter((g) => g === '/categories/8/skus')).toHaveLength(1);
    // None left in the three leaves tried (9 lists none).
    await expect(skus.find(t)).rejects.toThrow('skipped: none of 3 leaf categories has a SKU the user has not favorited');
    // Another target keeps its own SKUs.
    const other = fakeContext('http://b', listings);
    expect(await skus.find(other.t)).toEqual({ sku: { id: 70, category_id: 7 }, preferred: true });
  });

  test("a SKU among the user's favorites is not handed out, whatever the listing's favorited says; the favorites read once per target", async () => {
    const skus = new FreeSkus();
    const { t, gets } = fakeContext('http://a', listings, [{ id: 1, sku_id: 70 }]);
    expect(await skus.find(t)).toEqual({ sku: { id: 72, category_id: 7 }, preferred: true });
    expect(await skus.find(t)).toEqual({ sku: { id: 80, category_id: 8 }, preferred: true });
    // GET /favorites and GET /favorites?owned=true, once.
    expect(gets.filter((g) => g === '/favorites')).toHaveLength(2);
  });

  test('categories to avoid come last; when every free SKU is of one, it is handed out, not preferred', async () => {
    const skus = new FreeSkus();
    const { t } = fakeContext('http://a', listings);
    expect(await skus.find(t, new Set([7]))).toEqual({ sku: { id: 80, category_id: 8 }, preferred: true });
    expect(await skus.find(t, new Set([7, 8]))).toEqual({ sku: { id: 70, category_id: 7 }, preferred: false });
    const asked: number[] = [];
    const hasAutoList = async (categoryId: number) => {
      asked.push(categoryId);
      return categoryId === 7;
    };
    expect(await skus.find(t, hasAutoList)).toEqual({ sku: { id: 72, category_id: 7 }, preferred: false });
    expect(asked).toEqual([7]);
  });
});
