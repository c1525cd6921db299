// Legal variants of products, shops and price history written for the catalogue's readings
// (variants/products-readings.ts): for each, the answer with the variant switched on, next to
// the reference's own answer (no variant) to the same request, on one clock (so one dataset;
// the variants that reshape the data, variant-data.ts, are compared where it did not change).

import { describe, expect, it } from 'vitest';
import type { VariantName } from './variants.ts';
import { variantTestBed } from '../testing/reference/testkit.ts';

type Json = any;

const DAY_MS = 86_400_000;
const { clock, data, servers } = variantTestBed();

/** GET with the application token (or, `user`, the user token) of the variant's server; the same GET without and with it, both 200, their bodies. */
const { read: api, readBoth: both } = servers;

const skusWithProducts = () => [...data.skus.values()].filter((s) => !s.future && [...data.products.values()].some((p) => p.sku_id === s.id));
const productsOfSku = (id: number) => [...data.products.values()].filter((p) => p.sku_id === id);
const oldSku = () => [...data.skus.values()].find((s) => !s.future && clock.now() - s.addedAt > 200 * DAY_MS)!;
/** The shop ids in order, the big one (over 25 locations) left out: as variant-data.ts picks them. */
const ordinaryShopIds = () =>
  [...data.shops.values()]
    .filter((s) => s.locationIds.length <= 25)
    .map((s) => s.id)
    .sort((a, b) => a - b);

describe('price history', () => {
  const path = () => `/skus/${oldSku().id}/price_history`;

  it('price-history-newest-first: the same points, newest first', async () => {
    const [ref, variant] = await both('price-history-newest-first', path());
    expect(variant.history.average).toEqual([...ref.history.average].reverse());
  });

  it('price-history-ends-yesterday: the points up to yesterday', async () => {
    const [ref, variant] = await both('price-history-ends-yesterday', path());
    expect(variant.history.average).toEqual(ref.history.average.slice(0, -1));
  });

  it('price-history-change-days-only: the first day and the days the price changed, each at its price', async () => {
    const [ref, variant] = await both('price-history-change-days-only', path());
    const points = variant.history.average as Json[];
    expect(points[0]).toEqual(ref.history.average[0]);
    expect(points.length).toBeGreaterThan(10);
    expect(points.length).toBeLessThan(ref.history.average.length / 2);
    for (const p of points) expect(ref.history.average).toContainEqual(p);
  });

  it('price-history-lowest-series: lowest beside average, dated by timestamps, never above the average', async () => {
    const [ref, variant] = await both('price-history-lowest-series', path());
    expect(Object.keys(ref.history)).toEqual(['average']);
    expect(variant.history.average).toEqual(ref.history.average);
    expect(variant.history.lowest).toHaveLength(ref.history.average.length);
    variant.history.lowest.forEach((p: Json, i: number) => {
      expect(p.date).toBe(`${ref.history.average[i].date}T00:00:00Z`);
      expect(p.price).toBeLessThanOrEqual(ref.history.average[i].price);
    });
  });
});

