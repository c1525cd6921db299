// The legal variants of the protocol (variants/protocol.ts): for each, what the server answers
// with the variant switched on, next to what it answers without it (the reference's choice).
// Test-only routes (src/testing/reference/protocol.testroutes.ts, and a few below) give the pagination and the
// response shaping something to act on.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { timestampAtOffset, variantBody, withExtraFields } from './http.ts';
import { PARTS, TEST_ROUTES } from '../testing/reference/protocol.testroutes.ts';
import type { RouteModule } from './router.ts';
import type { ReferenceOptions, RunningReference } from './server.ts';
import { requestedLinks, respondMany, respondOne, type Link } from './shape.ts';
import { appToken, call, get, makeClock, parseLink, post, startWithToken, userTokens, VND, type Reply } from '../testing/reference/testkit.ts';
import { NO_VARIANTS, resolveVariants, type VariantName } from './variants.ts';

interface Spec {
  id: number;
  name: string;
  groupId: number | null;
}
const SPECS: Spec[] = [
  { id: 1, name: 'width', groupId: 9 },
  { id: 2, name: 'height', groupId: 9 },
];
const groupLink: Link<Spec> = {
  name: 'group',
  plural: 'groups',
  idOf: (s) => s.groupId,
  objectOf: (s) => (s.groupId === null ? null : { id: s.groupId, name: 'size' }),
};
const MANY = Array.from({ length: 60 }, (_, i) => ({ id: i + 1 }));

/** An empty collection, one of 60 items, and one whose link is named group. */
const MORE_ROUTES: RouteModule = (r) => {
  r.get('/test/empty', (ctx) => respondMany(ctx, 'things', [] as { id: number }[], (x) => ({ ...x })));
  r.get('/test/many', (ctx) => respondMany(ctx, 'things', MANY, (x) => ({ ...x })));
  r.get('/test/specs', (ctx) => respondMany(ctx, 'specifications', SPECS, (s) => ({ id: s.id, name: s.name }), { links: [groupLink] }));
  // As the review routes do: the linked names are checked before anything changes.
  r.post('/test/specs', (ctx) => {
    requestedLinks(ctx, [groupLink]);
    return respondOne(ctx, 'specification', SPECS[0]!, (s) => ({ id: s.id, name: s.name }), { links: [groupLink], status: 201 });
  });
};

interface Server {
  ref: RunningReference;
  token: string;
}

function start(variants: readonly VariantName[], opts: ReferenceOptions = {}): Promise<Server> {
  return startWithToken({ ...opts, variants, testHooks: { extraRoutes: [TEST_ROUTES, MORE_ROUTES] } });
}

/** Runs `fn` with a server without variants and one with `variants` (same options), then closes both. */
async function compare(variants: readonly VariantName[], fn: (plain: Server, varied: Server) => Promise<void>, opts: ReferenceOptions = {}): Promise<void> {
  const [plain, varied] = await Promise.all([start([], opts), start(variants, opts)]);
  try {
    await fn(plain, varied);
  } finally {
    await Promise.all([plain.ref.close(), varied.ref.close()]);
  }
}

const ok = async (r: Promise<Reply>, what = ''): Promise<Reply> => {
  const reply = await r;
  expect(reply.status, `${what} ${reply.text.slice(0, 300)}`).toBe(200);
  return reply;
};

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

// ---------------------------------------------------------------------------------------------

