// Rare data: the one future SKU, the one shop with an unstructured location. The first pages of a
// few listings rarely hold them (issue 38), so discovery reads on: every leaf's first SKU page,
// then their later pages; the shops of every SKU with offers it has seen, each shop's locations
// page by page. It stops when the run's discovery share is spent, and says how much it read, so
// that a skip names what was searched and the hint that would save it.
//
// Reading order keeps the default run cheap: the pages the tests ask anyway come first (the
// answers are shared), later pages only when those hold nothing.
import type { CategoryWalker, DiscoveryShare, Json, Page } from './walker.ts';
import { pathOf } from '../rules/api-paths.ts';

/** The part of CATALOGUE_MAX_REQUESTS that rare-data searches may spend, all together. */
export const RARE_DATA_SHARE = 0.2;

/** What a search read, for a skip's message. */
export interface SearchTally {
  containers: number;
  pages: number;
  items: number;
  requests: number;
  exhausted: boolean;
}

/** Nothing filled the role: the message says what was read, and the hint that would save the walk. */
export class RareDataNotFound extends Error {
  override name = 'RareDataNotFound';
}

export function notFoundMessage(what: string, containers: string, tally: SearchTally, share: DiscoveryShare, hint: string): string {
  const how = tally.exhausted ? `the run's discovery share (${share.limit} requests, ${RARE_DATA_SHARE * 100}% of CATALOGUE_MAX_REQUESTS) was spent` : 'every page was read';
  return (
    `discovery: no ${what} in ${tally.containers} ${containers} looked at (${tally.pages} pages, ${tally.items} items, ${tally.requests} requests of its own; ${how}). ` +
    `Name one in the CATALOGUE_HINTS file as ${hint} to save the search and judge it`
  );
}

/** Where a search reads: the first page of a container (and whether the run has it already), a next page. */
interface Pages {
  first: (id: number) => Promise<Page>;
  cached?: (id: number) => boolean;
  next: (url: string) => Promise<Page>;
}

/**
 * Pages of each container (a leaf's SKUs, a shop's locations), breadth first: every first page,
 * then every second page, and so on, until `accepts` takes an item or the share is spent. A first
 * page the run has already costs no request.
 */
export async function searchPages(
  containers: AsyncIterable<number> | Iterable<number>,
  pages: Pages,
  accepts: (item: Json) => boolean,
  share: DiscoveryShare,
): Promise<{ found: { container: number; item: Json } | null; tally: SearchTally }> {
  const tally: SearchTally = { containers: 0, pages: 0, items: 0, requests: 0, exhausted: false };
  const spend = (): boolean => {
    if (!share.take()) return false;
    tally.requests++;
    return true;
  };
  const read = (page: Page, container: number) => {
    tally.pages++;
    tally.items += page.items.length;
    const item = page.items.find(accepts);
    return item ? { container, item } : null;
  };
  let frontier: { container: number; url: string }[] = [];
  for await (const container of containers) {
    if (!pages.cached?.(container) && !spend()) return { found: null, tally: { ...tally, exhausted: true } };
    tally.containers++;
    const page = await pages.first(container).catch(() => null);
    if (!page) continue;
    const found = read(page, container);
    if (found) return { found, tally };
    if (page.next) frontier.push({ container, url: page.next });
  }
  if (share.left === 0) tally.exhausted = true;
  while (frontier.length) {
    const later: typeof frontier = [];
    for (const { container, url } of frontier) {
      if (!spend()) return { found: null, tally: { ...tally, exhausted: true } };
      const page = await pages.next(url).catch(() => null);
      if (!page) continue;
      const found = read(page, container);
      if (found) return { found, tally };
      if (page.next) later.push({ container, url: page.next });
    }
    frontier = later;
  }
  return { found: null, tally };
}

const isFuture = (sku: Json) => sku['future'] === true;
const skuPages = (w: CategoryWalker): Pages => ({ first: (id) => w.skuPage(id), cached: (id) => w.hasSkuPage(id), next: (url) => w.pageAt(url, 'skus') });

/** A kind of SKU discovery searches the leaves' listings for, and the hint key naming the leaf that lists one. */
export interface SkuKind {
  what: string;
  hintKey: string;
  accepts: (sku: Json) => boolean;
}

export const FUTURE_SKU: SkuKind = { what: 'future SKU (future true)', hintKey: 'futureSkuCategory', accepts: isFuture };

