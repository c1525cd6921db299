// Each check passes what the spec allows and fails what it forbids, with a message that says what
// was seen: a check that cannot fail is a defect.
import { describe, expect, test } from 'vitest';
import { allOf, fail, inContext, pass } from './check.ts';
import {
  childPathExtendsParentPath,
  childrenCountMatches,
  childrenNameTheirParent,
  familyIdIsNotParentId,
  hasId,
  hasNoMatchCount,
  isRootCategory,
  leafHasNoChildren,
  pathEndsWithParent,
  pathRunsFromRootToSelf,
} from './categories.ts';
import { errorBodyIsWellFormed, hasErrorCode, notAServerError } from './errors.ts';
import { bodyIsJson, hasCollectionEnvelope, hasSingleEnvelope, hasStatus, refusalJudgement, staysOnHttps } from './http.ts';
import { defaultPageSizeIs25, nextAndLastLinksWhileMorePages, noNextLinkOnLastPage, paginationIsConsistent, paginationMetaIsWellFormed, parseLinkHeader } from './pagination.ts';

const failsWith = (result: ReturnType<typeof pass>, pattern: RegExp) => {
  expect(result.ok).toBe(false);
  expect(result.ok ? '' : result.message).toMatch(pattern);
};

describe('combinators', () => {
  test('allOf passes when all pass, else lists the first five messages and counts the rest', () => {
    expect(allOf([pass(), pass()])).toEqual(pass());
    failsWith(allOf(Array.from({ length: 7 }, (_, i) => fail(`m${i}`))), /^m0; m1; m2; m3; m4; and 2 more of the same kind$/);
  });
});

describe('http', () => {
  const answer = (status: number, text: string, type = 'application/json') => ({ status, headers: (type ? { 'content-type': type } : {}) as Record<string, string>, text });
  test('hasStatus', () => {
    expect(hasStatus(answer(200, '{}'), 200).ok).toBe(true);
    expect(hasStatus(answer(404, '{}'), [404, 410]).ok).toBe(true);
    failsWith(hasStatus(answer(500, '{}'), 200), /status 500, expected 200/);
  });
  test('bodyIsJson', () => {
    expect(bodyIsJson(answer(200, '{"a":1}', 'application/vnd.service+json; version=3.2')).ok).toBe(true);
    failsWith(bodyIsJson(answer(200, '<html>')), /not JSON/);
    failsWith(bodyIsJson(answer(200, '{}', '')), /without a Content-Type/);
    failsWith(bodyIsJson(answer(200, '{}', 'text/plain')), /as Content-Type text\/plain/);
  });
  test('envelopes', () => {
    expect(hasSingleEnvelope({ category: {} }, 'category').ok).toBe(true);
    failsWith(hasSingleEnvelope({ categories: [] }, 'category'), /no "category" key \(keys: categories\)/);
    failsWith(hasSingleEnvelope({ category: [] }, 'category'), /expected an object/);
    expect(hasCollectionEnvelope({ categories: [] }, 'categories').ok).toBe(true);
    failsWith(hasCollectionEnvelope([], 'categories'), /expected an object/);
    failsWith(hasCollectionEnvelope({ categories: {} }, 'categories'), /expected an array/);
  });
  test('refusalJudgement: 401 and 403 pass; a 404 (no such resource for the token) only warns, saying why; the rest fails', () => {
    for (const status of [401, 403]) expect(refusalJudgement(status, 'GET /user')).toEqual({ check: pass(), must: true });
    const hidden = refusalJudgement(404, 'GET /user with an application token');
    expect(hidden.must).toBe(false);
    failsWith(hidden.check, /^GET \/user with an application token answered 404, not a refusal \(401 or 403\): tolerated: the spec names no status for a missing permission/);
    for (const status of [200, 204, 400, 500]) expect(refusalJudgement(status, 'x').must, String(status)).toBe(true);
    failsWith(refusalJudgement(200, 'GET /favorites').check, /^GET \/favorites answered 200, expected a refusal \(401 or 403\)$/);
  });
  test("staysOnHttps: a target down to http fails, but the client's own: a loopback address, the redirect_uri the request names", () => {
    const consent = (redirectUri: string) => `https://auth.example.com/oauth2/authorizations/new?client_id=c&redirect_uri=${encodeURIComponent(redirectUri)}&scope=public`;
    for (const uri of ['http://127.0.0.1:8765/callback', 'http://localhost:9/cb', 'http://[::1]:9/cb', 'http://app.example.net/callback']) {
      expect(staysOnHttps(consent(uri), { location: `${uri}?code=abc` }).downgrade, uri).toEqual(pass());
    }
    expect(staysOnHttps(`${consent('https://app.example.net/cb')}`, { location: 'http://127.0.0.1:8765/cb?error=access_denied' }).downgrade).toEqual(pass());
    failsWith(
      staysOnHttps(consent('http://app.example.net/callback'), { location: 'http://app.example.net/other?code=abc' }).downgrade,
      /points to http:\/\/app\.example\.net\/other/,
    );
    failsWith(staysOnHttps(consent('http://app.example.net/callback'), { location: 'http://auth.example.com/login' }).downgrade, /over http$/);
    failsWith(staysOnHttps('https://api.example.com/categories', { location: 'http://api.example.com/categories' }).downgrade, /over http$/);
  });
});

