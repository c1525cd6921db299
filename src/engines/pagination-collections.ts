// The paginated collections of the spec, and how the pagination suite (suites/pagination.suite.ts)
// finds each one's path parameters: the endpoints whose 200 answer schemas/endpoints.json gives
// with meta.pagination, listed once with their discovery roles (no id, name or count of any data
// set is written here) and their token. A table of the suite's tests, kept apart so that the suite
// holds the test body alone.
import { isPlainObject } from '../checks/check.ts';
import type { ConformanceContext, DiscoveryRole } from '../harness/conformance.ts';
import { favoritesCategoryOrLeaf, searchQuery, shopSearchTerm, type Query } from '../harness/requests.ts';
import { pathIn, pathOf, type ApiEndpoint } from '../rules/api-paths.ts';
import type { Feature } from '../rules/change-history.ts';

/** Where a collection lives: its path below the base URL and the query it needs. */
export interface Target {
  path: string;
  query?: Query;
}

export interface Collection {
  /** The test's id in this suite: the endpoint's path, its placeholders left out. */
  testId: string;
  /** The spec's endpoint, as in schemas/endpoints.json: the path is made from it (pathIn). */
  endpoint: ApiEndpoint;
  /** The plural key of its items. */
  key: string;
  /** Requirement ids of the endpoint's own table row. */
  ids: string[];
  /** The clauses of those requirements the test checks (its envelope, its page and per). */
  clauses?: string[];
  /** The readings of those requirements the test accepts: all of them (src/selftest/readings.test.ts). */
  readings: string[];
  auth: 'app' | 'user';
  /** The Change history's name for the endpoint, when a later version added it. */
  feature?: Feature;
  /** How the test finds the path parameters and query (discovery; `extra` requests of its own). */
  target: (t: ConformanceContext, endpoint: ApiEndpoint) => Promise<Target>;
  extra?: number;
  /**
   * A wider query to try once when the target's collection holds fewer than 2 items (search
   * terms found by guessing); a refusal of it skips, since the spec gives that query no rule.
   */
  widen?: (target: Target) => Target | null;
}

// ---------------------------------------------------------------------------------------------
// How each collection finds its path parameters

const fixed = async (_: ConformanceContext, endpoint: ApiEndpoint): Promise<Target> => ({ path: pathIn(endpoint, []) });
/** The endpoint's one path parameter: the id of a discovery role. */
const byRole =
  (role: DiscoveryRole) =>
  async (t: ConformanceContext, endpoint: ApiEndpoint): Promise<Target> => ({ path: pathIn(endpoint, [await t.discover(role)]) });

/** A field of the single resource a GET answers; skips (discovery, judged by its own suite) when it is not there. */
async function fieldOf(t: ConformanceContext, path: string, key: string, field: string, query: Query = {}): Promise<unknown> {
  const response = await t.api.get(path, { query });
  if (response.status !== 200) t.skip(`discovery: GET ${path} answered ${response.status}`);
  const body = response.json<unknown>();
  const value = isPlainObject(body) ? body[key] : undefined;
  const item = Array.isArray(value) ? value[0] : value;
  return isPlainObject(item) ? item[field] : undefined;
}

/** GET /search with the broad query the search suite pages through (the pages are asked once for both). */
async function searchTarget(t: ConformanceContext): Promise<Target> {
  return { path: pathOf('GET /search'), query: { q: await searchQuery(t) } };
}

/**
 * GET /shops/search with a word of a shop's name, as the shops suite asks it (the run asks it once);
 * when that finds fewer than 2 shops, its first letter (firstLetter): the spec gives q no rule.
 */
async function shopSearchTarget(t: ConformanceContext): Promise<Target> {
  const id = await t.discover('shopWithReviews');
  const name = await fieldOf(t, pathOf('GET /shops/:id', { id }), 'shop', 'name');
  const q = typeof name === 'string' ? shopSearchTerm(name) : '';
  if (q === '') return t.skip(`discovery: shop ${id} has no name to search for`);
  return { path: pathOf('GET /shops/search'), query: { q } };
}

/** The same search by the first letter of its term alone (q has no stated minimum on shop search). */
function firstLetter(target: Target): Target | null {
  const q = target.query?.['q'];
  return typeof q === 'string' && q.length > 1 ? { ...target, query: { ...target.query, q: q.slice(0, 1) } } : null;
}

