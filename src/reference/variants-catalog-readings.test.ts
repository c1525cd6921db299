// Legal variants of the catalogue's readings (variants/catalog-readings.ts): for each, the answer
// with the variant switched on, next to the reference's own answer (no variant) to the same
// request. Both servers run on the same clock, so they hold the same dataset; fixtures are picked
// from that dataset (createDataset with the same clock) where the API does not show what makes
// them fit.

import { describe, expect, it } from 'vitest';
import type { SkuRecord } from './model.ts';
import type { VariantName } from './variants.ts';
import { GREEK_MANUFACTURER_NAME } from './variant-data-catalog.ts';
import { get, type Reply, variantTestBed } from '../testing/reference/testkit.ts';

type Json = any;

const { data, servers } = variantTestBed();

/** GET with the application token of the variant's server (null: none). */
async function api(variant: VariantName | null, path: string, version: string | null = null, user = false): Promise<Reply> {
  const s = await servers.get(variant);
  return get(s.ref, path, { token: user ? s.user : s.app, version });
}

/** The same request without and with the variant: [default, variant] bodies, both 200. */
async function both(variant: VariantName, path: string, version: string | null = null): Promise<[Json, Json]> {
  const [a, b] = await Promise.all([api(null, path, version), api(variant, path, version)]);
  expect(a.status, a.text).toBe(200);
  expect(b.status, b.text).toBe(200);
  return [a.body, b.body];
}

const skus = (): SkuRecord[] => [...data.skus.values()];
const futureSku = (): SkuRecord => skus().find((s) => s.future)!;
const offeredSku = (): SkuRecord => skus().find((s) => !s.future && s.shop_count > 0)!;
const leafOf = (s: SkuRecord): number => s.category_id;
/** The SKU `id` as the category SKU listing shows it. */
const listed = (body: Json, id: number): Json => body.skus.find((s: Json) => s.id === id);

describe('categories', () => {
  it('categories-top-level-only: GET /categories lists the root and its children; the rest is reached through children', async () => {
    const [ref, variant] = await both('categories-top-level-only', '/categories?per=100');
    const root = data.categories.get(data.rootId)!;
    expect(variant.categories.map((c: Json) => c.id).sort((a: number, b: number) => a - b)).toEqual([root.id, ...root.childIds].sort((a, b) => a - b));
    expect(ref.meta.pagination.total_results).toBeGreaterThan(variant.meta.pagination.total_results);
    const [, children] = await both('categories-top-level-only', `/categories/${root.childIds[0]}/children?per=100`);
    expect(children.categories.length).toBeGreaterThan(0);
  });

  it('wide-tiles-after-3-0: a wide_tiles category is tiles in answers to 3.0, wide_tiles from 3.1', async () => {
    const wide = data.categoryList.find((c) => c.layoutMode === 'wide_tiles')!;
    const [ref30, variant30] = await both('wide-tiles-after-3-0', `/categories/${wide.id}`, '3.0');
    expect([ref30.category.layout_mode, variant30.category.layout_mode]).toEqual(['wide_tiles', 'tiles']);
    const [, variant31] = await both('wide-tiles-after-3-0', `/categories/${wide.id}`, '3.1');
    expect(variant31.category.layout_mode).toBe('wide_tiles');
  });

  it('root-fields-blank: the root has image_url, web_uri, code, manufacturer_title, path and family_id null', async () => {
    const [ref, variant] = await both('root-fields-blank', '/categories/root');
    for (const key of ['image_url', 'web_uri', 'code', 'manufacturer_title', 'path', 'family_id']) expect(variant.category[key], key).toBeNull();
    expect(ref.category.path).toBe(String(data.rootId));
    const child = data.categories.get(data.rootId)!.childIds[0]!;
    const [refChild, variantChild] = await both('root-fields-blank', `/categories/${child}`);
    expect(variantChild).toEqual(refChild);
  });

  it('category-listings-full: listings and search carry family_id and the single-category fields', async () => {
    const [ref, variant] = await both('category-listings-full', '/categories?per=5');
    expect(ref.categories[0]).not.toHaveProperty('family_id');
    for (const c of variant.categories) expect(c).toEqual((await api(null, `/categories/${c.id}`)).body.category);
    const name = data.categories.get(data.categories.get(data.rootId)!.childIds[0]!)!.name;
    const [, found] = await both('category-listings-full', `/search?q=${encodeURIComponent(name)}`);
    expect(found.categories.length).toBeGreaterThan(0);
    for (const c of found.categories) expect(c).toHaveProperty('family_id');
  });
});

