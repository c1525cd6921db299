// Shops, shop search, shop reviews and shop locations. Shops are discovered through the
// products of the SKUs (ids, names and counts are never hard-coded); both datasets, under a
// base path.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningReference } from './server.ts';
import { allSkus, get, parseLink, SHOP_FIELDS, sorted, startWithToken } from '../testing/reference/testkit.ts';

type Json = Record<string, any>;

const REVIEW_FIELDS = ['id', 'user_id', 'review', 'rating', 'shop_reply', 'created_at', 'negative', 'reasons'].sort();
const LOCATION_FIELDS = ['id', 'headquarter', 'pickup_point', 'store', 'phones', 'full_address', 'format', 'lat', 'lng', 'info'].sort();
const ADDRESS_FIELDS = ['id', 'street_number', 'street', 'postcode', 'city', 'region', 'country'].sort();

describe.each(['default', 'alt'] as const)('shops (%s dataset)', (dataset) => {
  let ref: RunningReference;
  let token: string;
  let shops: Json[];
  const reviews = new Map<number, Json[]>();
  const locations = new Map<number, Json[]>();

  beforeAll(async () => {
    ({ ref, token } = await startWithToken({ dataset, basePath: '/api' }));
    const skus = (await allSkus(ref, token)).filter((s) => s.shop_count > 0);
    const lists = await Promise.all(skus.map((s) => get(ref, `/skus/${s.id}/products?per=100`, { token })));
    const shopIds = [...new Set(lists.flatMap((r) => r.body.products.map((p: Json) => p.shop_id as number)))].sort((a, b) => a - b);
    shops = await Promise.all(shopIds.map(async (id) => (await get(ref, `/shops/${id}`, { token })).body.shop as Json));
    await Promise.all(
      shops.map(async (s) => {
        reviews.set(s.id, (await get(ref, `/shops/${s.id}/reviews?per=100`, { token })).body.reviews);
        locations.set(s.id, (await get(ref, `/shops/${s.id}/locations?per=100&embed=address`, { token })).body.locations);
      }),
    );
  });
  afterAll(async () => {
    await ref.close();
  });

  it('GET /shops/:id returns every Shop field with the documented types', () => {
    expect(shops.length).toBeGreaterThan(10);
    for (const s of shops) {
      expect(Object.keys(s).sort()).toEqual(sorted(SHOP_FIELDS));
      for (const f of ['name', 'link', 'phone', 'image_url', 'thumbshot_url', 'web_uri']) expect(typeof s[f], f).toBe('string');
      expect(Number.isInteger(s.reviews_count)).toBe(true);
      expect(s.latest_reviews_count).toBeLessThanOrEqual(s.reviews_count);
      expect(Math.round(s.review_score * 10) / 10).toBe(s.review_score);
      expect(Object.keys(s.payment_methods).sort()).toEqual(['bank', 'credit_card', 'installments', 'paypal', 'spot_cash']);
      for (const m of ['bank', 'credit_card', 'paypal', 'spot_cash']) expect(typeof s.payment_methods[m]).toBe('boolean');
      expect(typeof s.payment_methods.installments).toBe('string');
      expect(Object.keys(s.shipping).sort()).toEqual(['free', 'free_from', 'free_from_info', 'min_price', 'shipping_cost_enabled']);
      expect(typeof s.shipping.free).toBe('boolean');
      expect(s.shipping.free_from === null || typeof s.shipping.free_from === 'number').toBe(true);
      expect(s.shipping.free_from_info === null || typeof s.shipping.free_from_info === 'string').toBe(true);
      expect(typeof s.shipping.min_price).toBe('string');
      expect(typeof s.shipping.shipping_cost_enabled).toBe('boolean');
      expect(s.extra_info).toEqual({ time_on_platform: expect.any(String), orders_per_week: expect.any(String) });
      for (const r of s.top_positive_reasons) expect(typeof r).toBe('string');
      expect(s.reviews_count).toBe(reviews.get(s.id)!.length);
    }
    expect(shops.some((s) => s.review_score !== Math.round(s.review_score))).toBe(true);
  });

  it('drops shipping_cost_enabled before 3.1.1; 3.0.23 has the other Shop fields; unknown ids are 404', async () => {
    const s = shops[0]!;
    const v31 = (await get(ref, `/shops/${s.id}`, { token, version: '3.1' })).body.shop;
    expect(v31).toEqual(s);
    const v30 = (await get(ref, `/shops/${s.id}`, { token, version: '3.0' })).body.shop;
    const { shipping_cost_enabled: _e, ...shipping } = s.shipping;
    expect(v30).toEqual({ ...s, shipping });
    for (const id of ['99999999', 'abc']) {
      const r = await get(ref, `/shops/${id}`, { token });
      expect(r.status).toBe(404);
      expect(r.body.errors[0].code).toBe('RecordNotFound');
      expect(r.body.errors[0].messages[0]).toMatch(/Shop/);
    }
  });

  it('GET /shops/search finds shops whose name contains q, ignoring case; q is required', async () => {
    for (const s of shops.slice(0, 8)) {
      const word = (s.name as string).split(' ')[0]!;
      const r = await get(ref, `/shops/search?q=${encodeURIComponent(word.toUpperCase())}&per=100`, { token });
      expect(r.status).toBe(200);
      expect(Object.keys(r.body).sort()).toEqual(['meta', 'shops']);
      expect(r.body.shops.map((x: Json) => x.id)).toContain(s.id);
      for (const x of r.body.shops) expect((x.name as string).toLowerCase()).toContain(word.toLowerCase());
      const expected = shops.filter((x) => (x.name as string).toLowerCase().includes(word.toLowerCase())).map((x) => x.id);
      expect(r.body.shops.map((x: Json) => x.id).filter((id: number) => expected.includes(id))).toEqual(expected);
      expect(r.body.shops.find((x: Json) => x.id === s.id)).toEqual(s);
    }
    const none = await get(ref, '/shops/search?q=zzqqxxnomatch', { token });
    expect(none.body).toEqual({ shops: [], meta: { pagination: { total_results: 0, total_pages: 0, page: 1, per: 25 } } });
    for (const q of ['', '?q=', '?q=%20%20']) {
      const r = await get(ref, `/shops/search${q}`, { token });
      expect(r.status, q).toBe(400);
      expect(r.body.errors[0].code).toBe('ParameterMissing');
    }
    const paged = await get(ref, '/shops/search?q=e&per=2', { token });
    expect(paged.body.shops.length).toBeLessThanOrEqual(2);
    if (paged.body.meta.pagination.total_results > 2) expect(parseLink(paged.headers.get('link')).next).toContain('q=e');
  });

  it('lists shop reviews newest first, paginated, with the Shop review fields', async () => {
    const busy = shops.reduce((a, b) => (reviews.get(b.id)!.length > reviews.get(a.id)!.length ? b : a));
    expect(reviews.get(busy.id)!.length).toBeGreaterThan(2);
    let negative = 0;
    for (const s of shops) {
      const list = reviews.get(s.id)!;
      const dates = list.map((r) => r.created_at as string);
      expect([...dates].sort().reverse()).toEqual(dates);
      for (const r of list) {
        expect(Object.keys(r).sort()).toEqual(REVIEW_FIELDS);
        expect(r.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
        expect(r.shop_reply === null || typeof r.shop_reply === 'string').toBe(true);
        expect(typeof r.negative).toBe('boolean');
        for (const x of r.reasons) expect(typeof x).toBe('string');
        if (r.negative) negative += 1;
      }
    }
    expect(negative).toBeGreaterThan(0);
    const all = reviews.get(busy.id)!;
    const p2 = await get(ref, `/shops/${busy.id}/reviews?per=2&page=2`, { token });
    expect(p2.body.reviews).toEqual(all.slice(2, 4));
    expect(p2.body.meta).toEqual({ pagination: { total_results: all.length, total_pages: Math.ceil(all.length / 2), page: 2, per: 2 } });
    expect((await get(ref, '/shops/99999999/reviews', { token })).status).toBe(404);
  });

  it('adds meta.shop_rating_breakdown with include_meta=shop_rating_breakdown', async () => {
    for (const s of shops) {
      const list = reviews.get(s.id)!;
      const r = await get(ref, `/shops/${s.id}/reviews?include_meta=shop_rating_breakdown&per=1`, { token });
      const b = r.body.meta.shop_rating_breakdown as Json[];
      const neg = list.filter((x) => x.negative).length;
      expect(b).toEqual([
        { impression: 'positive', percentage: expect.any(Number), count: list.length - neg },
        { impression: 'negative', percentage: expect.any(Number), count: neg },
      ]);
      for (const x of b) expect(Number.isInteger(x.percentage)).toBe(true);
      if (list.length > 0) {
        expect(b[0]!.percentage + b[1]!.percentage).toBe(100);
        expect(Math.abs(b[1]!.percentage - (neg * 100) / list.length)).toBeLessThan(1);
      }
      expect(r.body.meta.pagination.total_results).toBe(list.length);
    }
    const s = shops[0]!;
    const arr = await get(ref, `/shops/${s.id}/reviews?include_meta[]=shop_rating_breakdown`, { token });
    expect(arr.body.meta.shop_rating_breakdown).toHaveLength(2);
    const bad = await get(ref, `/shops/${s.id}/reviews?include_meta=sku_reviews_aggregation`, { token });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].code).toBe('InvalidParameter');
  });

  it('lists locations with embed=address; every field of an unstructured address, id included, is null', () => {
    let structured = 0;
    let unstructured = 0;
    for (const s of shops) {
      for (const l of locations.get(s.id)!) {
        expect(Object.keys(l).sort()).toEqual([...LOCATION_FIELDS, 'address'].sort());
        expect(['structured', 'unstructured']).toContain(l.format);
        for (const f of ['headquarter', 'pickup_point', 'store']) expect(typeof l[f]).toBe('boolean');
        for (const f of ['full_address', 'lat', 'lng', 'info']) expect(typeof l[f]).toBe('string');
        for (const p of l.phones) expect(typeof p).toBe('string');
        expect(Object.keys(l.address).sort()).toEqual(ADDRESS_FIELDS);
        const rest = ADDRESS_FIELDS.filter((f) => f !== 'id').map((f) => l.address[f]);
        if (l.format === 'unstructured') {
          unstructured += 1;
          expect(l.address).toEqual(Object.fromEntries(ADDRESS_FIELDS.map((f) => [f, null])));
        } else {
          structured += 1;
          expect(Number.isInteger(l.address.id)).toBe(true);
          expect(rest.some((v) => typeof v === 'string')).toBe(true);
        }
      }
    }
    expect(structured).toBeGreaterThan(0);
    expect(unstructured).toBeGreaterThan(0);
  });

  it('paginates locations, and links the address by embed_ids and include', async () => {
    const big = shops.reduce((a, b) => (locations.get(b.id)!.length > locations.get(a.id)!.length ? b : a));
    const all = locations.get(big.id)!;
    expect(all.length).toBeGreaterThan(25);
    const r = await get(ref, `/shops/${big.id}/locations`, { token });
    expect(r.body.locations).toHaveLength(25);
    expect(r.body.meta.pagination).toEqual({ total_results: all.length, total_pages: 2, page: 1, per: 25 });
    expect(parseLink(r.headers.get('link')).next).toBe(`${ref.baseUrl}/shops/${big.id}/locations?page=2`);
    const strip = (l: Json): Json => {
      const { address: _a, ...rest } = l;
      return rest;
    };
    expect(r.body.locations).toEqual(all.slice(0, 25).map(strip));
    // An unstructured location links no address: address_id null and nothing in addresses; [] ids.
    expect(all.some((l) => l.format === 'unstructured') && all.some((l) => l.format === 'structured')).toBe(true);
    const parsed = all.filter((l) => l.format === 'structured');
    const inc = await get(ref, `/shops/${big.id}/locations?include=address&per=100`, { token });
    expect(inc.body.locations.map((l: Json) => l.address_id)).toEqual(all.map((l) => (l.format === 'structured' ? l.address.id : null)));
    expect(inc.body.addresses).toEqual(parsed.map((l) => l.address));
    const idsOnly = await get(ref, `/shops/${big.id}/locations?embed_ids=address&per=100`, { token });
    expect(idsOnly.body.locations.map((l: Json) => l.address_ids)).toEqual(all.map((l) => (l.format === 'structured' ? [l.address.id] : [])));
    expect((await get(ref, `/shops/${big.id}/locations?embed=shop`, { token })).status).toBe(400);
  });

  it('GET /shops/:shop_id/locations/:id returns a location of that shop only', async () => {
    const withLocs = shops.filter((s) => locations.get(s.id)!.length > 0);
    // A shop with both formats (the fewest locations, to keep the requests few), and another shop.
    const mixed = (s: Json): boolean => new Set(locations.get(s.id)!.map((l) => l.format)).size === 2;
    const a = withLocs.filter(mixed).reduce((x, y) => (locations.get(y.id)!.length < locations.get(x.id)!.length ? y : x));
    const b = withLocs.find((s) => s !== a);
    for (const l of locations.get(a!.id)!) {
      const r = await get(ref, `/shops/${a!.id}/locations/${l.id}?embed=address`, { token });
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ location: l });
      const plain = await get(ref, `/shops/${a!.id}/locations/${l.id}`, { token });
      expect('address' in plain.body.location).toBe(false);
      const inc = await get(ref, `/shops/${a!.id}/locations/${l.id}?include=address`, { token });
      expect(inc.body.location.address_id).toBe(l.address.id);
      expect(inc.body.addresses).toEqual(l.format === 'structured' ? [l.address] : []);
      const idsOnly = await get(ref, `/shops/${a!.id}/locations/${l.id}?embed_ids=address`, { token });
      expect(idsOnly.body.location.address_ids).toEqual(l.format === 'structured' ? [l.address.id] : []);
    }
    const foreign = locations.get(b!.id)![0]!;
    const r = await get(ref, `/shops/${a!.id}/locations/${foreign.id}`, { token });
    expect(r.status).toBe(404);
    expect(r.body.errors[0]).toEqual({ code: 'RecordNotFound', messages: [`Couldn't find Location with id=${foreign.id}`] });
    expect((await get(ref, `/shops/${a!.id}/locations/99999999`, { token })).status).toBe(404);
    expect((await get(ref, `/shops/99999999/locations/${foreign.id}`, { token })).body.errors[0].messages[0]).toMatch(/Shop/);
    expect((await get(ref, `/shops/99999999/locations`, { token })).status).toBe(404);
  });
});
