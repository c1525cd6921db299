// Every fault changes exactly the behaviour it names (the correct behaviour is asserted in
// the other test files; here each check is run with the fault off and on).

import { describe, expect, it } from 'vitest';
import { FAULT_NAMES, FAULTS, resolveFault, type FaultName } from './faults.ts';
import type { RunningReference } from './server.ts';
import { get, parseLink, startWithToken } from './testkit.ts';

type Cat = { id: number; parent_id: number | null; children_count: number; path: string; image_url?: string | null };

/** Resolves true when the server shows the bug. */
type Probe = (ref: RunningReference, token: string) => Promise<boolean>;

async function allCategories(ref: RunningReference, token: string): Promise<Cat[]> {
  return (await get(ref, '/categories?per=100', { token })).body.categories as Cat[];
}

const PROBES: Record<FaultName, Probe> = {
  'leaf-children-count-nonzero': async (ref, token) => {
    const cats = await allCategories(ref, token);
    const leaf = cats.find((c) => !cats.some((k) => k.parent_id === c.id))!;
    return leaf.children_count !== 0;
  },
  'root-parent-id-null': async (ref, token) => (await get(ref, '/categories/root', { token })).body.category.parent_id === null,
  'path-reversed': async (ref, token) => {
    const cats = await allCategories(ref, token);
    const deep = cats.find((c) => c.path.split(',').length >= 3)!;
    return !deep.path.endsWith(`,${deep.id}`);
  },
  'null-field-omitted': async (ref, token) => {
    const cats = await allCategories(ref, token);
    return cats.some((c) => !('image_url' in c));
  },
  'pagination-total-pages-off-by-one': async (ref, token) => {
    const p = (await get(ref, '/categories', { token })).body.meta.pagination;
    return p.total_pages !== Math.ceil(p.total_results / p.per);
  },
  'link-header-missing': async (ref, token) => (await get(ref, '/categories', { token })).headers.get('link') === null,
  'children-includes-grandchildren': async (ref, token) => {
    const root = (await get(ref, '/categories/root', { token })).body.category as Cat;
    const kids = (await get(ref, `/categories/${root.id}/children?per=100`, { token })).body.categories as Cat[];
    return kids.some((k) => k.parent_id !== root.id);
  },
  'not-found-wrong-body': async (ref, token) => {
    const r = await get(ref, '/categories/999999', { token });
    expect(r.status).toBe(404);
    return !Array.isArray(r.body?.errors);
  },
  'match-count-outside-search': async (ref, token) => (await allCategories(ref, token)).some((c) => 'match_count' in c),
  'default-per-not-25': async (ref, token) => (await get(ref, '/categories', { token })).body.meta.pagination.per !== 25,
  'page-param-ignored': async (ref, token) => (await get(ref, '/categories?page=2', { token })).body.meta.pagination.page !== 2,
  'link-next-drops-query': async (ref, token) => {
    const r = await get(ref, '/categories?per=2', { token });
    const next = parseLink(r.headers.get('link')).next;
    return next !== undefined && !next.includes('per=2');
  },
  'parent-returns-self': async (ref, token) => {
    const cats = await allCategories(ref, token);
    const child = cats.find((c) => typeof c.parent_id === 'number' && c.parent_id !== 0)!;
    return (await get(ref, `/categories/${child.id}/parent`, { token })).body.category.id === child.id;
  },
  'ratelimit-headers-missing-on-errors': async (ref, token) => {
    const ok = await get(ref, '/categories/root', { token });
    expect(ok.headers.get('x-ratelimit-limit')).not.toBeNull();
    const r = await get(ref, '/categories/999999', { token });
    return r.headers.get('x-ratelimit-limit') === null;
  },
  'token-in-query-ignored': async (ref, token) => (await get(ref, '/categories/root', { token, inQuery: true })).status === 401,
};

describe('faults registry', () => {
  it('lists every fault with a description and a requirement slot', () => {
    expect(Object.keys(FAULTS).sort()).toEqual(Object.keys(PROBES).sort());
    expect([...FAULT_NAMES].sort()).toEqual(Object.keys(PROBES).sort());
    for (const [name, info] of Object.entries(FAULTS)) {
      expect(info.description, name).toMatch(/\S.*\.$/);
      expect(typeof info.requirement).toBe('string');
    }
    expect(resolveFault(null)).toBeNull();
    expect(() => resolveFault('nope')).toThrow(/Known faults: .*token-in-query-ignored/);
  });
});

describe('without a fault', () => {
  it('shows none of the bugs', async () => {
    const { ref, token } = await startWithToken();
    try {
      for (const [name, probe] of Object.entries(PROBES)) expect(await probe(ref, token), name).toBe(false);
    } finally {
      await ref.close();
    }
  });
});

describe.each(FAULT_NAMES.map((n) => [n]))('fault %s', (name) => {
  it('shows its bug and not the others', async () => {
    const { ref, token } = await startWithToken({ fault: name });
    try {
      for (const [other, probe] of Object.entries(PROBES)) {
        expect(await probe(ref, token), `probe ${other}`).toBe(other === name);
      }
    } finally {
      await ref.close();
    }
  });
});

describe('fault details', () => {
  it('not-found-wrong-body gives exactly {"error":"not found"}', async () => {
    const { ref, token } = await startWithToken({ fault: 'not-found-wrong-body' });
    try {
      expect((await get(ref, '/categories/999999', { token })).body).toEqual({ error: 'not found' });
    } finally {
      await ref.close();
    }
  });

  it('link-header-missing keeps meta intact; total-pages fault leaves Link alone', async () => {
    const a = await startWithToken({ fault: 'link-header-missing' });
    const b = await startWithToken({ fault: 'pagination-total-pages-off-by-one' });
    try {
      const ra = await get(a.ref, '/categories', { token: a.token });
      expect(ra.body.meta.pagination.total_pages).toBe(Math.ceil(ra.body.meta.pagination.total_results / 25));
      const rb = await get(b.ref, '/categories', { token: b.token });
      const real = Math.ceil(rb.body.meta.pagination.total_results / 25);
      expect(rb.body.meta.pagination.total_pages).toBe(real + 1);
      expect(parseLink(rb.headers.get('link')).last).toMatch(new RegExp(`page=${real}$`));
    } finally {
      await Promise.all([a.ref.close(), b.ref.close()]);
    }
  });

  it('leaf-children-count-nonzero reports 1; root-parent-id-null touches only the root', async () => {
    const a = await startWithToken({ fault: 'leaf-children-count-nonzero' });
    const b = await startWithToken({ fault: 'root-parent-id-null' });
    try {
      const cats = await allCategories(a.ref, a.token);
      const leaves = cats.filter((c) => !cats.some((k) => k.parent_id === c.id));
      expect(new Set(leaves.map((c) => c.children_count))).toEqual(new Set([1]));
      const others = (await allCategories(b.ref, b.token)).filter((c) => c.parent_id === null);
      expect(others).toHaveLength(1);
    } finally {
      await Promise.all([a.ref.close(), b.ref.close()]);
    }
  });
});
