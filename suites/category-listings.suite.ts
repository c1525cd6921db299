// Spec: Endpoints > Categories (the rows after the tree endpoints: /categories/:id/specifications,
// /categories/:id/manufacturers, /categories/:category_id/filter_groups, /categories/:category_id/
// skus, and "Ordering, filters and meta of the category SKU listing"), Resources and their fields >
// Specification and group, Filter group, Filter meta, SKU (favorited), General conventions 1, 5-6
// (include=group), Endpoints > General rules 2 and 5, What the service does (SKUs in leaves),
// Change history (3.0.3 filter groups cached, 3.0.23 order on specifications, 3.1.0 favorited,
// 3.1.1 category specifications, 3.2.1 shop, distance and availability filters), Errors.
// Every id comes from discovery or from the listings themselves: no id, name or count of any data
// set is written here. What the spec leaves open is never judged: the default order_by and
// order_dir (CAT-36, ORD-2), what sort key each SKU order_by method uses (only a list the other
// way by every candidate field fails), the shape of
// meta.applied_filters (FILT-7), whether favorited appears for application tokens.
import fc from 'fast-check';
import { describe } from 'vitest';
import { allOf, fail, inContext, isPlainObject, pass, show, typed } from '../src/checks/check.ts';
import { errorBodyIsWellFormed, hasErrorCode } from '../src/checks/errors.ts';
import { hasCollectionEnvelope, hasStatus } from '../src/checks/http.ts';
import {
  availableCountsWithinTotal,
  chooseFilter,
  chooseOption,
  favoritedMatchesFavorites,
  filterCountMatches,
  improbableWord,
  keywordOf,
  narrows,
  noGroupIdWithoutInclude,
  noSkuInInnerCategory,
  optionCountMatches,
  orderedByEchoes,
  orderedByIsAMethod,
  rarestManufacturer,
  shopCountMatches,
  skusInCategory,
  type Json,
} from '../src/checks/listings.ts';
import { defaultPageSizeIs25, paginationIsConsistent, paginationMetaIsWellFormed, readPagination, type Pagination } from '../src/checks/pagination.ts';
import { specificationsInOrder } from '../src/checks/products.ts';
import { namesAreOrdered, notInReverseOrder, orderedByOneOf, sameMembers, skusBelongToManufacturer, type Direction } from '../src/checks/search.ts';
import type { HttpResponse, Query } from '../src/http/client.ts';
import { scaledToBudget } from '../src/budget/budget.ts';
import { conformanceTest, type ConformanceContext } from '../src/harness/conformance.ts';
import { orderingsOf } from '../src/harness/requests.ts';
import { pathOf } from '../src/rules/api-paths.ts';

/** Most order_by methods of one category tried (the spec observed five). */
const METHODS_TRIED = 6;

/**
 * The SKU orders whose direction shows in the SKUs' fields (which field the spec does not say): a
 * price method by price_min or price_max, rating (3.0.8) by reviewscore.
 */
function visibleOrders(t: ConformanceContext, methods: readonly string[]): { priceMethod?: string; rating?: string } {
  const priceMethod = methods.find((m) => m === 'price' || m === 'pricevat');
  const rating = methods.includes('rating') && t.has('sku-order-by-rating') ? 'rating' : undefined;
  return { ...(priceMethod ? { priceMethod } : {}), ...(rating ? { rating } : {}) };
}

/** Cases of the combination property at the default budget (a larger CATALOGUE_MAX_REQUESTS draws more). */
const COMBINATION_CASES = 4;

/** A case of the combination property: manufacturer_ids[] with an order and a page size, or not. */
interface Combination {
  manufacturers: number[];
  orderBy: string | null;
  orderDir: Direction | null;
  per: number | null;
}

interface Listing {
  body: Json;
  items: Json[];
  meta: Json;
  pagination: Pagination;
  response: HttpResponse;
}

/** GET a paginated collection under `key`; stops the test unless it is 200 {key, meta.pagination}. */
async function getListing(t: ConformanceContext, path: string, key: string, query: Query, ...requirements: string[]): Promise<Listing> {
  const response = await t.api.get(path, { query });
  t.require(hasStatus(response, 200), ...requirements);
  const body = t.json<Json>(response, 'GEN-4');
  t.require(hasCollectionEnvelope(body, key), 'GEN-7', ...requirements);
  t.require(paginationMetaIsWellFormed(body), 'PAG-1', ...requirements);
  const items = (body[key] as unknown[]).filter(isPlainObject);
  return { body, items, meta: body['meta'] as Json, pagination: readPagination(body)!, response };
}

