// The legal variants of the protocol (variants/protocol.ts) for the request pipeline and the bodies:
// for each, what the server answers with the variant on, next to what it answers without it.

import { describe, expect, it } from 'vitest';
import { timestampAtOffset, variantBody, withExtraFields } from './http.ts';
import { PARTS } from '../testing/reference/protocol.testroutes.ts';
import { call, get, makeClock, post, userTokens, VND } from '../testing/reference/testkit.ts';
import { NO_VARIANTS, resolveVariants } from './variants.ts';
import { compare, ok, type Server } from '../testing/reference/variants-protocol-setup.ts';

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
