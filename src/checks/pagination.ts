// Checks of paginated collections: meta.pagination (convention 2) and the Link header (General
// rules 2).
import { fail, isPlainObject, pass, show, type CheckResult } from './check.ts';

export interface Pagination {
  total_results: number;
  total_pages: number;
  page: number;
  per: number;
}

export const DEFAULT_PAGE_SIZE = 25;
const FIELDS = ['total_results', 'total_pages', 'page', 'per'] as const;

export function readPagination(body: unknown): Pagination | null {
  const meta = isPlainObject(body) ? body['meta'] : undefined;
  const pagination = isPlainObject(meta) ? meta['pagination'] : undefined;
  if (!isPlainObject(pagination)) return null;
  return FIELDS.every((f) => Number.isInteger(pagination[f])) ? (pagination as unknown as Pagination) : null;
}

/** meta.pagination carries total_results, total_pages, page (1-based) and per, all integers. */
export function paginationMetaIsWellFormed(body: unknown): CheckResult {
  const meta = isPlainObject(body) ? body['meta'] : undefined;
  if (!isPlainObject(meta)) return fail(`no meta object (meta is ${show(meta)})`);
  const pagination = meta['pagination'];
  if (!isPlainObject(pagination)) return fail(`no meta.pagination object (it is ${show(pagination)})`);
  const problems: string[] = [];
  for (const field of FIELDS) {
    const value = pagination[field];
    if (!Number.isInteger(value)) problems.push(`${field} is ${show(value)}, expected an integer`);
    else if ((value as number) < 0) problems.push(`${field} is negative (${value})`);
  }
  if (Number.isInteger(pagination['page']) && (pagination['page'] as number) < 1) problems.push('page is below 1 (pages are 1-based)');
  if (Number.isInteger(pagination['per']) && (pagination['per'] as number) < 1) problems.push('per is below 1');
  return problems.length ? fail(`meta.pagination: ${problems.join('; ')}`) : pass();
}

/** The four fields agree with each other, with the request and with the items on the page. */
export function paginationIsConsistent(
  p: Pagination,
  itemCount: number,
  requested: { page?: number; per?: number } = {},
): CheckResult {
  const problems: string[] = [];
  const expectedPages = Math.ceil(p.total_results / p.per);
  // An empty collection has no page, or one empty page: the spec does not say which.
  const pagesOk = p.total_results === 0 ? p.total_pages === 0 || p.total_pages === 1 : p.total_pages === expectedPages;
  if (!pagesOk) problems.push(`total_pages is ${p.total_pages}, but ${p.total_results} results at ${p.per} per page make ${expectedPages}`);
  const page = requested.page ?? 1;
  if (p.page !== page) problems.push(`page is ${p.page}, but page ${page} was asked for`);
  if (requested.per !== undefined && p.per !== requested.per) problems.push(`per is ${p.per}, but per=${requested.per} was asked for`);
  let expectedItems: number;
  if (p.page < p.total_pages) expectedItems = p.per;
  else if (p.page === p.total_pages) expectedItems = p.total_results - (p.total_pages - 1) * p.per;
  else expectedItems = 0;
  if (pagesOk && itemCount !== expectedItems) {
    problems.push(`page ${p.page} of ${p.total_pages} holds ${itemCount} items, expected ${expectedItems} (${p.total_results} results, ${p.per} per page)`);
  }
  return problems.length ? fail(problems.join('; ')) : pass();
}

/** General rules 2: collections return 25 items per page by default. */
export function defaultPageSizeIs25(p: Pagination): CheckResult {
  return p.per === DEFAULT_PAGE_SIZE ? pass() : fail(`per is ${p.per} when no per was sent, expected the default ${DEFAULT_PAGE_SIZE}`);
}

/** Parses an RFC 8288 Link header into rel -> URL; null when the header is absent. */
export function parseLinkHeader(value: string | undefined): Map<string, string> | null {
  if (value === undefined) return null;
  const links = new Map<string, string>();
  for (const match of value.matchAll(/<([^>]*)>((?:\s*;\s*[^;,]+)*)/g)) {
    const params = match[2] ?? '';
    const rel = /;\s*rel\s*=\s*"?([^";,]+)"?/i.exec(params)?.[1];
    if (rel) for (const name of rel.trim().split(/\s+/)) links.set(name.toLowerCase(), match[1]!);
  }
  return links;
}

/**
 * General rules 2: "When other pages exist a Link header carries rel=next and rel=last URLs."
 * Read as: on a page before the last, both are required. On the last page the spec cannot mean a
 * next page, so only the presence of the header is required there.
 */
export function linkHeaderMatchesPages(headers: Record<string, string>, p: Pagination): CheckResult {
  const links = parseLinkHeader(headers['link']);
  if (p.total_pages <= 1) return pass();
  if (!links) return fail(`no Link header, though there are ${p.total_pages} pages`);
  if (p.page < p.total_pages) {
    const missing = ['next', 'last'].filter((rel) => !links.has(rel));
    if (missing.length) return fail(`Link header lacks rel=${missing.join(' and rel=')} on page ${p.page} of ${p.total_pages}: ${show(headers['link'])}`);
  }
  return pass();
}

/** A rel=next on the last page or on a single page points nowhere. */
export function noNextLinkOnLastPage(headers: Record<string, string>, p: Pagination): CheckResult {
  const links = parseLinkHeader(headers['link']);
  return links?.has('next') && p.page >= p.total_pages
    ? fail(`Link header has rel=next on page ${p.page} of ${p.total_pages}`)
    : pass();
}
