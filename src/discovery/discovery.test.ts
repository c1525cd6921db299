import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startReference, type RunningReference } from '../reference/server.ts';
import { servicesFor } from '../testing/services.ts';
import type { ApiClient } from '../harness/api.ts';

async function category(api: ApiClient, id: number) {
  return (await api.get(`/categories/${id}`)).json<{ category: { id: number; parent_id: number; children_count: number } }>().category;
}
async function childCount(api: ApiClient, id: number) {
  return (await api.get(`/categories/${id}/children`)).json<{ meta: { pagination: { total_results: number } } }>().meta.pagination.total_results;
}

describe.each(['default', 'alt'] as const)('discovery on the %s data set', (dataset) => {
  let ref: RunningReference;
  beforeAll(async () => {
    ref = await startReference({ dataset, basePath: '/api' });
  });
  afterAll(() => ref.close());

  test('finds a leaf from the hint of GET /categories with one request more', async () => {
    const hinted = servicesFor(ref);
    await hinted.services.token('app'); // the token request is not discovery's
    const before = hinted.budget.spent;
    const leaf = (await hinted.discovery.find('leafCategory')) as { id: number };
    expect(hinted.budget.spent - before).toBe(2); // GET /categories and the leaf's empty children listing
    expect(await childCount(hinted.api(), leaf.id)).toBe(0);
  });

  test('finds each role, and what it finds fills the role', async () => {
    const { discovery, api } = servicesFor(ref);
    const root = await discovery.find('rootCategory');
    const inner = await discovery.find('innerCategory');
    const leaf = await discovery.find('leafCategory');
    for (const found of [root, inner, leaf]) expect(found).toHaveProperty('id');
    const [rootId, innerId, leafId] = [root, inner, leaf].map((r) => (r as { id: number }).id) as [number, number, number];
    const client = api();
    expect((await category(client, rootId)).parent_id).toBe(0);
    expect(innerId).not.toBe(rootId);
    expect(await childCount(client, innerId)).toBeGreaterThan(0);
    expect(leafId).not.toBe(rootId);
    expect(await childCount(client, leafId)).toBe(0);
  });

  test('finds the roles of the pagination suite, each with what the role names', async () => {
    const { discovery, api } = servicesFor(ref);
    const client = api();
    const id = async (role: string) => {
      const found = await discovery.find(role);
      expect(found, role).toHaveProperty('id');
      return (found as { id: number }).id;
    };
    const body = async (path: string, auth: 'app' | 'user' = 'app') => (await client.get(path, { auth })).json<Record<string, any>>();
    expect((await body(`/skus/${await id('skuWithProducts')}/products`)).products.length).toBeGreaterThan(0);
    expect((await body(`/skus/${await id('skuWithReviews')}/reviews`)).reviews.length).toBeGreaterThan(0);
    expect((await body(`/manufacturers/${await id('manufacturerWithSkus')}/skus`)).skus.length).toBeGreaterThan(0);
    expect((await body(`/shops/${await id('shopWithReviews')}/reviews`)).reviews.length).toBeGreaterThanOrEqual(2);
    expect((await body(`/favorite_lists/${await id('favoriteList')}/favorites`, 'user')).favorites.length).toBeGreaterThanOrEqual(2);
    expect((await body(`/categories/${await id('favoritesCategory')}/favorites`, 'user')).favorites.length).toBeGreaterThan(0);
  });

  test('finds a favorite of the discovered list without a request of its own, and a notification of the user', async () => {
    const { discovery, api, budget } = servicesFor(ref);
    const client = api();
    const list = (await discovery.find('favoriteList')) as { id: number };
    const spent = budget.spent;
    const favorite = (await discovery.find('favorite')) as { id: number };
    expect(budget.spent).toBe(spent);
    const listed = (await client.get(`/favorite_lists/${list.id}/favorites`, { auth: 'user' })).json<{ favorites: { id: number }[] }>().favorites;
    expect(listed.map((f) => f.id)).toContain(favorite.id);
    const notification = (await discovery.find('notification')) as { id: number };
    expect((await client.get(`/notifications/${notification.id}`, { auth: 'user' })).status).toBe(200);
  });

  test('asks the API once per role per run', async () => {
    const { discovery, budget } = servicesFor(ref);
    await discovery.find('leafCategory');
    await discovery.find('rootCategory');
    const spent = budget.spent;
    await discovery.find('leafCategory');
    await discovery.find('rootCategory');
    expect(budget.spent).toBe(spent);
  });
});

test('walks the tree for a leaf when no category of GET /categories says it has no children', async () => {
  // The fault makes every leaf claim a child: no hint, and the walk still ends at an empty children listing.
  const ref = await startReference({ fault: 'leaf-children-count-nonzero' });
  try {
    const { discovery, api, budget, services } = servicesFor(ref);
    await services.token('app');
    const before = budget.spent;
    const leaf = (await discovery.find('leafCategory')) as { id: number };
    expect(budget.spent - before).toBeGreaterThan(2); // the listing, the root, and the children down to the leaf
    expect(await childCount(api(), leaf.id)).toBe(0);
  } finally {
    await ref.close();
  }
});

