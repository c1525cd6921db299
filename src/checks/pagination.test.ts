// The paging checks of suites/pagination.suite.ts: each passes what the spec allows and fails
// what it forbids (the older pagination checks are tested in checks.test.ts).
import { describe, expect, test } from 'vitest';
import type { CheckResult } from './check.ts';
import {
  countedItemKeys,
  countedUnitsHidden,
  itemKey,
  linkedPageIs,
  linkedPageRequirement,
  noNextLinkOnLastPage,
  paginationClauses,
  linkTargets,
  nextAndLastLinksWhileMorePages,
  outsideBasePath,
  pageIsTheOneAsked,
  pagesAndItemsAgree,
  pagesAndCountedItemsAgree,
  perIsTheOneAsked,
  linkQueryDropped,
  pagesAreDisjoint,
  pagesCoverCollection,
  queryDroppedBy,
  smallPageSize,
  totalsAgree,
  type FetchedPage,
  parseLinkHeader,
} from './pagination.ts';

const failsWith = (result: CheckResult, pattern: RegExp) => {
  expect(result.ok).toBe(false);
  expect(result.ok ? '' : result.message).toMatch(pattern);
};
const p = (total_results: number, total_pages: number, page: number, per: number) => ({ total_results, total_pages, page, per });
const page = (label: string, pagination: ReturnType<typeof p>, keys: string[]): FetchedPage => ({ label, pagination, keys });

