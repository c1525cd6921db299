// Every fault changes exactly the behaviour it names (the correct behaviour is asserted in
// the other test files; here each probe is run with the fault off and on). Probes are test code:
// they live in src/testing/reference/probes/<area>.probes.ts, one file per faults/<area>.ts.

import { describe, expect, it } from 'vitest';
import { requirements } from '../requirements/catalogue.ts';
import { FAULT_NAMES, FAULTS, resolveFault } from './faults.ts';
import { ACCOUNT_PROBES } from '../testing/reference/probes/account.probes.ts';
import { CATALOG_PROBES } from '../testing/reference/probes/catalog.probes.ts';
import { CORE_PROBES } from '../testing/reference/probes/core.probes.ts';
import { FAVORITE_PROBES } from '../testing/reference/probes/favorites.probes.ts';
import type { Probe, ProbeTokens } from '../testing/reference/probes/probe.ts';
import { PRODUCT_PROBES } from '../testing/reference/probes/products.probes.ts';
import { PROTOCOL_PROBES } from '../testing/reference/probes/protocol.probes.ts';
import { REVIEW_PROBES } from '../testing/reference/probes/reviews.probes.ts';
import { CORE_FAULTS } from './faults/core.ts';
import { CATALOG_FAULTS } from './faults/catalog.ts';
import { CATEGORY_FAULTS } from './faults/categories.ts';
import { CATEGORY_PROBES } from '../testing/reference/probes/categories.probes.ts';
import { PRODUCT_FAULTS } from './faults/products.ts';
import { REVIEW_FAULTS } from './faults/reviews.ts';
import { ACCOUNT_FAULTS } from './faults/account.ts';
import { FAVORITE_FAULTS } from './faults/favorites.ts';
import { PROTOCOL_FAULTS } from './faults/protocol.ts';
import { OAUTH_FAULTS } from './faults/oauth.ts';
import { OAUTH_PROBES } from '../testing/reference/probes/oauth.probes.ts';
import { PAGINATION_FAULTS } from './faults/pagination.ts';
import { PAGINATION_PROBES } from '../testing/reference/probes/pagination.probes.ts';
import { CACHING_FAULTS } from './faults/caching.ts';
import { CACHING_PROBES } from '../testing/reference/probes/caching.probes.ts';
import { VERSIONING_FAULTS } from './faults/versioning.ts';
import { VERSIONING_PROBES } from '../testing/reference/probes/versioning.probes.ts';
import type { ReferenceOptions, RunningReference } from './server.ts';
import { ALL_SCOPES, allCategories, get, leavesOf, parseLink, startServer, startWithToken } from '../testing/reference/testkit.ts';

/**
 * Each fault area with its faults, their probes, and its family: areas whose routes share code
 * or state, where a fault could plausibly show beside its own bug.
 */
const AREAS = [
  { name: 'core', faults: CORE_FAULTS, probes: CORE_PROBES, family: 'core' },
  { name: 'catalog', faults: CATALOG_FAULTS, probes: CATALOG_PROBES, family: 'listings' },
  { name: 'categories', faults: CATEGORY_FAULTS, probes: CATEGORY_PROBES, family: 'listings' },
  { name: 'products', faults: PRODUCT_FAULTS, probes: PRODUCT_PROBES, family: 'listings' },
  { name: 'pagination', faults: PAGINATION_FAULTS, probes: PAGINATION_PROBES, family: 'listings' },
  { name: 'versioning', faults: VERSIONING_FAULTS, probes: VERSIONING_PROBES, family: 'listings' },
  // The user's data: three areas of routes and records of their own (reviews, votes and flags;
  // the profile, addresses, notifications and personalization; favorites and their lists).
  { name: 'reviews', faults: REVIEW_FAULTS, probes: REVIEW_PROBES, family: 'reviews' },
  { name: 'account', faults: ACCOUNT_FAULTS, probes: ACCOUNT_PROBES, family: 'account' },
  { name: 'favorites', faults: FAVORITE_FAULTS, probes: FAVORITE_PROBES, family: 'favorites' },
  { name: 'protocol', faults: PROTOCOL_FAULTS, probes: PROTOCOL_PROBES, family: 'protocol' },
  { name: 'oauth', faults: OAUTH_FAULTS, probes: OAUTH_PROBES, family: 'protocol' },
  { name: 'caching', faults: CACHING_FAULTS, probes: CACHING_PROBES, family: 'protocol' },
] as const;
const PROBE_TABLES = AREAS.map((a) => a.probes);
const PROBES: Record<string, Probe> = Object.assign({}, ...PROBE_TABLES);

