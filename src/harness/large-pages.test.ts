// The large page (src/harness/large-pages.ts), against the in-process reference: per=100 where it
// is served (clamped or not), the default page size where a deployment refuses it (variant
// per-over-max-refused), the other query parameters kept either way.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startReference, type RunningReference } from '../reference/server.ts';
import { servicesFor } from '../testing/services.ts';
import { ApiClient } from './api.ts';
import { firstLargePage, refusesLargePer } from './large-pages.ts';

const refs: RunningReference[] = [];
const clients: Record<'plain' | 'refusing', ApiClient> = {} as Record<'plain' | 'refusing', ApiClient>;
beforeAll(async () => {
  for (const [name, variants] of [
    ['plain', []],
    ['refusing', ['per-over-max-refused']],
  ] as const) {
    const ref = await startReference({ variants: [...variants] });
    refs.push(ref);
    clients[name] = new ApiClient({ baseUrl: ref.baseUrl, apiVersion: '3.2', timeoutMs: 5_000, services: servicesFor(ref).services, holder: 'large-pages' });
  }
});
afterAll(async () => {
  await Promise.all(refs.map((ref) => ref.close()));
});

describe('firstLargePage', () => {
  test('asks per=100, and keeps the other parameters', async () => {
    const { response, query } = await firstLargePage(clients.plain, '/favorites', { auth: 'user', query: { order_dir: 'asc' } });
    expect(response.status).toBe(200);
    expect(query).toEqual({ order_dir: 'asc', per: 100 });
    expect(JSON.parse(response.text).meta.pagination.per).toBe(100);
  });
  test('refused, asks again at the default page size', async () => {
    const { response, query } = await firstLargePage(clients.refusing, '/favorites', { auth: 'user', query: { order_dir: 'asc' } });
    expect(response.status).toBe(200);
    expect(query).toEqual({ order_dir: 'asc' });
    expect(JSON.parse(response.text).meta.pagination.per).toBe(25);
  });
  test('a refusal of per is 400 or 422', () => {
    expect([400, 422, 401, 403, 404, 500].map(refusesLargePer)).toEqual([true, true, false, false, false, false]);
  });
});
