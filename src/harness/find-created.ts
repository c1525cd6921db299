// What a create left whose answer was never recorded (the run was killed while its POST was out,
// issue 19): the record is looked up by what the kit sent, which marks it as the kit's own, and
// its DELETE returned for the sweep to send. Only the user's collections the kit writes to:
//   - a favorite list: by its name (the kit's names carry a run id);
//   - a review: by its text (it carries a run id), among the SKU's reviews;
//   - an address: by its label (it carries a run id);
//   - a favorite: of the SKU sent, created after the request was sent (the kit favorites only SKUs
//     the user had not favorited), with the list a new_list_name of the kit's made along with it.
// Null when it cannot tell (another collection, a listing that did not answer 200, more than the
// pages it reads): the sweep then reports the intent as unknown.
import { isPlainObject } from '../checks/check.ts';
import type { ApiClient } from './api.ts';
import type { CreateIntent } from './journal.ts';
import { KIT_PREFIX } from '../util/kit-names.ts';

/** A list name, review text or label of the kit's own: they start with the kit's prefix (src/util/kit-names.ts). */
const isKits = (text: string): boolean => text.startsWith(KIT_PREFIX);

type Json = Record<string, unknown>;

/** The server's clock may run behind the kit's: a favorite created this long before the request still counts. */
const CLOCK_SKEW_MS = 5 * 60 * 1000;
/** Pages of 100 read at most per listing. */
const PAGES = 2;

/** The items under `key` of up to PAGES pages of 100; null when a page does not answer 200 with them, or there are more. */
async function itemsOf(api: ApiClient, path: string, key: string, query: Record<string, string | number> = {}): Promise<Json[] | null> {
  const items: Json[] = [];
  for (let page = 1; page <= PAGES; page++) {
    const response = await api.request('GET', path, { auth: 'user', query: { ...query, per: 100, page } });
    if (response.status !== 200) return null;
    let body: unknown;
    try {
      body = JSON.parse(response.text);
    } catch {
      return null;
    }
    const listed = isPlainObject(body) ? body[key] : undefined;
    if (!Array.isArray(listed)) return null;
    items.push(...listed.filter(isPlainObject));
    const pagination = isPlainObject(body) && isPlainObject(body['meta']) ? body['meta']['pagination'] : undefined;
    const pages = isPlainObject(pagination) && typeof pagination['total_pages'] === 'number' ? pagination['total_pages'] : 1;
    if (page >= pages || listed.length === 0) return items;
  }
  return null;
}

const field = (json: unknown, object: string, name: string): unknown => (isPlainObject(json) && isPlainObject(json[object]) ? json[object][name] : undefined);
const ids = (items: readonly Json[], match: (item: Json) => boolean): number[] => items.filter((i) => match(i) && Number.isInteger(i['id'])).map((i) => i['id'] as number);

/** The kit's lists named `name`, as DELETE paths; null when the lists cannot be read. */
async function listsNamed(api: ApiClient, name: string): Promise<string[] | null> {
  const lists = await itemsOf(api, '/favorite_lists', 'favorite_lists');
  return lists && ids(lists, (l) => l['name'] === name).map((id) => `/favorite_lists/${id}`);
}

/** DELETE paths of what the create left (none: it created nothing), or null when that cannot be told. */
export async function findCreated(api: ApiClient, intent: CreateIntent): Promise<string[] | null> {
  const { path, json } = intent;
  if (path === '/favorite_lists') {
    const name = field(json, 'favorite_list', 'name');
    return typeof name === 'string' && isKits(name) ? listsNamed(api, name) : null;
  }
  if (path === '/user/addresses') {
    // The address's fields at the top of the body, or under `address`.
    const label = isPlainObject(json) && typeof json['label'] === 'string' ? json['label'] : field(json, 'address', 'label');
    if (typeof label !== 'string' || !isKits(label)) return null;
    const addresses = await itemsOf(api, '/user/addresses', 'addresses');
    return addresses && ids(addresses, (a) => a['label'] === label).map((id) => `/user/addresses/${id}`);
  }
  const review = /^\/skus\/([^/]+)\/reviews$/.exec(path);
  if (review) {
    const text = field(json, 'review', 'review');
    if (typeof text !== 'string' || !isKits(text)) return null;
    const reviews = await itemsOf(api, path, 'reviews');
    return reviews && ids(reviews, (r) => r['review'] === text).map((id) => `${path}/${id}`);
  }
  if (path === '/favorites') {
    const skuId = field(json, 'favorite', 'sku_id');
    if (!Number.isInteger(skuId)) return null;
    const since = Date.parse(intent.sentAt) - CLOCK_SKEW_MS;
    const made = (f: Json) => f['sku_id'] === skuId && typeof f['created_at'] === 'string' && Date.parse(f['created_at']) >= since;
    // Owned favorites are left out of the default listing from 3.2.0: both listings are read.
    const listed = await itemsOf(api, '/favorites', 'favorites');
    const owned = await itemsOf(api, '/favorites', 'favorites', { owned: 'true' });
    if (!listed || !owned) return null;
    const favorites = [...new Set([...ids(listed, made), ...ids(owned, made)])].map((id) => `/favorites/${id}`);
    const listName = field(json, 'favorite', 'new_list_name');
    if (typeof listName !== 'string' || !isKits(listName)) return favorites;
    // The list a new_list_name made along with it: after the favorite (deleting a list may take its favorites).
    const lists = await listsNamed(api, listName);
    return lists && [...favorites, ...lists];
  }
  return null;
}
