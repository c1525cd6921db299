import { describe, expect, test } from 'vitest';
import { HttpError, type HttpResponse } from '../http/client.ts';
import type { ApiClient } from './api.ts';
import { describeSweep, nothingWasLeft, sweep } from './sweep.ts';

/** An API that answers each `METHOD path` from a table (a thrown HttpError for 'error'), and records what it was asked. */
function api(answers: Record<string, number | 'error'>) {
  const asked: string[] = [];
  const client = {
    async request(method: string, path: string, options: { json?: unknown; auth?: string }) {
      asked.push(`${method} ${path}${options.json !== undefined ? ` ${JSON.stringify(options.json)}` : ''} (${options.auth})`);
      const status = answers[`${method} ${path}`] ?? 500;
      if (status === 'error') throw new HttpError('timeout', `${method} ${path}: no complete response within 15000 ms`);
      return { status } as HttpResponse;
    },
  };
  return { asked, client: client as unknown as ApiClient };
}

describe('sweep', () => {
  test('each entry with the user token, newest first as given; a record already gone counts as taken back', async () => {
    const { asked, client } = api({ 'DELETE /favorites/2': 404, 'DELETE /favorite_lists/1': 204, 'PATCH /user': 200 });
    const entries = [
      { key: 'DELETE /favorites/2', action: { method: 'DELETE' as const, path: '/favorites/2' }, what: 'favorite 2' },
      { key: 'DELETE /favorite_lists/1', action: { method: 'DELETE' as const, path: '/favorite_lists/1' }, what: 'list 1' },
      { key: 'PATCH /user sex', action: { method: 'PATCH' as const, path: '/user', json: { sex: 'male' } }, what: "the user's sex" },
    ];
    const outcome = await sweep(client, entries);
    expect(asked).toEqual(['DELETE /favorites/2 (user)', 'DELETE /favorite_lists/1 (user)', 'PATCH /user {"sex":"male"} (user)']);
    expect(outcome).toEqual({ done: ['DELETE /favorites/2', 'DELETE /favorite_lists/1', 'PATCH /user sex'], gone: ['DELETE /favorites/2'], failed: [], unknown: [], found: {} });
    expect(describeSweep(entries, outcome, 'j.jsonl')).toBe("took back 2: list 1; the user's sex; already gone 1: favorite 2");
    expect(nothingWasLeft(outcome)).toBe(false);
    expect(nothingWasLeft({ done: ['DELETE /favorites/2'], gone: ['DELETE /favorites/2'], failed: [], unknown: [], found: {} })).toBe(true);
  });

  test('what fails stays, with the answer; an intent without a request to look its record up by is said once as unknown and dropped; a failure does not stop the rest', async () => {
    const { client } = api({ 'DELETE /favorites/3': 500, 'PATCH /user': 'error', 'DELETE /favorites/4': 204 });
    const entries = [
      { key: 'DELETE /favorites/3', action: { method: 'DELETE' as const, path: '/favorites/3' }, what: 'favorite 3' },
      { key: 'PATCH /user sex', action: { method: 'PATCH' as const, path: '/user', json: { sex: 'male' } }, what: "the user's sex" },
      { key: 'intent 1', what: 'POST /favorites {"favorite":{"sku_id":7}}' },
      { key: 'DELETE /favorites/4', action: { method: 'DELETE' as const, path: '/favorites/4' }, what: 'favorite 4' },
    ];
    const outcome = await sweep(client, entries);
    expect(outcome.done).toEqual(['intent 1', 'DELETE /favorites/4']);
    expect(outcome.failed).toEqual(['favorite 3 (DELETE /favorites/3 answered 500)', "the user's sex (PATCH /user: PATCH /user: no complete response within 15000 ms)"]);
    expect(outcome.unknown).toEqual([
      'POST /favorites {"favorite":{"sku_id":7}} (its answer was never recorded, and no record it made could be looked up: a record may be left; look for it by hand)',
    ]);
    expect(describeSweep(entries, outcome, 'j.jsonl')).toBe(
      'took back 1: favorite 4; could not take back 2: favorite 3 (DELETE /favorites/3 answered 500); the user\'s sex (PATCH /user: PATCH /user: no complete response within 15000 ms) (kept in j.jsonl for the next run); unknown: POST /favorites {"favorite":{"sku_id":7}} (its answer was never recorded, and no record it made could be looked up: a record may be left; look for it by hand)',
    );
  });
});
