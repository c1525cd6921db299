// Every endpoint of the spec's Endpoints section is served by the reference: the router holds
// exactly the spec's list, and a walk that discovers its ids through the API calls each
// endpoint once, checking the documented status and response keys, and validating every
// exchange as schemas/endpoints.json says (status documented, body valid against its schema).
// The walk runs on both datasets and under a base path, so it depends on no particular data.

import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SPEC_ENDPOINTS } from '../schemas/spec-endpoints.ts';
import { formatViolation, SchemaRegistry } from '../schemas/validator.ts';
import { Router } from './router.ts';
import { ROUTE_MODULES } from './routes/index.ts';
import { NO_VARIANTS } from './variants.ts';
import type { ReferenceOptions, RunningReference } from './server.ts';
import { ALL_SCOPES, call, get, startServer } from '../testing/reference/testkit.ts';

/** "GET /skus/:id/reviews/:review_id" -> "GET /skus/:/reviews/:" (placeholder names differ freely). */
function shapeOf(endpoint: string): string {
  return endpoint.replace(/:[A-Za-z_]+/g, ':');
}

test('the router serves exactly the endpoints of the spec', () => {
  const router = new Router();
  for (const register of ROUTE_MODULES) register(router, NO_VARIANTS);
  const served = router.list().map((r) => shapeOf(`${r.method} ${r.pattern}`));
  expect(new Set(served).size, 'a route is registered twice').toBe(served.length);
  expect([...served].sort()).toEqual(SPEC_ENDPOINTS.map(shapeOf).sort());
});

type Json = any;

interface Call {
  status: number;
  body: Json;
  text: string;
}

class Walker {
  readonly seen = new Set<string>();
  readonly problems: string[] = [];
  constructor(
    private readonly ref: RunningReference,
    private readonly app: string,
    private readonly user: string,
    private readonly schemas: SchemaRegistry,
  ) {}

  /**
   * Calls `endpoint` (a SPEC_ENDPOINTS entry) at `path`, expecting `status` and the top-level
   * `keys` (none: an empty body, unless `anyBody`). Records a problem instead of throwing, so one run lists them all.
   */
  async call(
    endpoint: (typeof SPEC_ENDPOINTS)[number],
    path: string,
    status: number,
    keys: string[],
    opts: { body?: unknown; as?: 'app' | 'user'; anyBody?: boolean } = {},
  ): Promise<Call> {
    this.seen.add(endpoint);
    const method = endpoint.split(' ')[0]!;
    const { status: got, body, text } = await call(this.ref, method, path, { token: opts.as === 'app' ? this.app : this.user, version: '3.2', body: opts.body });
    const where = `${endpoint} (${method} ${path})`;
    this.validate(where, endpoint, got, text);
    if (got !== status) this.problems.push(`${where}: status ${got}, expected ${status}: ${text.slice(0, 300)}`);
    else if (keys.length === 0 && text !== '' && !opts.anyBody) this.problems.push(`${where}: expected an empty body, got ${text.slice(0, 200)}`);
    else {
      for (const key of keys) {
        if (body === undefined || !(key in body)) this.problems.push(`${where}: no top-level "${key}" in ${text.slice(0, 200)}`);
      }
    }
    return { status: got, body, text };
  }

  /** Validates the exchange as schemas/endpoints.json says (status documented, body as its schema). */
  private validate(where: string, endpoint: string, status: number, text: string): void {
    const verdict = this.schemas.validateExchange(endpoint, status, text, '3.2');
    if (verdict.violations.length > 0) {
      this.problems.push(
        `${where}: invalid against ${verdict.schema ?? 'endpoints.json'}: ${verdict.violations
          .slice(0, 3)
          .map((v) => formatViolation(v))
          .join('; ')}`,
      );
    }
  }

  /** GET helper for discovery (not a checked call). */
  async get(path: string, as: 'app' | 'user' = 'user'): Promise<Json> {
    const r = await get(this.ref, path, { token: as === 'app' ? this.app : this.user });
    if (r.status !== 200) throw new Error(`discovery GET ${path}: ${r.status} ${r.text.slice(0, 200)}`);
    return r.body;
  }
}

