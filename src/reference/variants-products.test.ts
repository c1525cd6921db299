// Legal variants of SKU specifications, price history, product cards, product meta and the shop
// product search (variants/catalog.ts): for each, the answer with the variant switched on, next
// to the reference's own answer (no variant) to the same request, on one clock (so one dataset).

import { describe, expect, it } from 'vitest';
import { variantTestBed } from '../testing/reference/testkit.ts';

type Json = any;

const DAY_MS = 86_400_000;
const { clock, data, servers } = variantTestBed();

/** GET with the application token (or, `user`, the user token) of the variant's server; the same GET without and with it, both 200, their bodies. */
const { read: api, readBoth: both } = servers;

describe('SKU specifications and price history', () => {
  it('full-description-meta-absent: a SKU without a full description has no meta (3.2.0); none has before 3.2.0', async () => {
    const sku = [...data.skus.values()].find((s) => s.fullDescription === null)!;
    const [ref, variant] = await both('full-description-meta-absent', `/skus/${sku.id}/specifications`);
    expect(ref.meta).toEqual({});
    expect('meta' in variant).toBe(false);
    expect(variant.specifications).toEqual(ref.specifications);
    const described = [...data.skus.values()].find((s) => s.fullDescription !== null)!;
    const [full, fullVariant] = await both('full-description-meta-absent', `/skus/${described.id}/specifications`);
    expect(fullVariant).toEqual(full);
    // Before 3.2.0 the reference itself sends no meta: full_description, its only member, came with 3.2.0.
    const [old, oldVariant] = await both('full-description-meta-absent', `/skus/${described.id}/specifications`, { version: '3.1' });
    expect('meta' in old).toBe(false);
    expect(oldVariant).toEqual(old);
  });

  it('price-history-184-days: the history reaches 184 days back, not 180', async () => {
    const sku = [...data.skus.values()].find((s) => !s.future && clock.now() - s.addedAt > 200 * DAY_MS)!;
    const [ref, variant] = await both('price-history-184-days', `/skus/${sku.id}/price_history`);
    expect(ref.history.average.length).toBe(181);
    expect(variant.history.average.length).toBe(185);
    expect(variant.history.average.slice(4)).toEqual(ref.history.average);
  });

  it('too-new-history-204 and too-new-history-null: a future SKU has no content, or a null history, from 3.2.0', async () => {
    const future = [...data.skus.values()].find((s) => s.future)!;
    const old = [...data.skus.values()].find((s) => !s.future && clock.now() - s.addedAt > 30 * DAY_MS)!;
    const path = (id: number) => `/skus/${id}/price_history`;
    const none = await api('too-new-history-204', path(future.id));
    expect(none.status).toBe(204);
    expect(none.text).toBe('');
    const [ref, blank] = await both('too-new-history-null', path(future.id));
    expect(ref.history.average).toEqual([]);
    expect(blank).toEqual({ history: null });
    for (const variant of ['too-new-history-204', 'too-new-history-null'] as const) {
      // Before 3.2.0 no SKU was too new; a SKU with a history keeps it.
      expect((await api(variant, path(future.id), { version: '3.1' })).body).toEqual((await api(null, path(future.id), { version: '3.1' })).body);
      const [kept, keptVariant] = await both(variant, path(old.id));
      expect(keptVariant).toEqual(kept);
    }
  });
});

