// The generated datasets are rich enough for every rule the route modules and the suites exercise:
// big collections, every kind of record and value, and the demo user's own records.

import { describe, expect, it } from 'vitest';
import { createDataset, DATASET_NAMES, TOO_NEW_DAYS, type Dataset, type DatasetName } from './data.ts';
import { NOTIFICATION_ETYPES } from '../testing/reference/testkit.ts';

const NOW = Date.UTC(2024, 2, 10, 12, 0, 0);
const DAY = 86_400_000;

const cache = new Map<DatasetName, Dataset>();
function ds(name: DatasetName): Dataset {
  let d = cache.get(name);
  if (!d) cache.set(name, (d = createDataset(name, NOW)));
  return d;
}

/** Great-circle distance in km. */
function km(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const r = Math.PI / 180;
  const h = Math.sin(((b.lat - a.lat) * r) / 2) ** 2 + Math.cos(a.lat * r) * Math.cos(b.lat * r) * Math.sin(((b.lng - a.lng) * r) / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.sqrt(h));
}

function countBy<T>(items: Iterable<T>, key: (t: T) => number): Map<number, number> {
  const out = new Map<number, number>();
  for (const t of items) out.set(key(t), (out.get(key(t)) ?? 0) + 1);
  return out;
}

const max = (m: Map<number, number>): number => Math.max(0, ...m.values());