describe('SKU fields', () => {
  it('sku-ean-null: a SKU without EAN has ean null', async () => {
    const sku = skus().find((s) => s.ean === '')!;
    const [ref, variant] = await both('sku-ean-null', `/categories/${leafOf(sku)}/skus?per=100`);
    expect(listed(ref, sku.id).ean).toBe('');
    expect(listed(variant, sku.id).ean).toBeNull();
  });

  it('sku-shop-info-empty-without-products, future-sku-prices-null: a future SKU has "" and null prices', async () => {
    const sku = futureSku();
    const path = `/categories/${leafOf(sku)}/skus?per=100`;
    const [ref, empty] = await both('sku-shop-info-empty-without-products', path);
    expect(listed(ref, sku.id).first_product_shop_info).toBeNull();
    expect(listed(empty, sku.id).first_product_shop_info).toBe('');
    const [, priced] = await both('future-sku-prices-null', path);
    expect(listed(ref, sku.id)).toMatchObject({ price_min: 0, price_max: 0, shop_count: 0 });
    expect(listed(priced, sku.id)).toMatchObject({ price_min: null, price_max: null, shop_count: 0 });
  });

  it('sku-shop-info-shop-name-only: first_product_shop_info is the shop name alone', async () => {
    const sku = offeredSku();
    const [ref, variant] = await both('sku-shop-info-shop-name-only', `/categories/${leafOf(sku)}/skus?per=100`);
    const info: string = listed(ref, sku.id).first_product_shop_info;
    expect(info).toContain('|');
    expect(listed(variant, sku.id).first_product_shop_info).toBe(info.split('|')[0]);
  });

  it('sku-image-uris-protocol-relative: image URIs are protocol-relative', async () => {
    const sku = offeredSku();
    const [ref, variant] = await both('sku-image-uris-protocol-relative', `/categories/${leafOf(sku)}/skus?per=100`);
    const images = listed(variant, sku.id).images;
    expect(images.main.startsWith('//')).toBe(true);
    expect(images.main).toBe(listed(ref, sku.id).images.main.replace(/^https:/, ''));
  });

  it('sku-without-pictures-empty and -null: a future SKU has no pictures', async () => {
    const sku = futureSku();
    const path = `/categories/${leafOf(sku)}/skus?per=100`;
    const [ref, empty] = await both('sku-without-pictures-empty', path);
    expect(typeof listed(ref, sku.id).images.main).toBe('string');
    expect(listed(empty, sku.id).images).toEqual({ main: null, alternatives: [] });
    const [, none] = await both('sku-without-pictures-null', path);
    expect(listed(none, sku.id).images).toBeNull();
    expect(listed(none, offeredSku().id)?.images ?? { main: 'x' }).not.toBeNull();
  });
});

