// Spec: Endpoints > Manufacturers (GET /manufacturers, /manufacturers/:id, /manufacturers/:id/
// categories, /manufacturers/:id/skus), Resources and their fields > Manufacturer, Category
// (match_count only in search), SKU, General conventions 1-3, Endpoints > General rules 2
// (pagination) and 5 (order_by, order_dir), Errors (404 RecordNotFound).
// Manufacturers are found through GET /manufacturers: the suite names no id, name or count.
// Defaults of the orderings are not shown (ORD-2), so only an explicit order_by and order_dir is
// judged, and only where the order shows in the returned fields (name; price, by either price).
import { describe } from 'vitest';
import { allOf, blank, fail, inContext, isPlainObject, pass, show, typed } from '../src/checks/check.ts';
import { hasNoMatchCount } from '../src/checks/categories.ts';
import { hasCollectionEnvelope, hasSingleEnvelope, hasStatus } from '../src/checks/http.ts';
import {
  defaultPageSizeIs25,
  nextAndLastLinksWhileMorePages,
  paginationClauses,
  paginationMetaIsWellFormed,
  readPagination,
  smallPageSize,
  type Pagination,
} from '../src/checks/pagination.ts';
import { namesAreOrdered, notInReverseOrder, pricesAreOrdered, sameMembers, skusBelongToManufacturer } from '../src/checks/search.ts';
import { PrerequisiteMissing } from '../src/harness/api.ts';
import { conformanceTest, type ConformanceContext } from '../src/harness/conformance.ts';
import { orderingsOf } from '../src/harness/requests.ts';
import { pathOf } from '../src/rules/api-paths.ts';
import { judgeNotFoundBody } from '../src/engines/not-found.ts';

type Json = Record<string, unknown>;
type Sub = 'categories' | 'skus';

interface Listing {
  items: Json[];
  pagination: Pagination;
  headers: Record<string, string>;
}

/** How many manufacturers are tried to find one with categories or SKUs. */
const CANDIDATES = 3;

/** GET a paginated collection under `key`; stops the test unless it is 200 {key, meta.pagination}. */
async function getListing(t: ConformanceContext, path: string, key: string, query: Record<string, string | number>, ...requirements: string[]): Promise<Listing> {
  const response = await t.api.get(path, { query });
  t.require(hasStatus(response, 200), ...requirements);
  const body = t.json<Json>(response, 'GEN-4');
  t.require(hasCollectionEnvelope(body, key), 'GEN-7', ...requirements);
  t.require(paginationMetaIsWellFormed(body), 'PAG-1', ...requirements);
  return { items: body[key] as Json[], pagination: readPagination(body)!, headers: response.headers };
}

/**
 * The first `count` manufacturers listed; skips when there are none. From the first page as every
 * client asks it (no per): the run has it already (issue 17, request economy).
 */
async function someManufacturers(t: ConformanceContext, count: number): Promise<Json[]> {
  const { items } = await getListing(t, pathOf('GET /manufacturers'), 'manufacturers', {}, 'MAN-2');
  const usable = items.filter((m) => isPlainObject(m) && Number.isInteger(m['id'])).slice(0, count);
  if (usable.length === 0) t.skip('GET /manufacturers lists no manufacturer with an integer id');
  return usable;
}

/**
 * A manufacturer whose `sub` listing (default parameters) holds at least `minimum` items:
 * discovery's (whose listings the pagination and fieldsets suites ask too), else the first of
 * the listing that has them.
 */
async function manufacturerWith(t: ConformanceContext, sub: Sub, minimum: number): Promise<{ id: number; listing: Listing }> {
  const requirement = sub === 'skus' ? 'MAN-5' : 'MAN-4';
  const discovered = await t.discover('manufacturerWithSkus').catch((error: unknown) => {
    if (error instanceof PrerequisiteMissing) return null;
    throw error;
  });
  const listed = (await someManufacturers(t, CANDIDATES)).map((m) => m['id'] as number);
  for (const id of [...(discovered === null ? [] : [discovered]), ...listed.filter((id) => id !== discovered)]) {
    const listing = await getListing(t, pathOf(`GET /manufacturers/:id/${sub}` as const, { id }), sub, {}, requirement);
    if (listing.pagination.total_results >= minimum) return { id, listing };
  }
  return t.skip(`none of the first ${CANDIDATES} manufacturers has ${minimum} or more ${sub}`);
}

