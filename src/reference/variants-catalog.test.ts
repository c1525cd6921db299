// Legal variants of the catalogue (variants/catalog.ts): for each, the answer with the variant
// switched on, next to the reference's own answer (no variant) to the same request. Both servers
// run on the same clock, so they hold the same dataset; fixtures are picked from that dataset
// (createDataset with the same clock) where the API does not show what makes them fit.

import { describe, expect, it } from 'vitest';
import { nameOrder, sortBy } from './routes/listing.ts';
import type { ApiContext } from './router.ts';
import type { VariantName } from './variants.ts';
import { appToken, expectError, get, type Reply, type TestServer, variantTestBed } from '../testing/reference/testkit.ts';

type Json = any;

const DAY_MS = 86_400_000;
const { clock, data, base, servers } = variantTestBed();

/** A server with just this variant on (null: none), started once, on the shared clock. */
function server(variant: VariantName | null): Promise<TestServer> {
  return servers.get(variant);
}

/** GET with the application token (or, `user`, the user token) of the variant's server; the same GET without and with it, both 200, their bodies. */
const { read: api, readBoth: both } = servers;

const leaves = (): number[] => data.categoryList.filter((c) => c.childIds.length === 0).map((c) => c.id);
const q = encodeURIComponent;

describe('categories', () => {
  it('onclick-behavior-spelling: single categories carry onclick_behavior, in the same place', async () => {
    const [ref, variant] = await both('onclick-behavior-spelling', '/categories/root');
    expect(ref.category).toHaveProperty('onclick_behaviour');
    expect(ref.category).not.toHaveProperty('onclick_behavior');
    expect(variant.category).not.toHaveProperty('onclick_behaviour');
    expect(variant.category.onclick_behavior).toBe(ref.category.onclick_behaviour);
    expect(Object.keys(variant.category)).toEqual(Object.keys(ref.category).map((k) => (k === 'onclick_behaviour' ? 'onclick_behavior' : k)));
    // Neither spelling before 3.2.0.
    const [, old] = await both('onclick-behavior-spelling', '/categories/root', { version: '3.1' });
    expect(old.category).not.toHaveProperty('onclick_behavior');
  });

  it('no-fashion: categories carry no fashion field', async () => {
    const [ref, variant] = await both('no-fashion', '/categories?per=100');
    expect(ref.categories.every((c: Json) => 'fashion' in c)).toBe(true);
    expect(variant.categories.some((c: Json) => 'fashion' in c)).toBe(false);
    const { fashion: _f, ...rest } = ref.categories[0];
    expect(variant.categories[0]).toEqual(rest);
    expect((await api('no-fashion', '/categories/root')).body.category).not.toHaveProperty('fashion');
  });

  it('manufacturers-default-popularity: manufacturer listings without order_by are ordered by popularity', async () => {
    const root = data.rootId;
    const [ref, variant] = await both('manufacturers-default-popularity', `/categories/${root}/manufacturers?per=100`);
    const byName = (await api(null, `/categories/${root}/manufacturers?per=100&order_by=name`)).body.manufacturers;
    const byPopularity = (await api(null, `/categories/${root}/manufacturers?per=100&order_by=popularity`)).body.manufacturers;
    expect(ref.manufacturers).toEqual(byName);
    expect(variant.manufacturers).toEqual(byPopularity);
    expect(variant.manufacturers).not.toEqual(byName);
    // GET /manufacturers (no order_by at all): by id, or most popular first.
    const [all, allVariant] = await both('manufacturers-default-popularity', '/manufacturers?per=100');
    const popularity = (m: Json): number => data.manufacturers.get(m.id)!.popularity;
    expect(all.manufacturers.map((m: Json) => m.id)).toEqual([...data.manufacturers.keys()].sort((a, b) => a - b));
    const pops = allVariant.manufacturers.map(popularity);
    expect(pops).toEqual([...pops].sort((a, b) => b - a));
  });

  it('name-order-collation: name order by a locale collation, ties by id descending', async () => {
    // The datasets hold no names that the two orders tell apart, so the comparison is shown
    // directly; through the API both orders agree with their own rule.
    const ctx = (variants: VariantName[]): ApiContext => ({ variants: new Set(variants) }) as unknown as ApiContext;
    const items = [
      { id: 1, name: 'Zeta' },
      { id: 2, name: 'Éclair' },
      { id: 3, name: 'eclair' },
      { id: 4, name: 'alpha' },
    ];
    const order = (variants: VariantName[]): number[] => {
      const n = nameOrder(ctx(variants));
      return sortBy(items, (a, b) => n.compare(a.name, b.name), 'asc', n.ties).map((x) => x.id);
    };
    expect(order([])).toEqual([4, 3, 1, 2]);
    expect(order(['name-order-collation'])).toEqual([4, 3, 2, 1]);
    const root = data.rootId;
    const [, variant] = await both('name-order-collation', `/categories/${root}/manufacturers?per=100&order_by=name`);
    const collator = new Intl.Collator('en', { sensitivity: 'base' });
    const names = variant.manufacturers.map((m: Json) => m.name);
    expect(names).toEqual([...names].sort(collator.compare));
  });
});

