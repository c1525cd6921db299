// The generated datasets: deterministic, disjoint between 'default' and 'alt', and referentially
// intact. Rich enough for every rule the route modules and the suites exercise: data-richness.test.ts.

import { describe, expect, it } from 'vitest';
import { createDataset, DATASET_NAMES, SKU_EMBED_ETYPES, sentimentsFromAnswers, type Dataset, type DatasetName, type IdKind } from './data.ts';
import { TIMESTAMP } from '../testing/reference/testkit.ts';

const NOW = Date.UTC(2024, 2, 10, 12, 0, 0);
const DAY = 86_400_000;

const cache = new Map<DatasetName, Dataset>();
function ds(name: DatasetName): Dataset {
  let d = cache.get(name);
  if (!d) cache.set(name, (d = createDataset(name, NOW)));
  return d;
}

/** The dataset without its nextId closure (functions never compare equal). */
function plain(d: Dataset): Omit<Dataset, 'nextId'> {
  const { nextId: _nextId, ...rest } = d;
  return rest;
}

/** Generated ids per kind (the kinds nextId knows). */
function idsByKind(d: Dataset): Record<Exclude<IdKind, 'category'>, number[]> {
  const lists = [...d.favoriteLists.keys()];
  return {
    manufacturer: [...d.manufacturers.keys()],
    shop: [...d.shops.keys()],
    location: [...d.locations.keys()],
    location_address: [...d.locations.values()].map((l) => l.address.id),
    shop_review: [...d.shopReviews.keys()],
    sku: [...d.skus.keys()],
    product: [...d.products.keys()],
    spec_group: [...d.specGroups.keys()],
    specification: [...d.specifications.keys()],
    filter_group: [...d.filterGroups.keys()],
    filter: [...d.filterGroups.values()].flatMap((g) => [...g.filters.keys()]),
    answer: d.reviewQuestions.flatMap((q) => q.answers.map((a) => a.id)),
    region: Object.values(d.regions),
    user: [...d.users.keys()],
    sku_review: [...d.skuReviews.keys()],
    vote: [...d.votes.keys()],
    flag: [...d.flags.keys()],
    address: [...d.addresses.keys()],
    favorite_list: lists.filter((id) => id > 0),
    auto_list: lists.filter((id) => id < 0),
    favorite: [...d.favorites.keys()],
    notification: [...d.notifications.keys()],
  };
}

const round1 = (n: number): number => Math.round(n * 10) / 10;
const hostOf = (d: Dataset): string => new URL(d.skus.values().next().value!.web_uri).hostname.replace(/^www\./, '');

describe('datasets are deterministic and relative to the clock', () => {
  it.each(DATASET_NAMES)('%s: two calls with the same clock deep-equal', (name) => {
    expect(plain(createDataset(name, NOW))).toEqual(plain(createDataset(name, NOW)));
  });

  it.each(DATASET_NAMES)('%s: another clock shifts every time and nothing else', (name) => {
    const a = createDataset(name, NOW);
    const b = createDataset(name, NOW + 5 * DAY);
    expect(b.generatedAt - a.generatedAt).toBe(5 * DAY);
    expect([...b.skus.keys()]).toEqual([...a.skus.keys()]);
    for (const sku of a.skus.values()) {
      const other = b.skus.get(sku.id)!;
      expect(other.addedAt - sku.addedAt).toBe(5 * DAY);
      expect(other.display_name).toBe(sku.display_name);
      expect(other.price_min).toBe(sku.price_min);
    }
    const shift = (t: string): number => Date.parse(t) + 5 * DAY;
    for (const r of a.skuReviews.values()) expect(Date.parse(b.skuReviews.get(r.id)!.created_at)).toBe(shift(r.created_at));
    expect([...b.notifications.keys()]).toEqual([...a.notifications.keys()]);
  });
});