describe('errors', () => {
  test('errorBodyIsWellFormed', () => {
    expect(errorBodyIsWellFormed({ errors: [{ code: 'RecordNotFound', messages: ['x'] }] }).ok).toBe(true);
    failsWith(errorBodyIsWellFormed({ error: 'x' }), /expected \{errors/);
    failsWith(errorBodyIsWellFormed({ errors: [] }), /empty errors array/);
    failsWith(errorBodyIsWellFormed({ errors: [{ code: 1, messages: [] }] }), /code is 1/);
    failsWith(errorBodyIsWellFormed({ errors: [{ code: 'A', messages: 'x' }] }), /messages is "x"/);
    failsWith(errorBodyIsWellFormed({ errors: [{ code: 'A', messages: [1] }] }), /array of strings/);
  });
  test('hasErrorCode', () => {
    expect(hasErrorCode({ errors: [{ code: 'RecordNotFound', messages: [] }] }, 'RecordNotFound').ok).toBe(true);
    failsWith(hasErrorCode({ errors: [{ code: 'NotFound', messages: [] }] }, 'RecordNotFound'), /\["NotFound"\], expected RecordNotFound/);
  });
  test('notAServerError: any status below 500 passes, a 5xx fails', () => {
    for (const status of [200, 400, 404, 422]) expect(notAServerError(status, 'x').ok).toBe(true);
    failsWith(notAServerError(500, 'GET /x'), /GET \/x answered 500: .* not a server error/);
  });
});

describe('pagination', () => {
  const p = (total_results: number, total_pages: number, page: number, per: number) => ({ total_results, total_pages, page, per });
  test('paginationMetaIsWellFormed', () => {
    expect(paginationMetaIsWellFormed({ meta: { pagination: p(3, 1, 1, 25) } }).ok).toBe(true);
    failsWith(paginationMetaIsWellFormed({}), /no meta object/);
    failsWith(paginationMetaIsWellFormed({ meta: {} }), /no meta.pagination/);
    failsWith(paginationMetaIsWellFormed({ meta: { pagination: { ...p(3, 1, 1, 25), per: '25' } } }), /per is "25", expected an integer/);
    failsWith(paginationMetaIsWellFormed({ meta: { pagination: p(3, 1, 0, 25) } }), /page is below 1/);
  });
  test('paginationIsConsistent', () => {
    expect(paginationIsConsistent(p(59, 3, 1, 25), 25).ok).toBe(true);
    expect(paginationIsConsistent(p(59, 3, 3, 25), 9, { page: 3 }).ok).toBe(true);
    expect(paginationIsConsistent(p(0, 0, 1, 25), 0).ok).toBe(true);
    expect(paginationIsConsistent(p(0, 1, 1, 25), 0).ok).toBe(true);
    expect(paginationIsConsistent(p(59, 3, 4, 25), 0, { page: 4 }).ok).toBe(true);
    failsWith(paginationIsConsistent(p(59, 4, 1, 25), 25), /total_pages is 4, but 59 results at 25 per page make 3/);
    failsWith(paginationIsConsistent(p(59, 3, 1, 25), 25, { page: 2 }), /page is 1, but page 2 was asked for/);
    failsWith(paginationIsConsistent(p(59, 30, 1, 2), 2, { per: 5 }), /per=5 was asked for/);
    failsWith(paginationIsConsistent(p(59, 3, 1, 25), 24), /holds 24 items, expected 25/);
    failsWith(paginationIsConsistent(p(59, 3, 3, 25), 25, { page: 3 }), /holds 25 items, expected 9/);
  });
  test('defaultPageSizeIs25', () => {
    expect(defaultPageSizeIs25(p(59, 3, 1, 25)).ok).toBe(true);
    failsWith(defaultPageSizeIs25(p(59, 3, 1, 20)), /per is 20 .* expected the default 25/);
  });
  test('parseLinkHeader', () => {
    expect(parseLinkHeader(undefined)).toBeNull();
    const links = parseLinkHeader('<https://h/api/c?page=2&per=2>; rel="next", <https://h/api/c?page=30&per=2>; rel=last')!;
    expect(links.get('next')).toBe('https://h/api/c?page=2&per=2');
    expect(links.get('last')).toBe('https://h/api/c?page=30&per=2');
  });
  test('nextAndLastLinksWhileMorePages and noNextLinkOnLastPage', () => {
    const both = { link: '<u2>; rel="next", <u3>; rel="last"' };
    expect(nextAndLastLinksWhileMorePages({}, p(3, 1, 1, 25)).ok).toBe(true);
    expect(nextAndLastLinksWhileMorePages(both, p(59, 3, 1, 25)).ok).toBe(true);
    expect(nextAndLastLinksWhileMorePages({ link: '<u3>; rel="last"' }, p(59, 3, 3, 25)).ok).toBe(true);
    // The last page need carry no Link header at all (the spec's rule speaks of pages to come).
    expect(nextAndLastLinksWhileMorePages({}, p(59, 3, 3, 25)).ok).toBe(true);
    failsWith(nextAndLastLinksWhileMorePages({}, p(59, 3, 1, 25)), /no Link header on page 1 of 3/);
    failsWith(nextAndLastLinksWhileMorePages({ link: '<u3>; rel="last"' }, p(59, 3, 1, 25)), /lacks rel=next on page 1 of 3/);
    expect(noNextLinkOnLastPage(both, p(59, 3, 1, 25)).ok).toBe(true);
    failsWith(noNextLinkOnLastPage(both, p(59, 3, 3, 25)), /rel=next on page 3 of 3/);
  });
});

describe('category tree', () => {
  const root = { id: 1, parent_id: 0, children_count: 2, path: '1' };
  const child = { id: 4, parent_id: 1, children_count: 0, path: '1,4' };
  test('hasId and isRootCategory', () => {
    expect(hasId(child, 4).ok).toBe(true);
    failsWith(hasId(child, 5), /id is 4, expected 5/);
    expect(isRootCategory(root).ok).toBe(true);
    failsWith(isRootCategory({ ...root, parent_id: null }), /parent_id null, expected 0/);
  });
  test('pathRunsFromRootToSelf', () => {
    expect(pathRunsFromRootToSelf(child, 1).ok).toBe(true);
    expect(pathRunsFromRootToSelf(root, 1).ok).toBe(true);
    failsWith(pathRunsFromRootToSelf({ ...child, path: '4,1' }, 1), /does not start at the root 1/);
    failsWith(pathRunsFromRootToSelf({ ...child, path: '1,5' }, 1), /does not end with its own id/);
    failsWith(pathRunsFromRootToSelf({ ...child, path: '1 / 4' }, 1), /expected comma-separated ids/);
    failsWith(pathRunsFromRootToSelf({ ...child, path: '1,4,4' }, 1), /repeats an id/);
  });
  test('pathEndsWithParent and childPathExtendsParentPath', () => {
    expect(pathEndsWithParent(child).ok).toBe(true);
    expect(pathEndsWithParent(root).ok).toBe(true);
    failsWith(pathEndsWithParent({ ...child, path: '1,2,4' }), /names 2 before it, but its parent_id is 1/);
    failsWith(pathEndsWithParent({ ...root, path: '9,1' }), /parent_id 0 \(root\) but path/);
    failsWith(pathEndsWithParent({ ...child, parent_id: null }), /parent_id null, so its path cannot be checked/);
    expect(childPathExtendsParentPath(child, root).ok).toBe(true);
    failsWith(childPathExtendsParentPath({ ...child, path: '4,1' }, root), /expected "1,4"/);
  });
  test('children, counts and leaves', () => {
    expect(childrenNameTheirParent([child], 1).ok).toBe(true);
    failsWith(childrenNameTheirParent([child, { ...child, id: 7, parent_id: 4 }], 1), /1 listed children of 1 have another parent_id: 7 \(parent_id 4\)/);
    expect(childrenCountMatches(root, 2).ok).toBe(true);
    failsWith(childrenCountMatches(root, 3), /children_count 2, but its children listing has total_results 3/);
    expect(leafHasNoChildren(child, 0).ok).toBe(true);
    failsWith(leafHasNoChildren({ ...child, children_count: 1 }, 0), /taken as a leaf but has children_count 1/);
    failsWith(leafHasNoChildren(child, 2), /lists 2 children/);
    expect(hasNoMatchCount({ id: 1 }).ok).toBe(true);
    failsWith(hasNoMatchCount({ id: 1, match_count: 0 }), /carries match_count 0 outside search/);
    // Blank fields are present with value null (GEN-8): a null match_count outside search is no value.
    expect(hasNoMatchCount({ id: 1, match_count: null })).toEqual(pass());
  });
});

// GEN-8: "blank fields are present with value null". A null where the spec types a value is blank
// (a warning citing GEN-8); a wrong value that is not null still fails, not blank.
const isBlank = (result: ReturnType<typeof pass>) => expect(result).toMatchObject({ ok: false, blank: true });
const isHard = (result: ReturnType<typeof pass>) => {
  expect(result.ok).toBe(false);
  expect(result).not.toHaveProperty('blank');
};

describe('GEN-8: a null is blank, a wrong value a failure', () => {
  test('inContext prefixes the message and keeps a blank blank', () => {
    const blankResult = inContext('GET /x', { ok: false, message: 'id is null', blank: true });
    expect(blankResult).toEqual({ ok: false, message: 'GET /x: id is null', blank: true });
    expect(inContext('GET /x', fail('id is 3'))).toEqual({ ok: false, message: 'GET /x: id is 3' });
    expect(inContext('GET /x', pass())).toEqual(pass());
  });

  test('category ids, paths, parent ids and children counts', () => {
    // A value the spec states or the request names (the id asked, 0 for the root's parent, a
    // count): null there is a wrong value, not a blank (issue 38, point 3).
    isHard(hasId({ id: null }, 3));
    isHard(hasId({ id: 4 }, 3));
    isBlank(pathRunsFromRootToSelf({ id: 5, path: null }, 1));
    isHard(pathRunsFromRootToSelf({ id: 5, path: 'x' }, 1));
    isBlank(pathRunsFromRootToSelf({ id: null, path: '1,5' }, 1));
    isHard(pathRunsFromRootToSelf({ id: 6, path: '1,5' }, 1));
    isBlank(childPathExtendsParentPath({ id: 5, path: '1,5' }, { id: 1, path: null }));
    isBlank(childPathExtendsParentPath({ id: 5, path: null }, { id: 1, path: '1' }));
    isBlank(childPathExtendsParentPath({ id: null, path: '1,5' }, { id: 1, path: '1' }));
    isHard(childPathExtendsParentPath({ id: 5, path: '1,6' }, { id: 1, path: '1' }));
    isHard(
      childrenNameTheirParent(
        [
          { id: 2, parent_id: 1 },
          { id: 3, parent_id: null },
        ],
        1,
      ),
    );
    isHard(
      childrenNameTheirParent(
        [
          { id: 2, parent_id: 9 },
          { id: 3, parent_id: null },
        ],
        1,
      ),
    );
    isHard(childrenCountMatches({ id: 1, children_count: null }, 2));
    isHard(childrenCountMatches({ id: 1, children_count: 3 }, 2));
    isHard(leafHasNoChildren({ id: 1, children_count: null }, 0));
    isHard(leafHasNoChildren({ id: 1, children_count: 2 }, 0));
    isBlank(pathEndsWithParent({ id: 5, path: '1,5', parent_id: null }));
    isBlank(pathEndsWithParent({ id: 5, path: null, parent_id: 1 }));
    isHard(pathEndsWithParent({ id: 5, path: '1,5', parent_id: 2 }));
    isHard(isRootCategory({ id: 1, parent_id: null }));
    isHard(isRootCategory({ id: 1, parent_id: 1 }));
  });

  test('meta.pagination: a null field, a null pagination or a null meta is blank', () => {
    const body = (pagination: unknown) => ({ items: [], meta: { pagination } });
    isBlank(paginationMetaIsWellFormed(body({ total_results: null, total_pages: 1, page: 1, per: 25 })));
    isBlank(paginationMetaIsWellFormed(body(null)));
    isBlank(paginationMetaIsWellFormed({ items: [], meta: null }));
    isHard(paginationMetaIsWellFormed(body({ total_results: '3', total_pages: 1, page: 1, per: 25 })));
    // A real failure among nulls is a failure.
    isHard(paginationMetaIsWellFormed(body({ total_results: null, total_pages: 1, page: 0, per: 25 })));
    isHard(paginationMetaIsWellFormed({ items: [] }));
  });
});

describe('familyIdIsNotParentId (CAT-10#3)', () => {
  test('FAMILY.a: the parent id on two categories of different parents fails', () => {
    const both = familyIdIsNotParentId([
      { id: 10, parent_id: 2, family_id: 2 },
      { id: 20, parent_id: 10, family_id: 10 },
    ]);
    expect(both.warnOnly).toBe(false);
    expect(both.result.ok).toBe(false);
  });
  test('FAMILY.b: one agreeing, perhaps by chance, only warns; two of the same parent too', () => {
    expect(
      familyIdIsNotParentId([
        { id: 10, parent_id: 2, family_id: 2 },
        { id: 20, parent_id: 10, family_id: 77 },
      ]),
    ).toMatchObject({ warnOnly: true });
    expect(
      familyIdIsNotParentId([
        { id: 10, parent_id: 2, family_id: 2 },
        { id: 11, parent_id: 2, family_id: 2 },
      ]),
    ).toMatchObject({ warnOnly: true });
  });
  test('FAMILY.c: families of their own pass; a null family_id and the root are not judged', () => {
    expect(
      familyIdIsNotParentId([
        { id: 10, parent_id: 2, family_id: 5 },
        { id: 20, parent_id: 10, family_id: 5 },
      ]).result.ok,
    ).toBe(true);
    expect(
      familyIdIsNotParentId([
        { id: 10, parent_id: 2, family_id: null },
        { id: 1, parent_id: 0, family_id: 0 },
      ]).result.ok,
    ).toBe(true);
  });
});
