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
// way by every candidate field fails), the shape of meta.applied_filters (FILT-7), whether favorited
// appears for application tokens. A SKU of another category in a listing breaks the listing's scope
// (CAT-26, or that of the parameter it came with), not CAT-2 (SKUs in leaves: the inner category's test).
import { describe } from 'vitest';
import { allOf, fail, inContext, isPlainObject, pass, show, typed } from '../src/checks/check.ts';
import { hasStatus } from '../src/checks/http.ts';
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
  orderMetaIsWellFormed,
  rarestManufacturer,
  shopCountMatches,
  skusInCategory,
  specificationsInOrderOverallOrByGroup,
  type Json,
} from '../src/checks/listings.ts';
import {
  countMismatchCites,
  groupsOfCategory,
  groupsOfCategoryOrAncestors,
  hasAppliedFilters,
  keepsNothing,
  keepsTheSku,
  listsSome,
  methodsBothWays,
  orderMethodsOf,
  totalResultsSent,
  visibleOrders,
} from '../src/checks/listings-cases.ts';
import { defaultPageSizeIs25, paginationClauses } from '../src/checks/pagination.ts';
import { specificationsInOrder } from '../src/checks/products.ts';
import { namesAreOrdered, sameMembers, skusBelongToManufacturer } from '../src/checks/search.ts';
import { scaledToBudget } from '../src/budget/budget.ts';
import {
  ancestryOf,
  categoryWithManufacturers,
  getListing,
  judgeCombinations,
  judgeOrderDirections,
  judgeSkuManufacturersListed,
  INNER_CATEGORY_REFUSALS,
  leafWithAvailableFilters,
  leafWithSkus,
  readListing,
  skusOf,
  specificationsOf,
  unknownId,
  favoritesCategorySkus,
  userFavorites,
  userSkusOf,
  type Listing,
} from '../src/engines/category-listings.ts';
import { conformanceTest } from '../src/harness/conformance.ts';
import { orderingsOf } from '../src/harness/requests.ts';
import { pathOf } from '../src/rules/api-paths.ts';
import { judgeNotFoundBody } from '../src/engines/not-found.ts';

/** Most order_by methods of one category tried (the spec observed five). */
const METHODS_TRIED = 6;

/** Cases of the combination property at the default budget (a larger CATALOGUE_MAX_REQUESTS draws more). */
const COMBINATION_CASES = 4;

describe('GET /categories/:id/specifications', () => {
  conformanceTest(
    'answers {specifications} of a leaf: empty values, in the order of the order field, no group_id',
    {
      id: 'specifications-of-leaf',
      clauses: ['CAT-20#1', 'SPEC-1#1-2', 'SPEC-2#1-2', 'CHG-5#2', 'CHG-7#3-4'],
      requirements: ['CAT-20', 'SPEC-1', 'SPEC-2', 'SPEC-4', 'CHG-5', 'CHG-7'],
      readings: ['CAT-20.a-g', 'SPEC-1.a-c', 'SPEC-2.a-c', 'SPEC-4.a-d', 'CHG-5.a-e', 'CHG-7.a-h'],
      requests: 1,
    },
    async (t) => {
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
    },
  );

  conformanceTest(
    'include=group adds a top-level groups array and a group_id on each specification',
    {
      id: 'specifications-include-group',
      clauses: ['CAT-20#2', 'LINK-3#1-4', 'LINK-4#2', 'LINK-5#1-3', 'SPEC-5#1'],
      requirements: ['LINK-5', 'LINK-4', 'LINK-3', 'SPEC-5', 'CAT-20'],
      readings: ['LINK-5.a-g', 'LINK-4.a-e', 'LINK-3.a-h', 'SPEC-5.a-c', 'CAT-20.a-g'],
      requests: 1,
    },
    async (t) => {
      t.requireFeature('category-specifications', 'The category specifications endpoint');
      const leafId = await t.discover('leafCategory');
      const { body, specifications, response } = await specificationsOf(t, leafId, { include: 'group' });
      if (!specifications.length) t.skip(`leaf category ${leafId} has no specifications`);
      t.rules(response, 'include-group');
      t.response('GET /categories/:id/specifications', response, 'CAT-20', 'LINK-5', 'SPEC-5');
      // "returned in order": overall, or group by group now that they come grouped.
      t.must(specificationsInOrderOverallOrByGroup(specifications, body['groups']), 'CHG-7');
    },
  );
});