/** A product's shop and shop_uid, for GET /shops/:shop_id/products/search. */
async function productSearchTarget(t: ConformanceContext): Promise<Target> {
  const skuId = await t.discover('skuWithProducts');
  // The first page as the products tests ask it: the run has it already.
  const response = await t.api.get(pathOf('GET /skus/:id/products', { id: skuId }));
  if (response.status !== 200) t.skip(`discovery: GET /skus/${skuId}/products answered ${response.status}`);
  const body = response.json<unknown>();
  const product = isPlainObject(body) && Array.isArray(body['products']) ? body['products'][0] : undefined;
  const shopId = isPlainObject(product) ? product['shop_id'] : undefined;
  const uid = isPlainObject(product) ? product['shop_uid'] : undefined;
  if (!Number.isInteger(shopId) || (typeof uid !== 'string' && typeof uid !== 'number') || String(uid).trim() === '') {
    return t.skip(`discovery: the first product of SKU ${skuId} has no shop_id and shop_uid to search by`);
  }
  return { path: pathOf('GET /shops/:shop_id/products/search', { shop_id: shopId as number }), query: { shop_uid: String(uid) } };
}

/** A category holding the user's favorites; any leaf category when the user has no automatic list. */
async function favoritesCategoryTarget(t: ConformanceContext): Promise<Target> {
  return { path: pathOf('GET /categories/:id/favorites', { id: await favoritesCategoryOrLeaf(t) }) };
}

