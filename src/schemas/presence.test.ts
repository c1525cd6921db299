// Conditional presence: a field the spec shows only under a condition is required where the
// condition visibly holds in the exchange, and accepted present, absent or null elsewhere.
import { describe, expect, test } from 'vitest';
import { VersionScope } from '../rules/version-scope.ts';
import { asksFieldsets, missingConditionalFields, objectsAtPointer, queryNames, type PresenceRule } from './presence.ts';
import { SchemaRegistry } from './validator.ts';

const registry = SchemaRegistry.shared();
const latest = new VersionScope({ asked: '3.2' });
const q = (text: string) => new URLSearchParams(text);
const absent = (endpoint: string, status: number, body: unknown, context: Parameters<SchemaRegistry['validateExchange']>[4], version: VersionScope = latest) =>
  registry
    .validateExchange(endpoint, status, JSON.stringify(body), version, context)
    .violations.filter((v) => v.absent)
    .map((v) => v.pointer);

describe('the rule machinery', () => {
  test('queryNames reads name and name[], comma-separated or repeated', () => {
    expect(queryNames(q('include=group'), 'include', 'group')).toBe(true);
    expect(queryNames(q('include_meta[]=available_filters&include_meta[]=applied_filters'), 'include_meta', 'applied_filters')).toBe(true);
    expect(queryNames(q('embed=shop,address'), 'embed', 'address')).toBe(true);
    expect(queryNames(q('embed_ids=shop'), 'embed', 'shop')).toBe(false);
    expect(queryNames(undefined, 'embed', 'shop')).toBe(false);
    expect(asksFieldsets(q('fields[root]=id'))).toBe(true);
    expect(asksFieldsets(q('fields_except[shop]=phone'))).toBe(true);
    expect(asksFieldsets(q('page=2'))).toBe(false);
  });

  test('objectsAtPointer follows * through arrays and skips what is not an object', () => {
    const body = { a: [{ b: [{ c: 1 }, 5, null] }, { b: [] }], m: { x: 1 } };
    expect(objectsAtPointer(body, '/a/*/b/*').map((o) => o.pointer)).toEqual(['/a/0/b/0']);
    expect(objectsAtPointer(body, '/m').map((o) => o.pointer)).toEqual(['/m']);
    expect(objectsAtPointer(body, '').map((o) => o.pointer)).toEqual(['']);
    expect(objectsAtPointer(body, '/missing/*')).toEqual([]);
  });

  test('several locations are readings: one that holds is enough', () => {
    const rule: PresenceRule = { at: ['/items/*', '/meta'], fields: ['mine'], requirements: ['REV-5'], because: "the current user's review" };
    expect(missingConditionalFields([rule], { items: [{ mine: null }, { mine: 1 }], meta: {} }, {}, latest)).toEqual([]);
    expect(missingConditionalFields([rule], { items: [{}, {}], meta: { mine: null } }, {}, latest)).toEqual([]);
    const missing = missingConditionalFields([rule], { items: [{ mine: 1 }, {}], meta: {} }, {}, latest);
    expect(missing.map((v) => v.pointer)).toEqual(['/items/1/mine']);
    expect(missing[0]).toMatchObject({ absent: true, requirements: ['REV-5'] });
    expect(missing[0]!.expected).toContain('at /items/* or /meta');
  });
});

