import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BudgetExhaustedError } from '../budget/budget.ts';
import { ApiClient } from '../harness/api.ts';
import { startReference, type RunningReference } from '../reference/server.ts';
import { servicesFor } from '../testing/services.ts';
import { remoteServices, startCoordinator, type RunningCoordinator } from './coordinator.ts';

let ref: RunningReference;
let coordinator: RunningCoordinator;
let local: ReturnType<typeof servicesFor>;

beforeAll(async () => {
  ref = await startReference({});
  local = servicesFor(ref, { maxRequests: 12 });
  coordinator = await startCoordinator(local.services);
});
afterAll(async () => {
  await coordinator.close();
  await ref.close();
});

describe('the coordinator shares one run between workers', () => {
  test('two workers draw on one budget: a reservation that no longer fits is refused with the reason', async () => {
    const workerA = remoteServices(coordinator);
    const workerB = remoteServices(coordinator);
    expect(await workerA.reserve('a', 6)).toEqual({ ok: true });
    const refused = await workerB.reserve('b', 7);
    expect(refused).toEqual({ ok: false, reason: 'request budget: needs about 7 requests, 6 left of CATALOGUE_MAX_REQUESTS=12' });
    await workerA.settle('a');
    expect(local.budget.snapshot().reserved).toBe(0);
  });

  test('the cap holds across workers: the request past it throws BudgetExhaustedError in the worker', async () => {
    const workers = [remoteServices(coordinator), remoteServices(coordinator)];
    const clients = workers.map((services, i) => new ApiClient({ baseUrl: ref.baseUrl, apiVersion: '3.2', timeoutMs: 5_000, services, holder: `w${i}` }));
    const outcomes = await Promise.allSettled(Array.from({ length: 16 }, (_, i) => clients[i % 2]!.get('/categories/root')));
    const refused = outcomes.filter((o) => o.status === 'rejected').map((o) => (o as PromiseRejectedResult).reason as Error);
    expect(local.budget.spent).toBe(12);
    expect(refused.length).toBeGreaterThan(0);
    for (const error of refused) expect(error).toBeInstanceOf(BudgetExhaustedError);
  });

  test('workers get the one cached application token', async () => {
    const [a, b] = await Promise.all([remoteServices(coordinator).token('app'), remoteServices(coordinator).token('app')]);
    expect(a).toEqual(b);
    expect(a).toEqual(await local.services.token('app'));
  });

  test('answers nothing to a caller without the run key', async () => {
    const response = await request(coordinator.url, { method: 'POST', body: JSON.stringify({ method: 'token', args: ['app'] }) });
    expect(response.statusCode).toBe(404);
    expect(await response.body.text()).not.toMatch(/token"\s*:/);
  });
});

describe('the lent user token: one test at a time, for tests counting on a token no other uses', () => {
  test('the second borrower waits until the first settles and gets the same token; after one that ends it, a new one', async () => {
    // A run of its own: the tests above spend their run's budget.
    const lending = await startCoordinator(servicesFor(ref, { maxRequests: 20 }).services);
    const [a, b, c] = [remoteServices(lending), remoteServices(lending), remoteServices(lending)];
    const first = await a.lentUserToken('holder-a');
    expect('token' in first).toBe(true);
    let secondGot = false;
    const second = b.lentUserToken('holder-b', true).then((result) => ((secondGot = true), result));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(secondGot).toBe(false);
    await a.settle('holder-a');
    expect(await second).toEqual(first);
    await b.settle('holder-b');
    const third = await c.lentUserToken('holder-c');
    expect('token' in third && 'token' in first && third.token !== first.token).toBe(true);
    await c.settle('holder-c');
    await lending.close();
  });
});