describe('specifications', () => {
  const leafWithUnitless = (): number => [...data.specifications.values()].find((s) => s.unit === '')!.categoryId;

  it('category-spec-values-null and spec-unit-null: definitions have values null; no unit is null', async () => {
    const leaf = leafWithUnitless();
    const [ref, values] = await both('category-spec-values-null', `/categories/${leaf}/specifications`);
    expect(ref.specifications.every((s: Json) => Array.isArray(s.values))).toBe(true);
    expect(values.specifications.every((s: Json) => s.values === null)).toBe(true);
    const [, units] = await both('spec-unit-null', `/categories/${leaf}/specifications`);
    const unitless = ref.specifications.filter((s: Json) => s.unit === '').map((s: Json) => s.id);
    expect(unitless.length).toBeGreaterThan(0);
    for (const s of units.specifications) expect(s.unit).toBe(unitless.includes(s.id) ? null : ref.specifications.find((r: Json) => r.id === s.id).unit);
  });

  it('full-description-empty: full_description "" when there is none', async () => {
    const sku = skus().find((s) => s.fullDescription === null)!;
    const [ref, variant] = await both('full-description-empty', `/skus/${sku.id}/specifications`);
    expect(ref.meta ?? {}).not.toHaveProperty('full_description');
    expect(variant.meta.full_description).toBe('');
  });

  it('sku-spec-values-partial: a future SKU lists every specification of its category, values [] where it has none', async () => {
    const sku = futureSku();
    const [ref, variant] = await both('sku-spec-values-partial', `/skus/${sku.id}/specifications`);
    const defined = [...data.specifications.values()].filter((s) => s.categoryId === sku.category_id);
    expect(variant.specifications.map((s: Json) => s.id).sort()).toEqual(defined.map((s) => s.id).sort());
    expect(ref.specifications.every((s: Json) => s.values.length > 0)).toBe(true);
    if (defined.length > 3) expect(variant.specifications.some((s: Json) => s.values.length === 0)).toBe(true);
  });

  it('spec-group-id-always: group_id without include=group', async () => {
    const sku = offeredSku();
    const [ref, variant] = await both('spec-group-id-always', `/skus/${sku.id}/specifications`);
    expect(ref.specifications[0]).not.toHaveProperty('group_id');
    for (const s of variant.specifications) expect(s.group_id).toBe(data.specifications.get(s.id)!.groupId);
  });

  it('specification-without-group: some specifications have group_id null and no group listed for them', async () => {
    const spec = [...data.specifications.values()].find((s) => s.id % 4 === 0)!;
    const [ref, variant] = await both('specification-without-group', `/categories/${spec.categoryId}/specifications?include=group`);
    expect(ref.specifications.find((s: Json) => s.id === spec.id).group_id).toBe(spec.groupId);
    expect(variant.specifications.find((s: Json) => s.id === spec.id).group_id).toBeNull();
    const used = new Set(variant.specifications.map((s: Json) => s.group_id).filter((id: number | null) => id !== null));
    expect(variant.groups.map((g: Json) => g.id).sort()).toEqual([...used].sort());
    const [, embedded] = await both('specification-without-group', `/categories/${spec.categoryId}/specifications?embed=group`);
    expect(embedded.specifications.find((s: Json) => s.id === spec.id).group).toBeNull();
  });

  it('spec-groups-all-of-category: include=group lists every group, the used ones first', async () => {
    const leaf = offeredSku().category_id;
    const [ref, variant] = await both('spec-groups-all-of-category', `/categories/${leaf}/specifications?include=group`);
    expect(variant.groups.length).toBe(data.specGroups.size);
    expect(variant.groups.slice(0, ref.groups.length)).toEqual(ref.groups);
  });
});

describe('links and fieldsets', () => {
  it('embed-ids-keyed-by-name: the id array is keyed <name>', async () => {
    const sku = offeredSku();
    const [ref, variant] = await both('embed-ids-keyed-by-name', `/skus/${sku.id}/specifications?embed_ids=group`);
    const first = ref.specifications[0];
    expect(variant.specifications[0].group).toEqual(first.group_ids);
    expect(variant.specifications[0]).not.toHaveProperty('group_ids');
  });

  it('root-fieldset-governs-links: fields[root] and fields_except[root] govern the keys links add', async () => {
    const sku = offeredSku();
    const [ref, variant] = await both('root-fieldset-governs-links', `/skus/${sku.id}/specifications?embed=group&fields[root]=id`);
    expect(Object.keys(ref.specifications[0])).toEqual(['id', 'group']);
    expect(Object.keys(variant.specifications[0])).toEqual(['id']);
    const [, except] = await both('root-fieldset-governs-links', `/skus/${sku.id}/specifications?embed=group&fields_except[root]=group`);
    expect(except.specifications[0]).not.toHaveProperty('group');
    const [, listed] = await both('root-fieldset-governs-links', `/skus/${sku.id}/specifications?embed=group&fields[root]=id,group`);
    expect(listed.specifications[0].group).toEqual(ref.specifications[0].group);
  });
});