describe('request pipeline and body variants', () => {
  it('validation-as-400: a creation body lacking a required field is 400 ParameterMissing (default: 422 RecordInvalid)', () =>
    compare(['validation-as-400'], async (plain, varied) => {
      const [a, b] = await Promise.all([userTokens(plain.ref, 'public favorites'), userTokens(varied.ref, 'public favorites')]);
      const listA = await call(plain.ref, 'POST', '/favorite_lists', { token: a.access, body: { favorite_list: {} } });
      expect([listA.status, listA.body.errors[0].code]).toEqual([422, 'RecordInvalid']);
      const listB = await call(varied.ref, 'POST', '/favorite_lists', { token: b.access, body: { favorite_list: {} } });
      expect([listB.status, listB.body.errors[0].code]).toEqual([400, 'ParameterMissing']);
      const addressA = await call(plain.ref, 'POST', '/user/addresses', { token: a.access, body: { city: 'X' } });
      expect([addressA.status, addressA.body.errors[0].code]).toEqual([422, 'RecordInvalid']);
      const addressB = await call(varied.ref, 'POST', '/user/addresses', { token: b.access, body: { city: 'X' } });
      expect([addressB.status, addressB.body.errors[0].code]).toEqual([400, 'ParameterMissing']);
      // Other validation failures stay 422.
      const long = await call(varied.ref, 'POST', '/favorite_lists', { token: b.access, body: { favorite_list: { name: 'x'.repeat(101) } } });
      expect([long.status, long.body.errors[0].code]).toEqual([422, 'RecordInvalid']);
    }));

  it('unknown-route-501: a path no route serves is 501 NotImplemented with the errors body (default: 404 NotFound)', () =>
    compare(['unknown-route-501'], async (plain, varied) => {
      const missing = await call(plain.ref, 'GET', '/cc-no-such-route', plain);
      expect([missing.status, missing.body.errors[0].code]).toEqual([404, 'NotFound']);
      const unimplemented = await call(varied.ref, 'GET', '/cc-no-such-route', varied);
      expect([unimplemented.status, unimplemented.body.errors[0].code]).toEqual([501, 'NotImplemented']);
      // A known path keeps its answer.
      expect((await call(varied.ref, 'GET', '/categories', varied)).status).toBe(200);
    }));

  it('method-not-allowed-404: a method a known path does not take is 404 NotFound without Allow (default: 405 with Allow)', () =>
    compare(['method-not-allowed-404'], async (plain, varied) => {
      const refused = await call(plain.ref, 'DELETE', '/test/things', plain);
      expect([refused.status, refused.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
      const missing = await call(varied.ref, 'DELETE', '/test/things', varied);
      expect([missing.status, missing.headers.get('allow'), missing.body.errors[0].code]).toEqual([404, null, 'NotFound']);
      const token = await fetch(`${varied.ref.authUrl}/oauth2/token`);
      expect([token.status, token.headers.get('allow')]).toEqual([404, null]);
      expect((await fetch(`${plain.ref.authUrl}/oauth2/token`)).status).toBe(405);
    }));

  it('no-vary: no Vary header (default: Vary: Accept, Authorization)', () =>
    compare(['no-vary'], async (plain, varied) => {
      expect((await ok(get(plain.ref, '/test/things', plain))).headers.get('vary')).toBe('Accept, Authorization');
      expect((await ok(get(varied.ref, '/test/things', varied))).headers.get('vary')).toBeNull();
      expect((await get(varied.ref, '/test/things/99', varied)).headers.get('vary')).toBeNull();
    }));

  it('weak-etags: ETags are weak and If-None-Match matches either form (default: strong)', () =>
    compare(['weak-etags'], async (plain, varied) => {
      const strong = (await ok(get(plain.ref, '/test/things', plain))).headers.get('etag')!;
      expect(strong).toMatch(/^"[A-Za-z0-9_-]+"$/);
      const weak = (await ok(get(varied.ref, '/test/things', varied))).headers.get('etag')!;
      expect(weak).toBe(`W/${strong}`);
      for (const inm of [weak, strong, `"zz", ${weak}`]) {
        const r = await get(varied.ref, '/test/things', { ...varied, headers: { 'If-None-Match': inm } });
        expect([r.status, r.headers.get('etag')], inm).toEqual([304, weak]);
      }
    }));

  it('timestamps-offset: timestamps at +02:00, the same instant; dates unchanged (default: Z)', async () => {
    expect(timestampAtOffset('2024-05-01T12:00:00Z')).toBe('2024-05-01T14:00:00+02:00');
    expect(timestampAtOffset('2024-12-31T23:30:00Z')).toBe('2025-01-01T01:30:00+02:00');
    expect(timestampAtOffset('2024-05-01')).toBe('2024-05-01');
    const on = resolveVariants(['timestamps-offset']);
    const body = { at: '2024-05-01T12:00:00Z', points: [{ date: '2024-05-01', price: 3 }], note: 'at 2024-05-01T12:00:00Z' };
    expect(variantBody(body, on)).toEqual({ at: '2024-05-01T14:00:00+02:00', points: [{ date: '2024-05-01', price: 3 }], note: 'at 2024-05-01T12:00:00Z' });
    expect(variantBody(body, NO_VARIANTS)).toBe(body);
    const clock = makeClock();
    await compare(
      ['timestamps-offset'],
      async (plain, varied) => {
        const [a, b] = await Promise.all([userTokens(plain.ref, 'public'), userTokens(varied.ref, 'public')]);
        const z = (await ok(get(plain.ref, '/user', { token: a.access }))).body.user.created_at as string;
        const offset = (await ok(get(varied.ref, '/user', { token: b.access }))).body.user.created_at as string;
        expect(z).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
        expect(offset).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+02:00$/);
        expect(Date.parse(offset)).toBe(Date.parse(z));
      },
      { now: clock.now },
    );
  });

  it('extra-fields: the envelope, meta, pagination and every resource carry x_internal_id and x_trace, which fieldsets trim; the ETag follows the body (default: none)', () =>
    compare(['extra-fields'], async (plain, varied) => {
      const bare = await ok(get(plain.ref, '/test/things?embed=part', plain));
      const extra = await ok(get(varied.ref, '/test/things?embed=part', varied));
      const objects = (v: unknown): Record<string, unknown>[] =>
        Array.isArray(v) ? v.flatMap(objects) : typeof v === 'object' && v !== null ? [v as Record<string, unknown>, ...Object.values(v).flatMap(objects)] : [];
      expect(objects(bare.body).some((o) => 'x_trace' in o)).toBe(false);
      const all = objects(extra.body);
      expect(all).toHaveLength(10);
      for (const o of all) expect(o).toMatchObject({ x_internal_id: expect.toBeOneOf([null, expect.any(Number)]), x_trace: 'reference' });
      expect(extra.body.things[0]).toEqual({
        id: 1,
        name: 'one',
        color: 'red',
        size: 10,
        x_internal_id: 1_000_001,
        x_trace: 'reference',
        part: { ...PARTS.get(71), x_internal_id: 1_000_071, x_trace: 'reference' },
      });
      expect(Object.keys(extra.body.meta.pagination)).toEqual(['total_results', 'total_pages', 'page', 'per', 'x_internal_id', 'x_trace']);
      const again = await get(varied.ref, '/test/things?embed=part', { ...varied, headers: { 'If-None-Match': extra.headers.get('etag')! } });
      expect(again.status).toBe(304);
      expect(extra.headers.get('etag')).not.toBe(bare.headers.get('etag'));
      expect(Number(extra.headers.get('content-length'))).toBe(Buffer.byteLength(extra.text));
      // Fieldsets see the extra keys as fields of the resource.
      const trimmed = await ok(get(varied.ref, '/test/things/1?embed=part&fields[root]=id&fields_except[part]=x_trace,weight,material', varied));
      expect(trimmed.body).toEqual({ thing: { id: 1, part: { id: 71, name: 'bolt', x_internal_id: 1_000_071 } }, x_internal_id: null, x_trace: 'reference' });
      const error = await get(varied.ref, '/test/things/99', varied);
      expect(error.body).toEqual({ errors: [{ code: 'RecordNotFound', messages: [expect.any(String)] }], x_internal_id: null, x_trace: 'reference' });
      // Objects keyed by data are maps, not records: they get no extra keys; nested objects with an id do.
      expect(withExtraFields({ id: 3, counts: { '1': 2, '5': 0 }, user: { id: 7 }, list: [{ id: 8 }, { a: 1 }] })).toEqual({
        id: 3,
        counts: { '1': 2, '5': 0 },
        user: { id: 7, x_internal_id: 1_000_007, x_trace: 'reference' },
        list: [{ id: 8, x_internal_id: 1_000_008, x_trace: 'reference' }, { a: 1 }],
        x_internal_id: 1_000_003,
        x_trace: 'reference',
      });
    }));

  it('vendor-media-type: the version is negotiated on application/vnd.acme+json, the answers carry it (default: vnd.service, application/json)', () =>
    compare(['vendor-media-type'], async (plain, varied) => {
      const version = async (s: Server, accept: string) => (await ok(get(s.ref, '/test/version', { ...s, headers: { Accept: accept } }))).body.version;
      expect(await version(plain, `${VND}; version=3.0`)).toBe('3.0.23');
      expect(await version(plain, 'application/vnd.acme+json; version=3.0')).toBe('3.2.1');
      expect(await version(varied, 'application/vnd.acme+json; version=3.0')).toBe('3.0.23');
      expect(await version(varied, 'application/vnd.acme+json; version=3.1')).toBe('3.1.3');
      expect(await version(varied, `${VND}; version=3.0`)).toBe('3.2.1');
      expect((await get(varied.ref, '/test/version', { ...varied, headers: { Accept: 'application/vnd.acme+json; version=4' } })).status).toBe(406);
      expect((await ok(get(plain.ref, '/test/things', plain))).headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect((await ok(get(varied.ref, '/test/things', varied))).headers.get('content-type')).toBe('application/vnd.acme+json; charset=utf-8');
      expect((await get(varied.ref, '/test/things/99', varied)).headers.get('content-type')).toBe('application/vnd.acme+json; charset=utf-8');
    }));

  it('vendor-content-type: JSON answers carry the vendor media type with the served version (default: application/json)', async () => {
    await compare(['vendor-content-type'], async (plain, varied) => {
      const type = async (s: Server, path: string, version?: string | null) => (await get(s.ref, path, { ...s, version })).headers.get('content-type');
      expect(await type(plain, '/test/things')).toBe('application/json; charset=utf-8');
      expect(await type(plain, '/test/things/99')).toBe('application/json; charset=utf-8');
      expect(await type(varied, '/test/things')).toBe(`${VND}; version=3.2.1; charset=utf-8`);
      expect(await type(varied, '/test/things', '3.1')).toBe(`${VND}; version=3.1.3; charset=utf-8`);
      expect(await type(varied, '/test/things/99', '3.0')).toBe(`${VND}; version=3.0.23; charset=utf-8`);
      // No version chosen (406): the vendor type without a version parameter.
      const refused = await get(varied.ref, '/test/things', { ...varied, version: '4' });
      expect([refused.status, refused.headers.get('content-type')]).toEqual([406, `${VND}; charset=utf-8`]);
      // The OAuth endpoints are not the API's: application/json.
      const token = await post(`${varied.ref.authUrl}/oauth2/token`, { grant_type: 'nope' });
      expect(token.headers.get('content-type')).toBe('application/json; charset=utf-8');
    });
    // With a vendor media type of the deployment's own: that type.
    await compare(['vendor-content-type', 'vendor-media-type'], async (_plain, varied) => {
      const r = await ok(get(varied.ref, '/test/things', { ...varied, headers: { Accept: 'application/vnd.acme+json; version=3.1' } }));
      expect(r.headers.get('content-type')).toBe('application/vnd.acme+json; version=3.1.3; charset=utf-8');
    });
  });

  it('errors-legacy-3-0: errors of 3.0 requests are {error, message} (default: the errors envelope)', () =>
    compare(['errors-legacy-3-0'], async (plain, varied) => {
      const envelope = { errors: [{ code: 'RecordNotFound', messages: ["Couldn't find Thing with id=99"] }] };
      expect((await get(plain.ref, '/test/things/99', { ...plain, version: '3.0' })).body).toEqual(envelope);
      for (const version of ['3', '3.0', '3.0.5']) {
        const r = await get(varied.ref, '/test/things/99', { ...varied, version });
        expect([r.status, r.body], version).toEqual([404, { error: 'RecordNotFound', message: "Couldn't find Thing with id=99" }]);
      }
      expect((await get(varied.ref, '/test/things/99', { ...varied, version: '3.1' })).body).toEqual(envelope);
      expect((await get(varied.ref, '/test/things/99', varied)).body).toEqual(envelope);
      // Errors found before the version (a bad token) too; the rate limit's {message} is no errors body.
      const unauthorized = await get(varied.ref, '/test/things', { token: 'nope', version: '3.0' });
      expect([unauthorized.status, Object.keys(unauthorized.body)]).toEqual([401, ['error', 'message']]);
    }));

  it('unknown-version-latest: an unparsable version or another major gets the latest (default: 406)', () =>
    compare(['unknown-version-latest'], async (plain, varied) => {
      for (const v of ['4', '2.1', 'abc', '3.x', '']) {
        expect((await get(plain.ref, '/test/version', { ...plain, version: v })).status, v).toBe(406);
        expect((await ok(get(varied.ref, '/test/version', { ...varied, version: v }), v)).body.version, v).toBe('3.2.1');
      }
      expect((await ok(get(varied.ref, '/test/version', { ...varied, version: '3' }))).body.version).toBe('3.0.23');
    }));
});

// ---------------------------------------------------------------------------------------------

describe('token and limit variants', () => {
  it('oauth-plain-errors: OAuth error bodies carry only error and error_description, no X-RateLimit-* (default: both)', () =>
    compare(['oauth-plain-errors'], async (plain, varied) => {
      const bad = { grant_type: 'client_credentials', client_id: 'nobody', client_secret: 'x', scope: 'public' };
      const a = await post(`${plain.ref.authUrl}/oauth2/token`, bad);
      expect(Object.keys(a.body).sort()).toEqual(['error', 'error_description', 'errors']);
      expect(a.headers.get('x-ratelimit-limit')).not.toBeNull();
      const b = await post(`${varied.ref.authUrl}/oauth2/token`, bad);
      expect([b.status, b.body]).toEqual([401, { error: 'invalid_client', error_description: expect.any(String) }]);
      expect(b.headers.get('www-authenticate')).toMatch(/^Basic/);
      const noGrant = await post(`${varied.ref.authUrl}/oauth2/token`, {});
      expect(noGrant.body).toEqual({ error: 'invalid_request', error_description: 'grant_type is required' });
      const authorize = await fetch(`${varied.ref.authUrl}/oauth2/authorizations/new`, { redirect: 'manual' });
      expect(Object.keys(await authorize.json())).toEqual(['error', 'error_description']);
      const granted = await post(`${varied.ref.authUrl}/oauth2/token`, {
        grant_type: 'client_credentials',
        client_id: varied.ref.client.id,
        client_secret: varied.ref.client.secret,
        scope: 'public',
      });
      expect(granted.status).toBe(200);
      for (const r of [b, noGrant, granted]) expect([...r.headers.keys()].filter((k) => k.startsWith('x-ratelimit-'))).toEqual([]);
      // The API keeps its rate-limit headers.
      expect((await ok(get(varied.ref, '/test/things', varied))).headers.get('x-ratelimit-limit')).not.toBeNull();
    }));

  it('refused-scope-403: a token without the scope or the user a route needs gets 403 Forbidden (default: 401)', () =>
    compare(['refused-scope-403'], async (plain, varied) => {
      const [a, b] = await Promise.all([userTokens(plain.ref, 'public'), userTokens(varied.ref, 'public')]);
      const cases: [string, string, (s: Server, user: string) => string][] = [
        ['GET', '/test/favorites', (_s, user) => user],
        ['GET', '/test/user-only', (s) => s.token],
        // The route takes any user token; the handler refuses the scope.
        ['POST', '/skus/1/reviews/1/votes', (_s, user) => user],
      ];
      for (const [method, path, tokenOf] of cases) {
        const before = await call(plain.ref, method, path, { token: tokenOf(plain, a.access), body: { vote: { helpful: true } } });
        expect([before.status, before.body.errors[0].code], path).toEqual([401, 'Unauthorized']);
        const after = await call(varied.ref, method, path, { token: tokenOf(varied, b.access), body: { vote: { helpful: true } } });
        expect([after.status, after.body.errors[0].code], path).toEqual([403, 'Forbidden']);
        expect(after.body.errors[0].messages).toEqual(before.body.errors[0].messages);
      }
      // A bad token is still 401.
      expect((await get(varied.ref, '/test/things', { token: 'nope' })).status).toBe(401);
    }));

  it('both-placements-accepted: the same token in the header and in oauth_token is served (default: 400)', () =>
    compare(['both-placements-accepted'], async (plain, varied) => {
      const both = (s: Server, query: string) => get(s.ref, `/test/things?oauth_token=${encodeURIComponent(query)}`, { token: s.token });
      expect((await both(plain, plain.token)).status).toBe(400);
      expect((await ok(both(varied, varied.token))).body.things).toHaveLength(4);
      // Two different tokens are still refused.
      const other = await appToken(varied.ref);
      expect((await both(varied, other)).status).toBe(400);
      // The Link URLs never carry the token.
      const paged = await ok(get(varied.ref, `/test/things?per=1&oauth_token=${varied.token}`, { token: varied.token }));
      expect(paged.headers.get('link')).not.toContain('oauth_token');
    }));

  it('client-credentials-same-token: a repeated request returns the valid token with its remaining lifetime (default: a new one)', async () => {
    const clock = makeClock();
    await compare(
      ['client-credentials-same-token'],
      async (plain, varied) => {
        const request = (ref: RunningReference) =>
          post(`${ref.authUrl}/oauth2/token`, { grant_type: 'client_credentials', client_id: ref.client.id, client_secret: ref.client.secret, scope: 'public' });
        clock.advance(10_000);
        const [a1, a2] = [await request(plain.ref), await request(plain.ref)];
        expect(a1.body.access_token).not.toBe(a2.body.access_token);
        expect(a2.body.expires_in).toBe(14 * 24 * 3600);
        const again = await request(varied.ref);
        expect(again.body).toEqual({ access_token: varied.token, token_type: 'bearer', expires_in: 14 * 24 * 3600 - 10, scope: 'public' });
        expect((await ok(get(varied.ref, '/test/things', varied))).status).toBe(200);
      },
      { now: clock.now },
    );
  });

  it('refresh-keeps-refresh-token: a refresh gives a new access token and no refresh token; the refresh token stays valid (default: rotated)', () =>
    compare(['refresh-keeps-refresh-token'], async (plain, varied) => {
      const refresh = (ref: RunningReference, token: string) =>
        post(`${ref.authUrl}/oauth2/token`, { grant_type: 'refresh_token', client_id: ref.client.id, client_secret: ref.client.secret, refresh_token: token });
      const a = await userTokens(plain.ref);
      const rotated = await refresh(plain.ref, a.refresh);
      expect(typeof rotated.body.refresh_token).toBe('string');
      expect((await refresh(plain.ref, a.refresh)).body.error).toBe('invalid_grant');
      const b = await userTokens(varied.ref);
      for (let i = 0; i < 2; i++) {
        const kept = await refresh(varied.ref, b.refresh);
        expect(kept.status).toBe(200);
        expect(Object.keys(kept.body)).toEqual(['access_token', 'token_type', 'expires_in', 'scope']);
        expect((await get(varied.ref, '/test/user-only', { token: kept.body.access_token })).status).toBe(200);
      }
    }));

  it('ratelimit-calendar-minute: X-RateLimit-Reset is the start of the next minute (default: 60 s after the first request)', async () => {
    const clock = makeClock(Date.UTC(2024, 2, 10, 12, 0, 30));
    await compare(
      ['ratelimit-calendar-minute'],
      async (plain, varied) => {
        clock.advance(5_000);
        const reset = async (s: Server) => Number((await ok(get(s.ref, '/test/things', s))).headers.get('x-ratelimit-reset'));
        // The windows of the token requests (oauth:<ip>) began at 12:00:30; the API tokens' begin now, at 12:00:35.
        expect(await reset(plain)).toBe(Date.UTC(2024, 2, 10, 12, 1, 35) / 1000);
        expect(await reset(varied)).toBe(Date.UTC(2024, 2, 10, 12, 1, 0) / 1000);
        clock.advance(30_000);
        const next = await ok(get(varied.ref, '/test/things', varied));
        expect([next.headers.get('x-ratelimit-reset'), next.headers.get('x-ratelimit-remaining')]).toEqual([String(Date.UTC(2024, 2, 10, 12, 2, 0) / 1000), '99']);
      },
      { now: clock.now, limits: { perMinute: 100, perDay: 100_000 } },
    );
  });
});

// ---------------------------------------------------------------------------------------------

describe('patch-level variants (implements-*)', () => {
  let plain: Server;
  let v320: Server;
  let v311: Server;
  beforeAll(async () => {
    [plain, v320, v311] = await Promise.all([start([]), start(['implements-3.2.0']), start(['implements-3.1.1'])]);
  });
  afterAll(() => Promise.all([plain, v320, v311].map((s) => s.ref.close())));

  const served = async (s: Server, version: string | null) => (await ok(get(s.ref, '/test/version', { ...s, version }))).body.version as string;

  it('implements-3.2.0: serves 3.0.23, 3.1.3, 3.2.0, without the changes of 3.2.1 (default: 3.2.1)', async () => {
    const rows: [string | null, string, string][] = [
      [null, '3.2.1', '3.2.0'],
      ['3', '3.0.23', '3.0.23'],
      ['3.1', '3.1.3', '3.1.3'],
      ['3.2', '3.2.1', '3.2.0'],
      ['3.3', '3.2.1', '3.2.0'],
    ];
    for (const [v, before, after] of rows) expect([await served(plain, v), await served(v320, v)], String(v)).toEqual([before, after]);
    const user = async (s: Server) => (await ok(get(s.ref, '/user', { token: (await userTokens(s.ref, 'public')).access }))).body.user;
    const [u1, u2] = [await user(plain), await user(v320)];
    expect(u1).toHaveProperty('is_staff');
    expect(u2).not.toHaveProperty('is_staff');
    expect(Object.keys(u1).filter((k) => !(k in u2))).toEqual(['is_staff']);
    // 3.2.0 itself is there: the 3.2.0 endpoints and fields.
    expect(u2).toHaveProperty('created_at');
    expect((await get(v320.ref, '/test/since-3-2', v320)).status).toBe(200);
  });

  it('implements-3.1.1: serves 3.0.23 and 3.1.1; 3.2 gets 3.1.1, without anything of 3.1.2 and later (default: 3.1.3, 3.2.1)', async () => {
    const rows: [string | null, string, string][] = [
      [null, '3.2.1', '3.1.1'],
      ['3', '3.0.23', '3.0.23'],
      ['3.0', '3.0.23', '3.0.23'],
      ['3.1', '3.1.3', '3.1.1'],
      ['3.2', '3.2.1', '3.1.1'],
      ['3.9', '3.2.1', '3.1.1'],
    ];
    for (const [v, before, after] of rows) expect([await served(plain, v), await served(v311, v)], String(v)).toEqual([before, after]);
    const root = async (s: Server, version: string | null) => (await ok(get(s.ref, '/categories/root', { ...s, version }))).body.category;
    expect(await root(plain, '3.1')).toHaveProperty('family_id');
    const old = await root(v311, null);
    for (const f of ['family_id', 'reviewable', 'adult', 'onclick_behaviour']) expect(old, f).not.toHaveProperty(f);
    // 3.1.1's own changes are there: sparse fieldsets and the category specifications endpoint.
    expect(await ok(get(v311.ref, '/categories/root?fields[root]=id', v311)).then((r) => r.body.category)).toEqual({ id: expect.any(Number) });
    expect((await get(v311.ref, '/test/since-3-2', v311)).status).toBe(404);
    const leaf = (await ok(get(v311.ref, '/categories?per=100', v311))).body.categories.find((c: { children_count: number }) => c.children_count === 0);
    expect((await get(v311.ref, `/categories/${leaf.id}/specifications`, v311)).status).toBe(200);
  });
});