describe("'alt' shares no id, name or count with 'default'", () => {
  it('ids never overlap for any kind', () => {
    const d = idsByKind(ds('default'));
    const a = idsByKind(ds('alt'));
    for (const kind of Object.keys(d) as (keyof typeof d)[]) {
      expect(d[kind].length, kind).toBeGreaterThan(0);
      const set = new Set(d[kind]);
      expect(
        a[kind].filter((id) => set.has(id)),
        kind,
      ).toEqual([]);
      expect(new Set(d[kind]).size, `${kind} unique in default`).toBe(d[kind].length);
      expect(new Set(a[kind]).size, `${kind} unique in alt`).toBe(a[kind].length);
    }
  });

  it('names and counts differ', () => {
    const d = ds('default');
    const a = ds('alt');
    const disjoint = (x: Iterable<string>, y: Iterable<string>): string[] => {
      const set = new Set(x);
      return [...y].filter((v) => set.has(v));
    };
    expect(
      disjoint(
        [...d.manufacturers.values()].map((m) => m.name),
        [...a.manufacturers.values()].map((m) => m.name),
      ),
    ).toEqual([]);
    expect(
      disjoint(
        [...d.shops.values()].map((m) => m.name),
        [...a.shops.values()].map((m) => m.name),
      ),
    ).toEqual([]);
    expect(
      disjoint(
        [...d.skus.values()].map((m) => m.display_name),
        [...a.skus.values()].map((m) => m.display_name),
      ),
    ).toEqual([]);
    expect(
      disjoint(
        [...d.users.values()].map((m) => m.username),
        [...a.users.values()].map((m) => m.username),
      ),
    ).toEqual([]);
    expect(disjoint(Object.keys(d.regions), Object.keys(a.regions))).toEqual([]);
    expect(hostOf(d)).not.toBe(hostOf(a));
    for (const key of ['manufacturers', 'shops', 'skus', 'products', 'users', 'shopReviews', 'skuReviews', 'notifications', 'favorites'] as const) {
      expect(a[key].size, key).not.toBe(d[key].size);
    }
  });
});

