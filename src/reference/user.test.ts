// The user area of the reference: /user, /user/avatars, /user/addresses*, /user/saved_orders,
// /user/logout and /personalization (spec "Endpoints > User", "Endpoints > Personalization",
// resources "User", "User address", "Saved order", "Personalization"). Ids, names and counts are
// discovered through the API; every test runs on both datasets, the second under a base path.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDataset } from './data.ts';
import type { RunningReference } from './server.ts';
import { call, expectError, PNG_B64, post, SETUPS, startServer, startWithToken, TIMESTAMP, userTokens, type CallOptions } from '../testing/reference/testkit.ts';

const USER_FIELDS = [
  'id',
  'username',
  'type',
  'sex',
  'avatar',
  'created_at',
  'email',
  'birthyear',
  'mobile',
  'stats',
  'email_notifications',
  'is_staff',
  'resend_verification_email',
  'loyalty_tier_level',
  'total_acquired_points',
];
const FROM_320 = ['created_at', 'email', 'birthyear', 'mobile', 'stats', 'email_notifications'];
const ADDRESS_FIELDS = ['id', 'label', 'first_name', 'last_name', 'street_name', 'street_number', 'city', 'zip', 'region', 'phone', 'mobile', 'lng', 'lat'];

/** Great-circle distance in km between two [lat, lng] points. */
function kmBetween([lat1, lng1]: [number, number], [lat2, lng2]: [number, number]): number {
  const r = Math.PI / 180;
  const h = Math.sin(((lat2 - lat1) * r) / 2) ** 2 + Math.cos(lat1 * r) * Math.cos(lat2 * r) * Math.sin(((lng2 - lng1) * r) / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.sqrt(h));
}

const JPEG_B64 = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0xff, 0xd9]).toString('base64');
const GIF_B64 = Buffer.concat([Buffer.from('GIF89a', 'latin1'), Buffer.from([1, 0, 1, 0, 0, 0, 0, 0x3b])]).toString('base64');

