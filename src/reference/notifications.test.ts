// Notifications of the reference (spec "Endpoints > Notifications", "Notification", "Events",
// "States and transitions"). Ids and etypes are discovered through the API; every test runs on
// both datasets, the second under a base path.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDataset } from './data.ts';
import type { RunningReference } from './server.ts';
import { call, expectError, makeClock, NOTIFICATION_ETYPES, parseLink, SETUPS, startServer, TIMESTAMP, userTokens, type CallOptions } from '../testing/reference/testkit.ts';

const BASE_FIELDS = [
  'id',
  'etype',
  'eventable_id',
  'eventable_type',
  'eventable_name',
  'eventable_url',
  'event_text',
  'snapshot',
  'is_viewed',
  'aggregated',
  'created_at',
  'updated_at',
  'sku',
  'category_name',
  'user',
];
const SKU_ETYPES = ['price_up', 'price_drop', 'sku_review', 'availability_true', 'availability_false'];
const SKU_FIELDS = ['id', 'category_id', 'display_name', 'images', 'click_url', 'virtual', 'future', 'first_product_shop_info'];

type Notification = Record<string, any>;

/** What the Notification table and the Events section say about one notification's keys. */
function checkNotification(n: Notification): void {
  const where = `notification ${n['id']} (${n['etype']})`;
  const expected = [...BASE_FIELDS];
  if (n['etype'] === 'sku_review') expected.push('review_rating');
  if (n['etype'] === 'sku_review' && n['aggregated'] === false) expected.push('review_text');
  expect(Object.keys(n).sort(), where).toEqual(expected.sort());
  expect(NOTIFICATION_ETYPES, where).toContain(n['etype']);
  expect(Number.isInteger(n['id'])).toBe(true);
  expect(Number.isInteger(n['eventable_id'])).toBe(true);
  for (const k of ['eventable_type', 'eventable_name', 'eventable_url']) expect(typeof n[k], `${where} ${k}`).toBe('string');
  expect(n['event_text'] === null || typeof n['event_text'] === 'string').toBe(true);
  for (const k of ['is_viewed', 'aggregated']) expect(typeof n[k], `${where} ${k}`).toBe('boolean');
  for (const k of ['created_at', 'updated_at']) expect(n[k], `${where} ${k}`).toMatch(TIMESTAMP);
  const s = n['snapshot'];
  expect(Object.keys(s).sort(), where).toEqual(['change_rate', 'from_threshold', 'latest_price', 'price_min']);
  for (const k of ['price_min', 'latest_price', 'change_rate']) expect(typeof s[k], `${where} snapshot.${k}`).toBe('number');
  expect(typeof s.from_threshold).toBe('boolean');

  if (SKU_ETYPES.includes(n['etype'])) {
    expect(Object.keys(n['sku']).sort(), where).toEqual([...SKU_FIELDS].sort());
    expect(Number.isInteger(n['sku'].id) && Number.isInteger(n['sku'].category_id), where).toBe(true);
    expect(typeof n['sku'].display_name).toBe('string');
    expect(typeof n['sku'].virtual).toBe('boolean');
    expect(typeof n['sku'].future).toBe('boolean');
    expect(typeof n['sku'].images).toBe('object');
  } else {
    expect(n['sku'], where).toBeNull();
  }
  if (n['etype'] === 'price_up' || n['etype'] === 'price_drop') expect(typeof n['category_name'], where).toBe('string');
  else expect(n['category_name'], where).toBeNull();
  if (n['etype'] === 'sku_review') {
    expect(Object.keys(n['user']).sort(), where).toEqual(['avatar', 'id', 'username']);
    expect(Number.isInteger(n['user'].id)).toBe(true);
    expect(typeof n['user'].username).toBe('string');
    expect(typeof n['user'].avatar).toBe('string');
  } else {
    expect(n['user'], where).toBeNull();
  }
}

