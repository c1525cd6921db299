// Checks of paginated collections: meta.pagination (convention 2) and the Link header (General
// rules 2).
import LinkHeader from 'http-link-header';
import { allOf, blank, fail, isPlainObject, pass, show, typed, type CheckResult } from './check.ts';

export interface Pagination {
  total_results: number;
  total_pages: number;
  page: number;
  per: number;
}

export const DEFAULT_PAGE_SIZE = 25;
const FIELDS = ['total_results', 'total_pages', 'page', 'per'] as const;

/** collections return 25 items per page by default (PAG-2). */
export const DEFAULT_PER = 25;

export function readPagination(body: unknown): Pagination | null {
  const meta = isPlainObject(body) ? body['meta'] : undefined;
  const pagination = isPlainObject(meta) ? meta['pagination'] : undefined;
  if (!isPlainObject(pagination)) return null;
  return FIELDS.every((f) => Number.isInteger(pagination[f])) ? (pagination as unknown as Pagination) : null;
}

/** meta.pagination carries total_results, total_pages, page (1-based) and per, all integers. */
export function paginationMetaIsWellFormed(body: unknown): CheckResult {
  const meta = isPlainObject(body) ? body['meta'] : undefined;
  if (!isPlainObject(meta)) return typed(meta, false, `no meta object (meta is ${show(meta)})`);
  const pagination = meta['pagination'];
  if (!isPlainObject(pagination)) return typed(pagination, false, `no meta.pagination object (it is ${show(pagination)})`);
  const problems: string[] = [];
  // A null is a blank (GEN-8): only a warning, though the pagination cannot be judged without it.
  let hard = false;
  const problem = (text: string, isBlank = false) => {
    problems.push(text);
    hard ||= !isBlank;
  };
  for (const field of FIELDS) {
    const value = pagination[field];
    if (!Number.isInteger(value)) problem(`${field} is ${show(value)}, expected an integer`, value === null);
    else if ((value as number) < 0) problem(`${field} is negative (${value})`);
  }
  if (Number.isInteger(pagination['page']) && (pagination['page'] as number) < 1) problem('page is below 1 (pages are 1-based)');
  if (Number.isInteger(pagination['per']) && (pagination['per'] as number) < 1) problem('per is below 1');
  if (!problems.length) return pass();
  return hard ? fail(`meta.pagination: ${problems.join('; ')}`) : blank(`meta.pagination: ${problems.join('; ')}`);
}

/** A pagination clause one answer shows, and the requirement it stands for: PAG-1 (total_pages and the items), PAG-3 (the page asked), PAG-4 (the per asked). */
export type PaginationClause = readonly [CheckResult, 'PAG-1' | 'PAG-3' | 'PAG-4'];

/**
 * The four fields agree with each other and with the items on the page (PAG-1), with the page
 * asked (PAG-3) and with the per asked (PAG-4): each clause judged alone and named by its own
 * requirement, so that one wrong value fails the statement it breaks and no other.
 */
export function paginationClauses(p: Pagination, itemCount: number, requested: { page?: number; per?: number } = {}): PaginationClause[] {
  return [
    [pagesAndItemsAgree(p, itemCount), 'PAG-1'],
    [pageIsTheOneAsked(p, requested.page), 'PAG-3'],
    [perIsTheOneAsked(p, requested.per), 'PAG-4'],
  ];
}

/** Every clause of paginationClauses in one result (unit tests, and callers with one requirement to cite). */
export function paginationIsConsistent(p: Pagination, itemCount: number, requested: { page?: number; per?: number } = {}): CheckResult {
  return allOf(paginationClauses(p, itemCount, requested).map(([result]) => result));
}

