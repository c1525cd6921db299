// Spec: Endpoints > General rules 2 (pagination: 25 items per page by default, page (1-based,
// default 1), per, the Link header with rel=next and rel=last "when other pages exist"),
// Resources and their fields > General conventions 1-2 (a collection under its plural key;
// meta.pagination with total_results, total_pages, page, per), Limits (default page size 25).
// Tested on every paginated collection: the endpoints whose 200 answer schemas/endpoints.json
// gives with meta.pagination, listed once in COLLECTIONS (src/engines/pagination-collections.ts) with how each finds its path
// parameters (discovery roles: no id, name or count of any data set is written here) and its
// token. One test body, pagesOf, runs per collection, so each rule is one check used everywhere:
// 1. the first page without page or per: meta.pagination consistent (total_pages =
//    ceil(total_results / per), the items the page should hold), page 1, per 25, and rel=next and
//    rel=last when a later page exists;
// 2. a small per that splits the collection into two or three pages: per and page echoed, the
//    Link URLs followed as given (base path and query kept) to the next and the last page, each
//    the page its rel promises;
// 3. the pages hold no item twice, agree on total_results, and (when every page was read)
//    together hold the whole collection.
// Large collections are not walked: their first, second and last pages at 10 per page are read.
// A collection of fewer than 2 items (an empty favorites list, say) gets step 1 only, and the test
// is skipped with that reason. What the spec leaves open is never required: rel=first and rel=prev
// are not named; on the last page neither rel=last nor any Link header is required (the spec's
// "other pages" may mean the pages after it; docs/reference-choices.md notes the reference sends
// rel=last there); a rel=next on the last page only warns; the largest per is not shown (PAG-6),
// so per stays below the default 25.
import { describe } from 'vitest';
import { about, fail, inContext, type CheckResult } from '../src/checks/check.ts';
import { hasCollectionEnvelope, hasStatus } from '../src/checks/http.ts';
import {
  countedItemKeys,
  defaultPageSizeIs25,
  linkedPageIs,
  linkedPageRequirement,
  linkTargets,
  outsideBasePath,
  nextAndLastLinksWhileMorePages,
  noNextLinkOnLastPage,
  pagesAreDisjoint,
  pagesCoverCollection,
  paginationClauses,
  paginationMetaIsWellFormed,
  queryDroppedBy,
  readPagination,
  smallPageSize,
  totalsAgree,
  type FetchedPage,
} from '../src/checks/pagination.ts';
import type { HttpResponse } from '../src/http/client.ts';
import type { Exchange } from '../src/http/exchange.ts';
import { COLLECTIONS, type Collection } from '../src/engines/pagination-collections.ts';
import { conformanceTest, type ConformanceContext } from '../src/harness/conformance.ts';

type Json = Record<string, unknown>;

const PAGINATION_IDS = ['PAG-1', 'PAG-2', 'PAG-3', 'PAG-4', 'PAG-5', 'PAG-7', 'GEN-7', 'GEN-14'];
/** The clauses of those statements each collection's test judges (its own table row's come from the collection). */
const PAGINATION_CLAUSES = ['PAG-1#1-5', 'PAG-2#1', 'PAG-3#1-3', 'PAG-4#1', 'PAG-5#1-2', 'PAG-7#1'];
const PAGINATION_READINGS = ['PAG-1.a-e', 'PAG-2.a-e', 'PAG-3.a-g', 'PAG-4.a-h', 'PAG-5.a-j', 'PAG-7.a-b', 'GEN-7.a-e', 'GEN-14.a-d'];

// ---------------------------------------------------------------------------------------------
// The test body, one for every collection

interface Fetched extends FetchedPage {
  headers: Record<string, string>;
  /** The answer's hops: a finding about this page shows its exchange, not the test's latest. */
  exchanges: Exchange[];
  /** URL of the answer (after redirects): Link URLs are resolved against it. */
  url: string;
}

/** Prefixes a failure with the request it is about (a blank stays blank). */
const at = (label: string, result: CheckResult): CheckResult => inContext(label, result);
/** A finding about one page: prefixed with its request, shown with its exchange. */
const on = (page: Fetched, result: CheckResult): CheckResult => about(page, at(page.label, result));

/** GETs one page; stops unless 200 {<key>: [...], meta.pagination} (the requirement ids: what a refusal breaks). */
async function fetchPage(t: ConformanceContext, c: Collection, url: string, label: string, ids: string[], fresh = false): Promise<Fetched> {
  return readPage(t, c, await t.api.requestUrl('GET', url, { auth: c.auth, fresh }), url, label, ids);
}