/** GET /categories/:id/skus; stops unless 200 {skus, meta.pagination}. */
function skusOf(t: ConformanceContext, categoryId: number, query: Query = {}, ...requirements: string[]): Promise<Listing> {
  return getListing(t, pathOf('GET /categories/:category_id/skus', { category_id: categoryId }), 'skus', query, 'CAT-26', ...requirements);
}

/** The discovered leaf and its first page of SKUs; skips when the leaf lists none. */
async function leafWithSkus(t: ConformanceContext, query: Query = {}): Promise<{ leafId: number; listing: Listing }> {
  const leafId = await t.discover('leafCategory');
  const listing = await skusOf(t, leafId, query);
  if (!listing.items.length) t.skip(`leaf category ${leafId} lists no SKUs`);
  return { leafId, listing };
}

/** GET /categories/:id/specifications; stops unless 200 with a specifications array. */
async function specificationsOf(t: ConformanceContext, categoryId: number, query: Query): Promise<{ body: Json; specifications: Json[]; response: HttpResponse }> {
  const response = await t.api.get(pathOf('GET /categories/:id/specifications', { id: categoryId }), { query });
  t.require(hasStatus(response, 200), 'CAT-20');
  const body = t.json<Json>(response, 'GEN-4');
  t.require(hasCollectionEnvelope(body, 'specifications'), 'GEN-7', 'CAT-20');
  return { body, specifications: (body['specifications'] as unknown[]).filter(isPlainObject), response };
}

/** An id far above any a catalogue hands out. */
const unknownId = () => 2_000_000_000 + Math.floor(Math.random() * 100_000_000);

describe('GET /categories/:id/specifications', () => {
  conformanceTest('answers {specifications} of a leaf: empty values, in the order of the order field, no group_id', { id: 'specifications-of-leaf', requirements: ['CAT-20', 'SPEC-1', 'SPEC-2', 'SPEC-4', 'CHG-5', 'CHG-7'], requests: 1 }, async (t) => {
    t.requireFeature('category-specifications', 'The category specifications endpoint');
    const leafId = await t.discover('leafCategory');
    const { body, specifications, response } = await specificationsOf(t, leafId, {});
    // Schema: Specification fields, values an empty array (SPEC-2).
    t.response('GET /categories/:id/specifications', response, 'CAT-20', 'SPEC-1', 'SPEC-2', 'SPEC-3');
    t.must(specificationsInOrder(specifications), 'CHG-7');
    // "group_id (only with include=group)": without it the key may still come; only a warning.
    t.warn(noGroupIdWithoutInclude(specifications), 'SPEC-4');
    t.warn('groups' in body ? fail(`without include=group the body has groups ${show(body['groups'])}: the spec shows {specifications}`) : pass(), 'CAT-20', 'LINK-5');
    if (specifications[0]) t.undocumentedFields('resources/specification.json', specifications[0], `a specification of category ${leafId}`, 'SPEC-1');
  });

  conformanceTest('include=group adds a top-level groups array and a group_id on each specification', { id: 'specifications-include-group', requirements: ['LINK-5', 'LINK-4', 'LINK-3', 'SPEC-5', 'CAT-20'], requests: 1 }, async (t) => {
    t.requireFeature('category-specifications', 'The category specifications endpoint');
    const leafId = await t.discover('leafCategory');
    const { specifications, response } = await specificationsOf(t, leafId, { include: 'group' });
    if (!specifications.length) t.skip(`leaf category ${leafId} has no specifications`);
    t.rules(response, 'include-group');
    t.response('GET /categories/:id/specifications', response, 'CAT-20', 'LINK-5', 'SPEC-5');
    t.must(specificationsInOrder(specifications), 'CHG-7');
  });
});