describe.each(DATASET_NAMES)('%s dataset', (name) => {
  const d = ds(name);
  const host = hostOf(d);
  const leafIds = new Set(d.categoryList.filter((c) => c.childIds.length === 0).map((c) => c.id));
  const skus = [...d.skus.values()];

  it('nextId never takes a generated id; auto lists count down from below the smallest', () => {
    const fresh = createDataset(name, NOW);
    for (const [kind, ids] of Object.entries(idsByKind(fresh))) {
      const first = fresh.nextId(kind);
      const second = fresh.nextId(kind);
      if (kind === 'auto_list') {
        expect(first).toBeLessThan(Math.min(...ids));
        expect(second).toBe(first - 1);
      } else {
        expect(first, kind).toBeGreaterThan(Math.max(...ids));
        expect(second, kind).toBe(first + 1);
      }
    }
    expect(fresh.nextId('category')).toBeGreaterThan(Math.max(...fresh.categoryList.map((c) => c.id)));
  });

  it('the category tree has 4+ levels below the root and many leaves', () => {
    expect(Math.max(...d.categoryList.map((c) => c.depth))).toBeGreaterThanOrEqual(4);
    expect(leafIds.size).toBeGreaterThan(10);
  });

  describe('referential integrity', () => {
    it('SKUs sit in leaves, with existing manufacturers, specs of their leaf and filters of their leaf', () => {
      for (const sku of skus) {
        expect(leafIds.has(sku.category_id), `sku ${sku.id}`).toBe(true);
        expect(d.manufacturers.has(sku.manufacturer_id)).toBe(true);
        for (const specId of sku.specValues.keys()) expect(d.specifications.get(specId)?.categoryId).toBe(sku.category_id);
        const leafFilters = new Set([...d.filterGroups.values()].filter((g) => g.category_id === sku.category_id).flatMap((g) => [...g.filters.keys()]));
        for (const f of sku.filterIds) expect(leafFilters.has(f), `filter ${f} of sku ${sku.id}`).toBe(true);
      }
    });

    it('products point at their SKU, its category and an existing shop; SKU aggregates follow the products', () => {
      for (const p of d.products.values()) {
        const sku = d.skus.get(p.sku_id)!;
        expect(sku).toBeDefined();
        expect(sku.future).toBe(false);
        expect(d.shops.has(p.shop_id)).toBe(true);
        expect(p.category_id).toBe(sku.category_id);
      }
      const bySku = new Map<number, number[]>();
      const shopsBySku = new Map<number, Set<number>>();
      for (const p of d.products.values()) {
        bySku.set(p.sku_id, [...(bySku.get(p.sku_id) ?? []), p.price]);
        shopsBySku.set(p.sku_id, (shopsBySku.get(p.sku_id) ?? new Set()).add(p.shop_id));
      }
      for (const sku of skus) {
        const prices = bySku.get(sku.id) ?? [];
        expect(sku.shop_count).toBe(shopsBySku.get(sku.id)?.size ?? 0);
        if (prices.length === 0) {
          expect(sku.future).toBe(true);
          expect(sku.click_url).toBeNull();
        } else {
          expect(sku.price_min).toBe(Math.min(...prices));
          expect(sku.price_max).toBe(Math.max(...prices));
        }
      }
    });

    it('shops and locations agree both ways', () => {
      for (const shop of d.shops.values()) {
        expect(shop.locationIds.length).toBeGreaterThan(0);
        for (const id of shop.locationIds) expect(d.locations.get(id)?.shopId).toBe(shop.id);
      }
      for (const loc of d.locations.values()) expect(d.shops.get(loc.shopId)!.locationIds).toContain(loc.id);
    });

    it('shop review counts and scores follow the reviews', () => {
      const byShop = new Map<number, { rating: number; latest: boolean }[]>();
      for (const r of d.shopReviews.values()) {
        expect(d.shops.has(r.shopId)).toBe(true);
        expect(d.users.has(r.user_id)).toBe(true);
        byShop.set(r.shopId, [...(byShop.get(r.shopId) ?? []), r]);
      }
      for (const shop of d.shops.values()) {
        const list = byShop.get(shop.id) ?? [];
        const latest = list.filter((r) => r.latest);
        expect(shop.reviews_count).toBe(list.length);
        expect(shop.latest_reviews_count).toBe(latest.length);
        expect(shop.review_score).toBe(latest.length ? round1(latest.reduce((s, r) => s + r.rating, 0) / latest.length) : 0);
        expect(shop.review_score).toBe(round1(shop.review_score));
      }
    });

    it('SKU reviews, votes and flags point at existing records; counts and scores follow them', () => {
      const votes = [...d.votes.values()];
      for (const r of d.skuReviews.values()) {
        const sku = d.skus.get(r.sku_id)!;
        expect(sku).toBeDefined();
        expect(d.users.has(r.user_id)).toBe(true);
        const mine = votes.filter((v) => v.sku_review_id === r.id);
        expect(r.votes_count).toBe(mine.length);
        expect(r.helpful_votes_count).toBe(mine.filter((v) => v.helpful).length);
        expect(r.sentiments).toEqual(sentimentsFromAnswers(d.reviewQuestions, r.answerIds));
        expect(Number.isInteger(r.rating) && r.rating >= 1 && r.rating <= 5).toBe(true);
      }
      for (const v of votes) {
        expect(d.users.has(v.user_id)).toBe(true);
        expect(d.skuReviews.get(v.sku_review_id)!.user_id).not.toBe(v.user_id);
      }
      const voteKeys = votes.map((v) => `${v.user_id}/${v.sku_review_id}`);
      expect(new Set(voteKeys).size).toBe(voteKeys.length);
      for (const f of d.flags.values()) {
        expect(f.flaggable_type).toBe('SkuReview');
        expect(d.skuReviews.has(f.flaggable_id)).toBe(true);
        expect(d.users.has(f.user_id)).toBe(true);
        expect(d.flagReasons.map((r) => r.reason)).toContain(f.reason);
      }
      const ratings = new Map<number, number[]>();
      for (const r of d.skuReviews.values()) ratings.set(r.sku_id, [...(ratings.get(r.sku_id) ?? []), r.rating]);
      for (const sku of skus) {
        const list = ratings.get(sku.id) ?? [];
        expect(sku.reviews_count).toBe(list.length);
        expect(sku.reviewscore).toBe(list.length ? round1(list.reduce((a, b) => a + b, 0) / list.length) : 0);
      }
      const pairs = [...d.skuReviews.values()].map((r) => `${r.user_id}/${r.sku_id}`);
      expect(new Set(pairs).size, 'one review per user and SKU').toBe(pairs.length);
    });

    it('user stats follow their reviews and received votes', () => {
      for (const u of d.users.values()) {
        const own = [...d.skuReviews.values()].filter((r) => r.user_id === u.id);
        expect(u.stats.sku_review_count).toBe(own.length);
        expect(u.stats.received_votes).toBe(own.reduce((s, r) => s + r.votes_count, 0));
        expect(u.stats.shop_review_count).toBe([...d.shopReviews.values()].filter((r) => r.user_id === u.id).length);
      }
    });

    it('addresses, personalization, saved orders, favorites and notifications point at existing records', () => {
      for (const a of d.addresses.values()) {
        expect(d.users.has(a.userId)).toBe(true);
        expect(Object.keys(d.regions)).toContain(a.region);
      }
      for (const [userId, p] of d.personalization) {
        expect(d.users.has(userId)).toBe(true);
        if (p.location.type === 'address') expect(d.addresses.get(p.location.address_id!)?.userId).toBe(userId);
      }
      for (const o of d.savedOrders) {
        expect(d.users.has(o.userId)).toBe(true);
        expect(d.shops.has(o.shop_id)).toBe(true);
        for (const li of o.line_items) {
          if (li.product_id !== null) {
            const p = d.products.get(li.product_id)!;
            expect(p.shop_id).toBe(o.shop_id);
            expect(li.sku_id).toBe(p.sku_id);
            expect(li.category_id).toBe(p.category_id);
          }
        }
        const cost = Math.round(o.line_items.reduce((s, li) => s + li.quantity * li.price, 0) * 100) / 100;
        expect(o.products_cost).toBe(cost);
        expect(o.total_cost).toBe(Math.round((o.products_cost + o.shipping_cost) * 100) / 100);
      }
      for (const l of d.favoriteLists.values()) {
        expect(d.users.has(l.userId)).toBe(true);
        if (l.category_id !== null) expect(d.categories.has(l.category_id)).toBe(true);
      }
      const pairs = new Set<string>();
      for (const f of d.favorites.values()) {
        expect(d.skus.has(f.sku_id)).toBe(true);
        expect(d.users.has(f.user_id)).toBe(true);
        expect(pairs.has(`${f.user_id}/${f.sku_id}`), 'one favorite per user and SKU').toBe(false);
        pairs.add(`${f.user_id}/${f.sku_id}`);
        if (f.favorite_list_id === null) {
          expect(f.have_it).toBe(true);
        } else {
          const list = d.favoriteLists.get(f.favorite_list_id)!;
          expect(list.userId).toBe(f.user_id);
          expect(f.have_it).not.toBe(true);
          if (list.type === 'auto') expect(d.skus.get(f.sku_id)!.category_id).toBe(list.category_id);
        }
      }
      for (const n of d.notifications.values()) {
        expect(d.users.has(n.userId)).toBe(true);
        if (n.eventable_type === 'Sku') expect(d.skus.has(n.eventable_id)).toBe(true);
        else expect(d.skuReviews.get(n.eventable_id)?.user_id).toBe(n.userId);
        expect(n.skuId === null).toBe(!SKU_EMBED_ETYPES.has(n.etype));
        if (n.skuId !== null) expect(d.skus.has(n.skuId)).toBe(true);
        if (n.reviewUserId !== null) expect(d.users.has(n.reviewUserId)).toBe(true);
      }
    });

    it('filter groups and specifications belong to leaves and existing groups', () => {
      for (const g of d.filterGroups.values()) {
        expect(leafIds.has(g.category_id)).toBe(true);
        expect(g.filter_type >= 0 && g.filter_type <= 5).toBe(true);
        for (const t of [g.created_at, g.updated_at]) if (t !== null) expect(t).toMatch(TIMESTAMP);
      }
      for (const s of d.specifications.values()) {
        expect(leafIds.has(s.categoryId)).toBe(true);
        expect(d.specGroups.has(s.groupId)).toBe(true);
      }
    });

    it(`every URL is absolute https on the dataset's host`, () => {
      const urls: string[] = [];
      for (const s of skus) urls.push(s.web_uri, s.images.main, ...s.images.alternatives, ...(s.click_url ? [s.click_url] : []));
      for (const p of d.products.values()) urls.push(p.web_uri, p.click_url);
      for (const s of d.shops.values()) urls.push(s.web_uri, s.link, s.image_url, s.thumbshot_url);
      for (const m of d.manufacturers.values()) if (m.image_url) urls.push(m.image_url);
      for (const u of d.users.values()) if (u.avatar) urls.push(u.avatar);
      for (const n of d.notifications.values()) urls.push(n.eventable_url);
      urls.push(...d.avatars);
      for (const u of urls) {
        const url = new URL(u);
        expect(url.protocol, u).toBe('https:');
        expect(url.hostname.endsWith(host), u).toBe(true);
      }
    });

    it('timestamps have the spec format and lie before the clock', () => {
      const stamps = [
        ...[...d.shopReviews.values()].map((r) => r.created_at),
        ...[...d.skuReviews.values()].map((r) => r.created_at),
        ...[...d.votes.values()].map((r) => r.created_at),
        ...[...d.users.values()].map((r) => r.created_at),
        ...[...d.favorites.values()].flatMap((r) => [r.created_at, r.updated_at]),
        ...[...d.notifications.values()].flatMap((r) => [r.created_at, r.updated_at]),
        ...d.savedOrders.map((o) => o.date),
      ];
      for (const t of stamps) {
        expect(t).toMatch(TIMESTAMP);
        expect(Date.parse(t)).toBeLessThanOrEqual(NOW);
      }
    });
  });
});
