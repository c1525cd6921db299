// Pagination: page / per, meta.pagination and the Link header of the API's collections.
//
// Legal variants (variants.ts) of the choices made here: the pagination variants listed at
// paginate, and per-cap-50.

import { ApiError, type ApiResult, type HeaderMap } from './http.ts';
import type { FaultName } from './faults.ts';
import { NO_VARIANTS, type Variants } from './variants.ts';

export const DEFAULT_PER = 25;

/**
 * Choice (the spec gives no maximum): per is capped at 100. A larger per is clamped, not
 * rejected, and meta.pagination.per reports the value actually used (100). Variant per-cap-50:
 * capped at 50; variant per-over-max-refused: a per above 50 is 422 InvalidParameter.
 */
export const MAX_PER = 100;

/** The cap of variant per-cap-50, and the largest per variant per-over-max-refused accepts. */
export const MAX_PER_50 = 50;

export interface Pagination {
  total_results: number;
  total_pages: number;
  page: number;
  per: number;
}

/** page / per: a positive integer; anything else is 400, or the fallback when `lenient`. */
function positiveIntParam(query: URLSearchParams, name: string, fallback: number, lenient: boolean): number {
  const raw = query.get(name);
  if (raw === null) return fallback;
  if (!/^\d{1,9}$/.test(raw) || Number(raw) < 1) {
    if (lenient) return fallback;
    throw new ApiError(400, 'InvalidParameter', [`${name} must be a positive integer, got "${raw}"`]);
  }
  return Number(raw);
}

export interface PageRequest {
  /** The absolute public URL of the request (with its base path and query). */
  url: URL;
  query: URLSearchParams;
  fault: FaultName | null;
  /** The server's legal variants; none when left out. */
  variants?: Variants;
}

export interface Page<T> {
  items: T[];
  pagination: Pagination;
  headers: HeaderMap;
}

/**
 * Slices `all` by the page / per query parameters (non-integer or < 1 -> 400 InvalidParameter;
 * variant bad-paging-defaults: ignored, the defaults apply).
 *
 * total_pages = ceil(total_results / per), so an empty collection has total_pages 0 (choice;
 * variant empty-collection-one-page: 1). A page past the end is 200 with an empty slice and the
 * true meta (variant page-past-end-404: 404 RecordNotFound).
 *
 * Link header (reading of "when other pages exist a Link header carries rel=next and rel=last"):
 * sent only when total_pages > 1; rel="next" only when page < total_pages; rel="last" always
 * then (variant link-every-rel: on every answer, first and last, prev and next where they
 * exist). URLs are absolute (variant link-relative: path and query only), keep the path (with
 * base path) and every other query parameter in order (variant link-default-per-omitted: per
 * left out when it is the default), set page=, and never contain oauth_token.
 */
export function paginate<T>(req: PageRequest, all: readonly T[]): Page<T> {
  const variants = req.variants ?? NO_VARIANTS;
  const lenient = variants.has('bad-paging-defaults');
  const defaultPer = req.fault === 'default-per-not-25' ? 20 : DEFAULT_PER;
  let page = req.fault === 'page-param-ignored' ? 1 : positiveIntParam(req.query, 'page', 1, lenient);
  const asked = positiveIntParam(req.query, 'per', defaultPer, lenient);
  // Variant per-over-max-refused: a per above 50 is refused, not clamped.
  if (asked > MAX_PER_50 && variants.has('per-over-max-refused')) throw new ApiError(422, 'InvalidParameter', [`per must be at most ${MAX_PER_50}, got ${asked}`]);
  // Variant per-uncapped: any per is honoured exactly.
  const per = variants.has('per-uncapped') ? asked : Math.min(asked, variants.has('per-cap-50') ? MAX_PER_50 : MAX_PER);
  const total = all.length;
  let totalPages = Math.ceil(total / per);
  // Page 1 of an empty collection exists (and is empty).
  if (totalPages === 0 && variants.has('empty-collection-one-page')) totalPages = 1;
  if (page > Math.max(1, totalPages) && variants.has('page-past-end-404')) {
    throw new ApiError(404, 'RecordNotFound', [`Couldn't find page ${page}; the collection has ${totalPages} page${totalPages === 1 ? '' : 's'} of ${per}`]);
  }
  // Variant page-past-end-last: a page past the end is clamped to the last page.
  if (variants.has('page-past-end-last')) page = Math.min(page, Math.max(1, totalPages));
  const start = (page - 1) * per;
  const items = start < total ? all.slice(start, start + per) : [];
  const linkUrl = (n: number): string => {
    const absolute =
      req.fault === 'link-next-drops-query'
        ? pageOnlyUrl(req.url, n)
        : pageUrl(req.url, n, variants.has('link-default-per-omitted') && per === defaultPer, variants.has('link-urls-keep-oauth-token'));
    return variants.has('link-relative') ? relativeRef(absolute) : absolute;
  };
  let links = variants.has('link-every-rel') ? everyRel(page, totalPages, linkUrl) : nextAndLast(page, totalPages, linkUrl);
  // Variant link-off-last-page: no Link where there is no next page.
  if (variants.has('link-off-last-page') && page >= totalPages) links = [];
  // Variant link-rel-unquoted: rel=next, as RFC 8288 allows for a single registered value.
  if (variants.has('link-rel-unquoted')) links = links.map((l) => l.replace(/rel="([a-z]+)"/, 'rel=$1'));
  const headers: HeaderMap = {};
  if (links.length > 0 && req.fault !== 'link-header-missing') headers['Link'] = links.join(', ');
  if (req.fault === 'pagination-total-pages-off-by-one') totalPages += 1;
  return { items, pagination: { total_results: total, total_pages: totalPages, page, per }, headers };
}