describe('GET /categories/:id/manufacturers', () => {
  /** The discovered leaf, else the root: the first whose manufacturers list two names or more. */
  async function categoryWithManufacturers(t: ConformanceContext): Promise<{ id: number; path: string }> {
    const tried: number[] = [];
    for (const role of ['leafCategory', 'rootCategory'] as const) {
      const id = await t.discover(role);
      tried.push(id);
      const path = pathOf('GET /categories/:id/manufacturers', { id });
      const { items } = await getListing(t, path, 'manufacturers', {}, 'CAT-21');
      if (new Set(items.map((m) => m['name'])).size >= 2) return { id, path };
    }
    return t.skip(`neither the leaf nor the root (categories ${tried.join(', ')}) lists two manufacturers of different names`);
  }

  conformanceTest('answers {manufacturers, meta}: Manufacturers, paginated by 25', { id: 'manufacturers-listing', requirements: ['CAT-21', 'MAN-1', 'GEN-7', 'PAG-1', 'PAG-2'], requests: 1 }, async (t) => {
    const leafId = await t.discover('leafCategory');
    const { items, pagination, response } = await getListing(t, pathOf('GET /categories/:id/manufacturers', { id: leafId }), 'manufacturers', {}, 'CAT-21');
    t.response('GET /categories/:id/manufacturers', response, 'CAT-21', 'MAN-1');
    t.must(defaultPageSizeIs25(pagination), 'PAG-2');
    t.must(paginationIsConsistent(pagination, items.length), 'PAG-1');
    if (items[0]) t.undocumentedFields('resources/manufacturer.json', items[0], `a manufacturer of category ${leafId}`, 'MAN-1');
  });

  conformanceTest('order_by name or popularity and order_dir asc or desc are accepted; by name the names follow order_dir', { id: 'manufacturers-ordering', requirements: ['CAT-21', 'ORD-1'], requests: 5 }, async (t) => {
    const { path } = await categoryWithManufacturers(t);
    const listings: Record<string, Listing> = {};
    for (const [orderBy, dir] of orderingsOf('name')) {
      const listing = await getListing(t, path, 'manufacturers', { order_by: orderBy, order_dir: dir }, 'CAT-21', 'ORD-1');
      listings[`${orderBy} ${dir}`] = listing;
      if (orderBy === 'name') {
        t.must(inContext(`GET ${path}?order_by=name&order_dir=${dir}`, namesAreOrdered(listing.items.map((m) => m['name']), dir)), 'CAT-21', 'ORD-1');
      }
    }
    // One complete page in every order: the same manufacturers each time.
    const all = Object.entries(listings);
    if (all.every(([, l]) => l.pagination.total_pages <= 1)) {
      const [firstKey, first] = all[0]!;
      t.must(allOf(all.slice(1).map(([key, l]) => sameMembers(`${path} by ${firstKey} and by ${key}`, first.items, l.items))), 'CAT-21');
    }
  });
});

describe('GET /categories/:category_id/filter_groups', () => {
  conformanceTest('answers {filter_groups, meta} of Filter groups with Cache-Control max-age=300, private', { id: 'filter-groups-listing', requirements: ['CAT-24', 'CAT-25', 'FILT-1', 'FILT-2', 'CHG-28', 'PAG-1'], requests: 1 }, async (t) => {
    const leafId = await t.discover('leafCategory');
    const { items, pagination, response } = await getListing(t, pathOf('GET /categories/:category_id/filter_groups', { category_id: leafId }), 'filter_groups', {}, 'CAT-24');
    t.response('GET /categories/:category_id/filter_groups', response, 'CAT-24', 'FILT-1', 'FILT-2');
    t.rules(response, 'filter-groups-cache');
    t.must(paginationIsConsistent(pagination, items.length), 'PAG-1');
    // That the groups listed are the category's own (not inherited) is implied, not stated.
    t.warn(
      allOf(items.map((g) => typed(g['category_id'], g['category_id'] === leafId, `filter group ${show(g['id'])} has category_id ${show(g['category_id'])}, listed under category ${leafId}`))),
      'CAT-24',
    );
    if (items[0]) t.undocumentedFields('resources/filter-group.json', items[0], `a filter group of category ${leafId}`, 'FILT-1');
  });
});