describe.each(SETUPS)('user area (%s)', (_name, options) => {
  let ref: RunningReference;
  let app: string;
  let user: string;
  let regions: Record<string, number>;

  const as = (method: string, path: string, opts: CallOptions = {}) => call(ref, method, path, { token: user, ...opts });
  const validAddress = (extra: Record<string, unknown> = {}) => ({
    label: 'Test office',
    first_name: 'Ada',
    last_name: 'Lovelace',
    street_name: 'Analytical Street',
    street_number: '12B',
    city: 'Engine Town',
    zip: 10558,
    region_id: Object.values(regions)[0],
    ...extra,
  });

  beforeAll(async () => {
    ({ ref, app, user } = await startServer(options, 'public'));
    regions = (await as('GET', '/user/addresses/new')).body.address_form.regions;
  });
  afterAll(async () => {
    await ref?.close();
  });

  describe('permissions', () => {
    const routes: [string, string][] = [
      ['GET', '/user'],
      ['PATCH', '/user'],
      ['GET', '/user/avatars'],
      ['GET', '/user/addresses'],
      ['GET', '/user/addresses/new'],
      ['POST', '/user/addresses'],
      ['PUT', '/user/addresses/1'],
      ['DELETE', '/user/addresses/1'],
      ['GET', '/user/saved_orders'],
      ['DELETE', '/user/logout'],
      ['GET', '/personalization'],
      ['PUT', '/personalization'],
    ];

    it('refuses application tokens and requests without a token with 401', async () => {
      for (const [method, path] of routes) {
        expectError(await call(ref, method, path, { token: app, body: {} }), 401);
        expectError(await call(ref, method, path, { body: {} }), 401);
      }
    });

    it('accepts a user token of any scope (none is required)', async () => {
      for (const scope of ['favorites', 'notifications', 'public favorites notifications']) {
        const token = (await userTokens(ref, scope)).access;
        for (const path of ['/user', '/user/avatars', '/user/addresses', '/user/addresses/new', '/user/saved_orders', '/personalization']) {
          expect((await call(ref, 'GET', path, { token })).status, `${scope} ${path}`).toBe(200);
        }
      }
    });
  });

  describe('GET /user', () => {
    it('returns {user} with every field of the User table and their types', async () => {
      const r = await as('GET', '/user');
      expect(r.status).toBe(200);
      expect(Object.keys(r.body)).toEqual(['user']);
      const u = r.body.user;
      expect(Object.keys(u).sort()).toEqual([...USER_FIELDS].sort());
      expect(u.id).toEqual(expect.any(Number));
      expect(u.username).toEqual(expect.any(String));
      expect(u.type).toEqual(expect.any(String));
      expect([null, 'male', 'female']).toContain(u.sex);
      expect(() => new URL(u.avatar)).not.toThrow();
      expect(u.created_at).toMatch(TIMESTAMP);
      expect(u.email).toMatch(/@/);
      expect(u.birthyear === null || Number.isInteger(u.birthyear)).toBe(true);
      expect(u.mobile === null || typeof u.mobile === 'string').toBe(true);
      expect(Object.keys(u.stats).sort()).toEqual(['received_votes', 'shop_review_count', 'sku_comment_count', 'sku_review_count']);
      for (const v of Object.values(u.stats)) expect(Number.isInteger(v)).toBe(true);
      expect(u.email_notifications.length).toBeGreaterThan(0);
      for (const n of u.email_notifications) {
        expect(Object.keys(n).sort()).toEqual(['description', 'enabled', 'field', 'label']);
        expect(['notifications', 'mail_events', 'sku_review_email', 'shop_review_email', 'smart_cart_email']).toContain(n.field);
        expect(typeof n.enabled).toBe('boolean');
      }
      for (const k of ['is_staff', 'resend_verification_email']) expect(typeof u[k]).toBe('boolean');
      for (const k of ['loyalty_tier_level', 'total_acquired_points']) expect(Number.isInteger(u[k])).toBe(true);
    });

    it('drops the fields the Change history adds after the requested version', async () => {
      const v30 = (await as('GET', '/user', { version: '3.0' })).body.user;
      const v31 = (await as('GET', '/user', { version: '3.1' })).body.user;
      const v32 = (await as('GET', '/user', { version: '3.2' })).body.user;
      const older = USER_FIELDS.filter((f) => !FROM_320.includes(f) && f !== 'is_staff').sort();
      expect(Object.keys(v30).sort()).toEqual(older);
      expect(Object.keys(v31).sort()).toEqual(older);
      expect(v30.type).toEqual(expect.any(String));
      expect(Object.keys(v32).sort()).toEqual([...USER_FIELDS].sort());
    });
  });

  describe('PATCH /user', () => {
    it('updates sex and birthyear (null clears them) and returns 200 {user}', async () => {
      const before = (await as('GET', '/user')).body.user;
      const r = await as('PATCH', '/user', { body: { sex: 'female', birthyear: 1984 } });
      expect(r.status, r.text).toBe(200);
      expect(Object.keys(r.body)).toEqual(['user']);
      expect(r.body.user).toEqual({ ...before, sex: 'female', birthyear: 1984 });
      expect((await as('GET', '/user')).body.user).toEqual(r.body.user);
      expect((await as('PATCH', '/user', { body: { sex: 'male' } })).body.user.sex).toBe('male');
      const cleared = (await as('PATCH', '/user', { body: { sex: null, birthyear: null } })).body.user;
      expect([cleared.sex, cleared.birthyear]).toEqual([null, null]);
      // Form bodies: strings, "" for null.
      const form = await as('PATCH', '/user', { form: { sex: 'female', birthyear: '1990' } });
      expect([form.body.user.sex, form.body.user.birthyear]).toEqual(['female', 1990]);
      expect((await as('PATCH', '/user', { form: { birthyear: '' } })).body.user.birthyear).toBeNull();
      await as('PATCH', '/user', { body: { sex: before.sex, birthyear: before.birthyear } });
    });

    it('refuses bad values with 422 and changes nothing', async () => {
      const before = (await as('GET', '/user')).body.user;
      const year = new Date().getUTCFullYear();
      for (const body of [
        { sex: 'other' },
        { sex: 1 },
        { birthyear: 1899 },
        { birthyear: year + 1 },
        { birthyear: 1990.5 },
        { birthyear: 'nineteen' },
        { sex: 'male', birthyear: 1800 },
        { avatar_preset: 'no-such-avatar.png' },
        { avatar_preset: '' },
      ]) {
        expectError(await as('PATCH', '/user', { body }), 422, 'RecordInvalid');
      }
      expect((await as('GET', '/user')).body.user).toEqual(before);
    });

    it('needs at least one updatable field (400); other fields are ignored', async () => {
      const before = (await as('GET', '/user')).body.user;
      expectError(await as('PATCH', '/user'), 400, 'ParameterMissing');
      expectError(await as('PATCH', '/user', { body: {} }), 400, 'ParameterMissing');
      expectError(await as('PATCH', '/user', { body: { user: { sex: 'male' } } }), 400, 'ParameterMissing');
      const r = await as('PATCH', '/user', { body: { email: 'someone@else.example', username: 'x', sex: before.sex } });
      expect(r.status).toBe(200);
      expect(r.body.user).toEqual(before);
    });

    it('sets the avatar to a preset named by its file name from /user/avatars', async () => {
      const r = await as('GET', '/user/avatars');
      expect(r.status).toBe(200);
      expect(Object.keys(r.body)).toEqual(['avatars']);
      const avatars = r.body.avatars as string[];
      expect(avatars.length).toBeGreaterThan(0);
      for (const uri of avatars) expect(new URL(uri).protocol).toMatch(/^https?:$/);
      for (const uri of avatars.slice(0, 3)) {
        const name = uri.split('/').pop()!;
        const p = await as('PATCH', '/user', { body: { avatar_preset: name } });
        expect(p.status, p.text).toBe(200);
        expect(p.body.user.avatar).toBe(uri);
      }
      // The whole URI is not a file name.
      expectError(await as('PATCH', '/user', { body: { avatar_preset: avatars[0] } }), 422, 'RecordInvalid');
    });

    it('takes an avatar as bare base64 of a PNG, JPEG or GIF', async () => {
      const seen = new Set<string>();
      for (const [b64, ext] of [
        [PNG_B64, 'png'],
        [JPEG_B64, 'jpg'],
        [GIF_B64, 'gif'],
      ] as const) {
        const r = await as('PATCH', '/user', { body: { avatar: b64 } });
        expect(r.status, r.text).toBe(200);
        expect(r.body.user.avatar).toMatch(new RegExp(`^https?://.+\\.${ext}$`));
        seen.add(r.body.user.avatar);
      }
      expect(seen.size).toBe(3);
      // Line breaks inside the base64 are fine.
      expect((await as('PATCH', '/user', { body: { avatar: PNG_B64.replace(/(.{20})/g, '$1\n') } })).status).toBe(200);
    });

    it('refuses a data-URI avatar, bad base64, a non-image, or avatar with avatar_preset (422)', async () => {
      const before = (await as('GET', '/user')).body.user;
      const preset = ((await as('GET', '/user/avatars')).body.avatars as string[])[0]!.split('/').pop();
      for (const body of [
        { avatar: `data:image/png;base64,${PNG_B64}` },
        { avatar: `DATA:image/png;base64,${PNG_B64}` },
        { avatar: 'not base64!' },
        { avatar: PNG_B64.slice(0, -3) },
        { avatar: Buffer.from('just some text, no image').toString('base64') },
        { avatar: '' },
        { avatar: 42 },
        { avatar: PNG_B64, avatar_preset: preset },
      ]) {
        expectError(await as('PATCH', '/user', { body }), 422, 'RecordInvalid');
      }
      expect((await as('GET', '/user')).body.user).toEqual(before);
    });

    it('is served from 3.2.0 (Change history: profile update)', async () => {
      for (const version of ['3.0', '3.1']) expectError(await as('PATCH', '/user', { version, body: { sex: 'male' } }), 404);
    });
  });

  describe('addresses', () => {
    it('GET /user/addresses/new returns the address form', async () => {
      const r = await as('GET', '/user/addresses/new');
      expect(r.status).toBe(200);
      expect(r.body).toEqual({
        address_form: {
          required: ['label', 'first_name', 'last_name', 'street_name', 'street_number', 'city', 'zip', 'region_id'],
          optional: ['phone', 'mobile'],
          regions: expect.any(Object),
        },
      });
      const entries = Object.entries(r.body.address_form.regions);
      expect(entries.length).toBeGreaterThan(0);
      for (const [name, id] of entries) {
        expect(name.length).toBeGreaterThan(0);
        expect(Number.isInteger(id)).toBe(true);
      }
      expect(new Set(entries.map(([, id]) => id)).size).toBe(entries.length);
    });

    it('GET /user/addresses returns {addresses} (not paginated) with every field', async () => {
      const r = await as('GET', '/user/addresses?per=1');
      expect(r.status).toBe(200);
      expect(Object.keys(r.body)).toEqual(['addresses']);
      const list = r.body.addresses as Record<string, unknown>[];
      expect(list.length).toBeGreaterThan(1);
      expect(list.map((a) => a['id'])).toEqual([...list.map((a) => a['id'] as number)].sort((a, b) => a - b));
      const regionNames = Object.keys(regions);
      for (const a of list) {
        expect(Object.keys(a).sort()).toEqual([...ADDRESS_FIELDS].sort());
        for (const k of ['label', 'first_name', 'last_name', 'street_name', 'street_number', 'city', 'zip']) expect(typeof a[k], k).toBe('string');
        expect(regionNames).toContain(a['region']);
        for (const k of ['phone', 'mobile', 'lat', 'lng']) expect(a[k] === null || typeof a[k] === 'string', k).toBe(true);
      }
    });

    it('POST creates (201 {address}, region by name, zip as a number), PUT changes part, DELETE removes (204)', async () => {
      const [regionName, regionId] = Object.entries(regions).at(-1)!;
      const created = await as('POST', '/user/addresses', { body: validAddress({ region_id: regionId, phone: '+30 210 0000000' }) });
      expect(created.status, created.text).toBe(201);
      expect(Object.keys(created.body)).toEqual(['address']);
      const a = created.body.address;
      expect(Object.keys(a).sort()).toEqual([...ADDRESS_FIELDS].sort());
      const { region_id: _sent, ...sent } = validAddress({ phone: '+30 210 0000000' });
      expect(a).toMatchObject({ ...sent, zip: '10558', region: regionName, mobile: null });
      expect(a).not.toHaveProperty('region_id');
      expect(Number(a.lat)).not.toBeNaN();
      expect(Number(a.lng)).not.toBeNaN();
      expect((await as('GET', '/user/addresses')).body.addresses).toContainEqual(a);

      const [otherName, otherId] = Object.entries(regions)[0]!;
      const put = await as('PUT', `/user/addresses/${a.id}`, { body: { city: 'Difference Engine City', region_id: otherId, mobile: '+30 690 0000000' } });
      expect(put.status, put.text).toBe(200);
      expect(Object.keys(put.body)).toEqual(['address']);
      expect(put.body.address).toMatchObject({
        ...a,
        city: 'Difference Engine City',
        region: otherName,
        mobile: '+30 690 0000000',
        lat: expect.any(String),
        lng: expect.any(String),
      });
      const same = await as('PUT', `/user/addresses/${a.id}`, { body: { label: 'Renamed' } });
      expect(same.body.address).toEqual({ ...put.body.address, label: 'Renamed' });

      const del = await as('DELETE', `/user/addresses/${a.id}`);
      expect(del.status).toBe(204);
      expect(del.text).toBe('');
      expect((await as('GET', '/user/addresses')).body.addresses.map((x: { id: number }) => x.id)).not.toContain(a.id);
      expectError(await as('DELETE', `/user/addresses/${a.id}`), 404, 'RecordNotFound');
      expectError(await as('PUT', `/user/addresses/${a.id}`, { body: { city: 'Gone' } }), 404, 'RecordNotFound');
    });

    it('geocodes by region: addresses of one region lie close together, of another region far away', async () => {
      const point = (a: Record<string, any>): [number, number] => [Number(a['lat']), Number(a['lng'])];
      const made: Record<string, any>[] = [];
      for (const id of Object.values(regions)) {
        for (const street_number of ['1', '99']) {
          const r = await as('POST', '/user/addresses', { body: validAddress({ region_id: id, street_number }) });
          expect(r.status, r.text).toBe(201);
          made.push(r.body.address);
        }
      }
      for (const [i, a] of made.entries()) {
        for (const b of made.slice(i + 1)) {
          const km = kmBetween(point(a), point(b));
          if (a['region'] === b['region']) expect(km, `${a['region']}`).toBeLessThan(40);
          else expect(km, `${a['region']} - ${b['region']}`).toBeGreaterThan(60);
        }
      }
      // Moving an address to another region moves its point there.
      const [first, second] = made;
      const moved = (await as('PUT', `/user/addresses/${first!['id']}`, { body: { region_id: regions[made.at(-1)!['region']] } })).body.address;
      expect(kmBetween(point(moved), point(made.at(-1)!))).toBeLessThan(40);
      expect(kmBetween(point(moved), point(second!))).toBeGreaterThan(60);
      for (const a of made) expect((await as('DELETE', `/user/addresses/${a['id']}`)).status).toBe(204);
    });

    it('accepts a string zip and a region_id digit string', async () => {
      const r = await as('POST', '/user/addresses', { body: validAddress({ zip: '01234', region_id: String(Object.values(regions)[0]) }) });
      expect(r.status, r.text).toBe(201);
      expect(r.body.address.zip).toBe('01234');
      expect((await as('DELETE', `/user/addresses/${r.body.address.id}`)).status).toBe(204);
    });

    it('refuses a create with missing or invalid fields with 422 naming each field', async () => {
      const before = (await as('GET', '/user/addresses')).body.addresses;
      const missing = await as('POST', '/user/addresses', { body: { label: 'Only a label' } });
      expectError(missing, 422, 'RecordInvalid');
      const text = missing.body.errors[0].messages.join(' ');
      for (const f of ['first_name', 'last_name', 'street_name', 'street_number', 'city', 'zip', 'region_id']) expect(text).toContain(f);
      expect(text).not.toContain('label');
      expectError(await as('POST', '/user/addresses'), 422, 'RecordInvalid');
      const unknownRegion = Math.max(...Object.values(regions)) + 1;
      for (const body of [
        validAddress({ region_id: unknownRegion }),
        validAddress({ region_id: 'north' }),
        validAddress({ first_name: '' }),
        validAddress({ city: 7 }),
        validAddress({ zip: -5 }),
        validAddress({ zip: 1.5 }),
        validAddress({ phone: 12 }),
        validAddress({ label: 'x'.repeat(256) }),
      ]) {
        expectError(await as('POST', '/user/addresses', { body }), 422, 'RecordInvalid');
      }
      expect((await as('GET', '/user/addresses')).body.addresses).toEqual(before);
    });

    it('PUT refuses invalid fields (422) and a body without address fields (400); unknown ids are 404', async () => {
      const a = (await as('GET', '/user/addresses')).body.addresses[0];
      expectError(await as('PUT', `/user/addresses/${a.id}`, { body: { city: '' } }), 422, 'RecordInvalid');
      expectError(await as('PUT', `/user/addresses/${a.id}`, { body: { region_id: -1 } }), 422, 'RecordInvalid');
      expectError(await as('PUT', `/user/addresses/${a.id}`, { body: {} }), 400, 'ParameterMissing');
      expectError(await as('PUT', `/user/addresses/${a.id}`, { body: { region: 'Somewhere' } }), 400, 'ParameterMissing');
      expect((await as('GET', '/user/addresses')).body.addresses[0]).toEqual(a);
      const ids = ((await as('GET', '/user/addresses')).body.addresses as { id: number }[]).map((x) => x.id);
      const unknown = Math.max(...ids) + 1000;
      expectError(await as('PUT', `/user/addresses/${unknown}`, { body: { city: 'x' } }), 404, 'RecordNotFound');
      expectError(await as('DELETE', `/user/addresses/${unknown}`), 404, 'RecordNotFound');
      expectError(await as('DELETE', '/user/addresses/abc'), 404, 'RecordNotFound');
    });

    it("another user's address is 404 RecordNotFound and cannot become the personalization (422)", async () => {
      // The server's own records of another user, found in the same generated dataset.
      const ds = createDataset(options.dataset ?? 'default');
      const foreign = [...ds.addresses.values()].find((a) => a.userId !== ds.demoUserId)!;
      expect(foreign, 'an address of another user').toBeDefined();
      const mine = ((await as('GET', '/user/addresses')).body.addresses as { id: number }[]).map((a) => a.id);
      expect(mine).not.toContain(foreign.id);
      expectError(await as('PUT', `/user/addresses/${foreign.id}`, { body: { city: 'Mine now' } }), 404, 'RecordNotFound');
      expectError(await as('DELETE', `/user/addresses/${foreign.id}`), 404, 'RecordNotFound');
      expectError(await as('PUT', '/personalization', { body: { personalization: { location: { address_id: foreign.id } } } }), 422, 'RecordInvalid');
    });

    it('create, update and delete are served from 3.2.0; the list and the form in every version', async () => {
      const a = (await as('GET', '/user/addresses')).body.addresses[0];
      for (const version of ['3.0', '3.1']) {
        expectError(await as('POST', '/user/addresses', { version, body: validAddress() }), 404);
        expectError(await as('PUT', `/user/addresses/${a.id}`, { version, body: { city: 'x' } }), 404);
        expectError(await as('DELETE', `/user/addresses/${a.id}`, { version }), 404);
        expect((await as('GET', '/user/addresses', { version })).status).toBe(200);
        expect((await as('GET', '/user/addresses/new', { version })).status).toBe(200);
      }
    });
  });

  describe('GET /user/saved_orders', () => {
    it('returns {saved_orders, meta} paginated, newest first, with every field', async () => {
      const r = await as('GET', '/user/saved_orders?per=100');
      expect(r.status).toBe(200);
      expect(Object.keys(r.body).sort()).toEqual(['meta', 'saved_orders']);
      const orders = r.body.saved_orders as Record<string, any>[];
      expect(orders.length).toBeGreaterThan(1);
      expect(r.body.meta.pagination).toEqual({ total_results: orders.length, total_pages: 1, page: 1, per: 100 });
      const dates = orders.map((o) => Date.parse(o['date']));
      expect(dates).toEqual([...dates].sort((a, b) => b - a));
      for (const o of orders) {
        expect(Object.keys(o).sort()).toEqual(['date', 'line_items', 'order_code', 'products_cost', 'shipping_cost', 'shop_id', 'total_cost']);
        expect(o['date']).toMatch(TIMESTAMP);
        for (const k of ['products_cost', 'shipping_cost', 'total_cost']) expect(typeof o[k]).toBe('number');
        expect(Number.isInteger(o['shop_id'])).toBe(true);
        expect(typeof o['order_code']).toBe('string');
        expect(o['line_items'].length).toBeGreaterThan(0);
        for (const li of o['line_items']) {
          expect(Object.keys(li).sort()).toEqual(['category_id', 'image', 'name', 'price', 'product_id', 'quantity', 'sku_id']);
          expect(Number.isInteger(li.quantity)).toBe(true);
          for (const k of ['sku_id', 'product_id', 'category_id']) expect(li[k] === null || Number.isInteger(li[k])).toBe(true);
        }
      }
      const p2 = await as('GET', '/user/saved_orders?per=1&page=2');
      expect(p2.body.saved_orders).toEqual([orders[1]]);
      expect(p2.body.meta.pagination).toEqual({ total_results: orders.length, total_pages: orders.length, page: 2, per: 1 });
      expect(p2.headers.get('link')).toContain('rel="last"');
    });

    it('is served from 3.2.0, on GET only', async () => {
      for (const version of ['3.0', '3.1']) expectError(await as('GET', '/user/saved_orders', { version }), 404);
      expectError(await as('DELETE', '/user/saved_orders'), 405);
    });
  });

  describe('personalization', () => {
    it('GET returns {personalization} with location and payment_method', async () => {
      const r = await as('GET', '/personalization');
      expect(r.status).toBe(200);
      expect(Object.keys(r.body)).toEqual(['personalization']);
      const p = r.body.personalization;
      expect(Object.keys(p).sort()).toEqual(['location', 'payment_method']);
      expect(Object.keys(p.location).sort()).toEqual(['address_id', 'country_code', 'label', 'lat', 'lng', 'type']);
      expect(p.location.address_id === null || Number.isInteger(p.location.address_id)).toBe(true);
      for (const k of ['label', 'lat', 'lng', 'country_code']) expect(typeof p.location[k], k).toBe('string');
      expect(['address', 'quick_address']).toContain(p.location.type);
      expect(p.payment_method).toEqual({ type: expect.any(String) });
    });

    it('PUT takes the location from the chosen address', async () => {
      const before = (await as('GET', '/personalization')).body.personalization;
      const addresses = (await as('GET', '/user/addresses')).body.addresses as Record<string, any>[];
      const target = addresses.find((a) => a['id'] !== before.location.address_id)!;
      const r = await as('PUT', '/personalization', { body: { personalization: { location: { address_id: target['id'] } } } });
      expect(r.status, r.text).toBe(200);
      expect(Object.keys(r.body)).toEqual(['personalization']);
      expect(r.body.personalization).toEqual({
        location: {
          address_id: target['id'],
          label: target['label'],
          lat: target['lat'] ?? expect.any(String),
          lng: target['lng'] ?? expect.any(String),
          type: 'address',
          country_code: before.location.country_code,
        },
        payment_method: before.payment_method,
      });
      expect((await as('GET', '/personalization')).body).toEqual(r.body);
      // A digit string is an integer too.
      const back = before.location.address_id ?? target['id'];
      expect((await as('PUT', '/personalization', { body: { personalization: { location: { address_id: String(back) } } } })).status).toBe(200);
    });

    it('PUT refuses a missing body or address_id (400) and an unknown address (422)', async () => {
      const before = (await as('GET', '/personalization')).body;
      expectError(await as('PUT', '/personalization'), 400, 'ParameterMissing');
      expectError(await as('PUT', '/personalization', { body: { location: { address_id: 1 } } }), 400, 'ParameterMissing');
      expectError(await as('PUT', '/personalization', { body: { personalization: {} } }), 400, 'ParameterMissing');
      expectError(await as('PUT', '/personalization', { body: { personalization: { location: {} } } }), 400, 'ParameterMissing');
      expectError(await as('PUT', '/personalization', { body: { personalization: { location: { address_id: 'home' } } } }), 400, 'InvalidParameter');
      const ids = ((await as('GET', '/user/addresses')).body.addresses as { id: number }[]).map((x) => x.id);
      expectError(await as('PUT', '/personalization', { body: { personalization: { location: { address_id: Math.max(...ids) + 1000 } } } }), 422, 'RecordInvalid');
      expect((await as('GET', '/personalization')).body).toEqual(before);
    });

    it('follows its address: a renamed address renames it; a deleted one leaves a quick_address', async () => {
      const before = (await as('GET', '/personalization')).body.personalization;
      const a = (await as('POST', '/user/addresses', { body: validAddress({ label: 'Temporary' }) })).body.address;
      await as('PUT', '/personalization', { body: { personalization: { location: { address_id: a.id } } } });
      await as('PUT', `/user/addresses/${a.id}`, { body: { label: 'Temporary, renamed' } });
      expect((await as('GET', '/personalization')).body.personalization.location.label).toBe('Temporary, renamed');
      expect((await as('DELETE', `/user/addresses/${a.id}`)).status).toBe(204);
      const after = (await as('GET', '/personalization')).body.personalization.location;
      expect(after).toEqual({ address_id: null, label: 'Temporary, renamed', lat: a.lat, lng: a.lng, type: 'quick_address', country_code: before.location.country_code });
      const restore = before.location.address_id ?? (await as('GET', '/user/addresses')).body.addresses[0].id;
      expect((await as('PUT', '/personalization', { body: { personalization: { location: { address_id: restore } } } })).status).toBe(200);
    });
  });

  describe('DELETE /user/logout', () => {
    it('answers 200 with an empty body and ends only the calling access token', async () => {
      const mine = (await userTokens(ref, 'public')).access;
      const other = (await userTokens(ref, 'public')).access;
      const r = await call(ref, 'DELETE', '/user/logout', { token: mine });
      expect(r.status).toBe(200);
      expect(r.text).toBe('');
      expectError(await call(ref, 'GET', '/user', { token: mine }), 401);
      expect((await call(ref, 'GET', '/user', { token: other })).status).toBe(200);
    });

    it("with logoutEnds: 'all-user-tokens', ends every access and refresh token of the user, not application tokens", async () => {
      const { ref: strict, token: app } = await startWithToken({ logoutEnds: 'all-user-tokens' });
      try {
        const mine = await userTokens(strict, 'public');
        const other = await userTokens(strict, 'public');
        expect((await call(strict, 'DELETE', '/user/logout', { token: mine.access })).status).toBe(200);
        expectError(await call(strict, 'GET', '/user', { token: other.access }), 401);
        const refreshed = await post(`${strict.authUrl}/oauth2/token`, {
          grant_type: 'refresh_token',
          client_id: strict.client.id,
          client_secret: strict.client.secret,
          refresh_token: other.refresh,
        });
        expect(refreshed.status).toBe(400);
        expect((await call(strict, 'GET', '/categories/root', { token: app })).status).toBe(200);
      } finally {
        await strict.close();
      }
    });
  });
});