/** total_pages follows from total_results and per, and the page holds the items it should (PAG-1). */
export function pagesAndItemsAgree(p: Pagination, itemCount: number): CheckResult {
  const problems: string[] = [];
  const expectedPages = Math.ceil(p.total_results / p.per);
  // An empty collection has no page, or one empty page: the spec does not say which.
  const pagesOk = p.total_results === 0 ? p.total_pages === 0 || p.total_pages === 1 : p.total_pages === expectedPages;
  if (!pagesOk) problems.push(`total_pages is ${p.total_pages}, but ${p.total_results} results at ${p.per} per page make ${expectedPages}`);
  let expectedItems: number;
  if (p.page < p.total_pages) expectedItems = p.per;
  else if (p.page === p.total_pages) expectedItems = p.total_results - (p.total_pages - 1) * p.per;
  else expectedItems = 0;
  if (pagesOk && itemCount !== expectedItems) {
    problems.push(`page ${p.page} of ${p.total_pages} holds ${itemCount} items, expected ${expectedItems} (${p.total_results} results, ${p.per} per page)`);
  }
  return problems.length ? fail(problems.join('; ')) : pass();
}

/** Where a collection's items hold the units its pagination may count instead (see countedItemKeys). */
const PRODUCT_CARDS = 'product_cards';

const listIn = (value: unknown, key: string): unknown[] => (isPlainObject(value) && Array.isArray(value[key]) ? (value[key] as unknown[]) : []);

/** A unit of product cards keyed by the ids of the products it holds, so that one product has one key however it is wrapped. */
function productsKey(products: readonly unknown[], whole: unknown): string {
  const ids = products.map((p) => (isPlainObject(p) && Number.isInteger(p['id']) ? String(p['id']) : null));
  return ids.length && ids.every((id) => id !== null) ? `products ${ids.join(',')}` : (JSON.stringify(whole) ?? String(whole));
}

/** The keys of the product_cards entries, of the cards in them and of the products in those: each a unit pagination may count. */
function productCardUnits(entries: readonly unknown[]): [entries: string[], cards: string[], products: string[]] {
  const cards = entries.flatMap((entry) => listIn(entry, 'cards'));
  const products = cards.flatMap((card) => listIn(card, 'products'));
  return [
    entries.map((entry) =>
      productsKey(
        listIn(entry, 'cards').flatMap((card) => listIn(card, 'products')),
        entry,
      ),
    ),
    cards.map((card) => productsKey(listIn(card, 'products'), card)),
    products.map((product) => productsKey([product], product)),
  ];
}

/**
 * The keys (itemKey) of the units a page's meta.pagination counts. "product_cards is an array of
 * objects, each with cards", each card holding products: whether pagination counts the entries,
 * the cards or the products is not shown, so the first of these whose count agrees with `p` is
 * taken (the entries when none does). Every other collection counts its items.
 */
export function countedItemKeys(key: string, items: readonly unknown[], p: Pagination | null): string[] {
  if (key !== PRODUCT_CARDS) return items.map(itemKey);
  const units = productCardUnits(items);
  return (p && units.find((keys) => pagesAndItemsAgree(p, keys.length).ok)) || units[0];
}

/**
 * Whether a page hides units its pagination may count: product_cards entries without their cards
 * array, or cards without their products (a sparse fieldset left them out). Those counts cannot
 * then be told from the page.
 */
export function countedUnitsHidden(key: string, items: readonly unknown[]): boolean {
  if (key !== PRODUCT_CARDS) return false;
  return items.some((entry) => !isPlainObject(entry) || !Array.isArray(entry['cards']) || entry['cards'].some((card) => !isPlainObject(card) || !Array.isArray(card['products'])));
}

/** pagesAndItemsAgree on the units the page counts (countedItemKeys), saying which were tried for product cards. */
export function pagesAndCountedItemsAgree(p: Pagination, key: string, items: readonly unknown[]): CheckResult {
  const result = pagesAndItemsAgree(p, countedItemKeys(key, items, p).length);
  if (result.ok || key !== PRODUCT_CARDS) return result;
  const [entries, cards, products] = productCardUnits(items);
  return fail(`${result.message} (the ${entries.length} product_cards entries, their ${cards.length} cards and ${products.length} products were each tried as what is counted)`);
}

/** `page` (1-based, default 1) selects the page (PAG-3). */
export function pageIsTheOneAsked(p: Pagination, page: number | undefined): CheckResult {
  const asked = page ?? 1;
  // A page past the last: what is served is not shown (an empty page, a 404, or the last page, clamped).
  if (asked > p.total_pages && p.total_pages >= 1 && p.page === p.total_pages) return pass();
  return p.page === asked ? pass() : fail(`page is ${p.page}, but page ${asked} was asked for${page === undefined ? ' (no page sent: the default)' : ''}`);
}