describe('GET /categories/:category_id/skus', () => {
  conformanceTest('answers {skus, meta} of SKUs of that leaf: ordered_by a key of order_by_methods, paginated by 25', { id: 'skus-listing', requirements: ['CAT-26', 'CAT-2', 'CAT-37', 'SKU-2', 'PAG-1', 'PAG-2'], requests: 1 }, async (t) => {
    const { leafId, listing } = await leafWithSkus(t);
    const { items, meta, pagination, response } = listing;
    t.response('GET /categories/:category_id/skus', response, 'CAT-26', 'SKU-2', 'CAT-37');
    t.must(orderedByIsAMethod(meta), 'CAT-37', 'CAT-27');
    t.must(skusInCategory(items, leafId), 'CAT-2', 'CAT-26');
    t.must(defaultPageSizeIs25(pagination), 'PAG-2');
    t.must(paginationIsConsistent(pagination, items.length), 'PAG-1');
    if (items[0]) t.undocumentedFields('resources/sku.json', items[0], `a SKU of category ${leafId}`, 'SKU-2');
  });

  conformanceTest('a category with children holds no SKU of its own', { id: 'inner-category-no-skus', requirements: ['CAT-2', 'CAT-26'], requests: 1 }, async (t) => {
    const innerId = await t.discover('innerCategory');
    // Whether a category with children lists its leaves' SKUs or none is not shown; neither names it.
    const { items } = await skusOf(t, innerId);
    t.must(noSkuInInnerCategory(items, innerId), 'CAT-2');
  });

  conformanceTest('every key of meta.order_by_methods is accepted as order_by, and meta.ordered_by echoes it', { id: 'skus-order-by-methods', requirements: ['CAT-27', 'CAT-37', 'ORD-1'], requests: 1 + METHODS_TRIED }, async (t) => {
    const { leafId, listing } = await leafWithSkus(t);
    const methods = listing.meta['order_by_methods'];
    t.require(typed(methods, isPlainObject(methods) && Object.keys(methods).length > 0, `meta.order_by_methods is ${show(methods)}`), 'CAT-37');
    const keys = Object.keys(methods as Json).slice(0, METHODS_TRIED);
    const { priceMethod, rating } = visibleOrders(t, Object.keys(methods as Json));
    for (const method of keys) {
      // The methods the order_dir test asks both ways are asked as it asks them first: one exchange serves both tests.
      const query = method === priceMethod || method === rating ? { order_by: method, order_dir: 'asc' } : { order_by: method };
      const response = await t.api.get(pathOf('GET /categories/:category_id/skus', { category_id: leafId }), { query });
      if (!t.must(hasStatus(response, 200).ok ? pass() : fail(`order_by=${method}, a key of meta.order_by_methods, answered ${response.status}`), 'CAT-27', 'ORD-1')) continue;
      const body = t.json<Json>(response, 'GEN-4');
      const meta = isPlainObject(body) ? body['meta'] : undefined;
      t.must(orderedByEchoes(meta, method), 'CAT-37', 'CAT-27');
      // total_results as sent: a null there is a blank (GEN-8), only a warning.
      const pagination = isPlainObject(meta) ? meta['pagination'] : undefined;
      const raw = isPlainObject(pagination) ? pagination['total_results'] : undefined;
      const total = Number.isInteger(raw) || raw === null ? raw : undefined;
      t.must(typed(total, total === listing.pagination.total_results, `order_by=${method} lists ${show(total)} SKUs, the default order ${listing.pagination.total_results}`), 'CAT-27');
    }
  });

  conformanceTest(
    'order_dir asc and desc are accepted: the same SKUs, the method kept; by a price method and by rating (3.0.8) the SKUs are not listed the other way',
    { id: 'skus-order-dir', requirements: ['CAT-28', 'CAT-37', 'ORD-1', 'CHG-22'], requests: 5 },
    async (t) => {
      const { leafId, listing } = await leafWithSkus(t);
      const methods = isPlainObject(listing.meta['order_by_methods']) ? Object.keys(listing.meta['order_by_methods']) : [];
      const { priceMethod, rating } = visibleOrders(t, methods);
      const fallback = typeof listing.meta['ordered_by'] === 'string' ? listing.meta['ordered_by'] : undefined;
      const tried = [priceMethod, rating].filter((m): m is string => m !== undefined);
      if (tried.length === 0 && fallback !== undefined) tried.push(fallback);
      if (tried.length === 0) return t.skip(`leaf ${leafId} names no order_by method`);
      for (const method of tried) {
        const fields = method === 'rating' ? ['reviewscore'] : method === priceMethod ? ['price_min', 'price_max'] : [];
        const ids = method === 'rating' ? ['CAT-28', 'CHG-22'] : ['CAT-28'];
        const listed: Partial<Record<Direction, Listing>> = {};
        for (const dir of ['asc', 'desc'] as Direction[]) {
          const l = await skusOf(t, leafId, { order_by: method, order_dir: dir }, 'CAT-28', 'ORD-1');
          listed[dir] = l;
          t.must(orderedByEchoes(l.meta, method), 'CAT-37', 'CAT-28');
          t.must(skusInCategory(l.items, leafId), 'CAT-2');
          if (fields.length === 0) continue;
          const what = `order_by=${method}&order_dir=${dir}`;
          // The method's field is not named: the other way by every candidate field fails, no order only warns.
          t.must(inContext(what, notInReverseOrder(l.items, fields, dir)), ...ids);
          t.warn(inContext(what, orderedByOneOf(l.items, fields, dir)), ...ids);
        }
        const [asc, desc] = [listed.asc!, listed.desc!];
        t.must(
          asc.pagination.total_results === desc.pagination.total_results
            ? pass()
            : fail(`order_by=${method}: order_dir=asc lists ${asc.pagination.total_results} SKUs, order_dir=desc ${desc.pagination.total_results}`),
          'CAT-28',
        );
        if (asc.pagination.total_pages <= 1 && desc.pagination.total_pages <= 1) {
          t.must(sameMembers(`order_by=${method} asc and desc`, asc.items, desc.items), 'CAT-28');
        }
      }
    },
  );

  conformanceTest('manufacturer_ids[] keeps only SKUs of that manufacturer', { id: 'manufacturer-ids-filter', requirements: ['CAT-30', 'CAT-2'], requests: 2 }, async (t) => {
    const { leafId, listing } = await leafWithSkus(t);
    const manufacturerId = rarestManufacturer(listing.items);
    if (manufacturerId === null) return t.skip(`no SKU of leaf ${leafId} has an integer manufacturer_id`);
    const filtered = await skusOf(t, leafId, { 'manufacturer_ids[]': [manufacturerId] }, 'CAT-30');
    t.must(skusBelongToManufacturer(filtered.items, manufacturerId), 'CAT-30');
    t.must(skusInCategory(filtered.items, leafId), 'CAT-2');
    t.must(narrows(filtered.pagination.total_results, listing.pagination.total_results, `manufacturer_ids[]=${manufacturerId}`), 'CAT-30');
    t.must(
      filtered.pagination.total_results > 0 ? pass() : fail(`manufacturer_ids[]=${manufacturerId} lists no SKU, though the unfiltered listing has SKUs of that manufacturer`),
      'CAT-30',
    );
  });

  conformanceTest(
    'manufacturer_ids[] with order_by, order_dir and per together (property): only SKUs of the manufacturers asked for, not listed the other way by a price method, per honoured',
    { id: 'manufacturer-ids-combined', requirements: ['CAT-30', 'CAT-28', 'CAT-37', 'PAG-4', 'CAT-2'], requests: 2 + COMBINATION_CASES },
    async (t) => {
      const { leafId, listing } = await leafWithSkus(t);
      const manufacturers = [...new Set(listing.items.map((s) => s['manufacturer_id']).filter((id): id is number => Number.isInteger(id)))].sort((a, b) => a - b);
      if (manufacturers.length === 0) return t.skip(`no SKU of leaf ${leafId} has an integer manufacturer_id`);
      const methods = isPlainObject(listing.meta['order_by_methods']) ? Object.keys(listing.meta['order_by_methods']) : [];
      const priceMethod = methods.find((m) => m === 'price' || m === 'pricevat');
      // A combination is where a deployment that handles each parameter alone may still drop one:
      // the first case is always a filter with an order and a direction, then random ones.
      const seed = t.run.seed?.seed ?? t.run.runSeed;
      const arbitrary = fc.record({
        manufacturers: fc.subarray(manufacturers, { minLength: 1, maxLength: 2 }),
        orderBy: methods.length ? fc.option(fc.constantFrom(...methods), { nil: null }) : fc.constant(null),
        orderDir: fc.option(fc.constantFrom<Direction>('asc', 'desc'), { nil: null }),
        per: fc.option(fc.integer({ min: 1, max: 5 }), { nil: null }),
      });
      const first: Combination = { manufacturers: [manufacturers[0]!], orderBy: priceMethod ?? methods[0] ?? null, orderDir: 'desc', per: null };
      const cases = [first, ...fc.sample(arbitrary, { seed, numRuns: scaledToBudget(COMBINATION_CASES - 1, t.run.maxRequests, 1) })];
      for (const [i, c] of cases.entries()) {
        const query: Query = { 'manufacturer_ids[]': c.manufacturers };
        if (c.orderBy !== null) query['order_by'] = c.orderBy;
        if (c.orderDir !== null) query['order_dir'] = c.orderDir;
        if (c.per !== null) query['per'] = c.per;
        const what = `${Object.entries(query).map(([k, v]) => `${k}=${Array.isArray(v) ? v.join(',') : String(v)}`).join('&')}${i > 0 ? ` (random case ${i} of seed ${seed}; CATALOGUE_SEED=${seed} draws it again)` : ''}`;
        const l = await skusOf(t, leafId, query, 'CAT-30');
        t.must(inContext(what, skusBelongToManufacturer(l.items, c.manufacturers)), 'CAT-30');
        t.must(inContext(what, skusInCategory(l.items, leafId)), 'CAT-2');
        if (c.orderBy !== null) t.must(inContext(what, orderedByEchoes(l.meta, c.orderBy)), 'CAT-37');
        if (c.orderBy !== null && c.orderBy === priceMethod && c.orderDir !== null) t.must(inContext(what, notInReverseOrder(l.items, ['price_min', 'price_max'], c.orderDir)), 'CAT-28');
        if (c.per !== null) t.must(inContext(what, paginationIsConsistent(l.pagination, l.items.length, { page: 1, per: c.per })), 'PAG-4', 'PAG-1');
      }
    },
  );

  conformanceTest('include_meta[]=available_filters adds meta.available_filters: filters, manufacturers, shops, availabilities, distances', { id: 'available-filters-meta', requirements: ['CAT-35', 'FILT-3', 'CHG-1'], requests: 1 }, async (t) => {
    const leafId = await t.discover('leafCategory');
    const { meta, pagination, response } = await skusOf(t, leafId, { 'include_meta[]': ['available_filters'] }, 'CAT-35');
    t.require(typed(meta['available_filters'], isPlainObject(meta['available_filters']), `include_meta[]=available_filters: meta.available_filters is ${show(meta['available_filters'])}`), 'CAT-35', 'FILT-3');
    // Schema: the five keys (shops, availabilities, distances from 3.2.1), count maps and options.
    t.response('GET /categories/:category_id/skus', response, 'FILT-3', 'CAT-35', 'CHG-1');
    t.must(availableCountsWithinTotal(meta['available_filters'], pagination.total_results), 'FILT-3');
  });

  conformanceTest('include_meta[]=applied_filters adds meta.applied_filters', { id: 'applied-filters-meta', requirements: ['CAT-35', 'FILT-7'], requests: 1 }, async (t) => {
    const { leafId, listing } = await leafWithSkus(t, { 'include_meta[]': ['applied_filters'] });
    // Its shape is not shown (FILT-7): only its presence is judged.
    t.must('applied_filters' in listing.meta ? pass() : fail(`include_meta[]=applied_filters on leaf ${leafId}: meta has no applied_filters (keys: ${Object.keys(listing.meta).join(', ')})`), 'CAT-35');
  });

  conformanceTest('filter_ids[] with a key of available_filters.filters lists as many SKUs as its count, all of the leaf', { id: 'filter-ids-filter', requirements: ['CAT-31', 'FILT-3', 'CAT-2'], requests: 2 }, async (t) => {
    const leafId = await t.discover('leafCategory');
    const all = await skusOf(t, leafId, { 'include_meta[]': ['available_filters'] }, 'CAT-35');
    const available = all.meta['available_filters'];
    t.require(typed(available, isPlainObject(available), `include_meta[]=available_filters: meta.available_filters is ${show(available)}`), 'CAT-35', 'FILT-3');
    const chosen = chooseFilter((available as Json)['filters'], all.pagination.total_results);
    if (!chosen) return t.skip(`no filter of leaf ${leafId} matches a SKU (meta.available_filters.filters ${show((available as Json)['filters'])})`);
    const filtered = await skusOf(t, leafId, { 'filter_ids[]': [chosen.id] }, 'CAT-31');
    t.must(filterCountMatches(chosen.id, chosen.count, filtered.pagination.total_results), 'CAT-31', 'FILT-3');
    t.must(narrows(filtered.pagination.total_results, all.pagination.total_results, `filter_ids[]=${chosen.id}`), 'CAT-31');
    t.must(skusInCategory(filtered.items, leafId), 'CAT-2');
  });

  /** The leaf's listing with include_meta[]=available_filters, and that meta; stops unless it is an object. */
  async function leafWithAvailableFilters(t: ConformanceContext): Promise<{ leafId: number; all: Listing; available: Json }> {
    const leafId = await t.discover('leafCategory');
    const all = await skusOf(t, leafId, { 'include_meta[]': ['available_filters'] }, 'CAT-35');
    const available = all.meta['available_filters'];
    t.require(typed(available, isPlainObject(available), `include_meta[]=available_filters: meta.available_filters is ${show(available)}`), 'CAT-35', 'FILT-3');
    return { leafId, all, available: available as Json };
  }

  conformanceTest('shop_ids[] with a key of available_filters.shops lists as many SKUs as its count, all of the leaf', { id: 'shop-ids-filter', requirements: ['CAT-32', 'FILT-3', 'CAT-2'], requests: 2 }, async (t) => {
    t.requireFeature('sku-listing-filters', 'The shop_ids[] filter of the category SKU listing');
    const { leafId, all, available } = await leafWithAvailableFilters(t);
    // "shops (objects mapping id to number of matching SKUs)": with no other filter, that many.
    const chosen = chooseFilter(available['shops'], all.pagination.total_results);
    if (!chosen) return t.skip(`no shop of leaf ${leafId} matches a SKU (meta.available_filters.shops ${show(available['shops'])})`);
    const filtered = await skusOf(t, leafId, { 'shop_ids[]': [chosen.id] }, 'CAT-32');
    t.must(shopCountMatches(chosen.id, chosen.count, filtered.pagination.total_results), 'CAT-32', 'FILT-3');
    t.must(narrows(filtered.pagination.total_results, all.pagination.total_results, `shop_ids[]=${chosen.id}`), 'CAT-32');
    t.must(skusInCategory(filtered.items, leafId), 'CAT-2', 'CAT-32');
  });

  // distance and availability take the id of an option of meta.available_filters distances /
  // availabilities. What an option's count counts (SKUs or offers) is not stated: a count that
  // differs from the SKUs listed is a warning only.
  for (const [param, key, requirement] of [
    ['distance', 'distances', 'CAT-33'],
    ['availability', 'availabilities', 'CAT-34'],
  ] as const) {
    conformanceTest(`${param} with the id of an option of available_filters.${key} is accepted and narrows the SKUs of the leaf`, { id: `${param}-filter`, requirements: [requirement, 'FILT-3', 'CAT-2'], requests: 2 }, async (t) => {
      t.requireFeature('sku-listing-filters', `The ${param} filter of the category SKU listing`);
      const { leafId, all, available } = await leafWithAvailableFilters(t);
      const options = available[key];
      t.require(typed(options, Array.isArray(options), `meta.available_filters.${key} is ${show(options)}, expected an array of {id, label, count}`), 'FILT-3', requirement);
      const option = chooseOption(options, all.pagination.total_results);
      if (!option) return t.skip(`meta.available_filters.${key} of leaf ${leafId} offers no option with an integer id (${show(options)})`);
      const filtered = await skusOf(t, leafId, { [param]: option.id }, requirement);
      t.must(narrows(filtered.pagination.total_results, all.pagination.total_results, `${param}=${option.id}`), requirement);
      t.must(skusInCategory(filtered.items, leafId), 'CAT-2', requirement);
      t.warn(optionCountMatches(key, param, option, filtered.pagination.total_results), requirement, 'FILT-3');
    });
  }

  conformanceTest(
    'q filters by keyword: a whole word of a SKU name keeps that SKU and no more SKUs than the leaf has; letters no catalogue holds keep none',
    { id: 'q-keyword-filter', requirements: ['CAT-29', 'CAT-2'], requests: 3 },
    async (t) => {
      const { leafId, listing } = await leafWithSkus(t);
      const sku = listing.items.find((s) => keywordOf(s['name']) !== null);
      if (!sku) return t.skip(`no SKU of leaf ${leafId} has a name with a word of 3 or more characters`);
      const q = keywordOf(sku['name'])!;
      const filtered = await skusOf(t, leafId, { q }, 'CAT-29');
      t.must(narrows(filtered.pagination.total_results, listing.pagination.total_results, `q=${q}`), 'CAT-29');
      t.must(skusInCategory(filtered.items, leafId), 'CAT-2');
      // Which fields a keyword matches, and whether as a word or a prefix, is not shown: a whole
      // word of the SKU's own name matches it under each reading.
      const kept = filtered.items.some((s) => s['id'] === sku['id']);
      const keeps = kept ? pass() : fail(`q=${q}, a word of the name of SKU ${show(sku['id'])} (${show(sku['name'])}), lists ${filtered.pagination.total_results} SKU(s), not that one`);
      if (kept || filtered.pagination.total_pages <= 1) t.must(keeps, 'CAT-29');
      else t.warn(inContext('(the first page only; later pages were not read)', keeps), 'CAT-29');
      // And a keyword that matches nothing keeps nothing: a listing that ignores q lists them all.
      const nothing = improbableWord();
      const none = await skusOf(t, leafId, { q: nothing }, 'CAT-29');
      t.must(
        none.pagination.total_results === 0 && none.items.length === 0 ? pass() : fail(`q=${nothing}, letters no catalogue holds, lists ${none.pagination.total_results} SKU(s) of the leaf's ${listing.pagination.total_results}`),
        'CAT-29',
      );
    },
  );

  conformanceTest('with a user token every SKU carries favorited (true or false)', { id: 'favorited-with-user-token', requirements: ['SKU-7', 'CHG-6'], requests: 1 }, async (t) => {
    t.requireFeature('favorited-on-category-skus', 'favorited on category SKUs');
    const leafId = await t.discover('leafCategory');
    const user = await t.api.get(pathOf('GET /categories/:category_id/skus', { category_id: leafId }), { auth: 'user' });
    t.require(hasStatus(user, 200), 'CAT-26', 'SKU-7');
    const body = t.json<Json>(user, 'GEN-4');
    t.require(hasCollectionEnvelope(body, 'skus'), 'GEN-7', 'CAT-26');
    const skus = (body['skus'] as unknown[]).filter(isPlainObject);
    if (!skus.length) t.skip(`leaf category ${leafId} lists no SKUs`);
    // The present rule of schemas/endpoints.json requires favorited where a user token asks; the schema its type.
    t.response('GET /categories/:category_id/skus', user, 'SKU-7', 'CHG-6');
  });

  conformanceTest(
    "favorited tells the user's favorites: true for a SKU in one of their lists, false for one they have not favorited",
    { id: 'favorited-matches-favorites', requirements: ['SKU-7', 'CHG-6', 'FAV-23'], requests: 3 },
    async (t) => {
      t.requireFeature('favorited-on-category-skus', 'favorited on category SKUs');
      // A category holding the user's favorites, where there is one: there both values show.
      const categoryId = await t.discover('favoritesCategory').catch(() => t.discover('leafCategory'));
      const listing = await t.api.get(pathOf('GET /categories/:category_id/skus', { category_id: categoryId }), { auth: 'user' });
      t.require(hasStatus(listing, 200), 'CAT-26', 'SKU-7');
      const body = t.json<Json>(listing, 'GEN-4');
      t.require(hasCollectionEnvelope(body, 'skus'), 'GEN-7', 'CAT-26');
      const skus = (body['skus'] as unknown[]).filter(isPlainObject);
      if (!skus.length) t.skip(`category ${categoryId} lists no SKUs`);
      // The user's favorites (the Favorites endpoints judge these answers themselves).
      const favoritesOf = async (query: Query): Promise<{ items: Json[]; complete: boolean } | null> => {
        const response = await t.api.get(pathOf('GET /favorites'), { auth: 'user', query });
        if (response.status !== 200) return null;
        const answer = response.json<Json>();
        const items = isPlainObject(answer) && Array.isArray(answer['favorites']) ? answer['favorites'].filter(isPlainObject) : [];
        return { items, complete: (readPagination(answer)?.total_pages ?? 2) <= 1 };
      };
      const listed = await favoritesOf({});
      if (!listed) return t.skip('GET /favorites did not answer 200 with the user token: the user\'s favorites are unknown');
      // From 3.2.0 owned favorites are listed only with owned=true; before, the listing holds them.
      const excludesOwned = t.has('owned-excluded-by-default');
      const owned = excludesOwned ? await favoritesOf({ owned: 'true' }) : { items: [], complete: true };
      const skuOf = (f: Json) => (Number.isInteger(f['sku_id']) ? (f['sku_id'] as number) : null);
      // In a list: every favorite of the default listing from 3.2.0; before, those not owned (have_it true marks an owned one).
      const inLists = new Set(listed.items.filter((f) => excludesOwned || f['have_it'] !== true).map(skuOf).filter((id): id is number => id !== null));
      const anyFavorite = new Set([...listed.items, ...(owned?.items ?? [])].map(skuOf).filter((id): id is number => id !== null));
      const allKnown = listed.complete && owned !== null && owned.complete;
      t.must(favoritedMatchesFavorites(skus, inLists, (id) => allKnown && !anyFavorite.has(id)), 'SKU-7');
    },
  );
});