describe('product cards, product meta, shop product search', () => {
  /** A SKU whose products make several cards in an entry (one color, several shops). */
  const skuWithCards = async (): Promise<{ id: number; cards: Json }> => {
    for (const sku of [...data.skus.values()].filter((s) => !s.future)) {
      const cards = (await api(null, `/skus/${sku.id}/product_cards`)).body;
      if (cards.product_cards.some((e: Json) => e.cards.length > 1 || e.cards.some((c: Json) => c.products.length > 1))) return { id: sku.id, cards };
    }
    throw new Error('no SKU with an entry of several cards or products');
  };

  it('product-cards-count-cards and product-cards-count-products: meta.pagination counts the cards, or the products', async () => {
    const { id, cards } = await skuWithCards();
    const entries = cards.product_cards as Json[];
    const cardCount = entries.reduce((n, e) => n + e.cards.length, 0);
    const productCount = entries.reduce((n, e) => n + e.cards.reduce((m: number, c: Json) => m + c.products.length, 0), 0);
    expect(cards.meta.pagination.total_results).toBe(entries.length);
    const [, byCard] = await both('product-cards-count-cards', `/skus/${id}/product_cards`);
    expect(byCard.meta.pagination.total_results).toBe(cardCount);
    expect(byCard.product_cards).toEqual(entries);
    const [, byProduct] = await both('product-cards-count-products', `/skus/${id}/product_cards`);
    expect(byProduct.meta.pagination.total_results).toBe(productCount);
    expect(byProduct.product_cards).toEqual(entries);
    // One product a page: the entry and card of that product alone, and a Link to the next.
    const first = await api('product-cards-count-products', `/skus/${id}/product_cards?per=1`);
    expect(first.body.meta.pagination).toMatchObject({ total_results: productCount, total_pages: productCount, page: 1, per: 1 });
    expect(first.body.product_cards).toHaveLength(1);
    expect(first.body.product_cards[0].cards).toHaveLength(1);
    expect(first.body.product_cards[0].cards[0].products).toEqual([entries[0].cards[0].products[0]]);
    expect(first.headers.get('link')).toMatch(/rel="next"/);
  });

  it('blp-and-personalization-from-3-2: before 3.2.0 no card blp, no meta.personalization in product lists, no meta on a product', async () => {
    const V = 'blp-and-personalization-from-3-2';
    const sku = [...data.skus.values()].find((s) => !s.future && [...data.products.values()].some((p) => p.sku_id === s.id))!;
    const product = [...data.products.values()].find((p) => p.sku_id === sku.id)!;
    const [ref, variant] = await both(V, `/skus/${sku.id}/products`, { version: '3.1' });
    expect(ref.meta).toHaveProperty('personalization');
    expect(variant.meta).not.toHaveProperty('personalization');
    expect(variant.meta.ordered_by).toBe(ref.meta.ordered_by);
    const [one, oneVariant] = await both(V, `/products/${product.id}`, { version: '3.1' });
    expect(one.meta).toHaveProperty('personalization');
    expect('meta' in oneVariant).toBe(false);
    const [cards, cardsVariant] = await both(V, `/skus/${sku.id}/product_cards`, { version: '3.1' });
    expect(cards.product_cards[0].cards[0]).toHaveProperty('blp');
    for (const entry of cardsVariant.product_cards) for (const card of entry.cards) expect(card).not.toHaveProperty('blp');
    // From 3.2.0, as the reference.
    for (const path of [`/skus/${sku.id}/products`, `/skus/${sku.id}/product_cards`, `/products/${product.id}`]) {
      const [now, nowVariant] = await both(V, path);
      expect(nowVariant).toEqual(now);
    }
  });

  it('shop-uid-substring-match: the shop product search finds every shop_uid containing the one sent', async () => {
    const product = [...data.products.values()].find((p) => /^\d{3,}$/.test(p.shop_uid))!;
    const part = product.shop_uid.slice(0, -1);
    const path = `/shops/${product.shop_id}/products/search?shop_uid=${part}`;
    const [ref, variant] = await both('shop-uid-substring-match', path);
    expect(ref.products.map((p: Json) => p.id)).not.toContain(product.id);
    expect(variant.products.map((p: Json) => p.id)).toContain(product.id);
    for (const p of variant.products) expect(p.shop_uid).toContain(part);
    const [exact, exactVariant] = await both('shop-uid-substring-match', `/shops/${product.shop_id}/products/search?shop_uid=${product.shop_uid}`);
    expect(exactVariant.products.map((p: Json) => p.id)).toEqual(exact.products.map((p: Json) => p.id));
  });
});