describe('GET /categories/:id/manufacturers', () => {
  conformanceTest(
    'answers {manufacturers, meta}: Manufacturers, paginated by 25',
    {
      id: 'manufacturers-listing',
      clauses: ['CAT-21#1-2', 'PAG-1#1-5', 'PAG-2#1', 'GEN-7#2', 'MAN-1#1-4'],
      requirements: ['CAT-21', 'MAN-1', 'GEN-7', 'PAG-1', 'PAG-2'],
      readings: ['CAT-21.a-h', 'MAN-1.a-b', 'GEN-7.a-e', 'PAG-1.a-e', 'PAG-2.a-e'],
      requests: 3,
    },
    async (t) => {
      const leafId = await t.discover('leafCategory');
      const { items, pagination, response } = await getListing(t, pathOf('GET /categories/:id/manufacturers', { id: leafId }), 'manufacturers', {}, 'CAT-21');
      t.response('GET /categories/:id/manufacturers', response, 'CAT-21', 'MAN-1');
      t.must(defaultPageSizeIs25(pagination), 'PAG-2');
      for (const [check, id] of paginationClauses(pagination, items.length)) t.must(check, id);
      if (items[0]) t.undocumentedFields('resources/manufacturer.json', items[0], `a manufacturer of category ${leafId}`, 'MAN-1');
      await judgeSkuManufacturersListed(t, leafId, items, pagination);
    },
  );

  conformanceTest(
    'order_by name or popularity and order_dir asc or desc are accepted; by name the names follow order_dir',
    {
      id: 'manufacturers-ordering',
      clauses: ['CAT-21#1', 'CAT-21#3', 'CAT-21#5', 'ORD-1#1-2'],
      requirements: ['CAT-21', 'ORD-1'],
      readings: ['CAT-21.a-h', 'ORD-1.a-i'],
      requests: 5,
    },
    async (t) => {
      const { path } = await categoryWithManufacturers(t);
      const listings: Record<string, Listing> = {};
      for (const [orderBy, dir] of orderingsOf('name')) {
        const listing = await getListing(t, path, 'manufacturers', { order_by: orderBy, order_dir: dir }, 'CAT-21', 'ORD-1');
        listings[`${orderBy} ${dir}`] = listing;
        if (orderBy === 'name') {
          const names = listing.items.map((m) => m['name']);
          t.must(inContext(`GET ${path}?order_by=name&order_dir=${dir}`, namesAreOrdered(names, dir)), 'CAT-21'); // ORD-1: the values' acceptance, above
        }
      }
      // One complete page in every order: the same manufacturers each time.
      const all = Object.entries(listings);
      if (all.every(([, l]) => l.pagination.total_pages <= 1)) {
        const [firstKey, first] = all[0]!;
        t.must(allOf(all.slice(1).map(([key, l]) => sameMembers(`${path} by ${firstKey} and by ${key}`, first.items, l.items))), 'CAT-21');
      }
    },
  );
});