/** Every paginated collection of the spec (schemas/endpoints.json: meta.pagination in the 200 answer). */
export const COLLECTIONS: Collection[] = [
  {
    testId: 'search',
    clauses: ['GEN-7#2', 'GEN-14#1', 'SRCH-7#1', 'SRCH-7#4'],
    endpoint: 'GET /search',
    key: 'categories',
    ids: ['SRCH-7'],
    readings: ['SRCH-7.a-h'],
    auth: 'app',
    target: searchTarget,
    extra: 1,
  },
  {
    testId: 'categories',
    clauses: ['CAT-15#1-2', 'GEN-7#2', 'GEN-14#1'],
    endpoint: 'GET /categories',
    key: 'categories',
    ids: ['CAT-15'],
    readings: ['CAT-15.a-f'],
    auth: 'app',
    target: fixed,
  },
  {
    testId: 'categories-children',
    clauses: ['CAT-19#1', 'GEN-7#2', 'GEN-14#1'],
    endpoint: 'GET /categories/:id/children',
    key: 'categories',
    ids: ['CAT-19'],
    readings: ['CAT-19.a-f'],
    auth: 'app',
    target: byRole('rootCategory'),
  },
  {
    testId: 'categories-manufacturers',
    clauses: ['CAT-21#1', 'CAT-21#6', 'GEN-7#2', 'GEN-14#1'],
    endpoint: 'GET /categories/:id/manufacturers',
    key: 'manufacturers',
    ids: ['CAT-21'],
    readings: ['CAT-21.a-h'],
    auth: 'app',
    target: byRole('leafCategory'),
  },
  {
    testId: 'categories-favorites',
    clauses: ['CAT-22#1', 'GEN-7#2', 'GEN-14#1'],
    endpoint: 'GET /categories/:id/favorites',
    key: 'favorites',
    ids: ['CAT-22'],
    readings: ['CAT-22.a-g'],
    auth: 'user',
    target: favoritesCategoryTarget,
  },
  {
    testId: 'categories-filter-groups',
    clauses: ['CAT-24#1-2', 'GEN-7#2', 'GEN-14#1'],
    endpoint: 'GET /categories/:category_id/filter_groups',
    key: 'filter_groups',
    ids: ['CAT-24'],
    readings: ['CAT-24.a-e'],
    auth: 'app',
    target: byRole('leafCategory'),
  },
  {
    testId: 'categories-skus',
    clauses: ['CAT-26#1', 'GEN-7#2', 'GEN-14#1'],
    endpoint: 'GET /categories/:category_id/skus',
    key: 'skus',
    ids: ['CAT-26'],
    readings: ['CAT-26.a-g'],
    auth: 'app',
    target: byRole('leafCategory'),
  },
  {
    testId: 'skus-products',
    clauses: ['GEN-7#2', 'GEN-14#1', 'PRD-9#3', 'SKU-10#3'],
    endpoint: 'GET /skus/:id/products',
    key: 'products',
    ids: ['SKU-10', 'PRD-9'],
    readings: ['SKU-10.a-d', 'PRD-9.a-g'],
    auth: 'app',
    target: byRole('skuWithProducts'),
  },
  {
    testId: 'skus-product-cards',
    clauses: ['GEN-7#2', 'GEN-14#1', 'SKU-12#1'],
    endpoint: 'GET /skus/:id/product_cards',
    key: 'product_cards',
    ids: ['SKU-12'],
    readings: ['SKU-12.a-g'],
    auth: 'app',
    target: byRole('skuWithProducts'),
  },
  {
    testId: 'shops-products-search',
    clauses: ['GEN-7#2', 'GEN-14#1', 'PRD-11#1'],
    endpoint: 'GET /shops/:shop_id/products/search',
    key: 'products',
    ids: ['PRD-11'],
    readings: ['PRD-11.a-i'],
    auth: 'app',
    target: productSearchTarget,
    extra: 1,
  },
  {
    testId: 'skus-reviews',
    clauses: ['GEN-7#2', 'GEN-14#1', 'REV-16#1', 'REV-16#3'],
    endpoint: 'GET /skus/:id/reviews',
    key: 'reviews',
    ids: ['REV-16'],
    readings: ['REV-16.a-k'],
    auth: 'app',
    target: byRole('skuWithReviews'),
  },
  {
    testId: 'manufacturers',
    clauses: ['GEN-7#2', 'GEN-14#1', 'MAN-2#1-2'],
    endpoint: 'GET /manufacturers',
    key: 'manufacturers',
    ids: ['MAN-2'],
    readings: ['MAN-2.a-c'],
    auth: 'app',
    target: fixed,
  },
  {
    testId: 'manufacturers-categories',
    clauses: ['GEN-7#2', 'GEN-14#1', 'MAN-4#4'],
    endpoint: 'GET /manufacturers/:id/categories',
    key: 'categories',
    ids: ['MAN-4'],
    readings: ['MAN-4.a-j'],
    auth: 'app',
    target: byRole('manufacturerWithSkus'),
  },
  {
    testId: 'manufacturers-skus',
    clauses: ['GEN-7#2', 'GEN-14#1', 'MAN-5#4'],
    endpoint: 'GET /manufacturers/:id/skus',
    key: 'skus',
    ids: ['MAN-5'],
    readings: ['MAN-5.a-i'],
    auth: 'app',
    target: byRole('manufacturerWithSkus'),
  },
  {
    testId: 'shops-search',
    clauses: ['GEN-7#2', 'GEN-14#1', 'SHOP-15#1'],
    endpoint: 'GET /shops/search',
    key: 'shops',
    ids: ['SHOP-15'],
    readings: ['SHOP-15.a-i'],
    auth: 'app',
    target: shopSearchTarget,
    widen: firstLetter,
    extra: 2,
  },
  {
    testId: 'shops-reviews',
    clauses: ['GEN-7#2', 'GEN-14#1', 'SHOP-16#1', 'SHOP-16#4'],
    endpoint: 'GET /shops/:id/reviews',
    key: 'reviews',
    ids: ['SHOP-16'],
    readings: ['SHOP-16.a-h'],
    auth: 'app',
    target: byRole('shopWithReviews'),
  },
  {
    testId: 'shops-locations',
    clauses: ['GEN-7#2', 'GEN-14#1', 'SHOP-17#1'],
    endpoint: 'GET /shops/:shop_id/locations',
    key: 'locations',
    ids: ['SHOP-17'],
    readings: ['SHOP-17.a-g'],
    auth: 'app',
    target: byRole('shopWithReviews'),
  },
  {
    testId: 'user-saved-orders',
    clauses: ['GEN-7#2', 'GEN-14#1', 'USER-24#1'],
    endpoint: 'GET /user/saved_orders',
    key: 'saved_orders',
    ids: ['USER-24'],
    readings: ['USER-24.a-c'],
    auth: 'user',
    feature: 'saved-orders',
    target: fixed,
  },
  {
    testId: 'favorite-lists',
    clauses: ['GEN-7#2', 'GEN-14#1', 'FAV-18#1', 'FAV-18#3'],
    endpoint: 'GET /favorite_lists',
    key: 'favorite_lists',
    ids: ['FAV-18'],
    readings: ['FAV-18.a-h'],
    auth: 'user',
    target: fixed,
  },
  {
    testId: 'favorites',
    clauses: ['GEN-7#2', 'GEN-14#1', 'FAV-23#1'],
    endpoint: 'GET /favorites',
    key: 'favorites',
    ids: ['FAV-23'],
    readings: ['FAV-23.a-h'],
    auth: 'user',
    target: fixed,
  },
  {
    testId: 'favorite-lists-favorites',
    clauses: ['GEN-7#2', 'GEN-14#1', 'FAV-27#1'],
    endpoint: 'GET /favorite_lists/:id/favorites',
    key: 'favorites',
    ids: ['FAV-27'],
    readings: ['FAV-27.a-f'],
    auth: 'user',
    target: byRole('favoriteList'),
  },
  {
    testId: 'notifications',
    clauses: ['GEN-7#2', 'GEN-14#1', 'NOTIF-8#1-2'],
    endpoint: 'GET /notifications',
    key: 'notifications',
    ids: ['NOTIF-8'],
    readings: ['NOTIF-8.a-d'],
    auth: 'user',
    target: fixed,
  },
];
