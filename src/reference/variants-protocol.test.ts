// The legal variants of the protocol (variants/protocol.ts) for pagination, linked resources and fieldsets:
// for each, what the server answers with the variant on, next to what it answers without it (the
// reference's choice). Requests and bodies: variants-protocol-requests.test.ts; tokens, limits and
// patch levels: variants-protocol-tokens.test.ts. Test-only routes: src/testing/reference/.

import { describe, expect, it } from 'vitest';
import { PARTS } from '../testing/reference/protocol.testroutes.ts';
import type { RunningReference } from './server.ts';
import { call, get, parseLink } from '../testing/reference/testkit.ts';
import { compare, ok, type Server } from '../testing/reference/variants-protocol-setup.ts';

// ---------------------------------------------------------------------------------------------

describe('pagination variants', () => {
  it('per-cap-50: per above 50 is capped at 50 (default: 100)', () =>
    compare(['per-cap-50'], async (plain, varied) => {
      expect((await ok(get(plain.ref, '/test/many?per=80', plain))).body.meta.pagination.per).toBe(80);
      const capped = await ok(get(varied.ref, '/test/many?per=80', varied));
      expect(capped.body.meta.pagination).toEqual({ total_results: 60, total_pages: 2, page: 1, per: 50 });
      expect(capped.body.things).toHaveLength(50);
      expect((await ok(get(plain.ref, '/test/many?per=500', plain))).body.meta.pagination.per).toBe(100);
    }));

  it('per-over-max-refused: per above 50 is 422 InvalidParameter (default: capped at 100)', () =>
    compare(['per-over-max-refused'], async (plain, varied) => {
      expect((await ok(get(plain.ref, '/test/many?per=80', plain))).body.meta.pagination.per).toBe(80);
      const refused = await get(varied.ref, '/test/many?per=80', varied);
      expect(refused.status).toBe(422);
      expect(refused.body).toEqual({ errors: [{ code: 'InvalidParameter', messages: [expect.stringContaining('at most 50')] }] });
      expect((await ok(get(varied.ref, '/test/many?per=50', varied))).body.meta.pagination.per).toBe(50);
    }));

  it('empty-collection-one-page: an empty collection has total_pages 1 (default: 0)', () =>
    compare(['empty-collection-one-page'], async (plain, varied) => {
      expect((await ok(get(plain.ref, '/test/empty', plain))).body.meta.pagination).toEqual({ total_results: 0, total_pages: 0, page: 1, per: 25 });
      expect((await ok(get(varied.ref, '/test/empty', varied))).body).toEqual({ things: [], meta: { pagination: { total_results: 0, total_pages: 1, page: 1, per: 25 } } });
      expect((await ok(get(varied.ref, '/test/things', varied))).body.meta.pagination.total_pages).toBe(1);
    }));

  it('page-past-end-404: a page past the last is 404 RecordNotFound (default: 200 with an empty array)', () =>
    compare(['page-past-end-404'], async (plain, varied) => {
      const empty = await ok(get(plain.ref, '/test/things?per=2&page=3', plain));
      expect(empty.body.things).toEqual([]);
      const past = await get(varied.ref, '/test/things?per=2&page=3', varied);
      expect(past.status).toBe(404);
      expect(past.body).toEqual({ errors: [{ code: 'RecordNotFound', messages: [expect.stringContaining('page 3')] }] });
      expect((await ok(get(varied.ref, '/test/things?per=2&page=2', varied))).body.things).toHaveLength(2);
      // Page 1 of an empty collection is no page past the end.
      expect((await ok(get(varied.ref, '/test/empty', varied))).body.things).toEqual([]);
      expect((await get(varied.ref, '/test/empty?page=2', varied)).status).toBe(404);
    }));

  it('bad-paging-defaults: a page or per that is not a positive integer is ignored (default: 400 InvalidParameter)', () =>
    compare(['bad-paging-defaults'], async (plain, varied) => {
      for (const q of ['page=x', 'per=0', 'page=-1&per=abc', 'page=1.5']) {
        const refused = await get(plain.ref, `/test/many?${q}`, plain);
        expect([refused.status, refused.body.errors[0].code], q).toEqual([400, 'InvalidParameter']);
        const served = await ok(get(varied.ref, `/test/many?${q}`, varied), q);
        expect(served.body.meta.pagination, q).toEqual({ total_results: 60, total_pages: 3, page: 1, per: 25 });
      }
      expect((await ok(get(varied.ref, '/test/many?page=x&per=10', varied))).body.meta.pagination).toMatchObject({ page: 1, per: 10 });
    }));

  it('link-relative: Link URLs are path and query only (default: absolute)', () =>
    compare(
      ['link-relative'],
      async (plain, varied) => {
        const absolute = parseLink((await ok(get(plain.ref, '/test/things?per=1&color=x', plain))).headers.get('link'));
        expect(absolute.next).toBe(`${plain.ref.baseUrl}/test/things?per=1&color=x&page=2`);
        const relative = parseLink((await ok(get(varied.ref, '/test/things?per=1&color=x', varied))).headers.get('link'));
        expect(relative).toEqual({ next: '/api/test/things?per=1&color=x&page=2', last: '/api/test/things?per=1&color=x&page=4' });
        // The reference resolves to the same pages.
        const resolved = new URL(relative.next!, varied.ref.baseUrl).href;
        expect(resolved).toBe(`${varied.ref.baseUrl}/test/things?per=1&color=x&page=2`);
      },
      { basePath: '/api' },
    ));

  it('prefix-optional: the paths answer without /api too, and Link URLs leave it out (default: 404 without it, Links keep it)', () =>
    compare(
      ['prefix-optional'],
      async (plain, varied) => {
        const unprefixed = (s: Server): RunningReference => ({ ...s.ref, baseUrl: new URL(s.ref.baseUrl).origin }) as RunningReference;
        expect((await get(unprefixed(plain), '/test/things?per=1', plain)).status).toBe(404);
        const bare = await ok(get(unprefixed(varied), '/test/things?per=1', varied));
        const prefixed = await ok(get(varied.ref, '/test/things?per=1', varied));
        expect(bare.body).toEqual(prefixed.body);
        expect(parseLink(prefixed.headers.get('link')).next).toBe(`${new URL(varied.ref.baseUrl).origin}/test/things?per=1&page=2`);
        expect(parseLink((await ok(get(plain.ref, '/test/things?per=1', plain))).headers.get('link')).next).toBe(`${plain.ref.baseUrl}/test/things?per=1&page=2`);
      },
      { basePath: '/api' },
    ));

  it('link-every-rel: every page has first and last, prev and next where they exist (default: next and last when pages > 1)', () =>
    compare(['link-every-rel'], async (plain, varied) => {
      const url = (q: string) => `${varied.ref.baseUrl}/test/things?${q}`;
      expect((await ok(get(plain.ref, '/test/things', plain))).headers.get('link')).toBeNull();
      expect(Object.keys(parseLink((await ok(get(plain.ref, '/test/things?per=1&page=2', plain))).headers.get('link')))).toEqual(['next', 'last']);
      const middle = await ok(get(varied.ref, '/test/things?per=1&page=2', varied));
      expect(middle.headers.get('link')).toBe(
        `<${url('per=1&page=1')}>; rel="first", <${url('per=1&page=1')}>; rel="prev", <${url('per=1&page=3')}>; rel="next", <${url('per=1&page=4')}>; rel="last"`,
      );
      expect(parseLink((await ok(get(varied.ref, '/test/things', varied))).headers.get('link'))).toEqual({ first: url('page=1'), last: url('page=1') });
      expect(Object.keys(parseLink((await ok(get(varied.ref, '/test/things?per=1&page=4', varied))).headers.get('link')))).toEqual(['first', 'prev', 'last']);
      expect(parseLink((await ok(get(varied.ref, '/test/empty', varied))).headers.get('link'))).toEqual({
        first: `${varied.ref.baseUrl}/test/empty?page=1`,
        last: `${varied.ref.baseUrl}/test/empty?page=1`,
      });
    }));

  it('link-default-per-omitted: Link URLs leave out per when it is the default 25 (default: kept)', () =>
    compare(['link-default-per-omitted'], async (plain, varied) => {
      const base = (ref: RunningReference) => `${ref.baseUrl}/test/many`;
      expect(parseLink((await ok(get(plain.ref, '/test/many?per=25&x=1', plain))).headers.get('link')).next).toBe(`${base(plain.ref)}?per=25&x=1&page=2`);
      expect(parseLink((await ok(get(varied.ref, '/test/many?per=25&x=1', varied))).headers.get('link'))).toEqual({
        next: `${base(varied.ref)}?x=1&page=2`,
        last: `${base(varied.ref)}?x=1&page=3`,
      });
      expect(parseLink((await ok(get(varied.ref, '/test/many?per=20', varied))).headers.get('link')).next).toBe(`${base(varied.ref)}?per=20&page=2`);
    }));
});