describe('paging through a collection', () => {
  test('itemKey: the id, else order_code, else the JSON', () => {
    expect(itemKey({ id: 5, name: 'x' })).toBe('id 5');
    expect(itemKey({ order_code: 'CO1', date: 'x' })).toBe('order_code CO1');
    expect(itemKey({ cards: [] })).toBe('{"cards":[]}');
  });

  // Two entries (colors): the first with two cards (shops) of 2 and 1 products, the second with one card of 1 product.
  const productCards = [{ cards: [{ products: [{ id: 1 }, { id: 2 }] }, { products: [{ id: 3 }] }] }, { cards: [{ products: [{ id: 4 }] }] }];
  test('countedItemKeys: product cards may count their entries, cards or products; other collections their items', () => {
    expect(countedItemKeys('skus', [{ id: 7 }, { id: 8 }], p(2, 1, 1, 25))).toEqual(['id 7', 'id 8']);
    expect(countedItemKeys('product_cards', productCards, p(2, 1, 1, 25))).toEqual(['products 1,2,3', 'products 4']);
    expect(countedItemKeys('product_cards', productCards, p(3, 1, 1, 25))).toEqual(['products 1,2', 'products 3', 'products 4']);
    expect(countedItemKeys('product_cards', productCards, p(4, 1, 1, 25))).toEqual(['products 1', 'products 2', 'products 3', 'products 4']);
    // Page 1 of 2 at per=3, counting products.
    expect(countedItemKeys('product_cards', productCards.slice(0, 1), p(4, 2, 1, 3))).toHaveLength(3);
    // A product wrapped alone in its card and entry has one key whatever is counted.
    expect(countedItemKeys('product_cards', productCards.slice(1), p(1, 1, 1, 25))).toEqual(['products 4']);
    // None agrees: the entries, for the failure to name.
    expect(countedItemKeys('product_cards', productCards, p(9, 1, 1, 25))).toHaveLength(2);
  });
  test('countedUnitsHidden: product_cards entries or cards without their cards or products (a sparse fieldset) hide what may be counted', () => {
    expect(countedUnitsHidden('product_cards', productCards)).toBe(false);
    expect(countedUnitsHidden('product_cards', [{}, ...productCards])).toBe(true);
    expect(countedUnitsHidden('product_cards', [{ cards: [{ shop: null }] }])).toBe(true);
    expect(countedUnitsHidden('skus', [{}])).toBe(false);
  });
  test('pagesAndCountedItemsAgree: any of the three counts of product cards; one that none gives fails, naming each', () => {
    for (const total of [2, 3, 4]) expect(pagesAndCountedItemsAgree(p(total, 1, 1, 25), 'product_cards', productCards)).toEqual({ ok: true });
    failsWith(
      pagesAndCountedItemsAgree(p(5, 1, 1, 25), 'product_cards', productCards),
      /page 1 of 1 holds 2 items, expected 5 .*\(the 2 product_cards entries, their 3 cards and 4 products were each tried as what is counted\)/,
    );
    failsWith(pagesAndCountedItemsAgree(p(3, 1, 1, 25), 'skus', [{ id: 1 }, { id: 2 }]), /page 1 of 1 holds 2 items, expected 3/);
  });

  test('linkTargets resolves relative URLs against the request URL', () => {
    const links = linkTargets({ link: '</api/c?per=2&page=2>; rel="next", <https://h/api/c?per=2&page=3>; rel=last' }, 'https://h/api/c?per=2')!;
    expect(links.get('next')).toBe('https://h/api/c?per=2&page=2');
    expect(links.get('last')).toBe('https://h/api/c?per=2&page=3');
    expect(linkTargets({}, 'https://h/')).toBeNull();
  });

  test('nextAndLastLinksWhileMorePages: both before the last page; nothing required on the last or only page', () => {
    const both = { link: '<u2>; rel="next", <u3>; rel="last"' };
    expect(nextAndLastLinksWhileMorePages(both, p(7, 2, 1, 4)).ok).toBe(true);
    expect(nextAndLastLinksWhileMorePages({}, p(7, 2, 2, 4)).ok).toBe(true);
    expect(nextAndLastLinksWhileMorePages({ link: '<u1>; rel="first", <u1>; rel="prev"' }, p(7, 2, 2, 4)).ok).toBe(true);
    expect(nextAndLastLinksWhileMorePages({}, p(3, 1, 1, 25)).ok).toBe(true);
    failsWith(nextAndLastLinksWhileMorePages({}, p(7, 2, 1, 4)), /no Link header on page 1 of 2 \(7 results, 4 per page\)/);
    failsWith(nextAndLastLinksWhileMorePages({ link: '<u2>; rel="next"' }, p(7, 2, 1, 4)), /lacks rel=last on page 1 of 2/);
  });

  test('whether pages follow is read from the items served: a total_pages one too many asks for no Link (one bug, one verdict)', () => {
    // 5 results, 25 per page, 5 served: the only page, whatever total_pages says (PAG-1 fails that).
    expect(nextAndLastLinksWhileMorePages({}, p(5, 2, 1, 25), 5).ok).toBe(true);
    // A full page with results beyond it: the Link is required.
    failsWith(nextAndLastLinksWhileMorePages({}, p(9, 3, 1, 4), 4), /no Link header on page 1 of 3 \(9 results, 4 per page, 4 served\)/);
    // A short page is the last one, even if the meta says more follow.
    expect(nextAndLastLinksWhileMorePages({}, p(9, 3, 1, 4), 2).ok).toBe(true);
    // rel=next is only warned about where the items and total_pages both say the page is the last.
    const next = { link: '<u2>; rel="next"' };
    expect(noNextLinkOnLastPage(next, p(59, 1, 1, 25), 25).ok).toBe(true);
    failsWith(noNextLinkOnLastPage(next, p(5, 1, 1, 25), 5), /rel=next on page 1 of 1/);
  });

  test('pageIsTheOneAsked: a page past the last may be clamped to the last page', () => {
    expect(pageIsTheOneAsked(p(59, 3, 3, 25), 7).ok).toBe(true);
    failsWith(pageIsTheOneAsked(p(59, 3, 1, 25), 7), /page is 1, but page 7 was asked for/);
    failsWith(pageIsTheOneAsked(p(59, 3, 1, 25), 2), /page is 1, but page 2 was asked for/);
  });

  test('paginationClauses: each clause named by the requirement it stands for', () => {
    const ids = (clauses: ReturnType<typeof paginationClauses>) => clauses.filter(([r]) => !r.ok).map(([, id]) => id);
    expect(ids(paginationClauses(p(5, 2, 1, 25), 5))).toEqual(['PAG-1']);
    expect(ids(paginationClauses(p(59, 3, 1, 25), 25, { page: 2 }))).toEqual(['PAG-3']);
    expect(ids(paginationClauses(p(59, 3, 1, 25), 25, { per: 5 }))).toEqual(['PAG-4']);
    expect(ids(paginationClauses(p(59, 3, 1, 25), 25, { page: 1, per: 25 }))).toEqual([]);
  });

  test("linkedPageRequirement: a wrong URL is the Link's (PAG-5); a right URL served wrong is the page's or the per's", () => {
    const promise = { url: 'https://h/c?per=4&page=2', page: 2, per: 4, total_results: 7 };
    expect(linkedPageRequirement(p(7, 2, 1, 4), promise)).toBe('PAG-3');
    expect(linkedPageRequirement(p(7, 1, 2, 25), promise)).toBe('PAG-4');
    expect(linkedPageRequirement(p(8, 2, 2, 4), promise)).toBe('PAG-1');
    expect(linkedPageRequirement(p(7, 1, 2, 25), { ...promise, url: 'https://h/c?page=2' })).toBe('PAG-5');
    expect(linkedPageRequirement(p(7, 2, 1, 4), { ...promise, url: 'https://h/c?per=4&page=1' })).toBe('PAG-5');
    // A default per left out of the URL asks for it all the same.
    expect(linkedPageRequirement(p(59, 3, 1, 25), { url: 'https://h/c?page=2', page: 2, per: 25, total_results: 59 })).toBe('PAG-3');
  });

  test('linkedPageIs: the page the rel promises, at the size of the request', () => {
    const expected = { rel: 'next', url: 'https://h/c?page=2', page: 2, per: 4, total_results: 7 };
    expect(linkedPageIs(p(7, 2, 2, 4), expected).ok).toBe(true);
    failsWith(linkedPageIs(p(7, 1, 2, 25), expected, ['per=4']), /not the next one: per is 25, expected 4 \(the URL does not carry per=4 of the request\)/);
    failsWith(linkedPageIs(p(7, 2, 1, 4), expected), /page is 1, expected 2/);
    failsWith(linkedPageIs(p(3, 1, 2, 4), expected), /total_results is 3, expected 7/);
  });

  test('queryDroppedBy names what the URL lost, page and oauth_token aside', () => {
    expect(queryDroppedBy('https://h/s?q=ab&per=2&page=2', 'https://h/s?q=ab&per=2')).toEqual([]);
    expect(queryDroppedBy('https://h/s?per=2&page=2&q=ab', 'https://h/s?q=ab&per=2&oauth_token=x')).toEqual([]);
    expect(queryDroppedBy('https://h/s?page=2', 'https://h/s?q=ab&per=2')).toEqual(['q=ab', 'per=2']);
  });

  test('totalsAgree', () => {
    expect(totalsAgree([page('a', p(7, 1, 1, 25), []), page('b', p(7, 2, 1, 4), [])]).ok).toBe(true);
    failsWith(totalsAgree([page('a', p(7, 1, 1, 25), []), page('b', p(4, 1, 1, 4), [])]), /total_results differs .*: 7 \(a\), 4 \(b\)/);
  });

  test('pagesAreDisjoint', () => {
    expect(pagesAreDisjoint([page('page 1', p(7, 2, 1, 4), ['id 1', 'id 2']), page('page 2', p(7, 2, 2, 4), ['id 3'])]).ok).toBe(true);
    failsWith(pagesAreDisjoint([page('page 1', p(7, 2, 1, 4), ['id 1', 'id 2']), page('page 2', p(7, 2, 1, 4), ['id 2'])]), /id 2 is on page 1 and on page 2/);
    failsWith(pagesAreDisjoint([page('page 1', p(7, 2, 1, 4), ['id 1', 'id 1'])]), /id 1 is twice on page 1/);
    failsWith(pagesAreDisjoint([page('a', p(1, 1, 1, 4), ['x'.repeat(100)]), page('b', p(1, 1, 1, 4), ['x'.repeat(100)])]), /x{57}\.\.\. is on a and on b/);
  });

  test('pagesCoverCollection', () => {
    const pages = [page('1', p(3, 2, 1, 2), ['id 1', 'id 2']), page('2', p(3, 2, 2, 2), ['id 3'])];
    expect(pagesCoverCollection(pages, 3, ['id 1', 'id 2', 'id 3']).ok).toBe(true);
    failsWith(pagesCoverCollection(pages, 4), /hold 3 distinct items, but total_results is 4/);
    failsWith(pagesCoverCollection(pages, 3, ['id 4', 'id 1']), /1 item\(s\) of the collection are on none of its pages: id 4/);
  });

  test('smallPageSize splits into two pages below the default size, never 25, and 10 for large collections', () => {
    expect(smallPageSize(0)).toBeNull();
    expect(smallPageSize(1)).toBeNull();
    expect(smallPageSize(2)).toBe(1);
    expect(smallPageSize(7)).toBe(4);
    expect(smallPageSize(48)).toBe(24);
    expect(smallPageSize(50)).toBe(24);
    expect(smallPageSize(51)).toBe(10);
    expect(smallPageSize(5000)).toBe(10);
  });
});