describe('category SKU listing', () => {
  it('order-by-methods-all: every category offers all five methods, in every version', async () => {
    for (const version of ['3.2', '3.0']) {
      let narrower = false;
      for (const id of leaves().slice(0, 6)) {
        const [ref, variant] = await both('order-by-methods-all', `/categories/${id}/skus?per=1`, { version });
        expect(Object.keys(variant.meta.order_by_methods).sort()).toEqual(['popularity', 'price', 'pricevat', 'rank', 'rating']);
        expect(variant.meta.ordered_by).toBe(ref.meta.ordered_by);
        if (Object.keys(ref.meta.order_by_methods).length < 5) narrower = true;
      }
      expect(narrower, version).toBe(true);
    }
    const leaf = leaves()[0]!;
    expect((await api('order-by-methods-all', `/categories/${leaf}/skus?order_by=pricevat`, { version: '3.0' })).status).toBe(200);
  });

  it('sku-rating-weighted: order_by=rating follows a rating weighted by the number of reviews, not reviewscore alone', async () => {
    let unordered = 0;
    for (const id of leaves()) {
      const [offered] = await both('sku-rating-weighted', `/categories/${id}/skus?per=1`);
      if (!('rating' in offered.meta.order_by_methods)) continue;
      const [ref, variant] = await both('sku-rating-weighted', `/categories/${id}/skus?per=100&order_by=rating&order_dir=desc`);
      if (ref.skus.length < 3) continue;
      const scores = (body: Json): number[] => body.skus.map((s: Json) => s.reviewscore);
      expect(scores(ref)).toEqual([...scores(ref)].sort((a, b) => b - a));
      const weighted = variant.skus.map((s: Json) => (s.reviewscore * s.reviews_count + 15) / (s.reviews_count + 5));
      expect(weighted).toEqual([...weighted].sort((a: number, b: number) => b - a));
      if (scores(variant).some((x, i, all) => i > 0 && x > all[i - 1]!)) unordered += 1;
    }
    // The variant shows: somewhere reviewscore alone is out of order.
    expect(unordered).toBeGreaterThan(0);
  });

  it('sku-default-order-desc: the default order_dir is desc for every method', async () => {
    let seen = 0;
    for (const id of leaves()) {
      const [ref, variant] = await both('sku-default-order-desc', `/categories/${id}/skus?per=100`);
      if (!['price', 'pricevat'].includes(ref.meta.ordered_by) || ref.skus.length < 3) continue;
      const prices = (body: Json): number[] => body.skus.map((s: Json) => s.price_min);
      expect(prices(ref)).toEqual([...prices(ref)].sort((a, b) => a - b));
      expect(prices(variant)).toEqual([...prices(ref)].sort((a, b) => b - a));
      // order_dir still decides when sent.
      const asc = (await api('sku-default-order-desc', `/categories/${id}/skus?per=100&order_dir=asc`)).body;
      expect(asc.skus).toEqual(ref.skus);
      seen += 1;
    }
    expect(seen).toBeGreaterThan(0);
  });

  it('nonleaf-skus-descendants: a non-leaf category lists the SKUs of every leaf below it', async () => {
    const root = data.rootId;
    const [ref, variant] = await both('nonleaf-skus-descendants', `/categories/${root}/skus?per=1`);
    expect(ref.skus).toEqual([]);
    expect(ref.meta.pagination.total_results).toBe(0);
    expect(variant.meta.pagination.total_results).toBe(data.skus.size);
  });

  it('filter-ids-and: filter_ids of one filter group combine with AND', async () => {
    // A filter group with two filters that each match some SKU of its category.
    const group = [...data.filterGroups.values()].find((g) => {
      const skus = [...data.skus.values()].filter((s) => s.category_id === g.category_id);
      return [...g.filters.keys()].filter((id) => skus.some((s) => s.filterIds.includes(id))).length >= 2;
    })!;
    const skus = [...data.skus.values()].filter((s) => s.category_id === group.category_id);
    const [a, b] = [...group.filters.keys()].filter((id) => skus.some((s) => s.filterIds.includes(id)));
    const path = `/categories/${group.category_id}/skus?per=100&filter_ids[]=${a}&filter_ids[]=${b}`;
    const [ref, variant] = await both('filter-ids-and', path);
    const ids = (body: Json): number[] => body.skus.map((s: Json) => s.id).sort();
    const matching = (pred: (f: number[]) => boolean): number[] =>
      skus
        .filter((s) => pred(s.filterIds))
        .map((s) => s.id)
        .sort();
    expect(ids(ref)).toEqual(matching((f) => f.includes(a!) || f.includes(b!)));
    expect(ids(variant)).toEqual(matching((f) => f.includes(a!) && f.includes(b!)));
    expect(ids(variant)).not.toEqual(ids(ref));
  });

  it('available-filters-nonzero: ids with a count of 0 are left out of available_filters', async () => {
    const leaf = leaves().find((id) => new Set([...data.skus.values()].filter((s) => s.category_id === id).map((s) => s.manufacturer_id)).size >= 2)!;
    const manufacturer = [...data.skus.values()].find((s) => s.category_id === leaf)!.manufacturer_id;
    const path = `/categories/${leaf}/skus?include_meta[]=available_filters&manufacturer_ids[]=${manufacturer}`;
    const [ref, variant] = await both('available-filters-nonzero', path);
    const nonzeroMap = (m: Record<string, number>): Record<string, number> => Object.fromEntries(Object.entries(m).filter(([, n]) => n > 0));
    const a = ref.meta.available_filters;
    const v = variant.meta.available_filters;
    expect(Object.values(a.manufacturers)).toContain(0);
    for (const key of ['filters', 'manufacturers', 'shops']) expect(v[key], key).toEqual(nonzeroMap(a[key]));
    for (const key of ['availabilities', 'distances']) expect(v[key], key).toEqual(a[key].filter((o: Json) => o.count > 0));
  });

  it('applied-filters-list: meta.applied_filters is an array of {name, value}', async () => {
    const leaf = leaves()[0]!;
    const manufacturer = [...data.skus.values()].find((s) => s.category_id === leaf)!.manufacturer_id;
    const path = `/categories/${leaf}/skus?include_meta[]=applied_filters&q=ab&manufacturer_ids[]=${manufacturer}`;
    const [ref, variant] = await both('applied-filters-list', path);
    expect(ref.meta.applied_filters).toEqual({ q: 'ab', manufacturer_ids: [manufacturer], filter_ids: [], shop_ids: [], distance: null, availability: null });
    expect(variant.meta.applied_filters).toEqual([
      { name: 'q', value: 'ab' },
      { name: 'manufacturer_ids', value: [manufacturer] },
    ]);
  });

  it('favorited-everywhere: every SKU carries favorited, false for an application token', async () => {
    const favorites = new Set([...data.favorites.values()].filter((f) => f.user_id === data.demoUserId).map((f) => f.sku_id));
    const manufacturer = [...data.skus.values()].find((s) => favorites.has(s.id))!.manufacturer_id;
    const path = `/manufacturers/${manufacturer}/skus?per=100`;
    const [ref, variant] = await both('favorited-everywhere', path, { user: true });
    expect(ref.skus.some((s: Json) => 'favorited' in s)).toBe(false);
    for (const s of variant.skus) expect(s.favorited, String(s.id)).toBe(favorites.has(s.id));
    expect(variant.skus.some((s: Json) => s.favorited)).toBe(true);
    const app = (await api('favorited-everywhere', path)).body.skus as Json[];
    expect(app.every((s) => s.favorited === false)).toBe(true);
    // The category listing for an application token, and none before 3.1.0.
    const leaf = leaves()[0]!;
    const [refApp, variantApp] = await both('favorited-everywhere', `/categories/${leaf}/skus`);
    expect(refApp.skus.some((s: Json) => 'favorited' in s)).toBe(false);
    expect(variantApp.skus.every((s: Json) => s.favorited === false)).toBe(true);
    const old = (await api('favorited-everywhere', path, { user: true, version: '3.0' })).body.skus as Json[];
    expect(old.some((s) => 'favorited' in s)).toBe(false);
  });
});