describe('search', () => {
  const topName = (): string => data.categories.get(data.categories.get(data.rootId)!.childIds[0]!)!.name;

  it('search-alternatives-null, strong-matches-none-null: blanks as null', async () => {
    const [ref, alternatives] = await both('search-alternatives-null', `/search?q=${encodeURIComponent(topName())}`);
    expect(ref.meta.alternatives).toEqual([]);
    expect(alternatives.meta.alternatives).toBeNull();
    const [nothing, strong] = await both('strong-matches-none-null', '/search?q=qqxxzzqq');
    expect(nothing.meta.strong_matches).toEqual({});
    expect(strong.meta.strong_matches).toBeNull();
    const [, some] = await both('strong-matches-none-null', `/search?q=${encodeURIComponent(topName())}`);
    expect(some.meta.strong_matches).toHaveProperty('category');
  });

  it('alternative-drop-null: an alternative carries count and drop, null where it has none', async () => {
    const word = topName().split(' ')[0]!.toLowerCase();
    const typo = `${word.slice(0, 2)}${word[3]}${word[2]}${word.slice(4)}`;
    const [ref, variant] = await both('alternative-drop-null', `/search?q=${encodeURIComponent(typo)}`);
    expect(ref.meta.alternatives.length).toBeGreaterThan(0);
    expect(ref.meta.alternatives[0]).not.toHaveProperty('drop');
    expect(variant.meta.alternatives[0]).toEqual({ ...ref.meta.alternatives[0], drop: null });
  });

  it('search-q-case-folded: meta.q is lower-cased', async () => {
    const q = `  ${topName().toUpperCase()} `;
    const [ref, variant] = await both('search-q-case-folded', `/search?q=${encodeURIComponent(q)}`);
    expect(ref.meta.q).toBe(q.trim());
    expect(variant.meta.q).toBe(q.trim().toLowerCase());
    expect(variant.categories).toEqual(ref.categories);
  });
});

describe('manufacturers', () => {
  const manufacturerOf = (): number => offeredSku().manufacturer_id;

  it('manufacturer-categories-default-popularity, manufacturer-skus-default-price: other default orders', async () => {
    const m = manufacturerOf();
    const [, categories] = await both('manufacturer-categories-default-popularity', `/manufacturers/${m}/categories?per=100`);
    expect(categories.categories).toEqual((await api(null, `/manufacturers/${m}/categories?per=100&order_by=popularity`)).body.categories);
    const [ref, byPrice] = await both('manufacturer-skus-default-price', `/manufacturers/${m}/skus?per=100`);
    expect(byPrice.skus).toEqual((await api(null, `/manufacturers/${m}/skus?per=100&order_by=price&order_dir=asc`)).body.skus);
    expect(ref.skus).toEqual((await api(null, `/manufacturers/${m}/skus?per=100&order_by=popularity`)).body.skus);
  });

  it('manufacturer-skus-price-max: order_by=price follows price_max, the SKUs without offers last', async () => {
    const m = skus().find((s) => s.future)!.manufacturer_id;
    for (const dir of ['asc', 'desc']) {
      const [, variant] = await both('manufacturer-skus-price-max', `/manufacturers/${m}/skus?per=100&order_by=price&order_dir=${dir}`);
      const offered = variant.skus.filter((s: Json) => s.shop_count > 0).map((s: Json) => s.price_max);
      const sorted = [...offered].sort((a: number, b: number) => (dir === 'asc' ? a - b : b - a));
      expect(offered).toEqual(sorted);
      const firstWithout = variant.skus.findIndex((s: Json) => s.shop_count === 0);
      expect(firstWithout).toBeGreaterThanOrEqual(0);
      expect(variant.skus.slice(firstWithout).every((s: Json) => s.shop_count === 0)).toBe(true);
    }
  });
});

describe('SKU sub-resources', () => {
  it('missing-sku-products-empty: the products of a missing SKU are an empty list', async () => {
    expect((await api(null, '/skus/987654321/products')).status).toBe(404);
    const variant = await api('missing-sku-products-empty', '/skus/987654321/products');
    expect(variant.status).toBe(200);
    expect(variant.body.products).toEqual([]);
    expect((await api('missing-sku-products-empty', '/skus/abc/products')).status).toBe(404);
  });

  it('sku-specifications-paging-refused: page or per on SKU specifications is 400', async () => {
    const sku = offeredSku();
    expect((await api(null, `/skus/${sku.id}/specifications?per=2`)).status).toBe(200);
    const refused = await api('sku-specifications-paging-refused', `/skus/${sku.id}/specifications?per=2`);
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].code).toBe('InvalidParameter');
    expect((await api('sku-specifications-paging-refused', `/skus/${sku.id}/specifications`)).status).toBe(200);
  });
});