describe('page, per and the arithmetic apart (PAG-3, PAG-4, PAG-1), as the passive judge cites them', () => {
  const p = { total_results: 5, total_pages: 3, page: 1, per: 2 };
  test('pageIsTheOneAsked: the page asked, page 1 when none was', () => {
    expect(pageIsTheOneAsked(p, undefined).ok).toBe(true);
    expect(pageIsTheOneAsked(p, 1).ok).toBe(true);
    expect(pageIsTheOneAsked(p, 2)).toEqual({ ok: false, message: 'page is 1, but page 2 was asked for' });
    expect(pageIsTheOneAsked({ ...p, page: 2 }, undefined).ok).toBe(false);
  });
  test('perIsTheOneAsked: the per asked; nothing to judge without one', () => {
    expect(perIsTheOneAsked(p, 2).ok).toBe(true);
    expect(perIsTheOneAsked(p, undefined).ok).toBe(true);
    expect(perIsTheOneAsked(p, 10)).toEqual({ ok: false, message: 'per is 2, but per=10 was asked for' });
  });

  test('perIsTheOneAsked: a per above 25 may be capped, at 25 or more', () => {
    const capped = { total_results: 500, total_pages: 10, page: 1, per: 50 };
    expect(perIsTheOneAsked(capped, 100).ok).toBe(true);
    expect(perIsTheOneAsked({ ...capped, per: 25 }, 100).ok).toBe(true);
    expect(perIsTheOneAsked({ ...capped, per: 20 }, 100).ok).toBe(false);
    expect(perIsTheOneAsked({ ...capped, per: 25 }, 10).ok).toBe(false);
    expect(perIsTheOneAsked({ ...capped, per: 200 }, 100).ok).toBe(false);
  });

  test('linkQueryDropped: per counts as kept when the URL carries the size answered, or leaves out a default 25', () => {
    expect(linkQueryDropped('https://h/s?per=50&page=2', 'https://h/s?per=100', 50)).toEqual([]);
    expect(linkQueryDropped('https://h/s?page=2', 'https://h/s?per=25', 25)).toEqual([]);
    expect(linkQueryDropped('https://h/s?page=2', 'https://h/s?per=10', 10)).toEqual(['per=10']);
    expect(linkQueryDropped('https://h/s?page=2&per=10', 'https://h/s?per=10&q=ab', 10)).toEqual(['q=ab']);
  });
  test('pagesAndItemsAgree: total_pages from total_results and per, and the items of the page', () => {
    expect(pagesAndItemsAgree(p, 2).ok).toBe(true);
    expect(pagesAndItemsAgree({ ...p, total_pages: 2 }, 2).ok).toBe(false);
    expect(pagesAndItemsAgree({ ...p, page: 3 }, 1).ok).toBe(true);
    expect(pagesAndItemsAgree(p, 1).ok).toBe(false);
  });
});