describe('products and product cards', () => {
  it('product-sizes-null-when-none, product-color-everywhere, product-shop-null-unembedded: the product fields', async () => {
    const product = [...data.products.values()].find((p) => p.sizes.length === 0)!;
    const [ref, sizes] = await both('product-sizes-null-when-none', `/products/${product.id}`);
    expect(ref.product.sizes).toEqual([]);
    expect(sizes.product).toEqual({ ...ref.product, sizes: null });
    const [, colored] = await both('product-color-everywhere', `/products/${product.id}`);
    expect(ref.product).not.toHaveProperty('color');
    expect(colored.product).toEqual({ ...ref.product, color: product.color });
    const [, shopNull] = await both('product-shop-null-unembedded', `/products/${product.id}`);
    expect(shopNull.product).toEqual({ ...ref.product, shop: null });
    const [embedded, shopEmbedded] = await both('product-shop-null-unembedded', `/products/${product.id}?embed=shop`);
    expect(shopEmbedded).toEqual(embedded);
    const cards = (await api('product-shop-null-unembedded', `/skus/${product.sku_id}/product_cards`)).body;
    expect(cards.product_cards[0].cards[0].products[0]).not.toHaveProperty('shop');
  });

  it('blp-null-for-app-token: no blp for an application token, on products and cards; a user keeps it', async () => {
    const sku = skusWithProducts()[0]!;
    const [ref, variant] = await both('blp-null-for-app-token', `/skus/${sku.id}/products`);
    expect(ref.products[0].blp).toEqual(expect.objectContaining({ shipping_cost: expect.any(Number) }));
    for (const p of variant.products) expect(p.blp).toBeNull();
    expect(variant.meta.personalization).toEqual(ref.meta.personalization);
    const [, cards] = await both('blp-null-for-app-token', `/skus/${sku.id}/product_cards`);
    for (const entry of cards.product_cards) for (const card of entry.cards) expect(card.blp).toBeNull();
    const [user, userVariant] = await both('blp-null-for-app-token', `/skus/${sku.id}/products`, { user: true });
    expect(userVariant).toEqual(user);
  });

  it('expenses-plus-distance-surcharge: a set shipping cost grows with the distance', async () => {
    const listed = new Set(skusWithProducts().map((s) => s.id));
    const product = [...data.products.values()].find((p) => p.expenses !== null && listed.has(p.sku_id) && (p.expenses ?? 0) > 0)!;
    const [ref, variant] = await both('expenses-plus-distance-surcharge', `/products/${product.id}`);
    expect(ref.product.blp.shipping_cost).toBe(product.expenses);
    expect(variant.product.expenses).toBe(product.expenses);
    expect(variant.product.blp.shipping_cost).toBeGreaterThanOrEqual(product.expenses!);
    const all = await Promise.all(
      [...data.products.values()]
        .filter((p) => p.expenses !== null)
        .slice(0, 40)
        .map(async (p) => [p, (await api('expenses-plus-distance-surcharge', `/products/${p.id}`)).body.product] as const),
    );
    expect(all.some(([p, shown]) => shown.blp.shipping_cost > p.expenses!)).toBe(true);
  });

  it('shipping-cost-null-unknown-distance: an online-only shop charging by distance has no shipping cost, no final price', async () => {
    const online = ordinaryShopIds()[1]!;
    const shop = data.shops.get(online)!;
    expect((await api('shipping-cost-null-unknown-distance', `/shops/${online}/locations`)).body.locations).toEqual([]);
    const charged = [...data.products.values()].filter(
      (p) => p.shop_id === online && p.expenses === null && !shop.shipping.free && (shop.shipping.free_from === null || p.price < shop.shipping.free_from),
    );
    expect(charged.length).toBeGreaterThan(0);
    const [, variant] = await both('shipping-cost-null-unknown-distance', `/products/${charged[0]!.id}`);
    expect(variant.product.blp).toMatchObject({ shipping_cost: null, final_price: null });
  });

  it('product-shop-gone: the shop is 404, its products stay, embedded as null', async () => {
    const gone = ordinaryShopIds()[2]!;
    const product = [...data.products.values()].find((p) => p.shop_id === gone)!;
    expect((await api('product-shop-gone', `/shops/${gone}`)).status).toBe(404);
    const [ref, variant] = await both('product-shop-gone', `/products/${product.id}?embed=shop`);
    expect(ref.product.shop.id).toBe(gone);
    expect(variant.product.shop).toBeNull();
    expect((await api('product-shop-gone', `/products/${product.id}?embed_ids=shop`)).body.product.shop_ids).toEqual([]);
    const cards = (await api('product-shop-gone', `/skus/${product.sku_id}/product_cards?per=100`)).body.product_cards as Json[];
    const card = cards.flatMap((e) => e.cards).find((c: Json) => c.products.some((p: Json) => p.id === product.id));
    expect(card.shop).toBeNull();
  });

  it('product-ordered-by-label, product-cards-meta-pagination-only, product-card-blp-null: meta and cards', async () => {
    const sku = skusWithProducts()[0]!;
    const [ref, labelled] = await both('product-ordered-by-label', `/skus/${sku.id}/products?order_by=final_price`);
    expect(ref.meta.ordered_by).toBe('final_price');
    expect(labelled.meta.ordered_by).toBe('Final price');
    expect((await api('product-ordered-by-label', `/skus/${sku.id}/products`)).body.meta.ordered_by).toBe('Price');
    const [cards, paginationOnly] = await both('product-cards-meta-pagination-only', `/skus/${sku.id}/product_cards?include_meta[]=filters`);
    expect(cards.meta).toHaveProperty('ordered_by');
    expect(paginationOnly.meta).toEqual({ pagination: cards.meta.pagination });
    expect(paginationOnly.product_cards).toEqual(cards.product_cards);
    const [, blpNull] = await both('product-card-blp-null', `/skus/${sku.id}/product_cards`);
    for (const entry of blpNull.product_cards) for (const card of entry.cards) expect(card.blp).toBeNull();
    expect(blpNull.product_cards[0].cards[0].products).toEqual(cards.product_cards[0].cards[0].products);
  });
});

