// Finding what a create left whose answer was never recorded (src/harness/find-created.ts),
// against the in-process reference: the record the kit made is found by what it sent, and only it.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startReference, type RunningReference } from '../reference/server.ts';
import { servicesFor } from '../testing/services.ts';
import { ApiClient } from './api.ts';
import { findCreated } from './find-created.ts';
import type { CreateIntent } from './journal.ts';

let ref: RunningReference;
let api: ApiClient;
beforeAll(async () => {
  ref = await startReference({});
  api = new ApiClient({ baseUrl: ref.baseUrl, apiVersion: '3.2', timeoutMs: 5_000, services: servicesFor(ref).services, holder: 'sweep' });
});
afterAll(async () => {
  await ref.close();
});

/** POSTs `json` to `path` as the kit would, and the intent the journal would hold for it. */
async function created(path: string, json: unknown): Promise<{ intent: CreateIntent; id: number }> {
  const intent = { path, json, sentAt: new Date().toISOString() };
  const response = await api.request('POST', path, { auth: 'user', json });
  expect(response.status, response.text).toBe(201);
  const body = JSON.parse(response.text) as Record<string, { id: number }>;
  return { intent, id: Object.values(body)[0]!.id };
}

/** A region id the address form offers. */
async function regionId(): Promise<number> {
  const form = JSON.parse((await api.get('/user/addresses/new', { auth: 'user' })).text) as { address_form: { regions: Record<string, number> } };
  return Object.values(form.address_form.regions)[0]!;
}

const run = () => `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

/** A SKU of a leaf the user has not favorited. */
async function freeSku(): Promise<number> {
  const leaves = [4, 5, 6, 8, 10];
  for (const leaf of leaves) {
    const skus = JSON.parse((await api.get(`/categories/${leaf}/skus`, { auth: 'user' })).text) as { skus: { id: number; favorited: boolean }[] };
    const free = skus.skus.find((s) => s.favorited === false);
    if (free) return free.id;
  }
  throw new Error('no free SKU');
}

describe('findCreated', () => {
  test('a favorite list by its name; none when no list has it', async () => {
    const { intent, id } = await created('/favorite_lists', { favorite_list: { name: `cc-list-${run()}` } });
    expect(await findCreated(api, intent)).toEqual([`/favorite_lists/${id}`]);
    expect(await findCreated(api, { ...intent, json: { favorite_list: { name: `cc-list-${run()}` } } })).toEqual([]);
    await api.request('DELETE', `/favorite_lists/${id}`, { auth: 'user' });
  });

  test('a favorite of the SKU sent, made after the request, with the list a new_list_name made along', async () => {
    const sku = await freeSku();
    const name = `cc-model-${run()}-a`;
    const { intent, id } = await created('/favorites', { favorite: { sku_id: sku, new_list_name: name } });
    const found = await findCreated(api, intent);
    expect(found?.[0]).toBe(`/favorites/${id}`);
    expect(found).toHaveLength(2);
    expect(found![1]).toMatch(/^\/favorite_lists\/-?\d+$/);
    // Sent long after the favorite was made: not the kit's.
    expect(await findCreated(api, { ...intent, json: { favorite: { sku_id: sku } }, sentAt: new Date(Date.now() + 3600_000).toISOString() })).toEqual([]);
    for (const path of found!) await api.request('DELETE', path, { auth: 'user' });
  });

  test("a review by its text, among the SKU's reviews", async () => {
    for (const leaf of [4, 5, 6, 8]) {
      const skus = JSON.parse((await api.get(`/categories/${leaf}/skus`)).text) as { skus: { id: number; reviewable?: boolean; future?: boolean }[] };
      for (const sku of skus.skus.filter((s) => s.reviewable !== false && !s.future)) {
        const form = await api.get(`/skus/${sku.id}/reviews/new`, { auth: 'user' });
        if (form.status !== 200) continue;
        const questions = (JSON.parse(form.text) as { review_form: { questions: { answers: { id: number }[] }[] } }).review_form.questions;
        const path = `/skus/${sku.id}/reviews`;
        const text = `cc-${run()} review: written by the catalogue-conformance kit's own tests and deleted again at once, a text long enough for any rule.`;
        const json = { review: { rating: 4, answer_ids: questions.map((q) => q.answers[0]!.id), review: text } };
        const response = await api.request('POST', path, { auth: 'user', json });
        if (response.status !== 201) continue;
        const id = (JSON.parse(response.text) as { sku_review: { id: number } }).sku_review.id;
        expect(await findCreated(api, { path, json, sentAt: new Date().toISOString() })).toEqual([`${path}/${id}`]);
        await api.request('DELETE', `${path}/${id}`, { auth: 'user' });
        expect(await findCreated(api, { path, json, sentAt: new Date().toISOString() })).toEqual([]);
        return;
      }
    }
    throw new Error('no SKU took a review');
  });

  test('an address by its label; a body that carries no kit mark is not looked up', async () => {
    const label = `cc-addr-${run()}`;
    const address = await created('/user/addresses', {
      label,
      first_name: 'Conformance',
      last_name: 'Kit',
      street_name: 'Test Street',
      street_number: '1',
      city: 'Testville',
      zip: 12345,
      region_id: await regionId(),
    });
    expect(await findCreated(api, address.intent)).toEqual([`/user/addresses/${address.id}`]);
    await api.request('DELETE', `/user/addresses/${address.id}`, { auth: 'user' });
    expect(await findCreated(api, { ...address.intent, json: { label: 'Home' } })).toBeNull();
    expect(await findCreated(api, { path: '/favorite_lists', json: { favorite_list: { name: 'Wishlist' } }, sentAt: new Date().toISOString() })).toBeNull();
    expect(await findCreated(api, { path: '/skus/1/reviews', json: { review: { review: 'Great.' } }, sentAt: new Date().toISOString() })).toBeNull();
    expect(await findCreated(api, { path: '/something/else', json: {}, sentAt: new Date().toISOString() })).toBeNull();
  });
});