describe('GET /categories/:category_id/filter_groups', () => {
  conformanceTest(
    'answers {filter_groups, meta} of Filter groups with Cache-Control max-age=300, private',
    {
      id: 'filter-groups-listing',
      clauses: ['CAT-24#1', 'CAT-24#3', 'CAT-25#1', 'PAG-1#1-5', 'FILT-1#1-9', 'FILT-2#1', 'CHG-28#1'],
      requirements: ['CAT-24', 'CAT-25', 'FILT-1', 'FILT-2', 'CHG-28', 'PAG-1'],
      readings: ['CAT-24.a-e', 'CAT-25.a-d', 'FILT-1.a-e', 'FILT-2.a-b', 'CHG-28.a-d', 'PAG-1.a-e'],
      requests: 2,
    },
    async (t) => {
      const leafId = await t.discover('leafCategory');
      const { items, pagination, response } = await getListing(t, pathOf('GET /categories/:category_id/filter_groups', { category_id: leafId }), 'filter_groups', {}, 'CAT-24');
      t.response('GET /categories/:category_id/filter_groups', response, 'CAT-24', 'FILT-1', 'FILT-2');
      t.rules(response, 'filter-groups-cache');
      for (const [check, id] of paginationClauses(pagination, items.length)) t.must(check, id);
      // Own or inherited from an ancestor (CAT-24.d): another category's fails; not its own only warns.
      t.must(groupsOfCategoryOrAncestors(items, leafId, await ancestryOf(t, leafId)), 'CAT-24');
      t.warn(groupsOfCategory(items, leafId), 'CAT-24');
      if (items[0]) t.undocumentedFields('resources/filter-group.json', items[0], `a filter group of category ${leafId}`, 'FILT-1');
    },
  );
});

