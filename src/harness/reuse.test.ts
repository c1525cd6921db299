// Answers kept for reuse: given back only while the run's write count is what it was.
import { describe, expect, test } from 'vitest';
import type { HttpResponse } from '../http/client.ts';
import { ReusedAnswers } from './reuse.ts';

const answer = (status: number, text = '{}'): HttpResponse => ({ status, headers: {}, text, url: 'http://x/a', exchanges: [], json: () => JSON.parse(text) as never });

describe('ReusedAnswers', () => {
  test('a kept 2xx answer comes back while no write has begun or ended since', () => {
    const reuse = new ReusedAnswers();
    const key = ReusedAnswers.key('app', 'http://x/a');
    const kept = answer(200);
    reuse.keep(key, 3, kept);
    expect(reuse.get(key, 3)).toBe(kept);
    expect(reuse.get(ReusedAnswers.key('user', 'http://x/a'), 3)).toBeNull();
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
    for (let i = 0; i < 450; i++) reuse.keep(`k${i}`, 0, answer(200));
    expect(reuse.get('k0', 0)).toBeNull();
    expect(reuse.get('k449', 0)).not.toBeNull();
  });
});
