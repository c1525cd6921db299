// The user's addresses (/user/addresses*), saved orders (/user/saved_orders) and personalization
// (/personalization) in the reference, discovered through the API, on both datasets (the second under a base path).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDataset } from './data.ts';
import type { RunningReference } from './server.ts';
import { call, expectError, SETUPS, startServer, TIMESTAMP, type CallOptions } from '../testing/reference/testkit.ts';

const ADDRESS_FIELDS = ['id', 'label', 'first_name', 'last_name', 'street_name', 'street_number', 'city', 'zip', 'region', 'phone', 'mobile', 'lng', 'lat'];

/** Great-circle distance in km between two [lat, lng] points. */
function kmBetween([lat1, lng1]: [number, number], [lat2, lng2]: [number, number]): number {
  const r = Math.PI / 180;
  const h = Math.sin(((lat2 - lat1) * r) / 2) ** 2 + Math.cos(lat1 * r) * Math.cos(lat2 * r) * Math.sin(((lng2 - lng1) * r) / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.sqrt(h));
}

describe.each(SETUPS)('user area (%s)', (_name, options) => {
  let ref: RunningReference;
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
    ({ ref, user } = await startServer(options, 'public'));
    regions = (await as('GET', '/user/addresses/new')).body.address_form.regions;
  });
  afterAll(async () => {
    await ref?.close();
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
});