/** `per` sets the page size (PAG-4); without per, the default is defaultPageSizeIs25's. */
export function perIsTheOneAsked(p: Pagination, per: number | undefined): CheckResult {
  if (per === undefined || p.per === per) return pass();
  // The largest per is not shown (PAG-6): a deployment may cap it. The default page holds 25, so a
  // cap is 25 or more: a per above 25 may come back as any size from 25 to the one asked.
  if (per > DEFAULT_PER && p.per >= DEFAULT_PER && p.per < per) return pass();
  return fail(`per is ${p.per}, but per=${per} was asked for${per > DEFAULT_PER ? ` (a cap on per would be ${DEFAULT_PER} or more, the default page size)` : ''}`);
}

/**
 * The Link URLs' parameters lost against the request's, page and oauth_token aside. per counts
 * as kept when the URL carries the page size answered (a capped per) or leaves out a per that is
 * the default 25.
 */
export function linkQueryDropped(linkUrl: string, requestUrl: string, answeredPer: number | undefined): string[] {
  const dropped = queryDroppedBy(linkUrl, requestUrl);
  return dropped.filter((d) => {
    if (!d.startsWith('per=')) return true;
    try {
      const linkPer = new URL(linkUrl).searchParams.get('per');
      const effective = linkPer === null ? DEFAULT_PER : Number(linkPer);
      return effective !== answeredPer;
    } catch {
      return true;
    }
  });
}

/** General rules 2: collections return 25 items per page by default. */
export function defaultPageSizeIs25(p: Pagination): CheckResult {
  return p.per === DEFAULT_PAGE_SIZE ? pass() : fail(`per is ${p.per} when no per was sent, expected the default ${DEFAULT_PAGE_SIZE}`);
}

/**
 * An RFC 8288 Link header as rel -> URL (relation types compared case-insensitively, a later
 * link of the same rel winning); null when the header is absent, and no links when it does not
 * parse. http-link-header reads the syntax (quoted titles with commas, several rels in one).
 */
export function parseLinkHeader(value: string | undefined): Map<string, string> | null {
  if (value === undefined) return null;
  const links = new Map<string, string>();
  let refs: LinkHeader.Reference[];
  try {
    refs = LinkHeader.parse(value).refs;
  } catch {
    return links;
  }
  for (const ref of refs) if (typeof ref.rel === 'string') links.set(ref.rel.toLowerCase(), ref.uri);
  return links;
}

/**
 * Whether the answer itself shows pages after this one: a full page (as many items as per), with
 * results beyond it (page * per < total_results), and total_pages agreeing. Judged on what was
 * served, so that a total_pages one too many, PAG-1's finding, does not also ask for a Link header
 * (one bug, one verdict). `itemCount` null: the items could not be counted; the meta alone decides.
 */
export function morePagesShown(p: Pagination, itemCount: number | null): boolean {
  const beyond = p.page * p.per < p.total_results && p.page < p.total_pages;
  return itemCount === null ? beyond : beyond && itemCount >= p.per;
}

/** A rel=next on the last page or on a single page points nowhere: the last page by the items served and by total_pages alike. */
export function noNextLinkOnLastPage(headers: Record<string, string>, p: Pagination, itemCount: number | null = null): CheckResult {
  const links = parseLinkHeader(headers['link']);
  const last = p.page >= p.total_pages && (itemCount === null || itemCount < p.per || p.page * p.per >= p.total_results);
  return links?.has('next') && last ? fail(`Link header has rel=next on page ${p.page} of ${p.total_pages}`) : pass();
}

// ---------------------------------------------------------------------------------------------
// Paging through a collection (suites/pagination.suite.ts): what one answer promises about the
// others. Each function judges answers the suite has already fetched.

/** One page of a collection as fetched: its meta, the keys of its items, where it came from. */
export interface FetchedPage {
  /** How the page was asked for, for messages: "GET …?per=3", "rel=next of page 1". */
  label: string;
  pagination: Pagination;
  /** itemKey of each item, in order. */
  keys: string[];
}

/**
 * The identity of an item for comparing pages: its integer id; without one (saved orders,
 * product-card entries) its order_code, else its whole JSON.
 */
