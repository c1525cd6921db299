// Probes of the faults in src/reference/faults/caching.ts: each resolves true when the server shows the bug (test-only code).
//
// The enforcement probes cannot exhaust the probed server's window (the fault tests run it with
// a limit of a million a minute): they start a second server with the same fault and a limit of
// two a minute, and look at its third request.

import { startReference, type RunningReference } from '../../../reference/server.ts';
import { appToken, call, get } from '../testkit.ts';
import type { ProbeTable } from './probe.ts';

const ROOT = '/categories/root';

/** Status of the third GET within a minute on one token, on a copy of `ref`'s fault with a limit of 2. */
async function overTheLimit(ref: RunningReference): Promise<number> {
  const low = await startReference({ fault: ref.fault ?? null, limits: { perMinute: 2, perDay: 1_000_000 } });
  try {
    const token = await appToken(low);
    await get(low, ROOT, { token });
    // The token request counted against the OAuth window only; two GETs spend the token's window.
    await get(low, ROOT, { token });
    return (await get(low, ROOT, { token })).status;
  } finally {
    await low.close();
  }
}

export const CACHING_PROBES: ProbeTable = {
  'category-etag-ignores-query': async (ref, { app: token }) => {
    const full = await get(ref, ROOT, { token });
    const etag = full.headers.get('etag');
    if (etag === null) return false;
    return (await get(ref, `${ROOT}?fields[root]=id,name`, { token, headers: { 'If-None-Match': etag } })).status === 304;
  },
  'etag-from-request-target': async (ref, { user: token }) => {
    const before = await get(ref, '/favorite_lists', { token });
    const etag = before.headers.get('etag');
    if (before.status !== 200 || etag === null) return false;
    const created = await call(ref, 'POST', '/favorite_lists', { token, body: { favorite_list: { name: `probe-etag-${Date.now()}` } } });
    const id = created.body?.favorite_list?.id;
    if (created.status !== 201 || typeof id !== 'number') return false;
    try {
      const after = await get(ref, '/favorite_lists', { token, headers: { 'If-None-Match': etag } });
      return after.status === 304;
    } finally {
      await call(ref, 'DELETE', `/favorite_lists/${id}`, { token });
    }
  },

  'ratelimit-status-429': async (ref) => (await overTheLimit(ref)) === 429,

  'ratelimit-not-enforced': async (ref) => (await overTheLimit(ref)) === 200,

  'daily-limit-not-enforced': async (ref) => {
    const low = await startReference({ fault: ref.fault ?? null, limits: { perMinute: 1_000_000, perDay: 3 } });
    try {
      const token = await appToken(low);
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await get(low, ROOT, { token })).status);
      return statuses.at(-1) === 200;
    } finally {
      await low.close();
    }
  },

  'ratelimit-403-without-message': async (ref) => {
    const low = await startReference({ fault: ref.fault ?? null, limits: { perMinute: 2, perDay: 1_000_000 } });
    try {
      const token = await appToken(low);
      await get(low, ROOT, { token });
      await get(low, ROOT, { token });
      const over = await get(low, ROOT, { token });
      return over.status === 403 && typeof over.body?.message !== 'string';
    } finally {
      await low.close();
    }
  },
};