describe.each(SETUPS)('notifications (%s)', (_name, options) => {
  let ref: RunningReference;
  let app: string;
  let user: string;
  let all: Notification[];
  const clock = makeClock();

  const as = (method: string, path: string, opts: CallOptions = {}) => call(ref, method, path, { token: user, ...opts });

  beforeAll(async () => {
    ({ ref, app, user } = await startServer({ now: clock.now, ...options }, 'public notifications'));
    all = (await as('GET', '/notifications?per=100')).body.notifications;
  });
  afterAll(async () => {
    await ref?.close();
  });

  it('need a user token with the notifications scope (401 otherwise)', async () => {
    const noScope = (await userTokens(ref, 'public favorites')).access;
    const id = all[0]!['id'];
    for (const token of [app, noScope, undefined]) {
      expectError(await call(ref, 'GET', '/notifications', token ? { token } : {}), 401);
      expectError(await call(ref, 'GET', `/notifications/${id}`, token ? { token } : {}), 401);
      expectError(await call(ref, 'POST', '/notifications/view', { ...(token ? { token } : {}), body: { ids: [id] } }), 401);
    }
    const onlyNotifications = (await userTokens(ref, 'notifications')).access;
    expect((await call(ref, 'GET', '/notifications', { token: onlyNotifications })).status).toBe(200);
  });

  it('GET /notifications returns {notifications, meta} paginated, newest first', async () => {
    const r = await as('GET', '/notifications');
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['meta', 'notifications']);
    const total = r.body.meta.pagination.total_results;
    expect(total).toBe(all.length);
    expect(total).toBeGreaterThan(25);
    expect(r.body.meta.pagination).toEqual({ total_results: total, total_pages: Math.ceil(total / 25), page: 1, per: 25 });
    expect(r.body.notifications).toEqual(all.slice(0, 25));
    expect(parseLink(r.headers.get('link')).next).toMatch(/page=2/);
    const p2 = await as('GET', '/notifications?per=5&page=2');
    expect(p2.body.notifications).toEqual(all.slice(5, 10));
    const created = all.map((n) => Date.parse(n['created_at']));
    expect(created).toEqual([...created].sort((a, b) => b - a));
  });

  it('every notification has the fields its etype calls for (Events: embedding rules)', async () => {
    for (const n of all) checkNotification(n);
    const etypes = new Set(all.map((n) => n['etype']));
    // The data covers every rule: SKU and price etypes, sku_review both ways, and one that embeds nothing.
    for (const e of ['price_drop', 'sku_review']) expect(etypes, e).toContain(e);
    expect(
      all.some((n) => !SKU_ETYPES.includes(n['etype'])),
      'an etype without a SKU',
    ).toBe(true);
    expect(
      all.some((n) => n['etype'] === 'sku_review' && !n['aggregated']),
      'a non-aggregated sku_review',
    ).toBe(true);
    expect(
      all.some((n) => !n['is_viewed']),
      'an unviewed notification',
    ).toBe(true);
  });

  it('the embedded SKU and category name agree with the catalogue', async () => {
    const priced = all.find((n) => n['etype'] === 'price_drop')!;
    const sku = priced['sku'];
    const category = (await as('GET', `/categories/${sku.category_id}`)).body.category;
    expect(priced['category_name']).toBe(category.name);
  });

  it('older versions show the same notification (review_rating dates from 3.0.12)', async () => {
    const review = all.find((n) => n['etype'] === 'sku_review')!;
    for (const version of ['3.0', '3.1', '3.2']) {
      expect((await as('GET', `/notifications/${review['id']}`, { version })).body.notification, version).toEqual(review);
    }
  });

  it('GET /notifications/:id returns {notification}; unknown ids are 404 RecordNotFound', async () => {
    for (const n of [all[0]!, all[all.length - 1]!]) {
      const r = await as('GET', `/notifications/${n['id']}`);
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ notification: n });
    }
    const unknown = Math.max(...all.map((n) => n['id'] as number)) + 1000;
    expectError(await as('GET', `/notifications/${unknown}`), 404, 'RecordNotFound');
    expectError(await as('GET', '/notifications/abc'), 404, 'RecordNotFound');
  });

  it('POST /notifications/view answers 204 with no body and sets is_viewed (and updated_at)', async () => {
    const unviewed = all.filter((n) => !n['is_viewed']).slice(0, 2);
    const viewed = all.find((n) => n['is_viewed'])!;
    clock.advance(60_000);
    const unknown = Math.max(...all.map((n) => n['id'] as number)) + 1000;
    const r = await as('POST', '/notifications/view', { body: { ids: [...unviewed.map((n) => n['id']), viewed['id'], unknown] } });
    expect(r.status, r.text).toBe(204);
    expect(r.text).toBe('');
    for (const n of unviewed) {
      const after = (await as('GET', `/notifications/${n['id']}`)).body.notification;
      expect(after).toEqual({ ...n, is_viewed: true, updated_at: new Date(clock.now()).toISOString().replace(/\.\d{3}Z$/, 'Z') });
    }
    expect((await as('GET', `/notifications/${viewed['id']}`)).body.notification).toEqual(viewed);
    // Only the named notifications change.
    const others = (await as('GET', '/notifications?per=100')).body.notifications.filter((n: Notification) => !unviewed.some((u) => u['id'] === n['id']));
    expect(others).toEqual(all.filter((n) => !unviewed.some((u) => u['id'] === n['id'])));
    // A form body (ids[]=...) and digit strings work too; repeating is harmless.
    const next = all.find((n) => !n['is_viewed'] && !unviewed.includes(n))!;
    expect((await as('POST', '/notifications/view', { form: `ids[]=${next['id']}&ids[]=${next['id']}` })).status).toBe(204);
    expect((await as('GET', `/notifications/${next['id']}`)).body.notification.is_viewed).toBe(true);
    all = (await as('GET', '/notifications?per=100')).body.notifications;
  });

  it("another user's notifications are 404 and cannot be marked viewed", async () => {
    // The server's own records of another user, found in the same generated dataset.
    const ds = createDataset(options.dataset ?? 'default', clock.now());
    const foreign = [...ds.notifications.values()].find((n) => n.userId !== ds.demoUserId)!;
    expect(foreign, 'a notification of another user').toBeDefined();
    expect(all.map((n) => n['id'])).not.toContain(foreign.id);
    expectError(await as('GET', `/notifications/${foreign.id}`), 404, 'RecordNotFound');
    expect((await as('POST', '/notifications/view', { body: { ids: [foreign.id] } })).status).toBe(204);
    expectError(await as('GET', `/notifications/${foreign.id}`), 404, 'RecordNotFound');
    expect((await as('GET', '/notifications?per=100')).body.notifications).toEqual(all);
  });

  it('POST /notifications/view refuses missing or malformed ids with 400', async () => {
    const id = all[0]!['id'];
    expectError(await as('POST', '/notifications/view'), 400, 'ParameterMissing');
    expectError(await as('POST', '/notifications/view', { body: {} }), 400, 'ParameterMissing');
    for (const ids of [id, String(id), [], [id, 'x'], [id, 1.5], [-1], [{ id }], Array.from({ length: 1001 }, () => id)]) {
      expectError(await as('POST', '/notifications/view', { body: { ids } }), 400, 'InvalidParameter');
    }
  });
});