function readPage(t: ConformanceContext, c: Collection, response: HttpResponse, url: string, label: string, ids: string[]): Fetched {
  t.require(at(`${label}: GET ${url}`, hasStatus(response, 200)), ...ids);
  const body = t.json<unknown>(response, 'GEN-4');
  t.require(at(label, hasCollectionEnvelope(body, c.key)), 'GEN-7', ...c.ids);
  t.require(at(label, paginationMetaIsWellFormed(body)), 'PAG-1', ...c.ids);
  const items = (body as Json)[c.key] as unknown[];
  return {
    label,
    pagination: readPagination(body)!,
    keys: countedItemKeys(c.key, items, readPagination(body)),
    headers: response.headers,
    url: response.url,
    exchanges: response.exchanges,
  };
}

const sameOrigin = (a: string, b: string): boolean => {
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return false;
  }
};

async function pagesOf(t: ConformanceContext, c: Collection): Promise<void> {
  if (c.feature) t.requireFeature(c.feature, c.endpoint);
  let target = await c.target(t, c.endpoint);
  let first = await fetchPage(t, c, t.api.url(target.path, target.query), `${c.endpoint} without page or per`, c.ids);
  const wider = first.pagination.total_results < 2 && c.widen ? c.widen(target) : null;
  if (wider) {
    const url = t.api.url(wider.path, wider.query);
    const response = await t.api.requestUrl('GET', url, { auth: c.auth });
    if (response.status !== 200)
      t.skip(`${c.endpoint} found ${first.pagination.total_results} item(s), and the wider query ${url} answered ${response.status}: too few items to page`);
    target = wider;
    first = readPage(t, c, response, url, `${c.endpoint} without page or per`, c.ids);
  }
  const { path, query = {} } = target;

  // 1. The first page at the default size.
  const p1 = first.pagination;
  for (const [check, id] of paginationClauses(p1, first.keys.length)) t.must(on(first, check), id);
  t.must(on(first, defaultPageSizeIs25(p1)), 'PAG-2', 'PAG-7');
  t.must(on(first, nextAndLastLinksWhileMorePages(first.headers, p1, first.keys.length)), 'PAG-5');
  t.warn(on(first, noNextLinkOnLastPage(first.headers, p1, first.keys.length)), 'PAG-5');
  const total = p1.total_results;
  const per = smallPageSize(total);
  if (per === null) {
    return t.skip(
      `${c.endpoint} holds ${total} item${total === 1 ? '' : 's'} here: only the meta.pagination of its one page was judged; per, page, the Link URLs and the split into pages need 2 items or more`,
    );
  }

  // 2. The first page at a small size, then the pages its Link URLs name.
  const sizedUrl = t.api.url(path, { ...query, per });
  const sized = await fetchPage(t, c, sizedUrl, `${c.endpoint} with per=${per}`, ['PAG-4', ...c.ids]);
  for (const [check, id] of paginationClauses(sized.pagination, sized.keys.length, { page: 1, per })) t.must(on(sized, check), id);
  t.must(on(sized, nextAndLastLinksWhileMorePages(sized.headers, sized.pagination, sized.keys.length)), 'PAG-5');
  t.warn(on(sized, noNextLinkOnLastPage(sized.headers, sized.pagination, sized.keys.length)), 'PAG-5');

  // A per the server did not serve is PAG-4's finding above: its Link URLs and pages are then
  // judged at the size it served (what its answer shows), so that one bug fails PAG-4 only.
  const size = sized.pagination.per;
  const lastPage = Math.ceil(total / size);
  const links = linkTargets(sized.headers, sized.url) ?? new Map<string, string>();
  const promised = new Map<string, { rel: string; page: number }[]>();
  for (const { rel, page } of [
    { rel: 'next', page: 2 },
    { rel: 'last', page: lastPage },
  ]) {
    const url = links.get(rel);
    if (url === undefined) continue; // already a failure above
    if (!sameOrigin(url, sizedUrl)) {
      t.warn(fail(`${sized.label}: the rel=${rel} URL ${url} is on another origin than the base URL; not followed (the kit sends its token nowhere else)`), 'PAG-5');
      continue;
    }
    promised.set(url, [...(promised.get(url) ?? []), { rel, page }]);
  }
  /** Every answer; and by page number, the first answer that is that page. */
  const answers: Fetched[] = [first, sized];
  /**
   * Totals that differ: the collection is asked once more. When it now has the latest total and
   * not the first, it changed while it was read (another test, or another run, wrote to it): the
   * test is skipped; else that answer is returned to be judged with the others.
   */
  const skipIfChangedMeanwhile = async (read: readonly Fetched[]): Promise<Fetched> => {
    const again = await fetchPage(t, c, t.api.url(path, query), `${c.endpoint} without page or per, asked again`, c.ids, true);
    const latest = read[read.length - 1]!.pagination.total_results;
    if (again.pagination.total_results !== total && again.pagination.total_results === latest) {
      t.skip(
        `${c.endpoint} changed while it was read (total_results ${total}, then ${latest}): another test of the run, or another run, may write to it; its pages were not compared`,
      );
    }
    return again;
  };
  const pages = new Map<number, Fetched>([[1, sized]]);
  for (const [url, rels] of promised) {
    const dropped = queryDroppedBy(url, sizedUrl);
    const rel = `rel=${rels.map((r) => r.rel).join(' and rel=')}`;
    const label = `the ${rel} page of per=${per}`;
    const why = dropped.length ? ` (the ${rel} URL does not carry ${dropped.join(', ')} of the request)` : ` (the ${rel} URL of ${sized.label})`;
    // A URL outside the base path may still work (a prefix may not be required, GEN-16): noted;
    // one that does not is the Link's fault and the base URL rule's (GEN-14).
    const outside = outsideBasePath(url, t.run.baseUrl);
    const response = await t.api.requestUrl('GET', url, { auth: c.auth });
    if (outside !== null) {
      if (response.status === 200) t.warn(fail(`${sized.label}: ${rel}: ${outside}; it answers all the same`), 'GEN-14', 'GEN-16');
      else t.must(fail(`${sized.label}: ${rel}: ${outside}, and answers ${response.status}`), 'GEN-14', 'PAG-5');
    }
    const page = readPage(t, c, response, url, `${label}${why}`, ['PAG-5']);
    // A total that moved may be a write meanwhile, not a wrong page: told apart before the page is judged.
    if (page.pagination.total_results !== total) await skipIfChangedMeanwhile([...answers, page]);
    for (const r of rels) {
      // About the page the Link named (its exchange shown), told as the sized page's Link.
      const promise = { rel: r.rel, url, page: r.page, per: size, total_results: total };
      t.must(about(page, at(sized.label, linkedPageIs(page.pagination, promise, dropped))), linkedPageRequirement(page.pagination, promise));
    }
    // Its own meta holds together, whichever page it is (linkedPageIs judged which).
    for (const [check, id] of paginationClauses(page.pagination, page.keys.length, { page: page.pagination.page })) t.must(about(page, at(label, check)), id);
    answers.push(page);
    // It stands for that page of this size only if it is that page (else that page is asked for below).
    for (const r of rels) if (page.pagination.page === r.page && page.pagination.per === size && !pages.has(r.page)) pages.set(r.page, page);
  }
  // Pages no usable Link URL gave are asked for by page and per, so the rest is still judged.
  for (const n of new Set([2, lastPage])) {
    if (pages.has(n) || n > lastPage) continue;
    const page = await fetchPage(t, c, t.api.url(path, { ...query, per: size, page: n }), `${c.endpoint} with page=${n}&per=${size}`, ['PAG-3', ...c.ids]);
    for (const [check, id] of paginationClauses(page.pagination, page.keys.length, { page: n, per: size })) t.must(on(page, check), id);
    answers.push(page);
    pages.set(n, page);
  }

  // 3. The pages against each other and against the first page at the default size.
  if (!totalsAgree(answers).ok) t.must(totalsAgree([...answers, await skipIfChangedMeanwhile(answers)]), 'PAG-1');
  const ordered = [...pages.entries()].sort((a, b) => a[0] - b[0]).map(([, page]) => page);
  // Pages that overlap: page did not select its page (PAG-3); only pages that do not may be judged
  // as a whole against total_results (PAG-1), else one bug would fail both.
  if (t.must(pagesAreDisjoint(ordered), 'PAG-3') && ordered.length === lastPage) t.must(pagesCoverCollection(ordered, total, first.keys), 'PAG-1');
}

describe('Pagination on every paginated collection', () => {
  for (const c of COLLECTIONS) {
    conformanceTest(
      `${c.endpoint}: meta.pagination consistent, 25 per page by default, per and page honoured, Link rel=next and rel=last followable, pages disjoint and complete`,
      {
        id: c.testId,
        requirements: [...PAGINATION_IDS, ...c.ids],
        readings: [...PAGINATION_READINGS, ...c.readings],
        clauses: [...PAGINATION_CLAUSES, ...(c.clauses ?? [])],
        requests: 5 + (c.extra ?? 0),
      },
      (t) => pagesOf(t, c),
    );
  }
});