export function itemKey(item: unknown): string {
  if (isPlainObject(item)) {
    if (Number.isInteger(item['id'])) return `id ${String(item['id'])}`;
    if (typeof item['order_code'] === 'string') return `order_code ${item['order_code']}`;
  }
  return JSON.stringify(item) ?? String(item);
}

/** An item key as a message shows it (a whole-JSON key is cut short). */
const showKey = (key: string): string => (key.length > 60 ? `${key.slice(0, 57)}...` : key);

/**
 * The Link header's URLs by rel, each resolved against the URL of the request that carried it
 * (RFC 8288 allows a relative reference); null when the header is absent.
 */
export function linkTargets(headers: Record<string, string>, requestUrl: string): Map<string, string> | null {
  const links = parseLinkHeader(headers['link']);
  if (!links) return null;
  const resolved = new Map<string, string>();
  for (const [rel, target] of links) {
    try {
      resolved.set(rel, new URL(target, requestUrl).href);
    } catch {
      resolved.set(rel, target);
    }
  }
  return resolved;
}

/**
 * General rules 2, "When other pages exist a Link header carries rel=next and rel=last URLs",
 * read as the spec allows: on a page before the last, the header carries both. On the last page
 * (or the only one) nothing is required: there is no next page, and "other pages" may mean the
 * pages after this one, so a server may send rel=last alone or no header there. rel=first and
 * rel=prev are not named by the spec: neither required nor judged. Whether pages follow is read
 * from the items served (morePagesShown), not from total_pages alone.
 */
export function nextAndLastLinksWhileMorePages(headers: Record<string, string>, p: Pagination, itemCount: number | null = null): CheckResult {
  if (!morePagesShown(p, itemCount)) return pass();
  const links = parseLinkHeader(headers['link']);
  const served = itemCount === null ? '' : `, ${itemCount} served`;
  if (!links) return fail(`no Link header on page ${p.page} of ${p.total_pages} (${p.total_results} results, ${p.per} per page${served})`);
  const missing = ['next', 'last'].filter((rel) => !links.has(rel));
  return missing.length ? fail(`the Link header lacks rel=${missing.join(' and rel=')} on page ${p.page} of ${p.total_pages}: ${show(headers['link'])}`) : pass();
}

/**
 * A page fetched by following a Link URL as given is the page the rel promises (next: the page
 * after; last: the last page) at the page size of the request that carried it. `dropped` names
 * query parameters of that request the URL does not carry, to explain a wrong answer.
 */
export function linkedPageIs(p: Pagination, expected: { rel: string; url: string; page: number; per: number; total_results: number }, dropped: string[] = []): CheckResult {
  const problems: string[] = [];
  if (p.page !== expected.page) problems.push(`page is ${p.page}, expected ${expected.page}`);
  if (p.per !== expected.per) problems.push(`per is ${p.per}, expected ${expected.per}`);
  if (p.total_results !== expected.total_results) problems.push(`total_results is ${p.total_results}, expected ${expected.total_results}`);
  if (!problems.length) return pass();
  const why = dropped.length ? ` (the URL does not carry ${dropped.join(', ')} of the request)` : '';
  return fail(`the rel=${expected.rel} URL ${expected.url} gives a page that is not the ${expected.rel} one: ${problems.join('; ')}${why}`);
}

/**
 * Which statement a Link URL that led to another page than it promised breaks: the URL itself
 * (PAG-5) when it does not ask for the page and the per it promises; else the server, which did
 * not serve what a right URL asks: the page (PAG-3), the per (PAG-4), or a total that moved
 * (PAG-1). One bug, one verdict: a server that ignores `page` fails PAG-3, not its Link header too.
 */
export function linkedPageRequirement(p: Pagination, expected: { url: string; page: number; per: number; total_results: number }): 'PAG-1' | 'PAG-3' | 'PAG-4' | 'PAG-5' {
  let query: URLSearchParams;
  try {
    query = new URL(expected.url).searchParams;
  } catch {
    return 'PAG-5';
  }
  const page = query.get('page');
  const per = query.get('per');
  const asksPage = page === null ? expected.page === 1 : Number(page) === expected.page;
  const asksPer = per === null ? expected.per === DEFAULT_PER : Number(per) === expected.per;
  if (!asksPage || !asksPer) return 'PAG-5';
  if (p.page !== expected.page) return 'PAG-3';
  if (p.per !== expected.per) return 'PAG-4';
  return 'PAG-1';
}