describe('outsideBasePath', () => {
  test('a Link URL below the base path, on another origin, or with no base path is not outside', () => {
    expect(outsideBasePath('https://h.example/api/categories?page=2', 'https://h.example/api')).toBeNull();
    expect(outsideBasePath('https://h.example/api', 'https://h.example/api/')).toBeNull();
    expect(outsideBasePath('https://other.example/categories?page=2', 'https://h.example/api')).toBeNull();
    expect(outsideBasePath('https://h.example/categories?page=2', 'https://h.example')).toBeNull();
    expect(outsideBasePath('not a url', 'https://h.example/api')).toBeNull();
  });

  test('a Link URL on the origin without the base path is outside', () => {
    expect(outsideBasePath('https://h.example/categories?page=2', 'https://h.example/api')).toMatch(/is not below the base URL https:\/\/h.example\/api \(its path lacks \/api\)/);
    expect(outsideBasePath('https://h.example/apiv2/categories', 'https://h.example/api')).not.toBeNull();
  });
});

describe('parseLinkHeader (RFC 8288)', () => {
  test('rel -> URL, relation types case-insensitive, several in one rel', () => {
    const links = parseLinkHeader('<https://h.example/api/skus?page=2>; rel="next", <https://h.example/api/skus?page=5>; REL=Last, <u>; rel="first prev"');
    expect(Object.fromEntries(links!)).toEqual({ next: 'https://h.example/api/skus?page=2', last: 'https://h.example/api/skus?page=5', first: 'u', prev: 'u' });
  });

  test('a quoted parameter holding a comma or a semicolon does not end the link (the hand-written parser lost its rel)', () => {
    expect(parseLinkHeader('<https://h.example/p?page=2>; title="pages; 2, 3"; rel=next')?.get('next')).toBe('https://h.example/p?page=2');
  });

  test('absent: null; unparseable: no links; a link without rel: none', () => {
    expect(parseLinkHeader(undefined)).toBeNull();
    expect(parseLinkHeader('garbage')?.size).toBe(0);
    expect(parseLinkHeader('<https://h.example/p>')?.size).toBe(0);
    expect(parseLinkHeader('')?.size).toBe(0);
  });
});
