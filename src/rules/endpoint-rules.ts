// The rules of particular endpoints (src/rules/exchange-rules.ts holds them in its table): the
// filter groups' Cache-Control, match_count only in search, the root category's parent_id, shops'
// review_score rounded, SKU specifications not paginated, include=group, and the price history's
// 6 months.
import { allOf, isPlainObject } from '../checks/check.ts';
import { hasNoMatchCount, isRootCategory } from '../checks/categories.ts';
import { cachedPrivatelyFor300 } from '../checks/listings.ts';
import { groupsIncluded, historyWithinSixMonths, reviewScoreRounded, specificationsNotPaginated } from '../checks/products.ts';
import { asksFieldsets } from '../schemas/presence.ts';
import { checkOutcome, json, ok200, type ExchangeRule } from './exchange-rule.ts';

/** Endpoints whose answers give shops whole: the shop resources, and products (a shop embedded with embed=shop). */
const SHOWS_SHOPS = ['GET /shops/:id', 'GET /shops/search', 'GET /skus/:id/products', 'GET /products/:id', 'GET /shops/:shop_id/products/search'];

/** The shops an answer gives whole: {shop}, {shops: [...]}, and the shop embedded in {product} or each of {products}. */
function shopsIn(body: Record<string, unknown>): Record<string, unknown>[] {
  const products = [...(isPlainObject(body['product']) ? [body['product']] : []), ...(Array.isArray(body['products']) ? body['products'].filter(isPlainObject) : [])];
  return [
    ...(isPlainObject(body['shop']) ? [body['shop']] : []),
    ...(Array.isArray(body['shops']) ? body['shops'].filter(isPlainObject) : []),
    ...products.map((p) => p['shop']).filter(isPlainObject),
  ];
}

const CATEGORY_KEYS = ['category', 'categories'] as const;

/** The rules of particular endpoints, in the order of the table. */
export const ENDPOINT_RULES: readonly ExchangeRule[] = [
  {
    id: 'filter-groups-cache',
    clauses: ['CAT-25#1', 'CHG-28#1'],
    title: 'filter groups carry Cache-Control: max-age=300, private',
    requirements: ['CAT-25', 'CHG-28'],
    readings: ['CAT-25.a-d', 'CHG-28.a-d'],
    severity: 'MUST',
    applies: (v) => v.isApi && v.exchange.status === 200 && v.endpoint === 'GET /categories/:category_id/filter_groups' && v.scope.has('filter-groups-cached'),
    check: (v) => checkOutcome(cachedPrivatelyFor300(v.exchange.responseHeaders), ['CAT-25', 'CHG-28'], 'MUST'),
  },
  {
    id: 'match-count-only-in-search',
    title: 'no match_count on categories outside search (only warns: the spec shows it on search results)',
    requirements: ['CAT-14'],
    readings: ['CAT-14.a-e'],
    severity: 'WARN',
    applies: (v) => ok200(v) && v.endpoint !== 'GET /search' && CATEGORY_KEYS.some((k) => k in json(v)),
    check: (v) => {
      const body = json(v);
      const categories = [...(isPlainObject(body['category']) ? [body['category']] : []), ...(Array.isArray(body['categories']) ? body['categories'].filter(isPlainObject) : [])];
      return checkOutcome(allOf(categories.map(hasNoMatchCount)), ['CAT-14'], 'WARN');
    },
  },
  {
    id: 'root-parent-id',
    clauses: ['CAT-6#2', 'CAT-18#2'],
    title: 'the root category has parent_id 0',
    requirements: ['CAT-18', 'CAT-6'],
    readings: ['CAT-18.a-e', 'CAT-6.a-d'],
    severity: 'MUST',
    applies: (v) => ok200(v) && v.endpoint === 'GET /categories/root' && isPlainObject(json(v)['category']) && 'parent_id' in (json(v)['category'] as Record<string, unknown>),
    check: (v) => {
      const root = json(v)['category'] as Record<string, unknown>;
      return checkOutcome(isRootCategory({ id: root['id'], ...root }), ['CAT-18', 'CAT-6'], 'MUST');
    },
  },
  {
    id: 'review-score-rounded',
    clauses: ['SHOP-3#2', 'CHG-7#1'],
    title: 'review_score rounded to 1 decimal',
    requirements: ['SHOP-3', 'CHG-7'],
    readings: ['SHOP-3.a-e', 'CHG-7.a-h'],
    severity: 'MUST',
    // A shop anywhere it is given whole: GET /shops/:id and /shops/search, and embedded in products (embed=shop).
    applies: (v) => ok200(v) && SHOWS_SHOPS.includes(v.endpoint ?? '') && v.scope.has('review-score-rounded') && shopsIn(json(v)).length > 0,
    check: (v) => checkOutcome(allOf(shopsIn(json(v)).map(reviewScoreRounded)), ['SHOP-3', 'CHG-7'], 'MUST'),
  },
  {
    id: 'specifications-not-paginated',
    clauses: ['SKU-14#2'],
    title: 'SKU specifications are not paginated: no meta.pagination',
    requirements: ['SKU-14'],
    readings: ['SKU-14.a-c'],
    severity: 'MUST',
    applies: (v) => ok200(v) && v.endpoint === 'GET /skus/:id/specifications',
    check: (v) => checkOutcome(specificationsNotPaginated(v.body), ['SKU-14'], 'MUST'),
  },
  {
    id: 'include-group',
    clauses: ['LINK-3#1-4', 'LINK-5#1-3'],
    title: 'include=group: a top-level groups array and a group_id on each specification',
    requirements: ['LINK-5', 'LINK-3'],
    readings: ['LINK-5.a-g', 'LINK-3.a-h'],
    severity: 'MUST',
    applies: (v) =>
      ok200(v) &&
      (v.endpoint === 'GET /skus/:id/specifications' || v.endpoint === 'GET /categories/:id/specifications') &&
      v.query
        .getAll('include')
        .flatMap((x) => x.split(','))
        .includes('group') &&
      !asksFieldsets(v.query) &&
      Array.isArray(json(v)['specifications']) &&
      (json(v)['specifications'] as unknown[]).length > 0,
    check: (v) => checkOutcome(groupsIncluded(v.body), ['LINK-5', 'LINK-3'], 'MUST'),
  },
  {
    id: 'price-history-window',
    clauses: ['HIST-3#1', 'HIST-6#1'],
    title: 'price history lies within the 6 months before the answer',
    requirements: ['HIST-3', 'HIST-6'],
    readings: ['HIST-3.a-e', 'HIST-6.a-g'],
    severity: 'MUST',
    applies: (v) =>
      ok200(v) &&
      v.endpoint === 'GET /skus/:id/price_history' &&
      isPlainObject(json(v)['history']) &&
      Array.isArray((json(v)['history'] as Record<string, unknown>)['average']) &&
      !Number.isNaN(v.atMs),
    check: (v) => {
      // "The last 6 months" of the exchange's own time, not of today (a recording may be old).
      const points = ((json(v)['history'] as Record<string, unknown>)['average'] as unknown[]).filter(isPlainObject);
      return checkOutcome(historyWithinSixMonths(points, new Date(v.atMs)), ['HIST-3', 'HIST-6'], 'MUST');
    },
  },
];