describe('category SKU listing and filters', () => {
  const leaf = (): number => {
    const counts = new Map<number, number>();
    for (const s of skus()) counts.set(s.category_id, (counts.get(s.category_id) ?? 0) + 1);
    return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]![0];
  };
  const groupsOf = (id: number) => [...data.filterGroups.values()].filter((g) => g.category_id === id);

  it('filter-hint-null: a group without a hint has hint null', async () => {
    const group = [...data.filterGroups.values()].find((g) => g.hint === '')!;
    const [ref, variant] = await both('filter-hint-null', `/categories/${group.category_id}/filter_groups?per=100`);
    expect(ref.filter_groups.find((g: Json) => g.id === group.id).hint).toBe('');
    expect(variant.filter_groups.find((g: Json) => g.id === group.id).hint).toBeNull();
  });

  it('sku-include-meta-brackets-only: include_meta without [] is not recognised', async () => {
    const path = `/categories/${leaf()}/skus?include_meta=available_filters`;
    const [ref, variant] = await both('sku-include-meta-brackets-only', path);
    expect(ref.meta).toHaveProperty('available_filters');
    expect(variant.meta).not.toHaveProperty('available_filters');
    const [, bracketed] = await both('sku-include-meta-brackets-only', `/categories/${leaf()}/skus?include_meta[]=available_filters`);
    expect(bracketed.meta).toHaveProperty('available_filters');
  });

  it('available-filters-product-keys-from-3-2-1: before 3.2.1 only filters and manufacturers', async () => {
    const path = `/categories/${leaf()}/skus?include_meta[]=available_filters`;
    const [ref, old] = await both('available-filters-product-keys-from-3-2-1', path, '3.1');
    expect(Object.keys(ref.meta.available_filters)).toEqual(['filters', 'manufacturers', 'shops', 'availabilities', 'distances']);
    expect(Object.keys(old.meta.available_filters)).toEqual(['filters', 'manufacturers']);
    const [, current] = await both('available-filters-product-keys-from-3-2-1', path, '3.2');
    expect(Object.keys(current.meta.available_filters)).toEqual(Object.keys(ref.meta.available_filters));
  });

  it('available-filters-whole-category: the counts ignore the filters applied', async () => {
    const id = leaf();
    const m = skus().find((s) => s.category_id === id)!.manufacturer_id;
    const unfiltered = (await api(null, `/categories/${id}/skus?include_meta[]=available_filters`)).body.meta.available_filters;
    const [ref, variant] = await both('available-filters-whole-category', `/categories/${id}/skus?include_meta[]=available_filters&manufacturer_ids[]=${m}`);
    expect(variant.meta.available_filters).toEqual(unfiltered);
    expect(ref.meta.available_filters).not.toEqual(unfiltered);
    expect(variant.skus).toEqual(ref.skus);
  });

  it('filter-ids-or: filter ids of different groups combine with OR', async () => {
    const id = leaf();
    const [price, rating] = [groupsOf(id).find((g) => g.filter_type === 0)!, groupsOf(id).find((g) => g.filter_type === 4)!];
    const ids = [[...price.filters.keys()][0]!, [...rating.filters.keys()][2]!];
    const total = async (variant: VariantName | null, q: string): Promise<number> => (await api(variant, `/categories/${id}/skus?${q}`)).body.meta.pagination.total_results;
    const [a, b] = [await total(null, `filter_ids[]=${ids[0]}`), await total(null, `filter_ids[]=${ids[1]}`)];
    const both2 = `filter_ids[]=${ids[0]}&filter_ids[]=${ids[1]}`;
    expect(await total('filter-ids-or', both2)).toBeGreaterThanOrEqual(Math.max(a, b));
    expect(await total(null, both2)).toBeLessThanOrEqual(Math.min(a, b));
  });

  it('sku-q-words-or: a SKU matches when any word of q does', async () => {
    const sku = offeredSku();
    const word = sku.name.split(' ')[0]!;
    const [ref, variant] = await both('sku-q-words-or', `/categories/${sku.category_id}/skus?per=100&q=${encodeURIComponent(`${word} qqxxzz`)}`);
    expect(ref.skus).toEqual([]);
    expect(variant.skus.map((s: Json) => s.id)).toContain(sku.id);
  });

  it('sku-distance-needs-user-location: an application token has no location, so distance finds nothing', async () => {
    const id = leaf();
    const path = `/categories/${id}/skus?include_meta[]=available_filters&distance=4`;
    const [ref, variant] = await both('sku-distance-needs-user-location', path);
    expect(ref.meta.pagination.total_results).toBeGreaterThan(0);
    expect(variant.skus).toEqual([]);
    expect(variant.meta.available_filters.distances.every((o: Json) => o.count === 0)).toBe(true);
    const user = await api('sku-distance-needs-user-location', path, null, true);
    expect(user.body.meta.pagination.total_results).toBe((await api(null, path, null, true)).body.meta.pagination.total_results);
  });

  it('filter-groups-inherited: the rating group comes from the top-level category, and its filters work', async () => {
    const id = leaf();
    const top = data.categories.get(id)!.pathIds[1]!;
    const [ref, variant] = await both('filter-groups-inherited', `/categories/${id}/filter_groups?per=100`);
    const rating = (body: Json): Json => body.filter_groups.find((g: Json) => g.filter_type === 4);
    expect(rating(ref).category_id).toBe(id);
    expect(rating(variant).category_id).toBe(top);
    const [, owner] = await both('filter-groups-inherited', `/categories/${top}/filter_groups?per=100`);
    expect(owner.filter_groups.map((g: Json) => g.id)).toContain(rating(variant).id);
    // '2 and up' of the rating group each listing shows: the same SKUs.
    const twoAndUp = (body: Json): number => [...data.filterGroups.get(rating(body).id)!.filters.keys()][2]!;
    const refSkus = (await api(null, `/categories/${id}/skus?per=100&filter_ids[]=${twoAndUp(ref)}`)).body.skus;
    const variantSkus = (await api('filter-groups-inherited', `/categories/${id}/skus?per=100&filter_ids[]=${twoAndUp(variant)}`)).body.skus;
    expect(refSkus.length).toBeGreaterThan(0);
    expect(variantSkus).toEqual(refSkus);
  });

  it('sku-availability-exact-class: each availability id names one class, filter and counts agree', async () => {
    const id = leaf();
    const path = `/categories/${id}/skus?include_meta[]=available_filters`;
    const [ref, variant] = await both('sku-availability-exact-class', path);
    const labels = (body: Json): string[] => body.meta.available_filters.availabilities.map((o: Json) => o.label);
    expect(labels(variant)).not.toEqual(labels(ref));
    const counts = (body: Json): number[] => body.meta.available_filters.availabilities.map((o: Json) => o.count);
    expect(counts(variant)[0]).toBe(counts(ref)[0]);
    expect(counts(variant)[2]).toBeLessThanOrEqual(counts(ref)[2]!);
    const filtered = (await api('sku-availability-exact-class', `/categories/${id}/skus?availability=3`)).body.meta.pagination.total_results;
    expect(filtered).toBe(counts(variant)[2]);
  });
});

