// How the SKUs suite (suites/skus.suite.ts) finds its SKUs and reads their product lists: discovery
// through the category SKU listings of leaves (no id, name or count of any data set is written
// here), and the readers its tests share.
import { isPlainObject, show, typed } from '../checks/check.ts';
import { hasCollectionEnvelope, hasStatus } from '../checks/http.ts';
import { paginationMetaIsWellFormed, readPagination } from '../checks/pagination.ts';
import { inContext, listWithin, productsHave, type Json, type ProductList } from '../checks/products.ts';
import { allOf } from '../checks/check.ts';
import type { HttpResponse } from '../http/client.ts';
import { type ConformanceContext } from '../harness/conformance.ts';
import { type Query } from '../harness/requests.ts';
import { pathOf } from '../rules/api-paths.ts';
import { addUnlistedCategories } from '../engines/category-tree.ts';
import { judgeNotFoundBody } from '../engines/not-found.ts';

/** Most leaves a test walks to find a SKU of some kind before it skips. */
const LEAVES_SCANNED = 12;

/** The SKUs of a leaf category (first page); discovery, so a bad answer skips rather than fails. */
async function skusOf(t: ConformanceContext, leafId: number): Promise<Json[]> {
  const response = await t.api.get(pathOf('GET /categories/:category_id/skus', { category_id: leafId }));
  if (response.status !== 200) t.skip(`discovery: GET /categories/${leafId}/skus answered ${response.status}`);
  const skus = (response.json<{ skus?: unknown }>() ?? {}).skus;
  if (!Array.isArray(skus)) t.skip(`discovery: GET /categories/${leafId}/skus has no skus array`);
  return (skus as unknown[]).filter((s): s is Json => isPlainObject(s) && Number.isInteger(s['id']));
}

/** Leaf categories other than `except`; when asked, the deepest and the first listed in turn (sized goods tend to sit deep). */
/** Pages of GET /categories read at most when a deployment caps per below the 100 asked. */
const CATEGORY_PAGES = 3;

async function otherLeaves(t: ConformanceContext, except: number | null, deepestFirst: boolean): Promise<number[]> {
  // The largest per is not stated: a deployment that refuses 100 is asked for its default page,
  // and one that caps it is read a few pages further.
  let query: Record<string, number> = { per: 100 };
  let response = await t.api.get(pathOf('GET /categories'), { query });
  if (response.status === 400 || response.status === 422) response = await t.api.get(pathOf('GET /categories'), { query: (query = {}) });
  const categories: unknown[] = [];
  for (let page = 1; response.status === 200 && page <= CATEGORY_PAGES; page++) {
    const body = response.json<{ categories?: unknown }>() ?? {};
    if (!Array.isArray(body.categories)) break;
    categories.push(...body.categories);
    const pagination = readPagination(body);
    if (!pagination || pagination.page >= pagination.total_pages || page === CATEGORY_PAGES) break;
    response = await t.api.get(pathOf('GET /categories'), { query: { ...query, page: page + 1 } });
  }
  await addUnlistedCategories(t, categories);
  const leaves = categories.filter((c): c is Json => isPlainObject(c) && Number.isInteger(c['id']) && c['children_count'] === 0 && c['id'] !== except);
  const depth = (c: Json) => (typeof c['path'] === 'string' ? c['path'].split(',').length : 0);
  const listed = leaves.map((c) => c['id'] as number);
  if (!deepestFirst) return listed;
  // The deepest leaves and the first listed, taken in turn.
  const deepest = [...leaves].sort((a, b) => depth(b) - depth(a)).map((c) => c['id'] as number);
  return [...new Set(deepest.flatMap((id, i) => [id, listed[i]!]))];
}

/** The first SKU `accepts` takes, from the discovered leaf and then other leaves; skips when none. */
export async function findSku(t: ConformanceContext, what: string, accepts: (skus: Json[]) => Json | undefined, deepestFirst = false): Promise<Json> {
  let first: number | null = null;
  let scanned = 0;
  if (!deepestFirst) {
    first = await t.discover('leafCategory');
    scanned++;
    const found = accepts(await skusOf(t, first));
    if (found) return found;
  }
  for (const leaf of (await otherLeaves(t, first, deepestFirst)).slice(0, LEAVES_SCANNED)) {
    scanned++;
    const found = accepts(await skusOf(t, leaf));
    if (found) return found;
  }
  return t.skip(`discovery: no ${what} in the ${scanned} leaf categories looked at (first page of each)`);
}

/** A SKU with offers: not future, the most shops among those of its leaf. */
function withMostShops(skus: Json[]): Json | undefined {
  return skus
    .filter((s) => s['future'] !== true && typeof s['shop_count'] === 'number' && s['shop_count'] > 0)
    .sort((a, b) => (b['shop_count'] as number) - (a['shop_count'] as number))[0];
}

export const skuWithProducts = (t: ConformanceContext) => findSku(t, 'SKU with offers (future false, shop_count > 0)', withMostShops);