describe('GET /categories/:category_id/skus', () => {
  conformanceTest(
    'answers {skus, meta} of SKUs of that leaf: meta.ordered_by and (3.2.0) order_by_methods, paginated by 25',
    {
      id: 'skus-listing',
      clauses: ['CAT-26#1-2', 'CAT-37#1', 'CAT-37#3-4', 'PAG-1#1-5', 'PAG-2#1', 'SKU-2#1-20'],
      requirements: ['CAT-26', 'CAT-37', 'SKU-2', 'PAG-1', 'PAG-2'],
      readings: ['CAT-26.a-g', 'CAT-37.a-g', 'SKU-2.a-g', 'PAG-1.a-e', 'PAG-2.a-e'],
      requests: 1,
    },
    async (t) => {
      const { leafId, listing } = await leafWithSkus(t);
      const { items, meta, pagination, response } = listing;
      t.response('GET /categories/:category_id/skus', response, 'CAT-26', 'SKU-2', 'CAT-37');
      t.must(orderMetaIsWellFormed(meta, t.has('dynamic-order-methods')), 'CAT-37');
      t.warn(orderedByIsAMethod(meta), 'CAT-37', 'CAT-27');
      t.must(skusInCategory(items, leafId), 'CAT-26');
      t.must(defaultPageSizeIs25(pagination), 'PAG-2');
      for (const [check, id] of paginationClauses(pagination, items.length)) t.must(check, id);
      if (items[0]) t.undocumentedFields('resources/sku.json', items[0], `a SKU of category ${leafId}`, 'SKU-2');
    },
  );

  conformanceTest(
    'a category with children holds no SKU of its own',
    { id: 'inner-category-no-skus', clauses: ['CAT-2#1', 'CAT-26#1'], requirements: ['CAT-2', 'CAT-26'], readings: ['CAT-2.a-f', 'CAT-26.a-g'], requests: 1 },
    async (t) => {
      const innerId = await t.discover('innerCategory');
      // What a category with children answers is not shown: its leaves' SKUs, none, or a refusal
      // (400, 404 or 422: no SKU listing there; the body is judged as every error's). None lists a
      // SKU of its own.
      const response = await t.api.get(pathOf('GET /categories/:category_id/skus', { category_id: innerId }));
      if (INNER_CATEGORY_REFUSALS.includes(response.status)) return;
      const { items } = readListing(t, response, 'skus', 'CAT-26');
      t.must(noSkuInInnerCategory(items, innerId), 'CAT-2');
    },
  );

  conformanceTest(
    'every key of meta.order_by_methods is accepted as order_by, and meta.ordered_by echoes it',
    {
      id: 'skus-order-by-methods',
      clauses: ['CAT-27#1', 'CAT-37#2', 'ORD-1#1-2'],
      requirements: ['CAT-27', 'CAT-37', 'ORD-1'],
      readings: ['CAT-27.a-g', 'CAT-37.a-g', 'ORD-1.a-i'],
      requests: 1 + METHODS_TRIED,
    },
    async (t) => {
      const { leafId, listing } = await leafWithSkus(t);
      const methods = listing.meta['order_by_methods'];
      if (methods === undefined && !t.has('dynamic-order-methods')) return t.skip('meta.order_by_methods came with 3.2.0 (dynamic order_by methods): no methods to try');
      t.require(typed(methods, isPlainObject(methods) && Object.keys(methods).length > 0, `meta.order_by_methods is ${show(methods)}`), 'CAT-37');
      const keys = Object.keys(methods as Json).slice(0, METHODS_TRIED);
      const { priceMethod, rating } = visibleOrders(Object.keys(methods as Json), t.has('sku-order-by-rating'));
      for (const method of keys) {
        // The methods the order_dir test asks both ways are asked as it asks them first: one exchange serves both tests.
        const query = method === priceMethod || method === rating ? { order_by: method, order_dir: 'asc' } : { order_by: method };
        const response = await t.api.get(pathOf('GET /categories/:category_id/skus', { category_id: leafId }), { query });
        if (!t.must(hasStatus(response, 200).ok ? pass() : fail(`order_by=${method}, a key of meta.order_by_methods, answered ${response.status}`), 'CAT-27', 'ORD-1')) continue;
        const body = t.json<Json>(response, 'GEN-4');
        const meta = isPlainObject(body) ? body['meta'] : undefined;
        // What meta says is CAT-37's, whatever order the SKUs come in (CAT-27's).
        t.must(orderedByEchoes(meta, method), 'CAT-37');
        // total_results as sent: a null there is a blank (GEN-8), only a warning.
        const total = totalResultsSent(meta);
        t.must(
          typed(total, total === listing.pagination.total_results, `order_by=${method} lists ${show(total)} SKUs, the default order ${listing.pagination.total_results}`),
          'CAT-27',
        );
      }
    },
  );

  conformanceTest(
    'order_dir asc and desc are accepted: the same SKUs, the method kept; by a price method and by rating (3.0.8) the SKUs are not listed the other way',
    {
      id: 'skus-order-dir',
      clauses: ['CAT-26#2', 'CAT-28#1', 'CAT-37#2', 'ORD-1#1-2', 'CHG-22#1'],
      requirements: ['CAT-26', 'CAT-28', 'CAT-37', 'ORD-1', 'CHG-22'],
      readings: ['CAT-26.a-g', 'CAT-28.a-f', 'CAT-37.a-g', 'ORD-1.a-i', 'CHG-22.a-f'],
      requests: 5,
    },
    async (t) => {
      const { leafId, listing } = await leafWithSkus(t);
      const visible = visibleOrders(orderMethodsOf(listing.meta), t.has('sku-order-by-rating'));
      const tried = methodsBothWays(visible, listing.meta['ordered_by']);
      if (tried.length === 0) return t.skip(`leaf ${leafId} names no order_by method`);
      for (const method of tried) await judgeOrderDirections(t, leafId, method, visible.priceMethod);
    },
  );

  conformanceTest(
    'manufacturer_ids[] keeps only SKUs of that manufacturer',
    { id: 'manufacturer-ids-filter', clauses: ['CAT-30#1'], requirements: ['CAT-30'], readings: ['CAT-30.a-d'], requests: 2 },
    async (t) => {
      const { leafId, listing } = await leafWithSkus(t);
      const manufacturerId = rarestManufacturer(listing.items);
      if (manufacturerId === null) return t.skip(`no SKU of leaf ${leafId} has an integer manufacturer_id`);
      const filtered = await skusOf(t, leafId, { 'manufacturer_ids[]': [manufacturerId] }, 'CAT-30');
      t.must(skusBelongToManufacturer(filtered.items, manufacturerId), 'CAT-30');
      t.must(skusInCategory(filtered.items, leafId), 'CAT-30');
      t.must(narrows(filtered.pagination.total_results, listing.pagination.total_results, `manufacturer_ids[]=${manufacturerId}`), 'CAT-30');
      t.must(listsSome(manufacturerId, filtered.pagination.total_results), 'CAT-30');
    },
  );

  conformanceTest(
    'manufacturer_ids[] with order_by, order_dir and per together (property): only SKUs of the manufacturers asked for, not listed the other way by a price method, per honoured',
    {
      id: 'manufacturer-ids-combined',
      clauses: ['CAT-28#1', 'CAT-30#1', 'CAT-37#2', 'PAG-4#1'],
      requirements: ['CAT-30', 'CAT-28', 'CAT-37', 'PAG-4'],
      readings: ['CAT-30.a-d', 'CAT-28.a-f', 'CAT-37.a-g', 'PAG-4.a-h'],
      requests: 2 + COMBINATION_CASES,
    },
    async (t) => {
      const { leafId, listing } = await leafWithSkus(t);
      await judgeCombinations(t, leafId, listing, scaledToBudget(COMBINATION_CASES - 1, t.run.maxRequests, 1));
    },
  );

  conformanceTest(
    'include_meta[]=available_filters adds meta.available_filters: filters, manufacturers, shops, availabilities, distances',
    {
      id: 'available-filters-meta',
      clauses: ['CAT-35#1', 'FILT-3#1-6', 'CHG-1#10'],
      requirements: ['CAT-35', 'FILT-3', 'CHG-1'],
      readings: ['CAT-35.a-g', 'FILT-3.a-h', 'CHG-1.a-e'],
      requests: 1,
    },
    async (t) => {
      const leafId = await t.discover('leafCategory');
      const { meta, pagination, response } = await skusOf(t, leafId, { 'include_meta[]': ['available_filters'] }, 'CAT-35');
      const available = meta['available_filters'];
      t.require(typed(available, isPlainObject(available), `include_meta[]=available_filters: meta.available_filters is ${show(available)}`), 'CAT-35', 'FILT-3');
      // Schema: the five keys (shops, availabilities, distances from 3.2.1), count maps and options.
      t.response('GET /categories/:category_id/skus', response, 'FILT-3', 'CAT-35', 'CHG-1');
      t.must(availableCountsWithinTotal(available, pagination.total_results), 'FILT-3');
    },
  );

  conformanceTest(
    'include_meta[]=applied_filters adds meta.applied_filters',
    { id: 'applied-filters-meta', clauses: ['CAT-35#2'], requirements: ['CAT-35', 'FILT-7'], readings: ['CAT-35.a-g'], requests: 1 },
    async (t) => {
      const { leafId, listing } = await leafWithSkus(t, { 'include_meta[]': ['applied_filters'] });
      // Its shape is not shown (FILT-7): only its presence is judged.
      t.must(hasAppliedFilters(listing.meta, leafId), 'CAT-35');
    },
  );

  conformanceTest(
    'filter_ids[] with a key of available_filters.filters lists as many SKUs as its count, all of the leaf',
    { id: 'filter-ids-filter', clauses: ['CAT-31#1-2', 'FILT-3#3'], requirements: ['CAT-31', 'FILT-3'], readings: ['CAT-31.a-g', 'FILT-3.a-h'], requests: 2 },
    async (t) => {
      const { leafId, all, available } = await leafWithAvailableFilters(t);
      const chosen = chooseFilter(available['filters'], all.pagination.total_results);
      if (!chosen) return t.skip(`no filter of leaf ${leafId} matches a SKU (meta.available_filters.filters ${show(available['filters'])})`);
      const filtered = await skusOf(t, leafId, { 'filter_ids[]': [chosen.id] }, 'CAT-31');
      t.must(filterCountMatches(chosen.id, chosen.count, filtered.pagination.total_results), ...countMismatchCites('CAT-31', chosen.count, filtered, all));
      t.must(narrows(filtered.pagination.total_results, all.pagination.total_results, `filter_ids[]=${chosen.id}`), 'CAT-31');
      t.must(skusInCategory(filtered.items, leafId), 'CAT-31');
    },
  );

  conformanceTest(
    'shop_ids[] with a key of available_filters.shops lists as many SKUs as its count, all of the leaf',
    { id: 'shop-ids-filter', clauses: ['CAT-32#1', 'FILT-3#5'], requirements: ['CAT-32', 'FILT-3'], readings: ['CAT-32.a-d', 'FILT-3.a-h'], requests: 2 },
    async (t) => {
      t.requireFeature('sku-listing-filters', 'The shop_ids[] filter of the category SKU listing');
      const { leafId, all, available } = await leafWithAvailableFilters(t);
      // "shops (objects mapping id to number of matching SKUs)": with no other filter, that many.
      const chosen = chooseFilter(available['shops'], all.pagination.total_results);
      if (!chosen) return t.skip(`no shop of leaf ${leafId} matches a SKU (meta.available_filters.shops ${show(available['shops'])})`);
      const filtered = await skusOf(t, leafId, { 'shop_ids[]': [chosen.id] }, 'CAT-32');
      t.must(shopCountMatches(chosen.id, chosen.count, filtered.pagination.total_results), ...countMismatchCites('CAT-32', chosen.count, filtered, all));
      t.must(narrows(filtered.pagination.total_results, all.pagination.total_results, `shop_ids[]=${chosen.id}`), 'CAT-32');
      t.must(skusInCategory(filtered.items, leafId), 'CAT-32');
    },
  );

  // distance and availability take the id of an option of meta.available_filters distances /
  // availabilities. What an option's count counts (SKUs or offers) is not stated: a count that
  // differs from the SKUs listed is a warning only.
  for (const [param, key, requirement, readings] of [
    ['distance', 'distances', 'CAT-33', 'CAT-33.a-g'],
    ['availability', 'availabilities', 'CAT-34', 'CAT-34.a-g'],
  ] as const) {
    conformanceTest(
      `${param} with the id of an option of available_filters.${key} is accepted and narrows the SKUs of the leaf`,
      // Whether the SKUs are narrowed to the class asked (CAT-33#2, CAT-34#2) awaits a check (src/requirements/awaiting-clauses.json).
      { id: `${param}-filter`, requirements: [requirement, 'FILT-3'], readings: [readings, 'FILT-3.a-h'], clauses: [`${requirement}#1`, 'FILT-3#1', 'FILT-3#6'], requests: 2 },
      async (t) => {
        t.requireFeature('sku-listing-filters', `The ${param} filter of the category SKU listing`);
        const { leafId, all, available } = await leafWithAvailableFilters(t);
        const options = available[key];
        t.require(typed(options, Array.isArray(options), `meta.available_filters.${key} is ${show(options)}, expected an array of {id, label, count}`), 'FILT-3', requirement);
        const option = chooseOption(options, all.pagination.total_results);
        if (!option) return t.skip(`meta.available_filters.${key} of leaf ${leafId} offers no option with an integer id (${show(options)})`);
        const filtered = await skusOf(t, leafId, { [param]: option.id }, requirement);
        t.must(narrows(filtered.pagination.total_results, all.pagination.total_results, `${param}=${option.id}`), requirement);
        t.must(skusInCategory(filtered.items, leafId), requirement);
        t.warn(optionCountMatches(key, param, option, filtered.pagination.total_results), requirement, 'FILT-3');
      },
    );
  }

  conformanceTest(
    'q filters by keyword: a whole word of a SKU name keeps that SKU and no more SKUs than the leaf has; letters no catalogue holds keep none',
    { id: 'q-keyword-filter', clauses: ['CAT-29#1'], requirements: ['CAT-29'], readings: ['CAT-29.a-f'], requests: 3 },
    async (t) => {
      const { leafId, listing } = await leafWithSkus(t);
      const sku = listing.items.find((s) => keywordOf(s['name']) !== null);
      if (!sku) return t.skip(`no SKU of leaf ${leafId} has a name with a word of 3 or more characters`);
      const q = keywordOf(sku['name'])!;
      const filtered = await skusOf(t, leafId, { q }, 'CAT-29');
      t.must(narrows(filtered.pagination.total_results, listing.pagination.total_results, `q=${q}`), 'CAT-29');
      t.must(skusInCategory(filtered.items, leafId), 'CAT-29');
      // Which fields a keyword matches, and whether as a word or a prefix, is not shown: a whole
      // word of the SKU's own name matches it under each reading.
      const keeps = keepsTheSku(q, sku, filtered.items, filtered.pagination.total_results);
      if (keeps.ok || filtered.pagination.total_pages <= 1) t.must(keeps, 'CAT-29');
      else t.warn(inContext('(the first page only; later pages were not read)', keeps), 'CAT-29');
      // And a keyword that matches nothing keeps nothing: a listing that ignores q lists them all.
      const nothing = improbableWord();
      const none = await skusOf(t, leafId, { q: nothing }, 'CAT-29');
      t.must(keepsNothing(nothing, none.pagination.total_results, none.items.length, listing.pagination.total_results), 'CAT-29');
    },
  );

  conformanceTest(
    'with a user token every SKU carries favorited (true or false)',
    { id: 'favorited-with-user-token', clauses: ['SKU-7#1-2', 'CHG-6#3'], requirements: ['SKU-7', 'CHG-6'], readings: ['SKU-7.a-f', 'CHG-6.a-d'], requests: 1 },
    async (t) => {
      t.requireFeature('favorited-on-category-skus', 'favorited on category SKUs');
      const leafId = await t.discover('leafCategory');
      const { response: user, skus } = await userSkusOf(t, leafId);
      if (!skus.length) t.skip(`leaf category ${leafId} lists no SKUs`);
      // The present rule of schemas/endpoints.json requires favorited where a user token asks; the schema its type.
      t.response('GET /categories/:category_id/skus', user, 'SKU-7', 'CHG-6');
    },
  );

  conformanceTest(
    "favorited tells the user's favorites: true for a SKU in one of their lists, false for one they have not favorited",
    { id: 'favorited-matches-favorites', clauses: ['SKU-7#3'], requirements: ['SKU-7', 'CHG-6', 'FAV-23'], readings: ['SKU-7.a-f', 'CHG-6.a-d', 'FAV-23.a-h'], requests: 4 },
    async (t) => {
      t.requireFeature('favorited-on-category-skus', 'favorited on category SKUs');
      // The user's favorites (the Favorites endpoints judge these answers themselves); from 3.2.0
      // owned favorites are listed only with owned=true, before the listing holds them.
      const { inLists, notFavorited } = await userFavorites(t);
      // A category holding the user's favorites, where there is one: there both values show; else
      // (its first page holding none, FAV-1.e) the discovered leaf too.
      for (const skus of await favoritesCategorySkus(t, inLists)) t.must(favoritedMatchesFavorites(skus, inLists, notFavorited), 'SKU-7');
    },
  );
});

describe('an unknown category', () => {
  conformanceTest(
    'answers 404 with RecordNotFound on its specifications, manufacturers, filter groups and SKUs',
    {
      id: 'unknown-category-404',
      clauses: ['ERR-2#1-3', 'ERR-9#1', 'ERR-14#1'],
      requirements: ['ERR-9', 'ERR-2', 'ERR-14', 'ERR-16'],
      readings: ['ERR-9.a-j', 'ERR-2.a-h', 'ERR-14.a-g'],
      requests: 4,
    },
    async (t) => {
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
        judgeNotFoundBody(t, response, `GET ${path}`);
      }
    },
  );
});
