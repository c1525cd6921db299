// Probes of the faults in src/reference/faults/protocol.ts: each resolves true when the server shows the bug (test-only code).
//
// Versions are compared by whole response bodies (never by ETags or single fields), so a fault
// that changes one field or the ETag elsewhere does not look like a versioning bug.

import type { RunningReference } from '../../../reference/server.ts';
import { authorize, get, post, type Reply } from '../testkit.ts';
import type { ProbeTable } from './probe.ts';

type Json = Record<string, any>;

const ROOT = '/categories/root';

function remaining(r: Reply): number | null {
  const v = r.headers.get('x-ratelimit-remaining');
  return v === null ? null : Number(v);
}

/** Two GETs in one rate-limit window (retried once if a window ended in between). */
async function twoInOneWindow(ref: RunningReference, token: string, second: Record<string, string> = {}): Promise<[Reply, Reply, Reply] | null> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const a = await get(ref, ROOT, { token });
    const b = await get(ref, ROOT, { token });
    const c = await get(ref, ROOT, { token, headers: second });
    const resets = new Set([a, b, c].map((r) => r.headers.get('x-ratelimit-reset')));
    if (resets.size === 1) return [a, b, c];
  }
  return null;
}

async function bodyFor(ref: RunningReference, token: string, version: string | null): Promise<string> {
  const r = await get(ref, ROOT, { token, version });
  return r.status === 200 ? r.text : `status ${r.status}`;
}

const productCache = new WeakMap<RunningReference, Promise<Json | null>>();

/** A product (found through a leaf category's SKUs), or null when the dataset has none. */
function someProduct(ref: RunningReference, token: string): Promise<Json | null> {
  let p = productCache.get(ref);
  if (!p) {
    p = (async () => {
      const cats = (await get(ref, '/categories?per=100', { token })).body.categories as Json[];
      for (const leaf of cats.filter((c) => !cats.some((k) => k.parent_id === c.id))) {
        const skus = ((await get(ref, `/categories/${leaf.id}/skus?per=100`, { token })).body?.skus ?? []) as Json[];
        for (const sku of skus.filter((s) => !s.future && s.shop_count > 0)) {
          const products = ((await get(ref, `/skus/${sku.id}/products?per=1`, { token })).body?.products ?? []) as Json[];
          if (products[0]) return products[0];
        }
      }
      return null;
    })();
    productCache.set(ref, p);
  }
  return p;
}

function tokenRequest(ref: RunningReference, scope: string): Promise<Reply> {
  return post(`${ref.authUrl}/oauth2/token`, { grant_type: 'client_credentials', client_id: ref.client.id, client_secret: ref.client.secret, scope });
}

