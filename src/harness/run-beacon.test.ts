// A run's beacon (src/harness/run-beacon.ts) against the in-process reference: another run's live
// beacon is seen, one long over is swept, the run's own is made and deleted, and a listing that
// does not show the run's own beacon gives "cannot tell" rather than a guess.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startReference, type RunningReference } from '../reference/server.ts';
import { servicesFor } from '../testing/services.ts';
import { kitName, SPARE_MS } from '../util/kit-names.ts';
import type { ApiClient } from './api.ts';
import { announceRun, BEACON_WHAT, otherBeacons, withdrawRun, type ListsPage } from './run-beacon.ts';

describe('otherBeacons', () => {
  const now = Date.UTC(2026, 10, 27, 12);
  const list = (id: number, name: string) => ({ id, name });
  test("live: another run's beacon whose time has not passed; over: an hour past it; the run's own, other kit lists and the user's lists: neither", () => {
    const own = kitName(BEACON_WHAT, now + 1800_000);
    const live = kitName(BEACON_WHAT, now + 60_000);
    const justOver = kitName(BEACON_WHAT, now - 60_000);
    const longOver = kitName(BEACON_WHAT, now - SPARE_MS - 60_000);
    const lists = [
      list(1, own),
      list(2, live),
      list(3, justOver),
      list(4, longOver),
      list(5, kitName('model', now + 60_000)),
      list(6, 'cc-run-holiday'),
      list(7, 'Wishlist'),
      { id: 'x', name: live },
    ];
    const found = otherBeacons(lists, own, now);
    expect(found.live.map((b) => b.id)).toEqual([2]);
    expect(found.over.map((b) => b.id)).toEqual([4]);
  });
});

describe('announceRun and withdrawRun', () => {
  let ref: RunningReference;
  let api: ApiClient;
  beforeAll(async () => {
    ref = await startReference({});
    api = servicesFor(ref).api('beacon');
  });
  afterAll(async () => {
    await ref.close();
  });

  /** The user's lists as the reference shows them, first page. */
  const firstPage = async (): Promise<ListsPage> => {
    const response = await api.get('/favorite_lists', { auth: 'user' });
    return { items: (JSON.parse(response.text) as { favorite_lists: Record<string, unknown>[] }).favorite_lists, next: null };
  };
  const names = async () => (await firstPage()).items.map((l) => l['name']);
  const makeList = async (name: string): Promise<number> => {
    const response = await api.request('POST', '/favorite_lists', { auth: 'user', json: { favorite_list: { name } } });
    return (JSON.parse(response.text) as { favorite_list: { id: number } }).favorite_list.id;
  };

  test('alone: the beacon is made, no other run is seen, and withdrawing deletes it', async () => {
    const name = kitName(BEACON_WHAT, Date.now() + 1800_000);
    const announced = await announceRun(api, firstPage, name);
    expect(announced.others).toEqual([]);
    expect(announced.notes).toEqual([]);
    expect(await names()).toContain(name);
    expect(await withdrawRun(api, announced.beacon!)).toBeNull();
    expect(await names()).not.toContain(name);
  });

  test("another run's live beacon is named and left; one of a run long over is deleted, and said so", async () => {
    const live = kitName(BEACON_WHAT, Date.now() + 600_000);
    const old = kitName(BEACON_WHAT, Date.now() - SPARE_MS - 600_000);
    const liveId = await makeList(live);
    await makeList(old);
    const announced = await announceRun(api, firstPage, kitName(BEACON_WHAT, Date.now() + 1800_000));
    expect(announced.others.map((b) => b.name)).toEqual([live]);
    expect(announced.notes.join('\n')).toMatch(new RegExp(`the beacon list ${old} of a run over since .*; deleted`));
    expect(announced.notes.join('\n')).toMatch(new RegExp(`another run of this client .*${live}.*the tests that change the user's data were skipped`));
    expect(await names()).not.toContain(old);
    expect(await names()).toContain(live);
    await withdrawRun(api, announced.beacon!);
    await api.request('DELETE', `/favorite_lists/${liveId}`, { auth: 'user' });
  });

  test("a listing without the run's own beacon: cannot tell, said so, and no other run assumed", async () => {
    const announced = await announceRun(
      api,
      async () => ({ items: [{ id: 1, name: kitName(BEACON_WHAT, Date.now() + 600_000) }], next: null }),
      kitName(BEACON_WHAT, Date.now() + 1800_000),
    );
    expect(announced.others).toEqual([]);
    expect(announced.notes.join('\n')).toMatch(/could not be told: its beacon list cc-run-\S+ is not among the first 1 lists/);
    expect(await withdrawRun(api, announced.beacon!)).toBeNull();
  });

  test('a POST that is refused: no beacon, and said so', async () => {
    const refusing = { request: async () => ({ status: 500, json: () => ({}) }) } as unknown as ApiClient;
    const announced = await announceRun(refusing, firstPage, kitName(BEACON_WHAT, Date.now() + 1800_000));
    expect(announced.beacon).toBeNull();
    expect(announced.notes.join('\n')).toMatch(/could not be told: POST \/favorite_lists \(the run's beacon list cc-run-\S+\) answered 500/);
  });
});