/** An id far above any a catalogue hands out. */
function unlikelyId(): number {
  return 2_000_000_000 + Math.floor(Math.random() * 100_000_000);
}

/**
 * 404 with the errors body and RecordNotFound; a 200 for the id itself skips (it exists after all).
 * A collection under the missing manufacturer (`sub`) may be answered 200, as an empty collection,
 * instead of 404 (as the reviews and shops suites read it): not judged, and the reason is returned.
 */
async function expectRecordNotFound(t: ConformanceContext, path: string, missing: number, sub = false): Promise<string | null> {
  const response = await t.api.get(path);
  if (response.status === 200) {
    if (sub) return `the deployment answers GET ${path} with 200: a collection under a manufacturer that does not exist may be served empty, so no 404 to judge`;
    try {
      const body = JSON.parse(response.text) as { manufacturer?: { id?: unknown } };
      if (body?.manufacturer?.id === missing) t.skip(`the deployment has a manufacturer with id ${missing}; no unknown id to ask for`);
    } catch {
      // judged below
    }
  }
  if (t.must(hasStatus(response, 404), 'ERR-9')) judgeNotFoundBody(t, response, `GET ${path}`, { id: missing, kind: 'manufacturer' });
  return null;
}

describe('GET /manufacturers', () => {
  conformanceTest(
    'answers {manufacturers, meta} with 25 per page by default, every item a Manufacturer',
    {
      id: 'listing-25-per-page',
      clauses: ['PAG-1#1-5', 'PAG-2#1', 'GEN-7#2', 'MAN-1#1-4', 'MAN-2#1'],
      requirements: ['MAN-2', 'MAN-1', 'GEN-7', 'PAG-1', 'PAG-2'],
      readings: ['MAN-2.a-c', 'MAN-1.a-b', 'GEN-7.a-e', 'PAG-1.a-e', 'PAG-2.a-e'],
      requests: 1,
    },
    async (t) => {
      const { items, pagination } = await getListing(t, pathOf('GET /manufacturers'), 'manufacturers', {}, 'MAN-2');
      t.schema('responses/manufacturers.json', { manufacturers: items, meta: { pagination } }, 'MAN-1', 'MAN-2');
      t.must(defaultPageSizeIs25(pagination), 'PAG-2');
      for (const [check, id] of paginationClauses(pagination, items.length)) t.must(check, id);
      if (items[0]) t.undocumentedFields('resources/manufacturer.json', items[0], 'a listed manufacturer', 'MAN-1');
    },
  );

  conformanceTest(
    'page and per select a page: meta echoes them, pages do not overlap, a Link header points on',
    {
      id: 'page-and-per',
      clauses: ['PAG-3#1', 'PAG-3#3', 'PAG-4#1', 'PAG-5#1', 'MAN-2#1-2'],
      requirements: ['MAN-2', 'PAG-3', 'PAG-4', 'PAG-5'],
      readings: ['MAN-2.a-c', 'PAG-3.a-g', 'PAG-4.a-h', 'PAG-5.a-j'],
      requests: 3,
    },
    async (t) => {
      // The pagination suite's per for this collection (smallPageSize of the total): the same pages,
      // asked once in the run and judged by both suites (issue 17).
      const all = await getListing(t, pathOf('GET /manufacturers'), 'manufacturers', {}, 'MAN-2');
      const per = smallPageSize(all.pagination.total_results);
      if (per === null) return t.skip(`the deployment has ${all.pagination.total_results} manufacturers: a single page at any per`);
      const first = await getListing(t, pathOf('GET /manufacturers'), 'manufacturers', { per }, 'MAN-2');
      for (const [check, id] of paginationClauses(first.pagination, first.items.length, { page: 1, per })) t.must(check, id);
      if (first.pagination.total_pages < 2) t.skip(`the deployment has ${first.pagination.total_results} manufacturers: no second page at per=${per}`);
      t.must(nextAndLastLinksWhileMorePages(first.headers, first.pagination, first.items.length), 'PAG-5');
      const second = await getListing(t, pathOf('GET /manufacturers'), 'manufacturers', { per, page: 2 }, 'MAN-2');
      for (const [check, id] of paginationClauses(second.pagination, second.items.length, { page: 2, per })) t.must(check, id);
      const firstIds = new Set(first.items.map((m) => m['id']));
      const shared = second.items.filter((m) => firstIds.has(m['id'])).map((m) => String(m['id']));
      t.must(shared.length === 0 ? pass() : fail(`pages 1 and 2 both list manufacturers ${shared.join(', ')}`), 'PAG-3');
    },
  );
});