describe('product-list parameters', () => {
  /** The SKU with the most products, of the shops this dataset has. */
  const richSku = () => skusWithProducts().sort((a, b) => productsOfSku(b.id).length - productsOfSku(a.id).length || a.id - b.id)[0]!;
  const ids = (body: Json): number[] => body.products.map((p: Json) => p.id).sort((a: number, b: number) => a - b);
  const list = (variant: VariantName | null, query: string, version?: string) => api(variant, `/skus/${richSku().id}/products?per=100&${query}`, version ? { version } : {});

  it('final-price-order-from-3-2: before 3.2.0 order_by=final_price is ignored', async () => {
    const old = (await list('final-price-order-from-3-2', 'order_by=final_price', '3.1')).body;
    expect(old.meta.ordered_by).toBe('net_price');
    expect(old.products).toEqual((await list(null, '', '3.1')).body.products);
    const [ref, variant] = await both('final-price-order-from-3-2', `/skus/${richSku().id}/products?per=100&order_by=final_price`);
    expect(variant).toEqual(ref);
  });

  it('size-filter-ignored-unsized: an unsized SKU keeps its products under size', async () => {
    const sku = skusWithProducts().find((s) => s.sizes === null)!;
    const [ref, variant] = await both('size-filter-ignored-unsized', `/skus/${sku.id}/products?size=40`);
    expect(ref.products).toEqual([]);
    expect(variant.products.length).toBe(productsOfSku(sku.id).length > 25 ? 25 : productsOfSku(sku.id).length);
  });

  it('distance-filter-keys-only and distance-filter-keeps-unlocated', async () => {
    expect((await list('distance-filter-keys-only', 'distance=7')).status).toBe(400);
    expect((await list('distance-filter-keys-only', 'distance=25')).body).toEqual((await list(null, 'distance=25')).body);
    const online = ordinaryShopIds()[1]!;
    const product = [...data.products.values()].find((p) => p.shop_id === online)!;
    const kept = await api('distance-filter-keeps-unlocated', `/skus/${product.sku_id}/products?per=100&distance=1`);
    expect(kept.body.products.map((p: Json) => p.id)).toContain(product.id);
  });

  it('availability-exact-class and availability-immediate-pickup', async () => {
    const days = (id: number) => data.products.get(id)!.availabilityDays;
    const three = (await list('availability-exact-class', 'availability=3')).body;
    expect(ids(three).length).toBeGreaterThan(0);
    for (const id of ids(three)) expect([1, 2, 3]).toContain(days(id));
    expect(ids(three)).toEqual(
      productsOfSku(richSku().id)
        .filter((p) => p.availabilityDays > 0 && p.availabilityDays <= 3)
        .map((p) => p.id)
        .sort((a, b) => a - b),
    );
    expect((await list('availability-exact-class', 'availability=2')).status).toBe(400);
    const pickup = (await list('availability-immediate-pickup', 'availability=0')).body;
    expect(ids(pickup)).toEqual(
      productsOfSku(richSku().id)
        .filter((p) => p.immediate_pickup)
        .map((p) => p.id)
        .sort((a, b) => a - b),
    );
  });

  it('zero-installments-false-excludes: false keeps the shops without zero-commission installments', async () => {
    const [all, without] = await Promise.all([list(null, 'zero_installments=false'), list('zero-installments-false-excludes', 'zero_installments=false')]);
    const withZero = (await list(null, 'zero_installments=true')).body;
    expect(ids(without.body)).toEqual(ids(all.body).filter((id) => !ids(withZero).includes(id)));
  });

  it('filter-meta-from-3-2-1 and include-meta-brackets-only: when meta.filters comes', async () => {
    expect((await list('filter-meta-from-3-2-1', 'include_meta[]=filters', '3.1')).body.meta).not.toHaveProperty('filters');
    expect((await list(null, 'include_meta[]=filters', '3.1')).body.meta).toHaveProperty('filters');
    expect((await list('filter-meta-from-3-2-1', 'include_meta[]=filters')).body.meta).toHaveProperty('filters');
    const plain = await list('include-meta-brackets-only', 'include_meta=filters');
    expect(plain.status).toBe(200);
    expect(plain.body.meta).not.toHaveProperty('filters');
    expect((await list('include-meta-brackets-only', 'include_meta[]=filters')).body.meta).toHaveProperty('filters');
  });
});