/** GET /skus/:id/products; stops unless 200 {products, meta} with pagination. */
export async function productsOf(t: ConformanceContext, skuId: number, query: Query = {}): Promise<{ products: Json[]; meta: Json; body: Json; response: HttpResponse }> {
  const response = await t.api.get(pathOf('GET /skus/:id/products', { id: skuId }), { query });
  t.require(hasStatus(response, 200), 'SKU-10');
  return { ...productsFrom(t, response), response };
}

/** The products of a 200 answer; stops unless {products, meta} with pagination. */
function productsFrom(t: ConformanceContext, response: HttpResponse): { products: Json[]; meta: Json; body: Json } {
  const body = t.json<Json>(response, 'GEN-4');
  t.require(hasCollectionEnvelope(body, 'products'), 'GEN-7', 'SKU-10');
  t.require(typed(body['meta'], isPlainObject(body['meta']), `meta is ${show(body['meta'])}, expected an object`), 'SKU-10', 'PRD-9');
  t.require(paginationMetaIsWellFormed(body), 'PAG-1', 'PRD-9');
  return { products: (body['products'] as unknown[]).filter(isPlainObject), meta: body['meta'] as Json, body };
}

/** A product list of one page as the filter checks read it. */
function listOf(products: Json[], body: Json): ProductList {
  const pagination = readPagination(body)!;
  return { products, total: pagination.total_results, complete: pagination.total_pages <= 1 };
}

/**
 * The unfiltered products of a SKU with meta.filters (include_meta[]=filters), which may offer
 * filter values; asked again without it when refused (meta.filters is judged by its own test).
 */
export async function unfilteredWithFilterMeta(t: ConformanceContext, skuId: number): Promise<{ list: ProductList; filterMeta: Json }> {
  const response = await t.api.get(pathOf('GET /skus/:id/products', { id: skuId }), { query: { 'include_meta[]': ['filters'] } });
  const { products, meta, body } = response.status === 200 ? productsFrom(t, response) : await productsOf(t, skuId);
  return { list: listOf(products, body), filterMeta: isPlainObject(meta['filters']) ? meta['filters'] : {} };
}

/**
 * The products of a SKU under one filter value, judged against the unfiltered list: 200
 * {products, meta} with pagination, every product of that SKU, a part of the unfiltered list.
 * `refusal` is MUST for a value of the documented kind, WARN for one only a meta.filters map
 * offers; what a 200 answer holds is always MUST. A failure gives null, so the other filters are
 * still tried.
 */
export async function filteredList(
  t: ConformanceContext,
  skuId: number,
  whole: ProductList,
  query: Query,
  refusal: 'MUST' | 'WARN',
  ...ids: string[]
): Promise<ProductList | null> {
  const asked = Object.entries(query)
    .map(([k, v]) => `${k}=${String(v)}`)
    .join('&');
  const response = await t.api.get(pathOf('GET /skus/:id/products', { id: skuId }), { query });
  const accepted = inContext(asked, hasStatus(response, 200));
  if (!(refusal === 'MUST' ? t.must(accepted, ...ids) : t.warn(accepted, ...ids))) return null;
  const body = t.json<unknown>(response, 'GEN-4');
  if (!t.must(inContext(asked, allOf([hasCollectionEnvelope(body, 'products'), paginationMetaIsWellFormed(body)])), ...ids, 'SKU-10')) return null;
  const list = listOf(((body as Json)['products'] as unknown[]).filter(isPlainObject), body as Json);
  // Products of other SKUs: the filter lost the list's scope (its own statement, as a refusal is).
  t.must(inContext(asked, productsHave(list.products, 'sku_id', skuId)), ...ids);
  t.must(listWithin(list, `the list with ${asked}`, whole, 'the unfiltered list'), ...ids);
  return list;
}

/** Products of a SKU with offers; skips when its list is empty after all (the SKU's fields are judged elsewhere). */
export async function someProducts(t: ConformanceContext, query: Query = {}): Promise<{ sku: Json; products: Json[]; meta: Json; body: Json; response: HttpResponse }> {
  const sku = await skuWithProducts(t);
  const listed = await productsOf(t, sku['id'] as number, query);
  if (!listed.products.length) t.skip(`SKU ${show(sku['id'])} (shop_count ${show(sku['shop_count'])}) lists no products`);
  return { sku, ...listed };
}

/** An id far above any a catalogue hands out. */
export const unknownId = () => 2_000_000_000 + Math.floor(Math.random() * 100_000_000);

/** 404 with the {errors} body and RecordNotFound; a 200 means the id exists after all (skip). */
export function expectRecordNotFound(t: ConformanceContext, response: HttpResponse, path: string): void {
  if (response.status === 200) t.skip(`the deployment answers ${path} with 200: no unknown id to ask for`);
  t.must(hasStatus(response, 404), 'ERR-9');
  judgeNotFoundBody(t, response, `GET ${path}`);
}