/** Under a base path, as the mutation runs serve (a fault may show only there: link-drops-base-path). */
async function startProbed(options: ReferenceOptions = {}): Promise<{ ref: RunningReference; tokens: ProbeTokens }> {
  const { ref, app, user } = await startServer({ basePath: '/api', ...options }, ALL_SCOPES);
  return { ref, tokens: { app, user } };
}

describe('faults registry', () => {
  it('lists every fault with a description, a requirement and a probe; names are unique across areas', () => {
    const defined = AREAS.flatMap((a) => Object.keys(a.faults));
    expect(new Set(defined).size, 'a fault name is defined in two areas').toBe(defined.length);
    const probed = PROBE_TABLES.flatMap((t) => Object.keys(t));
    expect(new Set(probed).size, 'a fault has two probes').toBe(probed.length);
    expect(Object.keys(FAULTS).sort()).toEqual(Object.keys(PROBES).sort());
    expect([...FAULT_NAMES].sort()).toEqual(Object.keys(PROBES).sort());
    for (const [name, info] of Object.entries(FAULTS)) {
      expect(info.description, name).toMatch(/\S.*\.$/);
      // A fault breaks a MUST: a server that does what the spec leaves open is not faulty.
      expect(requirements().get(info.requirement)?.level, `${name}: ${info.requirement}`).toBe('MUST');
    }
    expect(resolveFault(null)).toBeNull();
    expect(() => resolveFault('nope')).toThrow(/Known faults: .*token-in-query-ignored/);
  });
});

describe('without a fault', () => {
  it('shows none of the bugs', async () => {
    const { ref, tokens } = await startProbed();
    try {
      for (const [name, probe] of Object.entries(PROBES)) expect(await probe(ref, tokens), name).toBe(false);
    } finally {
      await ref.close();
    }
  });
});

/**
 * The probes a fault must leave quiet: those of its family and the core ones, which every route
 * shares. Not every probe: every fault times every probe made this file quadratic (~150 s on
 * 2 cores at 146 faults). A fault's guard sits in a route of its own area, so it can reach only
 * routes sharing that code or state, which the family groups; the run without a fault still
 * runs every probe.
 */
function neighbourProbes(fault: string): [string, Probe][] {
  const home = AREAS.find((a) => fault in a.faults);
  if (!home) throw new Error(`${fault}: in no area`);
  return AREAS.filter((a) => a.family === home.family || a.family === 'core').flatMap((a) => Object.entries(a.probes));
}

describe.each(FAULT_NAMES.map((n) => [n]))('fault %s', (name) => {
  it('shows its bug and not the others of its family', async () => {
    const { ref, tokens } = await startProbed({ fault: name });
    try {
      for (const [other, probe] of neighbourProbes(name)) {
        // Another fault's probe that cannot read the answer this fault shapes (an envelope, a
        // field's type) shows no bug of its own; the fault's own probe must not throw.
        const shown = other === name ? await probe(ref, tokens) : await probe(ref, tokens).catch(() => false);
        expect(shown, `probe ${other}`).toBe(other === name);
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

  it('leaf-children-count-nonzero reports 1; root-parent-id-self touches only the root', async () => {
    const a = await startWithToken({ fault: 'leaf-children-count-nonzero' });
    const b = await startWithToken({ fault: 'root-parent-id-self' });
    try {
      const cats = await allCategories(a.ref, a.token);
      const leaves = leavesOf(cats);
      expect(new Set(leaves.map((c) => c.children_count))).toEqual(new Set([1]));
      const selfParented = (await allCategories(b.ref, b.token)).filter((c) => c.parent_id === c.id);
      expect(selfParented).toHaveLength(1);
      expect(selfParented[0]!.path).toBe(String(selfParented[0]!.id));
    } finally {
      await Promise.all([a.ref.close(), b.ref.close()]);
    }
  });
});