describe.each(DATASET_NAMES)('%s dataset', (name) => {
  const d = ds(name);
  const leafIds = new Set(d.categoryList.filter((c) => c.childIds.length === 0).map((c) => c.id));
  const skus = [...d.skus.values()];
  const demo = d.demoUserId;

  describe('richness', () => {
    it('more than 25: manufacturers, SKUs of one leaf, products of one SKU, reviews of one shop and one SKU', () => {
      expect(d.manufacturers.size).toBeGreaterThan(25);
      expect(max(countBy(skus, (s) => s.category_id))).toBeGreaterThan(25);
      expect(max(countBy(d.products.values(), (p) => p.sku_id))).toBeGreaterThan(25);
      expect(max(countBy(d.shopReviews.values(), (r) => r.shopId))).toBeGreaterThan(25);
      expect(max(countBy(d.skuReviews.values(), (r) => r.sku_id))).toBeGreaterThan(25);
      expect(max(countBy(d.locations.values(), (l) => l.shopId))).toBeGreaterThan(25);
    });

    it('future, too-new and normal SKUs, relative to the clock', () => {
      const future = skus.filter((s) => s.future);
      const tooNew = skus.filter((s) => !s.future && s.addedAt > NOW - TOO_NEW_DAYS * DAY);
      const normal = skus.filter((s) => !s.future && s.addedAt <= NOW - TOO_NEW_DAYS * DAY);
      expect(future.length).toBeGreaterThan(0);
      expect(tooNew.length).toBeGreaterThan(0);
      expect(normal.length).toBeGreaterThan(future.length + tooNew.length);
      for (const s of future) expect(s.shop_count).toBe(0);
      for (const s of tooNew) {
        expect(s.addedAt).toBeLessThanOrEqual(NOW);
        expect(s.shop_count).toBeGreaterThan(0);
      }
    });

    it('products vary in availability, sizes and expenses; shops in installments and payment', () => {
      const products = [...d.products.values()];
      expect(new Set(products.map((p) => p.availabilityDays)).size).toBeGreaterThan(2);
      expect(products.some((p) => p.availabilityDays === 0)).toBe(true);
      expect(products.some((p) => p.expenses === null) && products.some((p) => p.expenses !== null)).toBe(true);
      const sizes = new Set(products.flatMap((p) => p.sizes.map((s) => s.value)));
      expect([...sizes].some((v) => v.includes('.'))).toBe(true);
      expect([...sizes].filter((v) => !v.includes('.')).length).toBeGreaterThan(2);
      for (const p of products) for (const s of p.sizes) expect(Object.keys(s.mapping).length).toBeGreaterThan(0);
      for (const s of skus)
        if (s.sizes !== null && !s.future)
          expect(s.sizes).toEqual([...new Set(products.filter((p) => p.sku_id === s.id).flatMap((p) => p.sizes.map((x) => x.value)))].sort((a, b) => Number(a) - Number(b)));
      const sizedCounts = countBy(
        products.filter((p) => p.sizes.length > 0),
        (p) => p.sku_id,
      );
      expect(max(sizedCounts), 'a sized SKU with many offers').toBeGreaterThan(8);
      const uids = products.map((p) => `${p.shop_id}/${p.shop_uid}`);
      expect(new Set(uids).size, 'shop_uid unique within a shop').toBe(uids.length);
      for (const p of products) expect(p.shop_uid).toMatch(/^\d+$/);
      const shops = [...d.shops.values()];
      expect(shops.some((s) => s.zeroCommissionInstallments) && shops.some((s) => !s.zeroCommissionInstallments)).toBe(true);
      expect(shops.some((s) => s.reviews_count === 0)).toBe(true);
    });

    it('locations: structured and unstructured, and every role', () => {
      const locs = [...d.locations.values()];
      const unstructured = locs.filter((l) => l.format === 'unstructured');
      expect(unstructured.length).toBeGreaterThan(0);
      expect(locs.some((l) => l.format === 'structured')).toBe(true);
      for (const l of unstructured) {
        // The record keeps an address id (the model needs one); the API shows every field of an
        // unstructured address as null, id included (serializers/shop.ts).
        const { id, ...rest } = l.address;
        expect(typeof id).toBe('number');
        expect(Object.values(rest).every((v) => v === null)).toBe(true);
      }
      for (const l of locs.filter((x) => x.format === 'structured')) expect(Object.values(l.address).every((v) => v !== null)).toBe(true);
      for (const role of ['headquarter', 'pickup_point', 'store'] as const) {
        expect(locs.some((l) => l[role]) && locs.some((l) => !l[role]), role).toBe(true);
      }
    });

    it('shop reviews: positive and negative with reasons, replies present and null', () => {
      const reviews = [...d.shopReviews.values()];
      expect(reviews.some((r) => r.negative) && reviews.some((r) => !r.negative)).toBe(true);
      expect(reviews.every((r) => r.reasons.length > 0)).toBe(true);
      expect(reviews.some((r) => r.shop_reply === null) && reviews.some((r) => r.shop_reply !== null)).toBe(true);
      expect(reviews.some((r) => !r.latest)).toBe(true);
    });

    it('SKU reviews: demoted ones (several on the busiest SKU), each sentiment kind, some without sentiments', () => {
      const reviews = [...d.skuReviews.values()];
      const busiest = [...countBy(reviews, (r) => r.sku_id)].sort((a, b) => b[1] - a[1])[0]![0];
      expect(reviews.filter((r) => r.sku_id === busiest && r.demoted).length).toBeGreaterThan(1);
      for (const key of ['positive', 'mediocre', 'negative'] as const)
        expect(
          reviews.some((r) => r.sentiments[key]?.length),
          key,
        ).toBe(true);
      expect(reviews.some((r) => Object.keys(r.sentiments).length === 0)).toBe(true);
      expect(reviews.some((r) => r.votes_count > 0 && r.helpful_votes_count < r.votes_count)).toBe(true);
      expect(reviews.some((r) => r.user_id === demo)).toBe(true);
      expect([...d.votes.values()].some((v) => v.user_id === demo)).toBe(true);
      expect([...d.flags.values()].some((f) => f.user_id === demo)).toBe(true);
    });

    it('specifications in ordered groups, some without unit; filter groups of every type', () => {
      const specs = [...d.specifications.values()];
      expect(specs.some((s) => s.unit === '') && specs.some((s) => s.unit !== '')).toBe(true);
      for (const leaf of leafIds) {
        const mine = specs.filter((s) => s.categoryId === leaf).map((s) => s.order);
        expect(mine.length).toBeGreaterThan(0);
        expect(mine).toEqual(mine.map((_, i) => i + 1));
      }
      expect(skus.every((s) => s.specValues.size > 0)).toBe(true);
      const groups = [...d.filterGroups.values()];
      expect(new Set(groups.map((g) => g.filter_type))).toEqual(new Set([0, 1, 2, 3, 4, 5]));
      expect(groups.some((g) => g.created_at === null) && groups.some((g) => g.updated_at === null) && groups.some((g) => g.updated_at !== null)).toBe(true);
      expect(skus.filter((s) => s.filterIds.length > 0).length).toBeGreaterThan(skus.length / 2);
    });

    it('review questions, flag reasons, regions and avatars', () => {
      expect(new Set(d.reviewQuestions.map((q) => q.type))).toEqual(new Set(['profiling_multiple', 'eval_sentiment']));
      for (const q of d.reviewQuestions) expect(q.answers.length).toBeGreaterThan(1);
      expect(d.flagReasons.map((r) => r.reason)).toEqual(['bad_language', 'wrong_section', 'spam']);
      for (const r of d.flagReasons) expect(r.description.length).toBeGreaterThan(0);
      expect(Object.keys(d.regions).length).toBeGreaterThan(3);
      expect(new Set(Object.values(d.regions)).size).toBe(Object.keys(d.regions).length);
      expect(d.avatars.length).toBeGreaterThan(2);
    });

    it('the demo user has every field, the five e-mail settings, addresses and a personalization on one of them', () => {
      const user = d.users.get(demo)!;
      for (const [key, value] of Object.entries(user)) expect(value, key).not.toBeNull();
      expect(user.email_notifications.map((e) => e.field)).toEqual(['notifications', 'mail_events', 'sku_review_email', 'shop_review_email', 'smart_cart_email']);
      expect(d.users.size).toBeGreaterThan(25);
      const addresses = [...d.addresses.values()].filter((a) => a.userId === demo);
      expect(addresses.length).toBeGreaterThan(1);
      const p = d.personalization.get(demo)!;
      expect(p.location.type).toBe('address');
      expect(addresses.map((a) => a.id)).toContain(p.location.address_id);
    });

    it("regions lie apart on the map; structured locations name the region they lie in; the demo user's addresses are in regions far apart", () => {
      const centres = d.regionCentres;
      expect(Object.keys(centres).sort()).toEqual(Object.keys(d.regions).sort());
      const names = Object.keys(centres);
      for (const [i, x] of names.entries()) for (const y of names.slice(i + 1)) expect(km(centres[x]!, centres[y]!), `${x} - ${y}`).toBeGreaterThan(80);
      const nearest = (lat: number, lng: number): string => names.reduce((a, b) => (km(centres[b]!, { lat, lng }) < km(centres[a]!, { lat, lng }) ? b : a));
      for (const l of d.locations.values()) {
        if (l.format === 'structured') expect(l.address.region).toBe(nearest(Number(l.lat), Number(l.lng)));
      }
      const addresses = [...d.addresses.values()].filter((a) => a.userId === demo);
      expect(addresses.length).toBeGreaterThanOrEqual(3);
      expect(new Set(addresses.map((a) => a.region)).size).toBe(addresses.length);
      for (const [i, a] of addresses.entries()) {
        if (a.lat !== null && a.lng !== null) expect(km({ lat: Number(a.lat), lng: Number(a.lng) }, centres[a.region]!)).toBeLessThan(25);
        for (const b of addresses.slice(i + 1)) expect(km(centres[a.region]!, centres[b.region]!)).toBeGreaterThan(100);
      }
      // The addresses without coordinates are geocoded when chosen (routes/personalization.ts).
      expect(addresses.some((a) => a.lat === null) && addresses.some((a) => a.lat !== null)).toBe(true);
    });

    it('saved orders of the demo user, with line items missing from the catalogue', () => {
      const orders = d.savedOrders.filter((o) => o.userId === demo);
      expect(orders.length).toBeGreaterThan(3);
      const items = orders.flatMap((o) => o.line_items);
      for (const key of ['sku_id', 'product_id', 'category_id', 'image'] as const) {
        expect(items.some((li) => li[key] === null) && items.some((li) => li[key] !== null), key).toBe(true);
      }
      expect(d.savedOrders.map((o) => o.date)).toEqual([...d.savedOrders.map((o) => o.date)].sort().reverse());
    });

    it('notifications of the demo user: more than 25, every etype, viewed and not, aggregated sku_review ones', () => {
      const mine = [...d.notifications.values()].filter((n) => n.userId === demo);
      expect(mine.length).toBeGreaterThan(25);
      expect(new Set(mine.map((n) => n.etype))).toEqual(new Set(NOTIFICATION_ETYPES));
      expect(mine.some((n) => n.is_viewed) && mine.some((n) => !n.is_viewed)).toBe(true);
      const reviews = mine.filter((n) => n.etype === 'sku_review');
      expect(reviews.some((n) => n.aggregated) && reviews.some((n) => !n.aggregated)).toBe(true);
      for (const n of reviews) {
        expect(n.reviewRating).not.toBeNull();
        expect(n.reviewUserId).not.toBeNull();
        expect(n.reviewText === null).toBe(n.aggregated);
      }
      for (const n of mine.filter((x) => x.etype !== 'sku_review')) expect(n.reviewRating).toBeNull();
      expect([...d.notifications.values()].some((n) => n.userId !== demo)).toBe(true);
    });

    it('favorites of the demo user: custom, auto and owned lists, more than 25, have_it null and false', () => {
      const lists = [...d.favoriteLists.values()].filter((l) => l.userId === demo);
      const custom = lists.filter((l) => l.type === 'custom');
      const auto = lists.filter((l) => l.type === 'auto');
      expect(custom.length).toBeGreaterThan(0);
      expect(auto.length).toBeGreaterThan(0);
      for (const l of custom) {
        expect(l.id).toBeGreaterThan(0);
        expect(l.category_id).toBeNull();
      }
      for (const l of auto) {
        expect(l.id).toBeLessThan(0);
        expect(l.category_id).not.toBeNull();
      }
      const favs = [...d.favorites.values()].filter((f) => f.user_id === demo);
      expect(favs.length).toBeGreaterThan(25);
      expect(favs.filter((f) => f.favorite_list_id !== null).length).toBeGreaterThan(25);
      expect(favs.some((f) => f.favorite_list_id === null && f.have_it === true)).toBe(true);
      expect(favs.some((f) => f.have_it === null) && favs.some((f) => f.have_it === false)).toBe(true);
      const mixed = custom.some((l) => new Set(favs.filter((f) => f.favorite_list_id === l.id).map((f) => d.skus.get(f.sku_id)!.category_id)).size > 1);
      expect(mixed, 'a custom list holds SKUs of several categories').toBe(true);
      expect([...d.favorites.values()].some((f) => f.user_id !== demo)).toBe(true);
    });
  });
});
