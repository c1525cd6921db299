// ApiClient's use of the run's kept answers (src/harness/reuse.ts): which GETs are answered from
// them, against the in-process reference.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startReference, type RunningReference } from '../reference/server.ts';
import { servicesFor } from '../testing/services.ts';
import { ApiClient } from './api.ts';

let ref: RunningReference;
beforeAll(async () => {
  ref = await startReference({});
});
afterAll(async () => {
  await ref.close();
});

function clients(): { local: ReturnType<typeof servicesFor>; a: ApiClient; b: ApiClient } {
  const local = servicesFor(ref);
  const client = (holder: string) => new ApiClient({ baseUrl: ref.baseUrl, apiVersion: '3.2', timeoutMs: 5_000, services: local.services, holder, reuse: true });
  return { local, a: client('a'), b: client('b') };
}

describe('ApiClient: a GET another test made is answered from the kept answers', () => {
  test('the same GET with the same token kind is sent once; an Accept equal to the default shares it', async () => {
    const { local, a, b } = clients();
    expect((await a.get('/categories/root')).status).toBe(200);
    const spent = local.budget.spent;
    expect((await b.get('/categories/root')).status).toBe(200);
    expect((await b.get('/categories/root', { accept: 'application/vnd.service+json; version=3.2' })).status).toBe(200);
    expect(local.budget.spent).toBe(spent);
  });

  test('another Accept, no Accept at all, or a header of its own: sent', async () => {
    const { local, a, b } = clients();
    await a.get('/categories/root');
    const spent = local.budget.spent;
    await b.get('/categories/root', { accept: 'application/vnd.service+json; version=3.1' });
    await b.get('/categories/root', { accept: null });
    await b.get('/categories/root', { headers: { 'if-none-match': '"x"' } });
    expect(local.budget.spent).toBe(spent + 3);
    // Each is kept under its own key: asked again, none is sent.
    await a.get('/categories/root', { accept: 'application/vnd.service+json; version=3.1' });
    await a.get('/categories/root', { accept: null });
    expect(local.budget.spent).toBe(spent + 3);
  });
});