describe('shops, reviews, locations', () => {
  it('shop fields null where the shop has no such data', async () => {
    const unscored = [...data.shops.values()].find((s) => s.latest_reviews_count === 0)!;
    const [ref, score] = await both('shop-review-score-null-unreviewed', `/shops/${unscored.id}`);
    expect(ref.shop.review_score).toBe(0);
    expect(score.shop).toEqual({ ...ref.shop, review_score: null });
    const none = [...data.shops.values()].find((s) => s.payment_methods.installments === 'none')!;
    const [refNone, installments] = await both('shop-installments-null-when-none', `/shops/${none.id}`);
    expect(installments.shop.payment_methods).toEqual({ ...refNone.shop.payment_methods, installments: null });
    const free = [...data.shops.values()].find((s) => s.shipping.free)!;
    const [refFree, minPrice] = await both('shop-min-price-null-when-none', `/shops/${free.id}`);
    expect(minPrice.shop.shipping).toEqual({ ...refFree.shop.shipping, min_price: null });
    const evens = [...data.shops.values()].map((s) => s.id).filter((id) => id % 2 === 0);
    const [wholeRef, whole] = await both('shop-extra-info-null', `/shops/${evens.find((id) => id % 4 === 0)}`);
    expect(whole.shop).toEqual({ ...wholeRef.shop, extra_info: null });
    const [, member] = await both('shop-extra-info-null', `/shops/${evens.find((id) => id % 4 === 2)}`);
    expect(member.shop.extra_info.orders_per_week).toBeNull();
  });

  it('the rating breakdown: rounded each, negative first, always sent', async () => {
    const reviewsOf = (id: number) => [...data.shopReviews.values()].filter((r) => r.shopId === id);
    const half = [...data.shops.values()].find((s) => {
      const all = reviewsOf(s.id);
      return all.length > 0 && ((all.filter((r) => r.negative).length * 200) / all.length) % 2 === 1;
    })!;
    const path = `/shops/${half.id}/reviews?include_meta=shop_rating_breakdown`;
    const [ref, rounded] = await both('rating-breakdown-rounded-each', path);
    const sum = (b: Json[]) => b.reduce((n, e) => n + e.percentage, 0);
    expect(sum(ref.meta.shop_rating_breakdown)).toBe(100);
    expect(sum(rounded.meta.shop_rating_breakdown)).toBe(101);
    const [, reversed] = await both('rating-breakdown-negative-first', path);
    expect(reversed.meta.shop_rating_breakdown).toEqual([...ref.meta.shop_rating_breakdown].reverse());
    const [plain, always] = await both('shop-rating-breakdown-always', `/shops/${half.id}/reviews`);
    expect(plain.meta).not.toHaveProperty('shop_rating_breakdown');
    expect(always.meta.shop_rating_breakdown).toEqual(ref.meta.shop_rating_breakdown);
  });

  it('shop-canonical-redirect: GET /shops/:id moves to /shops/<id>-<slug>, which answers the shop', async () => {
    const shop = [...data.shops.values()][0]!;
    const s = await servers.get('shop-canonical-redirect');
    const moved = await fetch(`${s.ref.baseUrl}/shops/${shop.id}?fields[root]=id`, { headers: { Authorization: `Bearer ${s.app}` }, redirect: 'manual' });
    expect(moved.status).toBe(301);
    const location = new URL(moved.headers.get('location')!);
    expect(location.pathname).toMatch(new RegExp(`/shops/${shop.id}-[a-z0-9-]+$`));
    expect(location.searchParams.get('fields[root]')).toBe('id');
    const [ref, followed] = await both('shop-canonical-redirect', `/shops/${shop.id}`);
    expect(followed).toEqual(ref);
    expect(new URL(ref.shop.web_uri).pathname).toBe(location.pathname.slice(location.pathname.indexOf('/shops/')));
  });

  it('shop-search-short-q-422 and missing-shop-empty-subcollections', async () => {
    expect((await api(null, '/shops/search?q=a')).status).toBe(200);
    const short = await api('shop-search-short-q-422', '/shops/search?q=a');
    expect(short.status).toBe(422);
    expect(short.body.errors[0].code).toBe('InvalidSearch');
    const missing = Math.max(...data.shops.keys()) + 1000;
    expect((await api(null, `/shops/${missing}/reviews`)).status).toBe(404);
    for (const sub of ['reviews', 'locations']) {
      const answer = await api('missing-shop-empty-subcollections', `/shops/${missing}/${sub}`);
      expect(answer.status).toBe(200);
      expect(answer.body[sub]).toEqual([]);
    }
    expect((await api('missing-shop-empty-subcollections', `/shops/${missing}`)).status).toBe(404);
  });

  it('locations: coordinates null, address null unembedded or as a whole, numbers', async () => {
    const shop = [...data.shops.values()].find((s) => s.locationIds.some((id) => data.locations.get(id)!.format === 'unstructured') && s.locationIds.length <= 25)!;
    const path = `/shops/${shop.id}/locations?embed=address`;
    const [ref, coords] = await both('location-coordinates-null', path);
    coords.locations.forEach((l: Json, i: number) => {
      const unstructured = l.format === 'unstructured';
      expect(l).toEqual(unstructured ? { ...ref.locations[i], lat: null, lng: null } : ref.locations[i]);
    });
    const [, whole] = await both('unstructured-address-null', path);
    for (const l of whole.locations) expect(l.address === null).toBe(l.format === 'unstructured');
    const [, numbers] = await both('address-numbers', path);
    const structured = numbers.locations.find((l: Json) => l.format === 'structured');
    expect(typeof structured.address.street_number).toBe('number');
    const [unembedded, nulls] = await both('location-address-null-unembedded', `/shops/${shop.id}/locations`);
    expect(nulls.locations).toEqual(unembedded.locations.map((l: Json) => ({ ...l, address: null })));
    const [one, oneNull] = await both('location-address-null-unembedded', `/shops/${shop.id}/locations/${shop.locationIds[0]}`);
    expect(oneNull.location).toEqual({ ...one.location, address: null });
    expect((await api('location-address-null-unembedded', `${path}`)).body.locations).toEqual(ref.locations);
  });
});