describe('the rules of schemas/endpoints.json', () => {
  const sku = (extra: Record<string, unknown> = {}) => ({ id: 1, ...extra });

  test('favorited: required on the category SKU listing for a user token (3.1.0 on), not for an application token or unknown', () => {
    const listing = { skus: [sku(), sku({ favorited: false })], meta: {} };
    expect(absent('GET /categories/:category_id/skus', 200, listing, { token: 'user' })).toContain('/skus/0/favorited');
    expect(absent('GET /categories/:category_id/skus', 200, listing, { token: 'app' })).not.toContain('/skus/0/favorited');
    expect(absent('GET /categories/:category_id/skus', 200, listing, {})).not.toContain('/skus/0/favorited');
    expect(absent('GET /categories/:category_id/skus', 200, listing, { token: 'user' }, new VersionScope({ asked: '3.0' }))).not.toContain('/skus/0/favorited');
    // Sparse fieldsets leave fields out on purpose.
    expect(absent('GET /categories/:category_id/skus', 200, listing, { token: 'user', query: q('fields[root]=id') })).not.toContain('/skus/0/favorited');
  });

  test('include=group: a groups array and group_id on each specification; without it neither is required', () => {
    const specs = { specifications: [{ id: 1 }] };
    expect(absent('GET /categories/:id/specifications', 200, specs, { query: q('include=group') })).toEqual(expect.arrayContaining(['/groups', '/specifications/0/group_id']));
    expect(absent('GET /categories/:id/specifications', 200, specs, { query: q('') })).not.toContain('/groups');
  });

  test('the edit form requires rating, review and selected; the new form none of them', () => {
    const form = { review_form: { requires_body: true, questions: [{ text: 't', type: 'eval_sentiment', answers: [{ id: 1, text: 'a' }] }] } };
    expect(absent('GET /skus/:id/reviews/:id/edit', 200, form, {})).toEqual(['/review_form/rating', '/review_form/review', '/review_form/questions/0/answers/0/selected']);
    expect(absent('GET /skus/:id/reviews/new', 200, form, {})).toEqual([]);
  });

  test('own_review for a user token: on each review, once in meta or once at the top level', () => {
    const review = { id: 1 };
    const onEach = { reviews: [{ ...review, own_review: null, voted: false, flagged: false, helpful: false }], meta: {} };
    const inMeta = { reviews: [{ ...review, voted: false, flagged: false, helpful: false }], meta: { own_review: null } };
    const atTop = { reviews: [{ ...review, voted: false, flagged: false, helpful: false }], meta: {}, own_review: null };
    const neither = { reviews: [{ ...review, voted: false, flagged: false, helpful: false }], meta: {} };
    expect(absent('GET /skus/:id/reviews', 200, onEach, { token: 'user' })).not.toContain('/reviews/0/own_review');
    expect(absent('GET /skus/:id/reviews', 200, inMeta, { token: 'user' })).not.toContain('/reviews/0/own_review');
    expect(absent('GET /skus/:id/reviews', 200, atTop, { token: 'user' })).not.toContain('/reviews/0/own_review');
    expect(absent('GET /skus/:id/reviews', 200, neither, { token: 'user' })).toContain('/reviews/0/own_review');
    expect(absent('GET /skus/:id/reviews', 200, { reviews: [review], meta: {} }, { token: 'app' })).not.toContain('/reviews/0/voted');
  });

  test('own_review at the top level is the user review or null, never a flag or an id', () => {
    const review = {
      id: 1,
      sku_id: 2,
      user_id: 3,
      review: 'r',
      rating: 4,
      created_at: '2020-01-01T00:00:00Z',
      demoted: false,
      votes_count: 0,
      helpful_votes_count: 0,
      sentiments: {},
    };
    const typedAt = (own: unknown) =>
      registry
        .validateExchange(
          'GET /skus/:id/reviews',
          200,
          JSON.stringify({ reviews: [], meta: { pagination: { total_results: 0, total_pages: 0, page: 1, per: 25 } }, own_review: own }),
          latest,
          { token: 'user' },
        )
        .violations.filter((v) => v.pointer.startsWith('/own_review') && !v.nullValue);
    expect(typedAt(review)).toEqual([]);
    expect(typedAt(null)).toEqual([]);
    expect(typedAt(true)).not.toEqual([]);
    expect(typedAt(8812)).not.toEqual([]);
  });

  test('voted, flagged and helpful: required for a user token granted publish_sku_review_actions, not for one without it or whose scopes are not known', () => {
    const listing = { reviews: [{ id: 1, own_review: null }], meta: {} };
    const withScope = { token: 'user' as const, tokenScopes: ['public', 'favorites', 'notifications', 'publish_sku_review_actions'] };
    const withoutScope = { token: 'user' as const, tokenScopes: ['public', 'favorites', 'notifications'] };
    const userOnly = (context: Parameters<typeof absent>[3]) => absent('GET /skus/:id/reviews', 200, listing, context).filter((p) => /\/(voted|flagged|helpful)$/.test(p));
    expect(userOnly(withScope)).toEqual(['/reviews/0/voted', '/reviews/0/flagged', '/reviews/0/helpful']);
    expect(userOnly(withoutScope)).toEqual([]);
    expect(userOnly({ token: 'user' })).toEqual([]);
  });

  test('type of a favorite list only in the create answer, favorite_list_id of a favorite only in the update answer', () => {
    expect(absent('POST /favorite_lists', 201, { favorite_list: { id: 1, name: 'x', category_id: null } }, {})).toContain('/favorite_list/type');
    expect(absent('GET /favorite_lists', 200, { favorite_lists: [{ id: 1, name: 'x', category_id: null }], meta: {} }, {})).not.toContain('/favorite_lists/0/type');
    expect(absent('PUT /favorites/:id', 200, { favorite: { id: 1 } }, {})).toContain('/favorite/favorite_list_id');
    expect(absent('GET /favorites/:id', 200, { favorite: { id: 1 } }, {})).not.toContain('/favorite/favorite_list_id');
  });

  test('products in product cards carry color; embed=shop, embed=address and embed=sku_review add their object', () => {
    const cards = { product_cards: [{ cards: [{ products: [{ id: 1 }], shop: {}, blp: {} }] }], meta: {} };
    expect(absent('GET /skus/:id/product_cards', 200, cards, {})).toContain('/product_cards/0/cards/0/products/0/color');
    expect(absent('GET /products/:id', 200, { product: { id: 1 }, meta: {} }, { query: q('embed=shop') })).toContain('/product/shop');
    expect(absent('GET /products/:id', 200, { product: { id: 1 }, meta: {} }, { query: q('') })).not.toContain('/product/shop');
    expect(absent('GET /shops/:shop_id/locations/:id', 200, { location: { id: 1 } }, { query: q('embed=address') })).toContain('/location/address');
    expect(absent('POST /skus/:sku_id/reviews/:review_id/votes', 201, { sku_review_vote: { id: 1 } }, { query: q('embed=sku_review') })).toContain('/sku_review_vote/sku_review');
  });

  test('include_meta asks for its meta: available_filters, filters, the review aggregation, the shop rating breakdown', () => {
    expect(absent('GET /categories/:category_id/skus', 200, { skus: [], meta: {} }, { query: q('include_meta[]=available_filters') })).toContain('/meta/available_filters');
    expect(absent('GET /skus/:id/products', 200, { products: [], meta: {} }, { query: q('include_meta[]=filters') })).toContain('/meta/filters');
    expect(absent('GET /skus/:id/reviews', 200, { reviews: [], meta: {} }, { query: q('include_meta=sku_reviews_aggregation') })).toContain('/meta/sku_reviews_aggregation');
    expect(absent('GET /shops/:id/reviews', 200, { reviews: [], meta: {} }, { query: q('include_meta=shop_rating_breakdown') })).toContain('/meta/shop_rating_breakdown');
  });
});