/**
 * "Paths are relative to {base_url}": a Link URL on the base URL's origin whose path is not below
 * the base path names no endpoint of the API, unless the deployment also serves its paths without
 * the prefix (whether a prefix is required: not shown, GEN-16). Null when it is below, or not on
 * that origin (judged elsewhere); else why it is not.
 */
export function outsideBasePath(linkUrl: string, baseUrl: string): string | null {
  try {
    const link = new URL(linkUrl);
    const base = new URL(baseUrl);
    const prefix = base.pathname.replace(/\/+$/, '');
    if (link.origin !== base.origin || prefix === '' || link.pathname === prefix || link.pathname.startsWith(`${prefix}/`)) return null;
    return `the URL ${linkUrl} is not below the base URL ${baseUrl} (its path lacks ${prefix})`;
  } catch {
    return null;
  }
}

/** Query parameters of `requestUrl` (other than page and oauth_token) that `linkUrl` does not carry with the same values. */
export function queryDroppedBy(linkUrl: string, requestUrl: string): string[] {
  try {
    const link = new URL(linkUrl).searchParams;
    const asked = new URL(requestUrl).searchParams;
    const dropped: string[] = [];
    for (const key of new Set(asked.keys())) {
      if (key === 'page' || key === 'oauth_token') continue;
      const want = asked.getAll(key).join(',');
      if (link.getAll(key).join(',') !== want) dropped.push(`${key}=${want}`);
    }
    return dropped;
  } catch {
    return [];
  }
}

/** Every answer about one collection reports the same total_results. */
export function totalsAgree(pages: readonly FetchedPage[]): CheckResult {
  const totals = new Set(pages.map((p) => p.pagination.total_results));
  if (totals.size <= 1) return pass();
  return fail(`total_results differs between answers about the same collection: ${pages.map((p) => `${p.pagination.total_results} (${p.label})`).join(', ')}`);
}

/** Pages of one page size hold no item twice: no item on two pages, none twice on one. */
export function pagesAreDisjoint(pages: readonly FetchedPage[]): CheckResult {
  const seen = new Map<string, string>();
  const problems: string[] = [];
  for (const page of pages) {
    for (const key of page.keys) {
      const where = seen.get(key);
      if (where === undefined) seen.set(key, page.label);
      else problems.push(where === page.label ? `${showKey(key)} is twice on ${where}` : `${showKey(key)} is on ${where} and on ${page.label}`);
    }
  }
  return problems.length ? fail(`pages overlap: ${problems.slice(0, 5).join('; ')}${problems.length > 5 ? `; and ${problems.length - 5} more` : ''}`) : pass();
}

/**
 * Every page of a collection, fetched at one page size, holds together `total` items, among
 * them every item `known` lists (another answer about the same collection, such as its first
 * page at the default size).
 */
export function pagesCoverCollection(pages: readonly FetchedPage[], total: number, known: readonly string[] = []): CheckResult {
  const all = new Set(pages.flatMap((p) => p.keys));
  const problems: string[] = [];
  if (all.size !== total) problems.push(`the ${pages.length} pages hold ${all.size} distinct items, but total_results is ${total}`);
  const missing = known.filter((k) => !all.has(k));
  if (missing.length)
    problems.push(`${missing.length} item(s) of the collection are on none of its pages: ${missing.slice(0, 5).map(showKey).join(', ')}${missing.length > 5 ? ', ...' : ''}`);
  return problems.length ? fail(problems.join('; ')) : pass();
}

/**
 * A page size that splits a collection of `total` items into a few pages: two pages of about
 * half the collection while that is below the default size, else 10 per page (only the first,
 * second and last pages are then read). Never the default 25, so that a per the server ignores
 * shows. Null below 2 items: there is nothing to split.
 */
export function smallPageSize(total: number): number | null {
  if (total < 2) return null;
  const half = Math.ceil(total / 2);
  if (half < DEFAULT_PAGE_SIZE) return half;
  if (half === DEFAULT_PAGE_SIZE) return DEFAULT_PAGE_SIZE - 1;
  return 10;
}
