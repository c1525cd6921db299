// Probes of the faults in src/reference/faults/account.ts: each resolves true when the server shows the bug (test-only code).
//
// State: probes restore what they change where the API allows it. One change cannot be undone:
// notifications-view-not-persisted marks one unviewed notification viewed (on a correct server).
// No probe depends on it (notifications-view-returns-body uses a viewed one).

import type { RunningReference } from '../../../reference/server.ts';
import { allSkus, call, get, userTokens, type Reply } from '../testkit.ts';
import type { ProbeTable } from './probe.ts';

type Json = Record<string, any>;

async function notifications(ref: RunningReference, token: string): Promise<Json[]> {
  const r = await call(ref, 'GET', '/notifications?per=100', { token });
  return Array.isArray(r.body?.notifications) ? r.body.notifications : [];
}

async function addresses(ref: RunningReference, token: string): Promise<Json[]> {
  const r = await call(ref, 'GET', '/user/addresses', { token });
  return Array.isArray(r.body?.addresses) ? r.body.addresses : [];
}

const ADDRESS_TEXT = ['first_name', 'last_name', 'street_name', 'street_number', 'city'];

/** Puts every text field of an address back at once (a PUT of one field may clear the others under a fault). */
async function restoreAddress(ref: RunningReference, token: string, a: Json): Promise<void> {
  await call(ref, 'PUT', `/user/addresses/${a['id']}`, { token, body: Object.fromEntries(ADDRESS_TEXT.map((k) => [k, a[k]])) });
}

/** POST /user/addresses of a probe address labelled `label`, in the form's first region. */
async function postProbeAddress(ref: RunningReference, token: string, label: string): Promise<Reply> {
  const regions = (await call(ref, 'GET', '/user/addresses/new', { token })).body?.address_form?.regions ?? {};
  const body = {
    label,
    first_name: 'Probe',
    last_name: 'Probe',
    street_name: 'Probe Street',
    street_number: '1',
    city: 'Probe City',
    zip: '12345',
    region_id: Object.values(regions)[0],
  };
  return call(ref, 'POST', '/user/addresses', { token, body });
}

/** Whether the root category is tagged by its content (two targets, one body, one tag): the one-endpoint faults, not the everywhere one. */
async function contentTaggedElsewhere(ref: RunningReference, token: string): Promise<boolean> {
  const [a, b] = [await get(ref, '/categories/root', { token }), await get(ref, `/categories/root?per=25`, { token })];
  return a.headers.get('etag') !== null && a.headers.get('etag') === b.headers.get('etag');
}

/** Whether `path` is tagged by its request target: the same body under an ignored query gets another tag (and the root category does not). */
async function taggedByTarget(ref: RunningReference, token: string, path: string): Promise<boolean> {
  if (!(await contentTaggedElsewhere(ref, token))) return false;
  const [a, b] = [await get(ref, path, { token }), await get(ref, `${path}?cc_probe=1`, { token })];
  return a.text === b.text && a.headers.get('etag') !== null && a.headers.get('etag') !== b.headers.get('etag');
}

