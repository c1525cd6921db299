// Probes of the faults in src/reference/faults/versioning.ts: each resolves true when the server shows the bug (test-only code).
//
// Like the version probes of ./protocol.probes.ts, versions are compared by whole response bodies or
// by one field that only a version mix-up shows, so that no other fault looks like these.

import type { RunningReference } from '../../../reference/server.ts';
import { get, VND } from '../testkit.ts';
import type { ProbeTable } from './probe.ts';

const ROOT = '/categories/root';

async function rootBody(ref: RunningReference, token: string, headers: Record<string, string>): Promise<string> {
  const r = await get(ref, ROOT, { token, headers });
  return r.status === 200 ? r.text : `status ${r.status}`;
}

export const VERSIONING_PROBES: ProbeTable = {
  'version-unspecified-gives-oldest': async (ref, { app: token }) => {
    const bare = await rootBody(ref, token, { Accept: VND });
    const [v30, v32] = [await rootBody(ref, token, { Accept: `${VND}; version=3.0` }), await rootBody(ref, token, { Accept: `${VND}; version=3.2` })];
    return bare === v30 && bare !== v32;
  },

  'family-id-missing-in-3-1': async (ref, { app: token }) => {
    const r = await get(ref, ROOT, { token, version: '3.1' });
    const category = r.status === 200 ? (r.body?.category as Record<string, unknown> | undefined) : undefined;
    // Missing in 3.1 only: 3.2 still has it (another fault leaves it out of every version).
    const latest = (await get(ref, ROOT, { token })).body?.category as Record<string, unknown> | undefined;
    return category !== undefined && !('family_id' in category) && latest !== undefined && 'family_id' in latest;
  },
};