describe('an unknown category', () => {
  conformanceTest('answers 404 with RecordNotFound on its specifications, manufacturers, filter groups and SKUs', { id: 'unknown-category-404', requirements: ['ERR-9', 'ERR-2', 'ERR-14', 'ERR-16'], requests: 4 }, async (t) => {
    const missing = unknownId();
    const paths = [
      ...(t.has('sparse-fieldsets') ? [pathOf('GET /categories/:id/specifications', { id: missing })] : []),
      pathOf('GET /categories/:id/manufacturers', { id: missing }),
      pathOf('GET /categories/:category_id/filter_groups', { category_id: missing }),
      pathOf('GET /categories/:category_id/skus', { category_id: missing }),
    ];
    for (const path of paths) {
      const response = await t.api.get(path);
      if (response.status === 200) t.skip(`GET ${path} answered 200: the deployment has a category ${missing}; no unknown id to ask for`);
      if (!t.must(hasStatus(response, 404).ok ? pass() : fail(`GET ${path}: status ${response.status}, expected 404`), 'ERR-9')) continue;
      if (!t.has('normalized-errors')) continue; // the normalized error format came with 3.1.0
      const body = t.json(response, 'GEN-4');
      if (Array.isArray(body) && body.length === 0) {
        // The spec's own example for a missing category: an empty array (ERR-16 contradicts ERR-2).
        t.warn(fail(`GET ${path}: 404 with an empty array body, as in the spec example, not the {errors} format`), 'ERR-16', 'ERR-2');
        continue;
      }
      const wellFormed = errorBodyIsWellFormed(body);
      t.must(wellFormed.ok ? wellFormed : fail(`GET ${path}: ${wellFormed.message}`), 'ERR-2');
      const code = hasErrorCode(body, 'RecordNotFound');
      t.must(code.ok ? code : fail(`GET ${path}: ${code.message}`), 'ERR-14');
    }
  });
});
