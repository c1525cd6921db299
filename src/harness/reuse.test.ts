// Answers kept for reuse: given back only while no write that could change them has come between.
import { describe, expect, test } from 'vitest';
import type { PlainResponse } from '../http/client.ts';
import { mayShowUserWrites, readsFrom, ReusedAnswers, WriteCounts, writeReach } from './reuse.ts';

const answer = (status: number, text = '{}'): PlainResponse => ({ status, headers: {}, text, url: 'http://x/a', exchanges: [] });
const ACCEPT = 'application/vnd.service+json; version=3.2';

describe('ReusedAnswers', () => {
  test('a kept 2xx answer comes back while its stamp holds, for the same token kind and Accept only', () => {
    const reuse = new ReusedAnswers();
    const key = ReusedAnswers.key('app', ACCEPT, 'http://x/a');
    const kept = answer(200);
    reuse.keep(key, 3, kept);
    expect(reuse.get(key, 3)).toBe(kept);
    expect(reuse.get(ReusedAnswers.key('user', ACCEPT, 'http://x/a'), 3)).toBeNull();
    expect(reuse.get(ReusedAnswers.key('app', 'application/vnd.service+json; version=3.0', 'http://x/a'), 3)).toBeNull();
    expect(reuse.hits).toBe(1);
    // A write since: asked again, and the stale answer is gone.
    expect(reuse.get(key, 4)).toBeNull();
    expect(reuse.get(key, 3)).toBeNull();
  });

  test('other statuses are never kept', () => {
    const reuse = new ReusedAnswers();
    for (const status of [304, 401, 404, 500]) reuse.keep(`k${status}`, 0, answer(status));
    for (const status of [304, 401, 404, 500]) expect(reuse.get(`k${status}`, 0)).toBeNull();
  });

  test('the oldest answers go first past the bound', () => {
    const reuse = new ReusedAnswers();
    for (let i = 0; i < 1050; i++) reuse.keep(`k${i}`, 0, answer(200));
    expect(reuse.get('k0', 0)).toBeNull();
    expect(reuse.get('k1049', 0)).not.toBeNull();
  });
});

describe('writeReach: which kept answers a write may change', () => {
  const base = 'https://api.example/api';

  test('GET and HEAD change nothing', () => {
    expect(writeReach('GET', `${base}/favorites`, base)).toBeNull();
    expect(writeReach('HEAD', `${base}/favorites`, base)).toBeNull();
  });

  test("the user's favorites, lists, addresses, personalization and notifications: an area of the user's own", () => {
    const areas = ['/favorites', '/favorites/7', '/favorite_lists/3', '/user/addresses/2', '/personalization', '/notifications/view'].map((path) =>
      writeReach('POST', `${base}${path}`, base),
    );
    expect(areas).toEqual(['favorites', 'favorites', 'favorites', 'addresses', 'addresses', 'notifications']);
  });

  test('the profile (PATCH /user): the profile area', () => {
    expect(writeReach('PATCH', `${base}/user`, base)).toBe('profile');
  });

  test("a SKU's reviews, votes and flags: the reviews area", () => {
    for (const path of ['/skus/1/reviews', '/skus/1/reviews/2', '/skus/1/reviews/2/votes', '/skus/1/reviews/2/flags'])
      expect(writeReach('POST', `${base}${path}`, base)).toBe('reviews');
  });

  test('logout and any other path: everything', () => {
    for (const path of ['/user/logout', '/user/avatars', '/favoritesx', '/skus/1', '/unknown']) {
      expect(writeReach('PUT', `${base}${path}`, base)).toBe('public');
    }
  });

  test('outside the base path or on another origin: everything', () => {
    expect(writeReach('DELETE', 'https://api.example/favorites/1', base)).toBe('public');
    expect(writeReach('DELETE', 'https://other.example/api/favorites/1', base)).toBe('public');
  });
});

describe('readsFrom: the areas whose writes may change a user token answer', () => {
  const base = 'https://api.example/api';
  const reads = (path: string) => readsFrom(`${base}${path}`, base);

  test('favorites and lists, notifications: their own area and those shown to everyone; the profile: those shown to everyone', () => {
    for (const path of ['/favorites', '/favorites/7', '/favorite_lists', '/favorite_lists/3/favorites', '/categories/4/favorites'])
      expect(reads(path)).toEqual(['favorites', 'reviews', 'profile', 'public']);
    for (const path of ['/notifications', '/notifications/9']) expect(reads(path)).toEqual(['notifications', 'reviews', 'profile', 'public']);
    expect(reads('/user')).toEqual(['reviews', 'profile', 'public']);
  });

  test('addresses and personalization: their area and the public writes; saved orders and avatars: the public writes alone', () => {
    for (const path of ['/user/addresses', '/user/addresses/new', '/personalization']) expect(reads(path)).toEqual(['addresses', 'public']);
    for (const path of ['/user/saved_orders', '/user/avatars']) expect(reads(path)).toEqual(['public']);
  });

  test('anything else (a SKU listing says favorited; a product the costs of the personalization), or outside the base path: every area', () => {
    for (const path of ['/categories/4/skus', '/products/1', '/skus/1/products', '/search', '/user/x', '/favoritesx']) expect(reads(path)).toBeNull();
    expect(readsFrom('https://api.example/favorites', base)).toBeNull();
  });
});

