// The response shaping of the reference (shape.ts): embed, embed_ids, include, fields[...] and
// fields_except[...], on the test-only routes of protocol.testroutes.ts (any endpoint or dataset aside).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PARTS, TEST_ROUTES } from '../testing/reference/protocol.testroutes.ts';
import type { ApiContext } from './router.ts';
import type { ReferenceOptions, RunningReference } from './server.ts';
import { applyFieldset, fieldsetFor } from './shape.ts';
import { get, startWithToken, type Reply } from '../testing/reference/testkit.ts';

/** A server with the test-only routes of src/testing/reference/protocol.testroutes.ts. */
function startTest(opts: ReferenceOptions = {}): Promise<{ ref: RunningReference; token: string }> {
  return startWithToken({ ...opts, testHooks: { extraRoutes: [TEST_ROUTES], ...(opts.testHooks ?? {}) } });
}

// ---------------------------------------------------------------------------------------------

describe('response shaping (shape.ts)', () => {
  let ref: RunningReference;
  let token: string;
  beforeAll(async () => ({ ref, token } = await startTest({ basePath: '/api' })));
  afterAll(() => ref.close());
  const things = async (query: string, version: string | null = null): Promise<Reply> => {
    const r = await get(ref, `/test/things${query}`, { token, version });
    expect(r.status, query).toBe(200);
    return r;
  };

  it('without parameters: the plain envelope with meta.pagination and no link keys', async () => {
    const r = await things('');
    expect(Object.keys(r.body)).toEqual(['things', 'meta']);
    expect(r.body.things[0]).toEqual({ id: 1, name: 'one', color: 'red', size: 10 });
    expect(r.body.meta.pagination).toEqual({ total_results: 4, total_pages: 1, page: 1, per: 25 });
  });

  it('embed=<name> puts the full linked object (null when none) in each parent (LINK-1)', async () => {
    const r = await things('?embed=part');
    expect(r.body.things.map((t: any) => t.part)).toEqual([PARTS.get(71), PARTS.get(72), PARTS.get(71), null]);
    expect(Object.keys(r.body)).toEqual(['things', 'meta']);
    const one = await get(ref, '/test/things/2?embed=part', { token });
    expect(one.body).toEqual({ thing: { id: 2, name: 'two', color: 'blue', size: 20, part: PARTS.get(72) } });
  });

  it('embed_ids=<name> puts an array of ids in each parent (LINK-2)', async () => {
    const r = await things('?embed_ids=part');
    expect(r.body.things.map((t: any) => t.part_ids)).toEqual([[71], [72], [71], []]);
    expect(r.body.things[0].part).toBeUndefined();
  });

  it('include=<name> puts ids in each parent and the linked objects, once each, in a top-level array (LINK-3)', async () => {
    const r = await things('?include=part');
    expect(r.body.things.map((t: any) => t.part_id)).toEqual([71, 72, 71, null]);
    expect(r.body.parts).toEqual([PARTS.get(71), PARTS.get(72)]);
    expect(Object.keys(r.body)).toEqual(['things', 'parts', 'meta']);
    // Only the linked objects of the page.
    const page2 = await things('?include=part&per=1&page=2');
    expect(page2.body.parts).toEqual([PARTS.get(72)]);
    const empty = await things('?include=part&per=1&page=4');
    expect(empty.body.parts).toEqual([]);
    const one = await get(ref, '/test/things/4?include=part', { token });
    expect(one.body).toEqual({ thing: { id: 4, name: 'four', color: 'black', size: 40, part_id: null }, parts: [] });
  });

  it('several names and modes: comma-separated or repeated, duplicates ignored', async () => {
    const a = await things('?embed=part,part&embed_ids=part&include=part');
    const b = await things('?embed=part&embed=part&embed_ids[]=part&include=part');
    expect(a.body).toEqual(b.body);
    expect(Object.keys(a.body.things[0])).toEqual(['id', 'name', 'color', 'size', 'part', 'part_ids', 'part_id']);
  });

  it('an unknown linked name is 400 InvalidParameter naming the known ones', async () => {
    for (const q of ['?embed=shop', '?embed_ids=x', '?include=parts', '?embed=part,nope']) {
      const r = await get(ref, `/test/things${q}`, { token });
      expect(r.status, q).toBe(400);
      expect(r.body.errors[0].code).toBe('InvalidParameter');
      expect(r.body.errors[0].messages[0]).toContain('part');
    }
    const none = await get(ref, '/test/plain?embed=part', { token });
    expect([none.status, none.body.errors[0].messages[0]]).toEqual([400, expect.stringContaining('no linked resources')]);
  });

  it('fields[root] keeps only the listed fields; fields_except[root] removes them (FIELDS-1, FIELDS-2)', async () => {
    expect((await things('?fields[root]=id,color')).body.things[1]).toEqual({ id: 2, color: 'blue' });
    expect((await things('?fields_except[root]=color,size')).body.things[1]).toEqual({ id: 2, name: 'two' });
    // Encoded brackets, repeated parameters and the [] spelling are the same thing.
    expect((await things('?fields%5Broot%5D=id&fields%5Broot%5D=name')).body.things[1]).toEqual({ id: 2, name: 'two' });
    expect((await things('?fields[root][]=id&fields[root][]=size')).body.things[1]).toEqual({ id: 2, size: 20 });
    // Unknown field names are ignored; an empty list keeps nothing.
    expect((await things('?fields[root]=id,nope')).body.things[1]).toEqual({ id: 2 });
    expect((await things('?fields[root]=')).body.things[1]).toEqual({});
    expect((await get(ref, '/test/things/3?fields[root]=name', { token })).body).toEqual({ thing: { name: 'three' } });
  });

  it('with both on one target the exclusion is applied after the inclusion (FIELDS-4)', async () => {
    expect((await things('?fields[root]=id,name,color&fields_except[root]=name')).body.things[0]).toEqual({ id: 1, color: 'red' });
    expect((await things('?fields_except[root]=name&fields[root]=name,size')).body.things[0]).toEqual({ size: 10 });
  });

  it('fields[<association>] shapes the embedded and included objects; an association not named stays complete (FIELDS-3, FIELDS-5)', async () => {
    const embedded = await things('?embed=part&fields[part]=name&fields[root]=id');
    expect(embedded.body.things[0]).toEqual({ id: 1, part: { name: 'bolt' } });
    const rootOnly = await things('?embed=part&fields[root]=id');
    expect(rootOnly.body.things[0]).toEqual({ id: 1, part: PARTS.get(71) });
    const rootExcept = await things('?embed=part&fields_except[root]=name,color,size');
    expect(rootExcept.body.things[0]).toEqual({ id: 1, part: PARTS.get(71) });
    const included = await things('?include=part&fields_except[part]=weight,material&fields[root]=id');
    expect(included.body.things[0]).toEqual({ id: 1, part_id: 71 });
    expect(included.body.parts).toEqual([
      { id: 71, name: 'bolt' },
      { id: 72, name: 'nut' },
    ]);
    // A target that is neither root nor a linked name of the request is ignored.
    expect((await things('?fields[part]=id&fields[other]=id')).body.things[0]).toEqual({ id: 1, name: 'one', color: 'red', size: 10 });
  });

  it('the keys that embed / embed_ids / include add are not removed by a root fieldset', async () => {
    const r = await things('?embed_ids=part&include=part&fields[root]=id&fields_except[root]=part_id,part_ids');
    expect(r.body.things[0]).toEqual({ id: 1, part_ids: [71], part_id: 71 });
  });

  it('3.0 (before 3.1.1) ignores sparse fieldsets but still links', async () => {
    for (const v of ['3', '3.0']) {
      const r = await things('?embed=part&fields[root]=id&fields[part]=id&fields_except[root]=name', v);
      expect(r.body.things[0], v).toEqual({ id: 1, name: 'one', color: 'red', size: 10, part: PARTS.get(71) });
    }
    expect((await things('?fields[root]=id', '3.1')).body.things[0]).toEqual({ id: 1 });
  });

  it('applyFieldset / fieldsetFor work on their own', () => {
    const ctx = { query: new URLSearchParams('fields[root]=a,b&fields_except[root]=b&fields[x][]=c&fields_except[y]=d,%20e') } as ApiContext;
    expect(fieldsetFor(ctx, 'root')).toEqual({ only: ['a', 'b'], except: ['b'] });
    expect(fieldsetFor(ctx, 'x')).toEqual({ only: ['c'], except: [] });
    expect(fieldsetFor(ctx, 'y')).toEqual({ only: null, except: ['d', 'e'] });
    expect(fieldsetFor(ctx, 'z')).toEqual({ only: null, except: [] });
    expect(applyFieldset({ a: 1, b: 2, c: 3 }, { only: ['a', 'b'], except: ['b'] })).toEqual({ a: 1 });
    expect(applyFieldset({ a: 1, b: 2, c: 3 }, { only: null, except: [] })).toEqual({ a: 1, b: 2, c: 3 });
    expect(applyFieldset({ a: 1, b: 2, c: 3 }, { only: ['a'], except: ['c'] }, new Set(['c']))).toEqual({ a: 1, c: 3 });
  });

  it('fault fields-except-applied-before-fields: the inclusion picks from the complete object, so a field in both stays', async () => {
    const fault = 'fields-except-applied-before-fields';
    const set = { only: ['a', 'b'], except: ['b'] };
    expect(applyFieldset({ a: 1, b: 2, c: 3 }, set, new Set(), fault)).toEqual({ a: 1, b: 2 });
    expect(applyFieldset({ a: 1, b: 2, c: 3 }, { only: null, except: ['b'] }, new Set(), fault)).toEqual({ a: 1, c: 3 });
    expect(applyFieldset({ a: 1, b: 2, c: 3 }, { only: ['a'], except: [] }, new Set(), fault)).toEqual({ a: 1 });
    const faulty = await startTest({ fault });
    try {
      const both = await get(faulty.ref, '/test/things?fields[root]=id,name,color&fields_except[root]=name', { token: faulty.token });
      expect(both.body.things[0]).toEqual({ id: 1, name: 'one', color: 'red' });
      const except = await get(faulty.ref, '/test/things?fields_except[root]=name', { token: faulty.token });
      expect(except.body.things[0]).toEqual({ id: 1, color: 'red', size: 10 });
    } finally {
      await faulty.ref.close();
    }
  });
});