describe('search and autocomplete', () => {
  /** A leaf whose name is its strong category match, and its search path. */
  const leafSearch = (): string => `/search?q=${q(data.categories.get(leaves()[0]!)!.name)}`;

  it('family-id-in-search: every category of a search answer carries family_id', async () => {
    const [ref, variant] = await both('family-id-in-search', leafSearch());
    expect(ref.categories.some((c: Json) => 'family_id' in c)).toBe(false);
    expect(ref.meta.strong_matches.category.family_id).toEqual(expect.any(Number));
    expect(variant.categories.length).toBeGreaterThan(0);
    for (const c of variant.categories) expect(c.family_id).toBe(data.categories.get(c.id)!.familyId);
    expect(variant.meta.strong_matches.category).toEqual(ref.meta.strong_matches.category);
  });

  it('family-id-not-in-search: no category of a search answer carries family_id', async () => {
    const [ref, variant] = await both('family-id-not-in-search', leafSearch());
    expect(ref.meta.strong_matches.category).toHaveProperty('family_id');
    expect(variant.meta.strong_matches.category).not.toHaveProperty('family_id');
    expect(variant.categories.some((c: Json) => 'family_id' in c)).toBe(false);
  });

  it('strong-matches-null: strong_matches always has category, manufacturer and sku', async () => {
    const [ref, variant] = await both('strong-matches-null', '/search?q=zzqxjvw');
    expect(ref.meta.strong_matches).toEqual({});
    expect(variant.meta.strong_matches).toEqual({ category: null, manufacturer: null, sku: null });
    const [refLeaf, variantLeaf] = await both('strong-matches-null', leafSearch());
    expect(variantLeaf.meta.strong_matches).toEqual({ category: null, manufacturer: null, sku: null, ...refLeaf.meta.strong_matches });
  });

  it('alternatives-always: alternatives (important false) also when categories are found', async () => {
    const [ref, variant] = await both('alternatives-always', leafSearch());
    expect(ref.meta.alternatives).toEqual([]);
    expect(variant.meta.alternatives.length).toBeGreaterThan(0);
    for (const alt of variant.meta.alternatives) {
      expect(alt).toEqual({ term: expect.any(String), important: false, count: expect.any(Number) });
      expect(alt.count).toBeGreaterThan(0);
    }
    // Nothing found: the same alternatives as the reference's.
    const [none, noneVariant] = await both('alternatives-always', '/search?q=zzqxjvw');
    expect(noneVariant.meta.alternatives).toEqual(none.meta.alternatives);
  });

  it('alternatives-without-count: alternatives carry no count', async () => {
    // A misspelt word of a leaf's name finds nothing, and a spelling alternative.
    const word = data.categoryList.map((c) => c.name.toLowerCase()).find((n) => /^[a-z]{6,}$/.test(n))!;
    const typo = word[1]! + word[0]! + word.slice(2);
    const [ref, variant] = await both('alternatives-without-count', `/search?q=${typo}`);
    expect(ref.meta.alternatives.length).toBeGreaterThan(0);
    expect(ref.meta.alternatives[0]).toHaveProperty('count');
    expect(variant.meta.alternatives).toEqual(ref.meta.alternatives.map(({ count: _c, ...rest }: Json) => rest));
  });

  it('search-q-as-sent: meta.q is q exactly as sent', async () => {
    const sent = `  ${data.categories.get(leaves()[0]!)!.name.toUpperCase()}   x `;
    const [ref, variant] = await both('search-q-as-sent', `/search?q=${q(sent)}`);
    expect(ref.meta.q).toBe(sent.trim().replace(/\s+/g, ' '));
    expect(variant.meta.q).toBe(sent);
    expect(variant.categories).toEqual(ref.categories);
  });

  it('autocomplete-five: at most 5 items, d null where there is none', async () => {
    const prefix = 'a';
    const [ref, variant] = await both('autocomplete-five', `/autocomplete?q=${prefix}`);
    expect(ref.autocomplete.length).toBeGreaterThan(5);
    expect(variant.autocomplete).toEqual(ref.autocomplete.slice(0, 5).map((i: Json) => ({ ...i, d: i.d ?? null })));
    // A manufacturer (no d) among the first five.
    const name = [...data.manufacturers.values()][0]!.name;
    const m = (await api('autocomplete-five', `/autocomplete?q=${q(name)}`)).body.autocomplete as Json[];
    expect(m.find((i) => i.k === name)).toEqual({ k: name, i: 0, d: null });
  });
});