// ---------------------------------------------------------------------------------------------

describe('linked resources and fieldsets variants', () => {
  it('include-keyed-by-name: the top-level array is under the name as written, groups staying groups (default: the plural)', () =>
    compare(['include-keyed-by-name'], async (plain, varied) => {
      expect(Object.keys((await ok(get(plain.ref, '/test/things?include=part', plain))).body)).toEqual(['things', 'parts', 'meta']);
      const named = await ok(get(varied.ref, '/test/things?include=part', varied));
      expect(Object.keys(named.body)).toEqual(['things', 'part', 'meta']);
      expect(named.body.part).toEqual([PARTS.get(71), PARTS.get(72)]);
      const specs = await ok(get(varied.ref, '/test/specs?include=group', varied));
      expect(specs.body.groups).toEqual([{ id: 9, name: 'size' }]);
      expect(specs.body.group).toBeUndefined();
    }));

  it('unknown-link-name-ignored: a linked name the endpoint does not offer is ignored (default: 400)', () =>
    compare(['unknown-link-name-ignored'], async (plain, varied) => {
      const bare = (await ok(get(varied.ref, '/test/things', varied))).body;
      for (const q of ['embed=shop', 'embed_ids=x', 'include=parts']) {
        expect((await get(plain.ref, `/test/things?${q}`, plain)).status, q).toBe(400);
        expect((await ok(get(varied.ref, `/test/things?${q}`, varied), q)).body, q).toEqual(bare);
      }
      // A known name next to an unknown one still links.
      expect((await ok(get(varied.ref, '/test/things?embed=part,nope', varied))).body.things[0].part).toEqual(PARTS.get(71));
      expect((await ok(get(varied.ref, '/test/plain?include=part', varied))).body).toEqual(bare);
    }));

  it('include-single-ignored: include on a single resource is ignored (default: ids and the top-level array)', () =>
    compare(['include-single-ignored'], async (plain, varied) => {
      expect((await ok(get(plain.ref, '/test/things/1?include=part', plain))).body).toEqual({
        thing: { id: 1, name: 'one', color: 'red', size: 10, part_id: 71 },
        parts: [PARTS.get(71)],
      });
      expect((await ok(get(varied.ref, '/test/things/1?include=part', varied))).body).toEqual({ thing: { id: 1, name: 'one', color: 'red', size: 10 } });
      // Also where a route checks the names before it changes anything.
      expect((await call(plain.ref, 'POST', '/test/specs?include=nope', plain)).status).toBe(400);
      expect((await call(plain.ref, 'POST', '/test/specs?include=group', plain)).body.groups).toEqual([{ id: 9, name: 'size' }]);
      for (const q of ['include=nope', 'include=group']) {
        const created = await call(varied.ref, 'POST', `/test/specs?${q}`, varied);
        expect([created.status, created.body], q).toEqual([201, { specification: { id: 1, name: 'width' } }]);
      }
      // Collections and embed on single resources are unchanged.
      expect((await ok(get(varied.ref, '/test/things?include=part', varied))).body.parts).toHaveLength(2);
      expect((await ok(get(varied.ref, '/test/things/1?embed=part', varied))).body.thing.part).toEqual(PARTS.get(71));
    }));

  it('fieldsets-in-every-version: fields[...] and fields_except[...] are honoured in 3.0 (default: ignored before 3.1.1)', () =>
    compare(['fieldsets-in-every-version'], async (plain, varied) => {
      const q = '/test/things?embed=part&fields[root]=id,name&fields_except[root]=name&fields[part]=name';
      expect((await ok(get(plain.ref, q, { ...plain, version: '3.0' }))).body.things[0]).toEqual({ id: 1, name: 'one', color: 'red', size: 10, part: PARTS.get(71) });
      for (const version of ['3', '3.0', '3.1', null]) {
        expect((await ok(get(varied.ref, q, { ...varied, version }))).body.things[0], String(version)).toEqual({ id: 1, part: { name: 'bolt' } });
      }
    }));
});