describe('search and autocomplete', () => {
  const leafName = (): string => data.categories.get(futureSku().category_id)!.name;
  /** A word of a category name with two letters swapped: it begins no known word. */
  const typo = (): string => {
    const word = leafName().split(' ')[0]!.toLowerCase();
    return `${word.slice(0, 2)}${word[3]}${word[2]}${word.slice(4)}`;
  };

  it('search-applies-important-alternative: the service searches the important alternative and names it in meta.q', async () => {
    const [ref, variant] = await both('search-applies-important-alternative', `/search?q=${typo()}`);
    expect(ref.categories).toEqual([]);
    const term = ref.meta.alternatives.find((a: Json) => a.important).term;
    expect(variant.meta.q).toBe(term);
    expect(variant.meta.alternatives).toEqual([]);
    expect(variant.categories).toEqual((await api(null, `/search?q=${encodeURIComponent(term)}`)).body.categories);
  });

  it('autocomplete-with-search-results: categories and strong_matches beside the suggestions', async () => {
    const q = encodeURIComponent(leafName());
    const [ref, variant] = await both('autocomplete-with-search-results', `/autocomplete?q=${q}`);
    expect(Object.keys(ref)).toEqual(['autocomplete']);
    expect(variant.autocomplete).toEqual(ref.autocomplete);
    const searched = (await api(null, `/search?q=${q}`)).body;
    expect(variant.categories).toEqual(searched.categories.slice(0, 10));
    expect(variant.strong_matches).toEqual(searched.meta.strong_matches);
  });

  it('autocomplete-fuzzy-i-null and -minus-one: a mistyped word gets the corrected names, i null or -1', async () => {
    const [ref, nulls] = await both('autocomplete-fuzzy-i-null', `/autocomplete?q=${typo()}`);
    expect(ref.autocomplete).toEqual([]);
    expect(nulls.autocomplete.map((s: Json) => s.k)).toContain(leafName());
    expect(nulls.autocomplete.every((s: Json) => s.i === null && !s.k.toLowerCase().includes(typo()))).toBe(true);
    const [, minus] = await both('autocomplete-fuzzy-i-minus-one', `/autocomplete?q=${typo()}`);
    expect(minus.autocomplete).toEqual(nulls.autocomplete.map((s: Json) => ({ ...s, i: -1 })));
    const [literal, kept] = await both('autocomplete-fuzzy-i-null', `/autocomplete?q=${encodeURIComponent(leafName().slice(0, 3))}`);
    expect(kept).toEqual(literal);
  });

  it('autocomplete-i-utf8-bytes: i counts UTF-8 bytes, which differ where a Greek word comes first', async () => {
    const [ref, variant] = await both('autocomplete-i-utf8-bytes', '/autocomplete?q=audio');
    expect(ref.autocomplete.map((s: Json) => s.k)).not.toContain(GREEK_MANUFACTURER_NAME);
    const greek = variant.autocomplete.find((s: Json) => s.k === GREEK_MANUFACTURER_NAME);
    expect(greek.i).toBe(Buffer.byteLength('Ωμέγα ', 'utf8'));
    expect(greek.i).not.toBe('Ωμέγα '.length);
    const ascii = variant.autocomplete.filter((s: Json) => s.k !== GREEK_MANUFACTURER_NAME);
    expect(ascii).toEqual(ref.autocomplete.filter((s: Json) => ascii.some((a: Json) => a.k === s.k)));
  });

  it('manufacturer-canonical-redirect: 301 to /manufacturers/<id>-<slug>, which serves the manufacturer', async () => {
    const m = [...data.manufacturers.values()][0]!;
    const s = await servers.get('manufacturer-canonical-redirect');
    const moved = await fetch(`${s.ref.baseUrl}/manufacturers/${m.id}?fields[root]=id`, { headers: { Authorization: `Bearer ${s.app}` }, redirect: 'manual' });
    expect(moved.status).toBe(301);
    const location = new URL(moved.headers.get('location')!);
    expect(location.pathname).toMatch(new RegExp(`/manufacturers/${m.id}-[a-z0-9-]+$`));
    expect(location.searchParams.get('fields[root]')).toBe('id');
    // fetch follows the redirect: the canonical address serves the manufacturer.
    const [ref, followed] = await both('manufacturer-canonical-redirect', `/manufacturers/${m.id}`);
    expect(followed).toEqual(ref);
  });
});

describe('category favorites', () => {
  it("category-favorites-auto-list-only: only the favorites of the category's own auto list", async () => {
    const autoLists = [...data.favoriteLists.values()].filter((l) => l.type === 'auto' && l.userId === data.demoUserId);
    let narrower = 0;
    for (const list of autoLists) {
      const [ref, variant] = await Promise.all(
        [null, 'category-favorites-auto-list-only' as const].map(async (v) => (await api(v, `/categories/${list.category_id}/favorites?per=100`, null, true)).body),
      );
      expect(variant.favorites.every((f: Json) => f.favorite_list_id === list.id)).toBe(true);
      expect(ref.favorites.filter((f: Json) => f.favorite_list_id === list.id)).toEqual(variant.favorites);
      if (ref.favorites.length > variant.favorites.length) narrower += 1;
    }
    const [refRoot, variantRoot] = await Promise.all(
      [null, 'category-favorites-auto-list-only' as const].map(async (v) => (await api(v, `/categories/${data.rootId}/favorites?per=100`, null, true)).body),
    );
    expect(refRoot.favorites.length).toBeGreaterThan(0);
    expect(variantRoot.favorites).toEqual([]);
    expect(narrower + autoLists.length).toBeGreaterThan(0);
  });
});