export const PROTOCOL_PROBES: ProbeTable = {
  'if-none-match-ignored': async (ref, { app: token }) => {
    const a = await get(ref, ROOT, { token });
    const etag = a.headers.get('etag');
    if (etag === null) return false;
    const b = await get(ref, ROOT, { token, headers: { 'If-None-Match': etag } });
    return b.status === 200 && b.headers.get('etag') === etag;
  },

  'etag-changes-every-response': async (ref, { app: token }) => {
    const [a, b] = [await get(ref, ROOT, { token }), await get(ref, ROOT, { token })];
    return a.text === b.text && a.headers.get('etag') !== null && a.headers.get('etag') !== b.headers.get('etag');
  },

  'ratelimit-headers-missing-on-304': async (ref, { app: token }) => {
    const etag = (await get(ref, ROOT, { token })).headers.get('etag');
    if (etag === null) return false;
    const r = await get(ref, ROOT, { token, headers: { 'If-None-Match': etag } });
    return r.status === 304 && r.headers.get('x-ratelimit-limit') === null;
  },

  'not-modified-not-counted': async (ref, { app: token }) => {
    const etag = (await get(ref, ROOT, { token })).headers.get('etag');
    if (etag === null) return false;
    const replies = await twoInOneWindow(ref, token, { 'If-None-Match': etag });
    if (!replies) return false;
    const [a, b, c] = replies;
    const [ra, rb, rc] = [remaining(a), remaining(b), remaining(c)];
    if (ra === null || rb === null || rc === null || c.status !== 304) return false;
    // 200s count (rb = ra - 1) but the 304 does not.
    return rb === ra - 1 && rc === rb;
  },

  'ratelimit-remaining-not-decreasing': async (ref, { app: token }) => {
    const replies = await twoInOneWindow(ref, token);
    if (!replies) return false;
    const [ra, rb] = [remaining(replies[0]), remaining(replies[1])];
    return ra !== null && rb !== null && rb >= ra;
  },

  'ratelimit-reset-in-milliseconds': async (ref, { app: token }) => {
    const reset = Number((await get(ref, ROOT, { token })).headers.get('x-ratelimit-reset'));
    // Epoch seconds are about 1.7e9 today; milliseconds about 1.7e12.
    return reset > 1e11;
  },

  'version-major-only-gives-latest': async (ref, { app: token }) => {
    const [v3, v30, latest] = [await bodyFor(ref, token, '3'), await bodyFor(ref, token, '3.0'), await bodyFor(ref, token, null)];
    return v3 === latest && v3 !== v30;
  },

  'version-patch-not-ignored': async (ref, { app: token }) => {
    const [v320, v32, v31] = [await bodyFor(ref, token, '3.2.0'), await bodyFor(ref, token, '3.2'), await bodyFor(ref, token, '3.1')];
    return v320 !== v32 && v320 === v31;
  },

  'unknown-minor-gives-oldest': async (ref, { app: token }) => {
    const [v33, v30, v32] = [await bodyFor(ref, token, '3.3'), await bodyFor(ref, token, '3.0'), await bodyFor(ref, token, '3.2')];
    return v33 === v30 && v33 !== v32;
  },

  'fields-except-applied-before-fields': async (ref, { app: token }) => {
    // name is in both parameters: the exclusion must win.
    const r = await get(ref, `${ROOT}?fields[root]=id,name&fields_except[root]=name`, { token });
    return r.status === 200 && 'name' in (r.body.category as Json);
  },

  'embedded-trimmed-by-root-fieldset': async (ref, { app: token }) => {
    const product = await someProduct(ref, token);
    if (!product) return false;
    const r = await get(ref, `/products/${product.id}?embed=shop&fields[root]=id`, { token });
    const shop = r.body?.product?.shop as Json | null | undefined;
    return typeof shop === 'object' && shop !== null && !('name' in shop);
  },

  'embed-ids-not-array': async (ref, { app: token }) => {
    const product = await someProduct(ref, token);
    if (!product) return false;
    const r = await get(ref, `/products/${product.id}?embed_ids=shop`, { token });
    return r.status === 200 && 'shop_ids' in (r.body.product as Json) && !Array.isArray(r.body.product.shop_ids);
  },

  'fields-except-ignored-on-search': async (ref, { app: token }) => {
    // A shop's product search by a product's own shop_uid, with fields_except[root]=price: no product keeps its price.
    const product = await someProduct(ref, token);
    if (!product) return false;
    const r = await get(ref, `/shops/${product.shop_id}/products/search?shop_uid=${encodeURIComponent(String(product.shop_uid))}&fields_except[root]=price`, { token });
    const found = r.body?.products as Json[] | undefined;
    return r.status === 200 && Array.isArray(found) && found.some((p) => 'price' in p);
  },

  'fieldsets-ignored-on-forms': async (ref, { user }) => {
    // The address form asked for its regions alone keeps its lists of fields too.
    const r = await get(ref, '/user/addresses/new?fields[root]=regions', { token: user });
    const form = r.body?.address_form as Json | undefined;
    return r.status === 200 && typeof form === 'object' && form !== null && 'required' in form;
  },

  'association-fieldset-ignored': async (ref, { app: token }) => {
    // fields[root] names the shop and fields[shop] two of its fields: the embedded shop keeps
    // exactly those two. (A root fieldset applied to the shop would trim it to its id.)
    const product = await someProduct(ref, token);
    if (!product) return false;
    const r = await get(ref, `/products/${product.id}?embed=shop&fields[root]=id,shop&fields[shop]=id,name`, { token });
    const shop = r.body?.product?.shop as Json | null | undefined;
    return typeof shop === 'object' && shop !== null && 'name' in shop && 'phone' in shop;
  },

  'included-array-misses-linked-objects': async (ref, { app: token }) => {
    // include=address on a shop's locations: every address_id of a location resolves in addresses.
    const product = await someProduct(ref, token);
    if (!product) return false;
    const r = await get(ref, `/shops/${product.shop_id}/locations?include=address&per=100`, { token });
    if (r.status !== 200) return false;
    const ids = new Set((r.body.locations as Json[]).map((l) => l.address_id).filter((id) => id !== null));
    const included = new Set((r.body.addresses as Json[]).map((a) => a.id));
    return [...ids].some((id) => !included.has(id));
  },

  'fieldsets-ignored-in-3-1': async (ref, { app: token }) => {
    const r = await get(ref, `${ROOT}?fields[root]=id`, { token, version: '3.1' });
    return r.status === 200 && Object.keys(r.body.category as Json).length > 1;
  },

  'app-token-extra-scope': async (ref) => {
    const r = await tokenRequest(ref, 'public favorites');
    return (
      r.status === 200 &&
      String(r.body?.scope ?? '')
        .split(' ')
        .includes('favorites')
    );
  },

  'authorization-code-reusable': async (ref) => {
    const { code } = await authorize(ref, 'public');
    const form = {
      grant_type: 'authorization_code',
      client_id: ref.client.id,
      client_secret: ref.client.secret,
      redirect_uri: ref.client.redirectUri,
      code,
    };
    const first = await post(`${ref.authUrl}/oauth2/token`, form);
    const second = await post(`${ref.authUrl}/oauth2/token`, form);
    return first.status === 200 && second.status === 200;
  },

  'expires-in-milliseconds': async (ref) => (await tokenRequest(ref, 'public')).body?.expires_in === 14 * 24 * 3600 * 1000,

  'etag-never-sent': async (ref, { app: token }) => (await get(ref, ROOT, { token })).headers.get('etag') === null,
  'ratelimit-limit-decimal': async (ref, { app: token }) => ((await get(ref, ROOT, { token })).headers.get('x-ratelimit-limit') ?? '').includes('.'),
  'ratelimit-remaining-decimal': async (ref, { app: token }) => ((await get(ref, ROOT, { token })).headers.get('x-ratelimit-remaining') ?? '').includes('.'),
  // The window started at most a few seconds ago; its end is a minute away.
  'ratelimit-reset-window-start': async (ref, { app: token }) => Number((await get(ref, ROOT, { token })).headers.get('x-ratelimit-reset')) <= Date.now() / 1000 + 5,
  'version-param-ignored': async (ref, { app: token }) => {
    const oldest = await get(ref, ROOT, { token, version: '3.0' });
    const latest = await get(ref, ROOT, { token });
    return JSON.stringify(oldest.body) === JSON.stringify(latest.body);
  },
};
