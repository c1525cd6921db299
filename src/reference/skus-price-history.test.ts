// SKU price history: daily points up to today within 6 months, stable across calls, too-new SKUs
// by version, and the history following the clock.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningReference } from './server.ts';
import { allSkus, get, makeClock, startWithToken } from '../testing/reference/testkit.ts';

type Json = Record<string, any>;

describe('price history', () => {
  const clock = makeClock();
  let ref: RunningReference;
  let token: string;
  let skus: Json[];
  const DAY = 86_400_000;
  const day = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
  const sixMonthsBefore = (ms: number): string => {
    const d = new Date(ms);
    return day(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 6, d.getUTCDate()));
  };
  const history = async (id: number, version?: string): Promise<Json[]> =>
    (await get(ref, `/skus/${id}/price_history`, { token, ...(version ? { version } : {}) })).body.history.average;

  const histories = new Map<number, Json[]>();

  beforeAll(async () => {
    ({ ref, token } = await startWithToken({ now: clock.now }));
    skus = await allSkus(ref, token);
    await Promise.all(
      skus.map(async (s) => {
        const r = await get(ref, `/skus/${s.id}/price_history`, { token });
        expect(Object.keys(r.body)).toEqual(['history']);
        expect(Object.keys(r.body.history)).toEqual(['average']);
        histories.set(s.id, r.body.history.average);
      }),
    );
  });
  afterAll(async () => {
    await ref.close();
  });

  it('has daily {date, price} points up to today, never older than 6 months, the same on every call', async () => {
    const today = day(clock.now());
    let full = 0;
    for (const s of skus.filter((x) => !x.future)) {
      const avg = histories.get(s.id)!;
      if (avg.length === 0) continue;
      const bad = avg.filter((p) => Object.keys(p).sort().join() !== 'date,price' || !/^\d{4}-\d{2}-\d{2}$/.test(p.date) || !(p.price > 0));
      expect(bad, `SKU ${s.id}`).toEqual([]);
      const dates = avg.map((p) => p.date as string);
      expect(dates[dates.length - 1]).toBe(today);
      expect(dates[0]! >= sixMonthsBefore(clock.now())).toBe(true);
      expect([...dates].sort()).toEqual(dates);
      expect(new Set(dates).size).toBe(dates.length);
      if (dates.length > 150) full += 1;
      if (full === 1) expect(await history(s.id)).toEqual(avg);
    }
    expect(full).toBeGreaterThan(0);
    for (const s of skus.filter((x) => x.future)) expect(histories.get(s.id)).toEqual([]);
  });

  it('gives too-new SKUs no data from 3.2 (3.0 and 3.1 return the days they have), and follows the clock', async () => {
    const tooNew: number[] = [];
    for (const s of skus.filter((x) => !x.future && x.shop_count > 0)) if (histories.get(s.id)!.length === 0) tooNew.push(s.id);
    expect(tooNew.length).toBeGreaterThan(0);
    for (const id of tooNew) {
      const old = await history(id, '3.1');
      expect(old.length).toBeGreaterThan(0);
      expect(old.length).toBeLessThanOrEqual(8);
      expect(old[old.length - 1]!.date).toBe(day(clock.now()));
    }
    const normal = skus.find((x) => !x.future && !tooNew.includes(x.id))!;
    const before = await history(normal.id);
    clock.advance(10 * DAY);
    try {
      for (const id of tooNew) expect((await history(id)).length).toBeGreaterThan(0);
      const after = await history(normal.id);
      expect(after[after.length - 1]!.date).toBe(day(clock.now()));
      expect(after[0]!.date >= sixMonthsBefore(clock.now())).toBe(true);
      // A day's price does not change when the clock moves.
      const overlap = after.filter((p) => before.some((q) => q.date === p.date));
      expect(overlap.length).toBeGreaterThan(0);
      for (const p of overlap) expect(before.find((q) => q.date === p.date)).toEqual(p);
    } finally {
      clock.advance(-10 * DAY);
    }
  });
});
