// Pacing against a real server: the reference with a low per-minute limit, and one simulated clock
// shared by the server and the pacer, so that windows pass without real waiting.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startReference, type RunningReference } from '../reference/server.ts';
import { servicesFor } from '../testing/services.ts';

let now = Date.UTC(2026, 0, 5, 10, 0, 0);
let ref: RunningReference;

beforeAll(async () => {
  ref = await startReference({ limits: { perMinute: 5 }, now: () => now });
});
afterAll(() => ref.close());

test('thirty requests at a limit of 5 a minute: waits for each window, never provokes the 403', async () => {
  const { api, pacer } = servicesFor(ref, {
    pacer: {
      now: () => now,
      sleep: async (ms) => {
        now += ms;
      },
    },
  });
  const client = api();
  const statuses: number[] = [];
  const start = now;
  for (let i = 0; i < 30; i++) statuses.push((await client.get('/categories/root')).status);
  expect(statuses.filter((s) => s !== 200)).toEqual([]);
  // At most 4 requests a window (one kept in hand): 30 requests span at least 7 windows.
  expect(now - start).toBeGreaterThanOrEqual(7 * 60_000);
  expect(pacer.waitedMs).toBeGreaterThan(0);
});

test('without pacing the same server does answer 403 (the test above could fail)', async () => {
  const { api } = servicesFor(ref, { pacer: { now: () => now, sleep: async () => undefined, defaultLimit: 10_000, margin: -10_000 } });
  const client = api();
  const statuses: number[] = [];
  for (let i = 0; i < 8; i++) statuses.push((await client.get('/categories/root')).status);
  expect(statuses).toContain(403);
});