describe('mayShowUserWrites: answers another run of the same client may change', () => {
  const base = 'https://api.example/api';
  test('every answer of the user token; of the application token, a SKU, its reviews and SKU listings', () => {
    expect(mayShowUserWrites(`${base}/categories/root`, base, true)).toBe(true);
    for (const path of ['/skus/7', '/skus/7/reviews', '/skus/7/reviews/9', '/categories/4/skus', '/manufacturers/3/skus'])
      expect(mayShowUserWrites(`${base}${path}?per=5`, base, false), path).toBe(true);
    for (const path of ['/categories/root', '/categories/4/children', '/skus/7/products', '/skus/7/specifications', '/shops/2/reviews', '/search', '/manufacturers'])
      expect(mayShowUserWrites(`${base}${path}`, base, false), path).toBe(false);
    // Off the base path: nothing known of it, so it may.
    expect(mayShowUserWrites('https://api.example/categories/root', base, false)).toBe(true);
  });
});

describe('WriteCounts', () => {
  test("a write to an area changes the stamp of the user token's answers that read it, a public one every stamp", () => {
    const counts = new WriteCounts();
    counts.count('favorites');
    expect([counts.stampFor('user'), counts.stampFor('user', ['favorites', 'public']), counts.stampFor('user', ['notifications', 'public']), counts.stampFor('app')]).toEqual([
      1, 1, 0, 0,
    ]);
    counts.count('reviews');
    expect([
      counts.stampFor('user'),
      counts.stampFor('user', ['addresses', 'public']),
      counts.stampFor('user', ['notifications', 'reviews', 'profile', 'public']),
      counts.stampFor('app'),
    ]).toEqual([2, 0, 1, 1]);
    counts.count('profile');
    expect([
      counts.stampFor('user'),
      counts.stampFor('user', ['addresses', 'public']),
      counts.stampFor('user', ['notifications', 'reviews', 'profile', 'public']),
      counts.stampFor('app'),
    ]).toEqual([3, 0, 2, 2]);
    counts.count('public');
    expect([
      counts.stampFor('user'),
      counts.stampFor('user', ['addresses', 'public']),
      counts.stampFor('user', ['notifications', 'reviews', 'profile', 'public']),
      counts.stampFor('app'),
    ]).toEqual([4, 1, 3, 3]);
  });
});

describe('writeReach: the token endpoint', () => {
  test('a request for a token changes no answer; other paths of the auth server do', () => {
    const base = 'https://api.example';
    expect(writeReach('POST', 'https://auth.example/oauth2/token', base, 'https://auth.example')).toBeNull();
    expect(writeReach('POST', 'https://api.example/oauth2/token', base, 'https://api.example/')).toBeNull();
    expect(writeReach('POST', 'https://api.example/oauth2/token', base)).toBe('public');
    expect(writeReach('POST', 'https://auth.example/oauth2/revoke', base, 'https://auth.example')).toBe('public');
  });
});

describe('ReusedAnswers.lookup: the same GET out twice at once is asked once', () => {
  const key = ReusedAnswers.key('app', ACCEPT, 'http://x/a');

  test('the first asks; the second waits for its answer and gets it kept', async () => {
    const reuse = new ReusedAnswers();
    expect(await reuse.lookup(key, () => 0, 1_000)).toEqual({ ask: true });
    const second = reuse.lookup(key, () => 0, 1_000);
    const kept = answer(200);
    reuse.answered(key, 0, kept);
    expect(await second).toEqual({ kept });
  });

  test('an answer not kept (none came, or not 2xx) makes the next waiter the asker', async () => {
    const reuse = new ReusedAnswers();
    expect(await reuse.lookup(key, () => 0, 1_000)).toEqual({ ask: true });
    const second = reuse.lookup(key, () => 0, 1_000);
    reuse.answered(key, 0, null);
    expect(await second).toEqual({ ask: true });
  });

  test('a write while the answer was out: the waiter asks again', async () => {
    const reuse = new ReusedAnswers();
    let stamp = 0;
    expect(await reuse.lookup(key, () => stamp, 1_000)).toEqual({ ask: true });
    const second = reuse.lookup(key, () => stamp, 1_000);
    stamp = 2;
    reuse.answered(key, 0, answer(200));
    expect(await second).toEqual({ ask: true });
  });

  test('past its wait, a waiter asks alone and keeps nothing', async () => {
    const reuse = new ReusedAnswers();
    expect(await reuse.lookup(key, () => 0, 1_000)).toEqual({ ask: true });
    expect(await reuse.lookup(key, () => 0, 20)).toEqual({ ask: false });
  });
});