async function walk(w: Walker): Promise<void> {
  // Categories: the root, one inner category, one leaf with SKUs.
  const root = (await w.call('GET /categories/root', '/categories/root', 200, ['category'], { as: 'app' })).body.category;
  const all: Json[] = [];
  for (let page = 1; ; page++) {
    const r = (await w.call('GET /categories', `/categories?per=100&page=${page}`, 200, ['categories', 'meta'], { as: 'app' })).body;
    all.push(...r.categories);
    if (page >= r.meta.pagination.total_pages) break;
  }
  const leaves = all.filter((c) => c.children_count === 0);
  let leaf: Json;
  let skus: Json[] = [];
  for (const candidate of leaves) {
    skus = (await w.get(`/categories/${candidate.id}/skus?per=100`)).skus;
    if (skus.length > 0) {
      leaf = candidate;
      break;
    }
  }
  expect(leaf, 'a leaf category with SKUs').toBeDefined();
  await w.call('GET /categories/:id', `/categories/${leaf.id}`, 200, ['category']);
  await w.call('GET /categories/:id/parent', `/categories/${leaf.id}/parent`, 200, ['category']);
  await w.call('GET /categories/:id/children', `/categories/${root.id}/children`, 200, ['categories', 'meta']);
  await w.call('GET /categories/:id/specifications', `/categories/${leaf.id}/specifications`, 200, ['specifications']);
  await w.call('GET /categories/:id/manufacturers', `/categories/${leaf.id}/manufacturers`, 200, ['manufacturers', 'meta']);
  await w.call('GET /categories/:id/favorites', `/categories/${leaf.id}/favorites`, 200, ['favorites', 'meta']);
  await w.call('GET /categories/:category_id/filter_groups', `/categories/${leaf.id}/filter_groups`, 200, ['filter_groups', 'meta']);
  await w.call('GET /categories/:category_id/skus', `/categories/${leaf.id}/skus`, 200, ['skus', 'meta']);

  // Search.
  const word = String(leaf.name).split(/\s+/)[0]!;
  await w.call('GET /search', `/search?q=${encodeURIComponent(word)}`, 200, ['categories', 'meta'], { as: 'app' });
  await w.call('GET /autocomplete', `/autocomplete?q=${encodeURIComponent(word.slice(0, 3))}`, 200, ['autocomplete'], { as: 'app' });

  // A SKU with products, its products and shop.
  const sku = skus.find((s) => s.future === false) ?? skus[0];
  const products = (await w.call('GET /skus/:id/products', `/skus/${sku.id}/products`, 200, ['products', 'meta'])).body.products as Json[];
  await w.call('GET /skus/:id/product_cards', `/skus/${sku.id}/product_cards`, 200, ['product_cards', 'meta']);
  await w.call('GET /skus/:id/specifications', `/skus/${sku.id}/specifications`, 200, ['specifications', 'meta']);
  await w.call('GET /skus/:id/price_history', `/skus/${sku.id}/price_history`, 200, ['history']);
  expect(products.length, `products of SKU ${sku.id}`).toBeGreaterThan(0);
  const product = (await w.call('GET /products/:id', `/products/${products[0].id}?embed=shop`, 200, ['product', 'meta'])).body.product;
  await w.call('GET /shops/:shop_id/products/search', `/shops/${product.shop_id}/products/search?shop_uid=${encodeURIComponent(product.shop_uid)}`, 200, ['products', 'meta']);
  const shop = (await w.call('GET /shops/:id', `/shops/${product.shop_id}`, 200, ['shop'])).body.shop;
  await w.call('GET /shops/search', `/shops/search?q=${encodeURIComponent(String(shop.name).split(/\s+/)[0]!)}`, 200, ['shops', 'meta']);
  await w.call('GET /shops/:id/reviews', `/shops/${shop.id}/reviews`, 200, ['reviews', 'meta']);
  const locations = (await w.call('GET /shops/:shop_id/locations', `/shops/${shop.id}/locations`, 200, ['locations', 'meta'])).body.locations as Json[];
  if (locations.length > 0) {
    await w.call('GET /shops/:shop_id/locations/:id', `/shops/${shop.id}/locations/${locations[0].id}?embed=address`, 200, ['location']);
  } else {
    w.problems.push(`shop ${shop.id} has no locations: pick a shop with locations`);
  }

  // Manufacturers.
  const manufacturer = (await w.call('GET /manufacturers', '/manufacturers', 200, ['manufacturers', 'meta'])).body.manufacturers[0];
  await w.call('GET /manufacturers/:id', `/manufacturers/${manufacturer.id}`, 200, ['manufacturer']);
  await w.call('GET /manufacturers/:id/categories', `/manufacturers/${manufacturer.id}/categories`, 200, ['categories', 'meta']);
  await w.call('GET /manufacturers/:id/skus', `/manufacturers/${manufacturer.id}/skus`, 200, ['skus', 'meta']);

  // Reviews: vote on and flag someone else's review; write, edit and delete one of our own.
  const me = (await w.call('GET /user', '/user', 200, ['user'])).body.user;
  let othersReview: Json;
  let reviewSku: Json;
  let mySku: Json;
  for (const s of skus) {
    const reviews = (await w.get(`/skus/${s.id}/reviews?per=100`)).reviews as Json[];
    const theirs = reviews.find((r) => r.user_id !== me.id);
    if (theirs && !othersReview) {
      othersReview = theirs;
      reviewSku = s;
    }
    if (!mySku && !reviews.some((r) => r.user_id === me.id)) mySku = s;
    if (othersReview && mySku) break;
  }
  expect(othersReview, 'a review by another user').toBeDefined();
  expect(mySku, 'a SKU the demo user has not reviewed').toBeDefined();
  await w.call('GET /skus/:id/reviews', `/skus/${reviewSku.id}/reviews`, 200, ['reviews', 'meta']);
  await w.call('POST /skus/:sku_id/reviews/:review_id/votes', `/skus/${reviewSku.id}/reviews/${othersReview.id}/votes`, 201, ['sku_review_vote'], {
    body: { vote: { helpful: true } },
  });
  // The spec leaves open whether the 201 carries the flag record or nothing.
  await w.call('POST /skus/:sku_id/reviews/:review_id/flags', `/skus/${reviewSku.id}/reviews/${othersReview.id}/flags`, 201, [], {
    body: { flag: { reason: 'spam' } },
    anyBody: true,
  });
  await w.call('GET /flags', '/flags', 200, ['flags']);
  const form = (await w.call('GET /skus/:id/reviews/new', `/skus/${mySku.id}/reviews/new`, 200, ['review_form'])).body.review_form;
  const answerIds = (form?.questions ?? []).map((q: Json) => q.answers[0]?.id).filter((id: unknown) => typeof id === 'number');
  const created = (
    await w.call('POST /skus/:id/reviews', `/skus/${mySku.id}/reviews`, 201, ['sku_review'], {
      body: { review: { rating: 4, answer_ids: answerIds, review: 'Does what it says; the battery could last longer.' } },
    })
  ).body?.sku_review;
  if (created) {
    await w.call('GET /skus/:id/reviews/:id/edit', `/skus/${mySku.id}/reviews/${created.id}/edit`, 200, ['review_form']);
    await w.call('PUT /skus/:id/reviews/:id', `/skus/${mySku.id}/reviews/${created.id}`, 200, ['sku_review'], { body: { review: { rating: 5 } } });
    await w.call('DELETE /skus/:id/reviews/:id', `/skus/${mySku.id}/reviews/${created.id}`, 204, []);
  }

  // Favorites.
  const list = (await w.call('POST /favorite_lists', '/favorite_lists', 201, ['favorite_list'], { body: { favorite_list: { name: `Walk ${Date.now()}` } } })).body?.favorite_list;
  await w.call('GET /favorite_lists', '/favorite_lists', 200, ['favorite_lists', 'meta']);
  let unfavorited: Json;
  for (const candidate of leaves) {
    unfavorited = ((await w.get(`/categories/${candidate.id}/skus?per=100`)).skus as Json[]).find((s) => s.favorited === false);
    if (unfavorited) break;
  }
  expect(unfavorited, 'a SKU the demo user has not favorited').toBeDefined();
  const favorite = (await w.call('POST /favorites', '/favorites', 201, ['favorite'], { body: { favorite: { sku_id: unfavorited.id } } })).body?.favorite;
  await w.call('GET /favorites', '/favorites', 200, ['favorites', 'meta']);
  if (favorite && list) {
    await w.call('GET /favorites/:id', `/favorites/${favorite.id}`, 200, ['favorite']);
    await w.call('PUT /favorites/:id', `/favorites/${favorite.id}`, 200, ['favorite'], { body: { favorite: { favorite_list_id: list.id } } });
    await w.call('GET /favorite_lists/:id/favorites', `/favorite_lists/${list.id}/favorites`, 200, ['favorites', 'meta']);
    await w.call('DELETE /favorites/:id', `/favorites/${favorite.id}`, 204, []);
    await w.call('DELETE /favorite_lists/:id', `/favorite_lists/${list.id}`, 204, []);
  }

  // Notifications.
  const notification = (await w.call('GET /notifications', '/notifications', 200, ['notifications', 'meta'])).body.notifications[0];
  await w.call('GET /notifications/:id', `/notifications/${notification.id}`, 200, ['notification']);
  await w.call('POST /notifications/view', '/notifications/view', 204, [], { body: { ids: [notification.id] } });

  // User, addresses, saved orders, personalization.
  const avatars = (await w.call('GET /user/avatars', '/user/avatars', 200, ['avatars'])).body.avatars as string[];
  await w.call('PATCH /user', '/user', 200, ['user'], { body: { avatar_preset: avatars[0]!.split('/').pop() } });
  const existing = (await w.call('GET /user/addresses', '/user/addresses', 200, ['addresses'])).body.addresses as Json[];
  const addressForm = (await w.call('GET /user/addresses/new', '/user/addresses/new', 200, ['address_form'])).body.address_form;
  const regionId = Object.values(addressForm.regions)[0];
  const address = (
    await w.call('POST /user/addresses', '/user/addresses', 201, ['address'], {
      body: { label: 'Walk', first_name: 'Ada', last_name: 'Lovelace', street_name: 'Main Street', street_number: '1', city: 'Springfield', zip: 12345, region_id: regionId },
    })
  ).body?.address;
  if (address) {
    await w.call('PUT /user/addresses/:id', `/user/addresses/${address.id}`, 200, ['address'], { body: { city: 'Shelbyville' } });
    await w.call('DELETE /user/addresses/:id', `/user/addresses/${address.id}`, 204, []);
  }
  await w.call('GET /user/saved_orders', '/user/saved_orders', 200, ['saved_orders', 'meta']);
  const personalization = (await w.call('GET /personalization', '/personalization', 200, ['personalization'])).body.personalization;
  const addressId = personalization.location.address_id ?? existing[0]?.id;
  await w.call('PUT /personalization', '/personalization', 200, ['personalization'], { body: { personalization: { location: { address_id: addressId } } } });

  // Last: logout (it may end the token).
  await w.call('DELETE /user/logout', '/user/logout', 200, []);
}

