// The test setting rareDataLast (rare-data-last.ts), read over HTTP: one future SKU, the last
// item of the last page of the last leaf whose default order allows it, and one unstructured
// location, the last of the shop with the most locations; both datasets. Without the setting the
// dataset keeps its scattered rare items.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDataset } from './data.ts';
import { withRareDataLast } from './rare-data-last.ts';
import { startReference, type RunningReference } from './server.ts';
import { allSkus, appToken, get, leafCategories, type CategoryRef } from '../testing/reference/testkit.ts';

type Json = Record<string, any>;

const LIMITS = { perMinute: 1_000_000, perDay: 1_000_000 };

/** Every page of a listing at the default per (25), in order, and the pagination meta of the first. */
async function pages(ref: RunningReference, token: string, path: string, key: string): Promise<Json[][]> {
  const first = await get(ref, path, { token });
  expect(first.status, path).toBe(200);
  const total = first.body.meta.pagination.total_pages as number;
  const out: Json[][] = [first.body[key]];
  for (let page = 2; page <= total; page++) {
    const r = await get(ref, `${path}?page=${page}`, { token });
    expect(r.status, `${path} page ${page}`).toBe(200);
    out.push(r.body[key]);
  }
  return out;
}

describe.each(['default', 'alt'] as const)('rareDataLast (%s dataset)', (dataset) => {
  let ref: RunningReference;
  let token: string;
  let leaves: CategoryRef[];
  let skus: Json[];

  beforeAll(async () => {
    ref = await startReference({ dataset, rareDataLast: true, limits: LIMITS });
    token = await appToken(ref);
    leaves = await leafCategories(ref, token);
    skus = await allSkus(ref, token);
  });
  afterAll(async () => {
    await ref.close();
  });

  it('one future SKU: the last item of the last page of its leaf, a leaf at the end of GET /categories; no products', async () => {
    const future = skus.filter((s) => s.future === true);
    expect(future).toHaveLength(1);
    const sku = future[0]!;
    expect(sku).toMatchObject({ shop_count: 0, price_min: 0, price_max: 0, first_product_shop_info: null, click_url: null });
    const leafPages = await pages(ref, token, `/categories/${sku.category_id}/skus`, 'skus');
    expect(leafPages.at(-1)!.at(-1)!.id).toBe(sku.id);
    // The last leaf of GET /categories (id order), or a leaf after which every leaf's default order is by price.
    const index = leaves.findIndex((l) => l.id === sku.category_id);
    expect(index).toBeGreaterThanOrEqual(0);
    for (const later of leaves.slice(index + 1)) {
      const r = await get(ref, `/categories/${later.id}/skus`, { token });
      expect(['price', 'pricevat'], `leaf ${later.id} after the chosen one`).toContain(r.body.meta.ordered_by);
    }
    const products = await get(ref, `/skus/${sku.id}/products`, { token });
    expect(products.status).toBe(200);
    expect(products.body.products).toEqual([]);
    expect(products.body.meta.pagination.total_results).toBe(0);
  });

  it('one unstructured location: the last of the last page of the biggest shop; no other shop shows one on its first page', async () => {
    const shopIds = [
      ...new Set(
        (await Promise.all(skus.filter((s) => s.shop_count > 0).map((s) => get(ref, `/skus/${s.id}/products?per=100`, { token })))).flatMap((r) =>
          r.body.products.map((p: Json) => p.shop_id as number),
        ),
      ),
    ];
    const firstPages = new Map<number, Json>();
    for (const id of shopIds) firstPages.set(id, (await get(ref, `/shops/${id}/locations`, { token })).body);
    const [bigId, bigFirst] = [...firstPages].sort((a, b) => b[1].meta.pagination.total_results - a[1].meta.pagination.total_results)[0]!;
    expect(bigFirst.meta.pagination.total_results).toBeGreaterThan(25);
    const bigPages = await pages(ref, token, `/shops/${bigId}/locations`, 'locations');
    expect(bigPages.length).toBeGreaterThan(1);
    const all = bigPages.flat();
    expect(all.filter((l) => l.format === 'unstructured').map((l) => l.id)).toEqual([all.at(-1)!.id]);
    expect(all.at(-1)!.full_address).toMatch(/^(Unit|Kiosk|Stand) \d+, (retail park|shopping centre|station concourse) near \S/);
    for (const [id, body] of firstPages)
      if (id !== bigId)
        expect(
          body.locations.filter((l: Json) => l.format === 'unstructured'),
          `shop ${id}`,
        ).toEqual([]);
  });

  it('the dataset holds exactly one future SKU and one unstructured location, coherent with the rest', () => {
    const d = withRareDataLast(createDataset(dataset, Date.UTC(2024, 2, 10, 12)));
    const future = [...d.skus.values()].filter((s) => s.future);
    expect(future).toHaveLength(1);
    expect([...d.products.values()].some((p) => p.sku_id === future[0]!.id)).toBe(false);
    expect([...d.skuReviews.values()].some((r) => r.sku_id === future[0]!.id)).toBe(false);
    const unstructured = [...d.locations.values()].filter((l) => l.format === 'unstructured');
    expect(unstructured).toHaveLength(1);
    const { id, ...rest } = unstructured[0]!.address;
    expect(typeof id).toBe('number');
    expect(Object.values(rest).every((v) => v === null)).toBe(true);
    for (const l of d.locations.values()) if (l.format === 'structured') expect(Object.values(l.address).every((v) => v !== null)).toBe(true);
    const addressIds = [...d.locations.values()].map((l) => l.address.id);
    expect(new Set(addressIds).size).toBe(addressIds.length);
  });
});

describe('without rareDataLast', () => {
  it.each(['default', 'alt'] as const)('%s: several future SKUs and unstructured locations, as generated', async (dataset) => {
    const ref = await startReference({ dataset, limits: LIMITS });
    try {
      const token = await appToken(ref);
      const skus = await allSkus(ref, token);
      expect(skus.filter((s) => s.future === true).length).toBeGreaterThan(1);
    } finally {
      await ref.close();
    }
    const d = createDataset(dataset, Date.UTC(2024, 2, 10, 12));
    expect([...d.locations.values()].filter((l) => l.format === 'unstructured').length).toBeGreaterThan(1);
  });
});