/** A SKU of that kind: the leaves' SKU listings, the discovered leaf first, page by page. */
export async function findSku(w: CategoryWalker, kind: SkuKind, leafId: number | null, share: DiscoveryShare): Promise<number> {
  const leaves = [...new Set([...(leafId === null ? [] : [leafId]), ...(await w.allLeaves(share))])];
  const { found, tally } = await searchPages(leaves, skuPages(w), kind.accepts, share);
  if (found) return found.item['id'] as number;
  throw new RareDataNotFound(notFoundMessage(kind.what, 'leaf categories', tally, share, `{"${kind.hintKey}": <the id of the leaf that lists one>}`));
}

/** A SKU of that kind a leaf category lists on some page (a hint's check), or null. */
export async function skuOfKindIn(w: CategoryWalker, kind: SkuKind, categoryId: number, share: DiscoveryShare): Promise<number | null> {
  const { found } = await searchPages([categoryId], skuPages(w), kind.accepts, share);
  return found ? (found.item['id'] as number) : null;
}

const isUnstructured = (location: Json) => location['format'] === 'unstructured';
const locationPages = (w: CategoryWalker): Pages => ({
  first: (id) => w.page(pathOf('GET /shops/:shop_id/locations', { shop_id: id }), 'locations'),
  next: (url) => w.pageAt(url, 'locations'),
});

const offers = (sku: Json) => sku['future'] !== true && typeof sku['shop_count'] === 'number' && sku['shop_count'] > 0 && Number.isInteger(sku['id']);

/**
 * The SKUs whose shops discovery can name: the discovered SKU with offers, then the other SKUs
 * with offers of the SKU pages read, then those of every leaf's first page (each page not read
 * yet takes the share).
 */
async function* skusWithOffers(w: CategoryWalker, firstSku: number | null, share: DiscoveryShare): AsyncGenerator<number> {
  const seen = new Set<number>();
  const fresh = (skus: Json[]) =>
    skus
      .filter(offers)
      .map((s) => s['id'] as number)
      .filter((id) => !seen.has(id) && seen.add(id));
  // The SKUs offered by the most shops first: each products page then names the most shops.
  const byShops = (skus: Json[]) => [...skus].sort((a, b) => (b['shop_count'] as number) - (a['shop_count'] as number));
  if (firstSku !== null) yield* fresh([{ id: firstSku, shop_count: 1 }]);
  yield* fresh(byShops((await w.seenSkus()).filter(offers)));
  for (const leaf of await w.allLeaves(share)) {
    if (!w.hasSkuPage(leaf) && !share.take()) return;
    yield* fresh(byShops((await w.skus(leaf).catch(() => [] as Json[])).filter(offers)));
  }
}

/**
 * A shop with an unstructured location. SKU by SKU, the shops offering it that were not seen yet:
 * every page of their locations (first pages, then later ones), before the next SKU's shops.
 */
export async function findShopWithUnstructuredLocation(w: CategoryWalker, skuId: number | null, share: DiscoveryShare): Promise<number> {
  const total: SearchTally = { containers: 0, pages: 0, items: 0, requests: 0, exhausted: false };
  const shops = new Set<number>();
  for await (const sku of skusWithOffers(w, skuId, share)) {
    if (!w.hasProducts(sku)) {
      if (!share.take()) break;
      total.requests++;
    }
    const fresh = (await w.productsOf(sku).catch(() => [] as Json[])).map((p) => p['shop_id']).filter((id): id is number => Number.isInteger(id) && !shops.has(id as number));
    fresh.forEach((id) => shops.add(id));
    const { found, tally } = await searchPages(new Set(fresh), locationPages(w), isUnstructured, share);
    for (const key of ['containers', 'pages', 'items', 'requests'] as const) total[key] += tally[key];
    if (found) return found.container;
    if (tally.exhausted) break;
  }
  total.exhausted = share.left === 0;
  throw new RareDataNotFound(notFoundMessage('unstructured location', 'shops offering the SKUs seen', total, share, '{"shopWithUnstructuredLocation": <shop id>}'));
}

/** Whether a shop lists an unstructured location on some page (a hint's check). */
export async function hasUnstructuredLocation(w: CategoryWalker, shopId: number, share: DiscoveryShare): Promise<boolean> {
  return (await searchPages([shopId], locationPages(w), isUnstructured, share)).found !== null;
}