describe('GET /manufacturers/:id', () => {
  conformanceTest(
    'answers {manufacturer} for the id asked: the manufacturer the listing shows',
    {
      id: 'manufacturer-by-id',
      clauses: ['GEN-7#1', 'MAN-1#1-4', 'MAN-3#1-2'],
      requirements: ['MAN-3', 'MAN-1', 'GEN-7'],
      readings: ['MAN-3.a-d', 'MAN-1.a-b', 'GEN-7.a-e'],
      requests: 2,
    },
    async (t) => {
      const [listed] = await someManufacturers(t, 1);
      const id = listed!['id'] as number;
      const response = await t.api.get(pathOf('GET /manufacturers/:id', { id }));
      t.require(hasStatus(response, 200), 'MAN-3');
      const body = t.json<Json>(response, 'GEN-4');
      t.require(hasSingleEnvelope(body, 'manufacturer'), 'GEN-7', 'MAN-3');
      const manufacturer = body['manufacturer'] as Json;
      t.schema('responses/manufacturer.json', body, 'MAN-1', 'MAN-3');
      t.must(typed(manufacturer['id'], manufacturer['id'] === id, `GET /manufacturers/${id} answered manufacturer ${show(manufacturer['id'])}`), 'MAN-3');
      // A blank name on either side (GEN-8) cannot be compared: it only warns.
      const named = `manufacturer ${id} is named ${show(manufacturer['name'])}, but ${show(listed!['name'])} in GET /manufacturers`;
      t.must(manufacturer['name'] === listed!['name'] ? pass() : manufacturer['name'] === null || listed!['name'] === null ? blank(named) : fail(named), 'MAN-3');
      t.undocumentedFields('resources/manufacturer.json', manufacturer, `manufacturer ${id}`, 'MAN-1');
    },
  );

  conformanceTest(
    'a manufacturer that does not exist answers 404 with RecordNotFound, on its categories and SKUs too',
    {
      id: 'unknown-manufacturer-404',
      clauses: ['ERR-2#1-3', 'ERR-9#1', 'ERR-14#1'],
      requirements: ['ERR-9', 'ERR-2', 'ERR-14'],
      readings: ['ERR-9.a-j', 'ERR-2.a-h', 'ERR-14.a-g'],
      requests: 3,
    },
    async (t) => {
      const missing = unlikelyId();
      await expectRecordNotFound(t, pathOf('GET /manufacturers/:id', { id: missing }), missing);
      const notJudged = [
        await expectRecordNotFound(t, pathOf('GET /manufacturers/:id/categories', { id: missing }), missing, true),
        await expectRecordNotFound(t, pathOf('GET /manufacturers/:id/skus', { id: missing }), missing, true),
      ].filter((reason) => reason !== null);
      if (notJudged.length) t.skip(notJudged.join('; '));
    },
  );
});

describe('GET /manufacturers/:id/categories', () => {
  conformanceTest(
    'answers {categories, meta}: Categories without match_count, paginated by 25',
    {
      id: 'categories-listing',
      clauses: ['CAT-4#1-9', 'CAT-14#3', 'PAG-1#1-5', 'PAG-2#1', 'MAN-4#4'],
      requirements: ['MAN-4', 'CAT-4', 'CAT-14', 'PAG-1', 'PAG-2'],
      readings: ['MAN-4.a-j', 'CAT-4.a-g', 'CAT-14.a-e', 'PAG-1.a-e', 'PAG-2.a-e'],
      requests: 2 + CANDIDATES,
    },
    async (t) => {
      const { id, listing } = await manufacturerWith(t, 'categories', 1);
      const { items, pagination } = listing;
      t.schema('responses/categories.json', { categories: items, meta: { pagination } }, 'CAT-4', 'MAN-4');
      t.must(allOf(items.map((c) => hasNoMatchCount(c))), 'CAT-14');
      t.must(defaultPageSizeIs25(pagination), 'PAG-2');
      for (const [check, id] of paginationClauses(pagination, items.length)) t.must(check, id);
      if (items[0]) t.undocumentedFields('resources/category.json', items[0], `a category of manufacturer ${id}`, 'CAT-4');
    },
  );

  conformanceTest(
    'order_by name or popularity and order_dir asc or desc are accepted; by name the names follow order_dir',
    {
      id: 'categories-ordering',
      clauses: ['ORD-1#1-2', 'MAN-4#1', 'MAN-4#3-4'],
      requirements: ['MAN-4', 'ORD-1'],
      readings: ['MAN-4.a-j', 'ORD-1.a-i'],
      requests: 2 + CANDIDATES + 3,
    },
    async (t) => {
      const { id } = await manufacturerWith(t, 'categories', 2);
      const path = pathOf('GET /manufacturers/:id/categories', { id });
      const listings: Partial<Record<string, Listing>> = {};
      for (const [orderBy, dir] of orderingsOf('name')) {
        const listing = await getListing(t, path, 'categories', { order_by: orderBy, order_dir: dir }, 'MAN-4', 'ORD-1');
        listings[`${orderBy} ${dir}`] = listing;
        if (orderBy === 'name') {
          t.must(
            inContext(
              `GET ${path}?order_by=name&order_dir=${dir}`,
              namesAreOrdered(
                listing.items.map((c) => c['name']),
                dir,
              ),
            ),
            'MAN-4',
          );
        }
      }
      // One complete page in every order: the same categories each time.
      const all = Object.entries(listings);
      if (all.every(([, l]) => l!.pagination.total_pages <= 1)) {
        const [firstKey, first] = all[0]!;
        t.must(allOf(all.slice(1).map(([key, l]) => sameMembers(`${path} by ${firstKey} and by ${key}`, first!.items, l!.items))), 'MAN-4');
      }
    },
  );
});