export const ACCOUNT_PROBES: ProbeTable = {
  // Read-only: one body under two targets (an ignored query) gets two tags, while elsewhere a body keeps its tag.
  'user-etag-from-request-target': async (ref, { user: token }) => taggedByTarget(ref, token, '/user'),
  'addresses-etag-from-request-target': async (ref, { user: token }) => taggedByTarget(ref, token, '/user/addresses'),

  'user-email-missing-in-3-2': async (ref, { user }) => {
    const u = (await call(ref, 'GET', '/user', { token: user, version: '3.2' })).body?.user;
    // created_at shows that 3.2 fields are served at all.
    return u !== undefined && 'created_at' in u && !('email' in u);
  },

  'address-region-as-id': async (ref, { user }) => (await addresses(ref, user)).some((a) => typeof a['region'] === 'number'),

  'address-numeric-zip-rejected': async (ref, { user }) => {
    const regions = (await call(ref, 'GET', '/user/addresses/new', { token: user })).body?.address_form?.regions ?? {};
    const body = {
      label: 'Probe',
      first_name: 'Probe',
      last_name: 'Probe',
      street_name: 'Probe Street',
      street_number: '1',
      city: 'Probe City',
      zip: 12345,
      region_id: Object.values(regions)[0],
    };
    const r = await call(ref, 'POST', '/user/addresses', { token: user, body });
    if (r.status === 201 && r.body?.address?.id !== undefined) await call(ref, 'DELETE', `/user/addresses/${r.body.address.id}`, { token: user });
    const messages: string[] = r.body?.errors?.[0]?.messages ?? [];
    return r.status === 422 && messages.length > 0 && messages.every((m) => m.startsWith('zip'));
  },

  'user-patch-not-stored': async (ref, { user }) => {
    const before = (await call(ref, 'GET', '/user', { token: user })).body?.user;
    if (!before) return false;
    const sex = before['sex'] === 'male' ? 'female' : 'male';
    const r = await call(ref, 'PATCH', '/user', { token: user, body: { sex } });
    const after = (await call(ref, 'GET', '/user', { token: user })).body?.user;
    await call(ref, 'PATCH', '/user', { token: user, body: { sex: before['sex'], birthyear: before['birthyear'] } });
    return r.status === 200 && r.body?.user?.sex === sex && after?.sex !== sex;
  },

  'user-patch-clears-unsent-fields': async (ref, { user }) => {
    const before = (await call(ref, 'GET', '/user', { token: user })).body?.user;
    if (!before || !Number.isInteger(before['birthyear'])) return false;
    const sex = before['sex'] === 'male' ? 'female' : 'male';
    const r = await call(ref, 'PATCH', '/user', { token: user, body: { sex } });
    await call(ref, 'PATCH', '/user', { token: user, body: { sex: before['sex'], birthyear: before['birthyear'] } });
    return r.status === 200 && r.body?.user?.birthyear === null;
  },

  'address-delete-not-stored': async (ref, { user }) => {
    const made = await postProbeAddress(ref, user, 'Probe delete');
    const id = made.body?.address?.id;
    if (made.status !== 201 || id === undefined) return false;
    const deleted = await call(ref, 'DELETE', `/user/addresses/${id}`, { token: user });
    return deleted.status === 204 && (await addresses(ref, user)).some((a) => a['id'] === id);
  },

  'address-update-applied-to-other-address': async (ref, { user }) => {
    const [first, second] = await addresses(ref, user);
    if (!first || !second) return false;
    const put = (city: string) => call(ref, 'PUT', `/user/addresses/${second['id']}`, { token: user, body: { city } });
    await put('Probe Other City');
    const after = await addresses(ref, user);
    const wrong = after.find((x) => x['id'] === first['id'])?.['city'] === 'Probe Other City';
    // Put back what the PUT changed: on this fault the first address, else the second.
    await put(String(wrong ? first['city'] : second['city']));
    return wrong;
  },

  'personalization-put-not-stored': async (ref, { user }) => {
    const before = (await call(ref, 'GET', '/personalization', { token: user })).body?.personalization?.location?.address_id;
    const target = (await addresses(ref, user)).map((a) => a['id'] as number).find((id) => id !== before);
    if (target === undefined || typeof before !== 'number') return false;
    const put = (id: number) => call(ref, 'PUT', '/personalization', { token: user, body: { personalization: { location: { address_id: id } } } });
    const r = await put(target);
    const after = (await call(ref, 'GET', '/personalization', { token: user })).body?.personalization?.location?.address_id;
    await put(before);
    // The answer shows the address sent (an answer that does not is personalization-put-ignored).
    return r.status === 200 && r.body?.personalization?.location?.address_id === target && after !== target;
  },

  'address-update-not-stored': async (ref, { user }) => {
    const a = (await addresses(ref, user))[0];
    if (!a) return false;
    const r = await call(ref, 'PUT', `/user/addresses/${a['id']}`, { token: user, body: { city: 'Probe City' } });
    const after = (await addresses(ref, user)).find((x) => x['id'] === a['id']);
    await restoreAddress(ref, user, a);
    // The answer is the address asked (another one is address-update-applied-to-other-address).
    return r.status === 200 && r.body?.address?.id === a['id'] && r.body?.address?.city === 'Probe City' && after?.['city'] !== 'Probe City';
  },

  'address-update-clears-unsent-fields': async (ref, { user }) => {
    const a = (await addresses(ref, user))[0];
    if (!a) return false;
    const r = await call(ref, 'PUT', `/user/addresses/${a['id']}`, { token: user, body: { city: a['city'] } });
    await restoreAddress(ref, user, a);
    return r.status === 200 && ADDRESS_TEXT.some((k) => r.body?.address?.[k] !== a[k]);
  },

  'logout-returns-body': async (ref) => {
    // A token of its own: logout ends the token it is called with.
    let token: string;
    try {
      token = (await userTokens(ref, 'public')).access;
    } catch {
      return false;
    }
    const r = await call(ref, 'DELETE', '/user/logout', { token });
    return r.status === 200 && r.text !== '';
  },

  'personalization-put-ignored': async (ref, { user }) => {
    const before = (await call(ref, 'GET', '/personalization', { token: user })).body?.personalization;
    const target = (await addresses(ref, user)).find((a) => a['id'] !== before?.location?.address_id);
    if (!before || !target) return false;
    const r = await call(ref, 'PUT', '/personalization', { token: user, body: { personalization: { location: { address_id: target['id'] } } } });
    const original = before.location.address_id;
    if (original !== null) await call(ref, 'PUT', '/personalization', { token: user, body: { personalization: { location: { address_id: original } } } });
    // The answer is the personalization as it was (another address is personalization-put-not-stored).
    return r.status === 200 && r.body?.personalization?.location?.address_id === original && original !== target['id'];
  },

  'notifications-view-returns-body': async (ref, { user }) => {
    // An already viewed notification: viewing it again changes nothing.
    const list = await notifications(ref, user);
    const n = list.find((x) => x['is_viewed'] === true) ?? list[0];
    if (!n) return false;
    const r = await call(ref, 'POST', '/notifications/view', { token: user, body: { ids: [n['id']] } });
    return r.status === 200 && r.text !== '';
  },

  'notifications-view-not-persisted': async (ref, { user }) => {
    const n = (await notifications(ref, user)).find((x) => x['is_viewed'] === false);
    if (!n) return false;
    const r = await call(ref, 'POST', '/notifications/view', { token: user, body: { ids: [n['id']] } });
    if (r.status !== 204 && r.status !== 200) return false;
    return (await call(ref, 'GET', `/notifications/${n['id']}`, { token: user })).body?.notification?.is_viewed === false;
  },

  'price-drop-notification-without-category-name': async (ref, { user }) => (await notifications(ref, user)).some((n) => n['etype'] === 'price_drop' && !('category_name' in n)),

  'sku-review-notification-without-user': async (ref, { user }) => (await notifications(ref, user)).some((n) => n['etype'] === 'sku_review' && !('user' in n)),

  'products-ignore-user-personalization': async (ref, { user }) => {
    const own = (await get(ref, '/personalization', { token: user })).body.personalization;
    const sku = (await allSkus(ref, user)).find((s) => !s.future && s.shop_count > 0)!;
    const meta = (await get(ref, `/skus/${sku.id}/products?per=1`, { token: user })).body.meta;
    return JSON.stringify(meta.personalization) !== JSON.stringify(own);
  },

  'address-created-twice': async (ref, { user }) => {
    const label = 'Probe twice';
    const made = await postProbeAddress(ref, user, label);
    const stored = (await addresses(ref, user)).filter((a) => a['label'] === label);
    for (const a of stored) await call(ref, 'DELETE', `/user/addresses/${a['id']}`, { token: user });
    return made.status === 201 && stored.length === 2;
  },

  'notifications-view-marks-all': async (ref, { user }) => {
    const all = await notifications(ref, user);
    const unviewed = all.filter((x) => x['is_viewed'] === false);
    // None left unviewed: the probes view one each, so only a view marking all of them does that.
    if (unviewed.length < 2) return unviewed.length === 0 && all.length >= 2;
    await call(ref, 'POST', '/notifications/view', { token: user, body: { ids: [unviewed[0]!['id']] } });
    return (await call(ref, 'GET', `/notifications/${unviewed[1]!['id']}`, { token: user })).body?.notification?.is_viewed === true;
  },
};