describe('SKUs, products and shops', () => {
  it('unit-price-number: unit_price is a number or null', async () => {
    const sku = [...data.skus.values()].find((s) => s.unit_price !== null)!;
    const [ref, variant] = await both('unit-price-number', `/categories/${sku.category_id}/skus?per=100`);
    const find = (body: Json): Json => body.skus.find((s: Json) => s.id === sku.id);
    expect(typeof find(ref).unit_price).toBe('string');
    expect(find(variant).unit_price).toBe(Number.parseFloat(find(ref).unit_price));
    for (const s of variant.skus) expect(s.unit_price === null || typeof s.unit_price === 'number').toBe(true);
  });

  it('final-price-nulls-first: order_by=final_price puts the products without a final price first', async () => {
    let seen = 0;
    for (const sku of [...data.skus.values()].filter((s) => !s.future).slice(0, 80)) {
      const [ref, variant] = await both('final-price-nulls-first', `/skus/${sku.id}/products?order_by=final_price&per=100`);
      const nulls = ref.products.filter((p: Json) => p.blp.final_price === null);
      if (nulls.length === 0 || nulls.length === ref.products.length) continue;
      const rest = ref.products.filter((p: Json) => p.blp.final_price !== null);
      expect(ref.products).toEqual([...rest, ...nulls]);
      expect(variant.products).toEqual([...nulls, ...rest]);
      seen += 1;
    }
    expect(seen).toBeGreaterThan(0);
  });

  it('product-filter-meta-filtered: meta.filters is computed over the filtered list', async () => {
    // distance=0 filters out every product: the filtered list has no sizes and no shop.
    let seen = 0;
    for (const sku of [...data.skus.values()].filter((s) => s.sizes !== null).slice(0, 20)) {
      const path = `/skus/${sku.id}/products?include_meta[]=filters&distance=0`;
      const [ref, variant] = await both('product-filter-meta-filtered', path);
      expect(variant.products).toEqual([]);
      expect(variant.meta.filters.size_filter).toEqual([]);
      expect(variant.meta.filters.zero_commission_installments).toBe(false);
      const whole = (await api(null, `/skus/${sku.id}/products?include_meta[]=filters`)).body.meta.filters;
      expect(ref.meta.filters).toEqual(whole);
      if (whole.size_filter.length > 0) seen += 1;
    }
    expect(seen).toBeGreaterThan(0);
  });

  it('full-description-null: SKU specifications carry meta.full_description null when there is none', async () => {
    const sku = [...data.skus.values()].find((s) => s.fullDescription === null)!;
    const [ref, variant] = await both('full-description-null', `/skus/${sku.id}/specifications`);
    expect(ref.meta).toEqual({});
    expect(variant.meta).toEqual({ full_description: null });
    expect(variant.specifications).toEqual(ref.specifications);
    const [old, oldVariant] = await both('full-description-null', `/skus/${sku.id}/specifications`, { version: '3.1' });
    expect(oldVariant.meta).toEqual(old.meta);
    const described = [...data.skus.values()].find((s) => s.fullDescription !== null)!;
    expect((await api('full-description-null', `/skus/${described.id}/specifications`)).body.meta).toEqual({ full_description: described.fullDescription });
  });

  it('price-history-weekly: one point a week, on the same weekday, over the last 6 months', async () => {
    const sku = [...data.skus.values()].find((s) => !s.future && clock.now() - s.addedAt > 200 * DAY_MS)!;
    const [ref, variant] = await both('price-history-weekly', `/skus/${sku.id}/price_history`);
    const daily = ref.history.average as { date: string; price: number }[];
    const weekly = variant.history.average as { date: string; price: number }[];
    expect(daily.length).toBe(181);
    const today = daily[daily.length - 1]!;
    expect(weekly[weekly.length - 1]).toEqual(today);
    expect(weekly).toEqual(daily.filter((_, i) => (daily.length - 1 - i) % 7 === 0));
    const weekdays = new Set(weekly.map((p) => new Date(`${p.date}T00:00:00Z`).getUTCDay()));
    expect(weekdays.size).toBe(1);
    expect(weekly.length).toBe(26);
  });

  it('too-new-30-days: a SKU added less than 30 days ago has an empty price history (3.2.0+)', async () => {
    // Ten days on, the SKUs added in the dataset's last days are 10 to 13 days old.
    const young = [...data.skus.values()].filter((s) => !s.future && clock.now() - s.addedAt < 3 * DAY_MS);
    expect(young.length).toBeGreaterThan(0);
    // Started before the clock moves, so that it holds the same dataset.
    const servers = [base(), await server('too-new-30-days')];
    clock.advance(10 * DAY_MS);
    try {
      // Tokens of ten days ago have expired: fresh ones.
      const tokens = await Promise.all(servers.map((s) => appToken(s.ref)));
      const history = (i: number, path: string, version: string | null = null): Promise<Reply> => get(servers[i]!.ref, path, { token: tokens[i]!, version });
      for (const sku of young) {
        const path = `/skus/${sku.id}/price_history`;
        expect((await history(0, path)).body.history.average.length).toBeGreaterThan(7);
        expect((await history(1, path)).body.history.average).toEqual([]);
        expect((await history(1, path, '3.1')).body).toEqual((await history(0, path, '3.1')).body);
      }
    } finally {
      clock.advance(-10 * DAY_MS);
    }
  });

  it('too-new-history-404: a future or too-new SKU has no price history resource (404 RecordNotFound) from 3.2.0', async () => {
    const future = [...data.skus.values()].find((s) => s.future)!;
    const old = [...data.skus.values()].find((s) => !s.future && clock.now() - s.addedAt > 30 * DAY_MS)!;
    const path = (id: number) => `/skus/${id}/price_history`;
    expect((await api(null, path(future.id))).body.history.average).toEqual([]);
    expectError(await api('too-new-history-404', path(future.id)), 404, 'RecordNotFound');
    // Before 3.2.0 no SKU was too new: the empty series of a future SKU.
    expect((await api('too-new-history-404', path(future.id), { version: '3.1' })).body).toEqual((await api(null, path(future.id), { version: '3.1' })).body);
    const [ref, variant] = await both('too-new-history-404', path(old.id));
    expect(variant).toEqual(ref);
  });

  it('shop-uid-non-integer-400: a shop_uid that is not an integer is answered 400', async () => {
    const product = [...data.products.values()].find((p) => /^\d+$/.test(p.shop_uid))!;
    const path = `/shops/${product.shop_id}/products/search?shop_uid=abc`;
    const ref = await api(null, path);
    expect(ref.status).toBe(200);
    expect(ref.body.products).toEqual([]);
    expectError(await api('shop-uid-non-integer-400', path), 400, 'InvalidParameter');
    const [found, foundVariant] = await both('shop-uid-non-integer-400', `/shops/${product.shop_id}/products/search?shop_uid=${product.shop_uid}`);
    expect(foundVariant).toEqual(found);
    expect(found.products.map((p: Json) => p.id)).toContain(product.id);
  });

  it('shop-search-missing-q-422: shop search without q, or with a blank one, is 422 InvalidSearch', async () => {
    for (const path of ['/shops/search', '/shops/search?q=%20%20']) {
      expectError(await api(null, path), 400, 'ParameterMissing', path);
      expectError(await api('shop-search-missing-q-422', path), 422, 'InvalidSearch', path);
    }
  });

  it('shop-rating-breakdown-nonzero: an impression with no review is left out', async () => {
    const reviewed = (id: number): boolean[] => [...data.shopReviews.values()].filter((r) => r.shopId === id).map((r) => r.negative);
    const silent = [...data.shops.keys()].find((id) => reviewed(id).length === 0)!;
    const positive = [...data.shops.keys()].find((id) => reviewed(id).length > 0 && reviewed(id).every((n) => !n))!;
    const path = (id: number): string => `/shops/${id}/reviews?include_meta=shop_rating_breakdown`;
    const [ref, variant] = await both('shop-rating-breakdown-nonzero', path(silent));
    expect(ref.meta.shop_rating_breakdown.map((e: Json) => e.impression)).toEqual(['positive', 'negative']);
    expect(variant.meta.shop_rating_breakdown).toEqual([]);
    const [refPos, variantPos] = await both('shop-rating-breakdown-nonzero', path(positive));
    expect(variantPos.meta.shop_rating_breakdown).toEqual([refPos.meta.shop_rating_breakdown[0]]);
    expect(variantPos.meta.shop_rating_breakdown[0]).toMatchObject({ impression: 'positive', percentage: 100 });
  });

  it("unstructured-address-id: an unstructured location's address keeps its id; embed_ids and include give it", async () => {
    const loc = [...data.locations.values()].find((l) => l.format === 'unstructured')!;
    const path = `/shops/${loc.shopId}/locations/${loc.id}`;
    const nulls = { street_number: null, street: null, postcode: null, city: null, region: null, country: null };
    const [ref, variant] = await both('unstructured-address-id', `${path}?embed=address`);
    expect(ref.location.address).toEqual({ id: null, ...nulls });
    expect(variant.location.address).toEqual({ id: loc.address.id, ...nulls });
    const [refIds, variantIds] = await both('unstructured-address-id', `${path}?embed_ids=address`);
    expect(refIds.location.address_ids).toEqual([]);
    expect(variantIds.location.address_ids).toEqual([loc.address.id]);
    const [refInc, variantInc] = await both('unstructured-address-id', `${path}?include=address`);
    expect(refInc.location.address_id).toBeNull();
    expect(refInc.addresses).toEqual([]);
    expect(variantInc.location.address_id).toBe(loc.address.id);
    expect(variantInc.addresses).toEqual([{ id: loc.address.id, ...nulls }]);
  });

  it('location-of-other-shop-served: a location is served under any shop id', async () => {
    const loc = [...data.locations.values()][0]!;
    const other = [...data.shops.keys()].find((id) => id !== loc.shopId)!;
    const path = `/shops/${other}/locations/${loc.id}`;
    expectError(await api(null, path), 404, 'RecordNotFound');
    const served = await api('location-of-other-shop-served', path);
    expect(served.status).toBe(200);
    expect(served.body).toEqual((await api(null, `/shops/${loc.shopId}/locations/${loc.id}`)).body);
    expectError(await api('location-of-other-shop-served', `/shops/${other}/locations/999999999`), 404, 'RecordNotFound');
  });
});