/** The leaf whose SKU listing (first page) holds the SKU, by a walk of GET /categories. */
async function leafListing(ref: RunningReference, skuId: number): Promise<number> {
  const client = servicesFor(ref).api();
  const categories = (await client.get('/categories', { query: { per: 100 } })).json<{ categories: { id: number; children_count: number }[] }>().categories;
  for (const c of categories.filter((c) => c.children_count === 0)) {
    const skus = (await client.get(`/categories/${c.id}/skus`)).json<{ skus: { id: number }[] }>().skus;
    if (skus.some((s) => s.id === skuId)) return c.id;
  }
  throw new Error(`no leaf lists SKU ${skuId}`);
}

describe('hints from CATALOGUE_HINTS', () => {
  let ref: RunningReference;
  let leafId: number;
  let rootId: number;
  beforeAll(async () => {
    ref = await startReference({ dataset: 'alt' });
    const { discovery } = servicesFor(ref);
    leafId = ((await discovery.find('leafCategory')) as { id: number }).id;
    rootId = ((await discovery.find('rootCategory')) as { id: number }).id;
  });
  afterAll(() => ref.close());

  test('a right hint is checked (the root, the category, its children) and used', async () => {
    const { discovery, budget, services } = servicesFor(ref, { hints: { leafCategory: leafId } });
    await services.token('app');
    const before = budget.spent;
    expect(await discovery.find('leafCategory')).toEqual({ id: leafId });
    expect(budget.spent - before).toBeLessThanOrEqual(3);
    expect(discovery.wrongHints).toEqual([]);
  });

  test('a wrong hint is reported and a right category discovered instead', async () => {
    const { discovery } = servicesFor(ref, { hints: { leafCategory: rootId } });
    expect(await discovery.find('leafCategory')).toEqual({ id: leafId });
    expect(discovery.wrongHints).toEqual([`leafCategory=${rootId} is not a leaf category (one without children) below the root; discovered another`]);
  });

  test('a hint for a role that is not a category is checked with one request, and a wrong one reported', async () => {
    const found = await servicesFor(ref).discovery.find('skuWithProducts');
    const skuId = (found as { id: number }).id;
    const { discovery, budget, services } = servicesFor(ref, { hints: { skuWithProducts: skuId } });
    await services.token('app'); // the token request is not the check's
    const before = budget.spent;
    expect(await discovery.find('skuWithProducts')).toEqual({ id: skuId });
    expect(budget.spent - before).toBe(1);
    const wrong = servicesFor(ref, { hints: { skuWithReviews: 2_000_000_000 } });
    expect(await wrong.discovery.find('skuWithReviews')).toHaveProperty('id');
    expect(wrong.discovery.wrongHints).toEqual([
      'skuWithReviews=2000000000 is not a SKU with reviews (reviews_count above 0), the most reviewed among those of a leaf; discovered another',
    ]);
  });

  test("the user's roles without a user token (consent denied) are unavailable, with the token's reason", async () => {
    const denying = await startReference({ consent: 'deny' });
    try {
      const found = await servicesFor(denying).discovery.find('favoriteList');
      expect(found).toHaveProperty('unavailable');
      expect((found as { unavailable: string }).unavailable).toMatch(/access_denied/);
    } finally {
      await denying.close();
    }
  });

  test('a rare-data hint leads to the item (a future SKU by the leaf that lists it); a wrong one is reported and a search made', async () => {
    const future = (await servicesFor(ref).discovery.find('futureSku')) as { id: number };
    expect(future).toHaveProperty('id');
    const leaf = await leafListing(ref, future.id);
    const right = servicesFor(ref, { hints: { futureSkuCategory: leaf } });
    expect(await right.discovery.find('futureSku')).toEqual(future);
    expect(right.discovery.wrongHints).toEqual([]);
    const wrong = servicesFor(ref, { hints: { futureSkuCategory: rootId, unicorn: 3 } });
    expect(await wrong.discovery.find('futureSku')).toEqual(future);
    expect(wrong.discovery.wrongHints).toEqual([
      expect.stringMatching(/^unicorn is not a hint the kit knows \(known: .*futureSkuCategory.*shopWithUnstructuredLocation.*\); ignored$/),
      `futureSkuCategory=${rootId} does not lead to a future SKU (future true), on any page of any leaf; searched for one`,
    ]);
  });

  test('an unknown role is unavailable, with the reason', async () => {
    const { discovery } = servicesFor(ref);
    expect(await discovery.find('unicorn')).toEqual({ unavailable: 'discovery: unknown role unicorn' });
  });
});

describe('a deployment discovery cannot walk', () => {
  let ref: RunningReference;
  let broken: Server;
  beforeAll(async () => {
    ref = await startReference({});
    broken = createServer((_req, res) => res.writeHead(500, { 'content-type': 'application/json' }).end('{"errors":[]}'));
    await new Promise<void>((resolve) => broken.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    broken.closeAllConnections();
    broken.close();
    await ref.close();
  });

  test('gives the reason instead of an id (tests that need it are skipped with it)', async () => {
    const port = (broken.address() as AddressInfo).port;
    // Tokens from the reference, API answers from the broken server.
    const { discovery } = servicesFor({ ...ref, baseUrl: `http://127.0.0.1:${port}/api` });
    expect(await discovery.find('leafCategory')).toEqual({
      unavailable: 'discovery of a leaf category (one without children) below the root failed: GET /categories/root answered 500',
    });
  });
});