/** The reference's Link: only when other pages exist; next (when there is one) and last. */
function nextAndLast(page: number, totalPages: number, linkUrl: (n: number) => string): string[] {
  if (totalPages <= 1) return [];
  const links: string[] = [];
  if (page < totalPages) links.push(`<${linkUrl(page + 1)}>; rel="next"`);
  links.push(`<${linkUrl(totalPages)}>; rel="last"`);
  return links;
}

/** Variant link-every-rel: first and last always (page 1 for an empty collection), prev and next where those pages exist. */
function everyRel(page: number, totalPages: number, linkUrl: (n: number) => string): string[] {
  const last = Math.max(1, totalPages);
  const links = [`<${linkUrl(1)}>; rel="first"`];
  if (page > 1 && page - 1 <= last) links.push(`<${linkUrl(page - 1)}>; rel="prev"`);
  if (page < last) links.push(`<${linkUrl(page + 1)}>; rel="next"`);
  links.push(`<${linkUrl(last)}>; rel="last"`);
  return links;
}

/** An absolute URL as a relative reference: absolute path and query (variant link-relative). */
function relativeRef(absolute: string): string {
  const u = new URL(absolute);
  return `${u.pathname}${u.search}`;
}

/**
 * Same URL with page=<n>: oauth_token removed (and per, when `dropPer`); every other parameter
 * kept byte for byte and in order; page replaced in place (or appended). `keepToken` (variant
 * link-urls-keep-oauth-token): oauth_token kept like the others, so that the link works as it is.
 */
export function pageUrl(url: URL, page: number, dropPer = false, keepToken = false): string {
  const u = new URL(url.href);
  const out: string[] = [];
  let placed = false;
  for (const part of u.search.replace(/^\?/, '').split('&')) {
    if (part === '') continue;
    const rawKey = part.split('=')[0]!.replace(/\+/g, ' ');
    let key: string;
    try {
      key = decodeURIComponent(rawKey);
    } catch {
      key = rawKey;
    }
    if ((key === 'oauth_token' && !keepToken) || (dropPer && key === 'per')) continue;
    if (key === 'page') {
      if (!placed) out.push(`page=${page}`);
      placed = true;
      continue;
    }
    out.push(part);
  }
  if (!placed) out.push(`page=${page}`);
  u.search = out.join('&');
  return u.href;
}

/** The same path with only page=<n> (the bug of fault link-next-drops-query). */
function pageOnlyUrl(url: URL, page: number): string {
  const u = new URL(url.href);
  u.search = `page=${page}`;
  return u.href;
}

/** `{ <key>: items, meta: { pagination } }` plus the Link header. */
export function collection<T>(key: string, req: PageRequest, all: readonly T[], map: (item: T) => unknown): ApiResult {
  const p = paginate(req, all);
  return {
    status: 200,
    body: { [key]: p.items.map(map), meta: { pagination: p.pagination } },
    headers: p.headers,
  };
}