describe.each<[string, ReferenceOptions]>([
  ['default data', {}],
  ['other data, a base path and the auth server on another origin', { dataset: 'alt', basePath: '/api', authOrigin: 'separate' }],
])('every endpoint answers as documented (%s)', (_name, options) => {
  let ref: RunningReference;
  let app: string;
  let user: string;
  beforeAll(async () => {
    ({ ref, app, user } = await startServer(options, ALL_SCOPES));
  });
  afterAll(async () => {
    await ref?.close();
  });

  test('a discovery walk calls every endpoint of the spec', async () => {
    const w = new Walker(ref, app, user, SchemaRegistry.load());
    await walk(w);
    expect(w.problems).toEqual([]);
    expect([...w.seen].sort()).toEqual([...SPEC_ENDPOINTS].sort());
  });
});

test('the walk fails on a server whose bodies break the schemas', async () => {
  // The fault sends a created review's rating as a string: only the schema check can see it.
  const { ref, app, user } = await startServer({ fault: 'created-review-rating-string' }, ALL_SCOPES);
  try {
    const w = new Walker(ref, app, user, SchemaRegistry.load());
    await walk(w);
    expect(w.problems.join('\n')).toMatch(/POST \/skus\/:id\/reviews .*responses\/sku-review\.json: \/sku_review\/rating: expected integer/);
  } finally {
    await ref.close();
  }
});