describe('GET /manufacturers/:id/skus', () => {
  conformanceTest(
    'answers {skus, meta}: SKUs of that manufacturer, paginated by 25',
    {
      id: 'skus-listing',
      clauses: ['PAG-1#1-5', 'PAG-2#1', 'SKU-2#1-20', 'MAN-5#4-5'],
      requirements: ['MAN-5', 'SKU-2', 'PAG-1', 'PAG-2'],
      readings: ['MAN-5.a-i', 'SKU-2.a-g', 'PAG-1.a-e', 'PAG-2.a-e'],
      requests: 2 + CANDIDATES,
    },
    async (t) => {
      const { id, listing } = await manufacturerWith(t, 'skus', 1);
      const { items, pagination } = listing;
      t.schema('responses/skus.json', { skus: items, meta: { pagination } }, 'SKU-2', 'MAN-5');
      t.must(skusBelongToManufacturer(items, id), 'MAN-5');
      t.must(defaultPageSizeIs25(pagination), 'PAG-2');
      for (const [check, id] of paginationClauses(pagination, items.length)) t.must(check, id);
      if (items[0]) t.undocumentedFields('resources/sku.json', items[0], `a SKU of manufacturer ${id}`, 'SKU-2');
    },
  );

  conformanceTest(
    'order_by price or popularity and order_dir asc or desc are accepted; by price the prices follow order_dir',
    { id: 'skus-ordering', clauses: ['ORD-1#1-2', 'MAN-5#3-5'], requirements: ['MAN-5', 'ORD-1'], readings: ['MAN-5.a-i', 'ORD-1.a-i'], requests: 2 + CANDIDATES + 3 },
    async (t) => {
      const { id } = await manufacturerWith(t, 'skus', 2);
      const path = pathOf('GET /manufacturers/:id/skus', { id });
      const listings: Partial<Record<string, Listing>> = {};
      for (const [orderBy, dir] of orderingsOf('price')) {
        const listing = await getListing(t, path, 'skus', { order_by: orderBy, order_dir: dir }, 'MAN-5', 'ORD-1');
        listings[`${orderBy} ${dir}`] = listing;
        t.must(skusBelongToManufacturer(listing.items, id), 'MAN-5');
        if (orderBy === 'price') {
          // Which price orders the SKUs (price_min, price_max, another) the spec does not say: the
          // other way by both fails, no order by either only warns.
          t.must(inContext(`GET ${path}?order_by=price&order_dir=${dir}`, notInReverseOrder(listing.items, ['price_min', 'price_max'], dir)), 'MAN-5');
          t.warn(inContext(`GET ${path}?order_by=price&order_dir=${dir}`, pricesAreOrdered(listing.items, dir)), 'MAN-5');
        }
      }
      const all = Object.entries(listings);
      if (all.every(([, l]) => l!.pagination.total_pages <= 1)) {
        const [firstKey, first] = all[0]!;
        t.must(allOf(all.slice(1).map(([key, l]) => sameMembers(`${path} by ${firstKey} and by ${key}`, first!.items, l!.items))), 'MAN-5');
      }
    },
  );
});
