import { describe, expect, test } from 'vitest';
import type { ConformanceContext } from '../harness/conformance.ts';
import { addUnlistedCategories } from './category-tree.ts';

/** A context whose API answers GET /categories/:id/children from `children` (404 for others). */
function fakeContext(children: Record<number, unknown[]>) {
  const calls: string[] = [];
  const get = async (path: string) => {
    calls.push(path);
    const id = Number(/^\/categories\/(\d+)\/children$/.exec(path)?.[1]);
    const body = children[id] === undefined ? undefined : { categories: children[id] };
    return { status: body ? 200 : 404, json: () => body };
  };
  return { t: { api: { get } } as unknown as ConformanceContext, calls };
}

describe('addUnlistedCategories: the categories GET /categories leaves out', () => {
  test('a whole tree listed: no request', async () => {
    const { t, calls } = fakeContext({});
    const listed: unknown[] = [
      { id: 1, parent_id: 0, children_count: 1 },
      { id: 2, parent_id: 1, children_count: 0 },
    ];
    expect(await addUnlistedCategories(t, listed)).toBe(0);
    expect([calls, listed.length]).toEqual([[], 2]);
  });

  test('the top level alone (CAT-1.e): the children of each category counting more than are listed, down the tree', async () => {
    const { t, calls } = fakeContext({
      2: [
        { id: 4, parent_id: 2, children_count: 1 },
        { id: 5, parent_id: 2, children_count: 0 },
      ],
      4: [{ id: 6, parent_id: 4, children_count: 0 }],
    });
    const listed: unknown[] = [
      { id: 1, parent_id: 0, children_count: 2 },
      { id: 2, parent_id: 1, children_count: 2 },
      { id: 3, parent_id: 1, children_count: 0 },
    ];
    expect(await addUnlistedCategories(t, listed)).toBe(2);
    expect(calls).toEqual(['/categories/2/children', '/categories/4/children']);
    expect(listed.map((c) => (c as { id: number }).id)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  test('enough leaves listed already: no request', async () => {
    const { t, calls } = fakeContext({ 1: [{ id: 99, parent_id: 1, children_count: 0 }] });
    const listed: unknown[] = [{ id: 1, parent_id: 0, children_count: 50 }, ...Array.from({ length: 12 }, (_, i) => ({ id: 10 + i, parent_id: 1, children_count: 0 }))];
    expect(await addUnlistedCategories(t, listed)).toBe(0);
    expect(calls).toEqual([]);
  });

  test('at most `limit` listings; an answer that is not a listing adds nothing', async () => {
    const { t, calls } = fakeContext({ 2: [{ id: 4, parent_id: 2, children_count: 3 }] });
    const listed: unknown[] = [
      { id: 2, parent_id: 1, children_count: 1 },
      { id: 3, parent_id: 1, children_count: 5 },
    ];
    expect(await addUnlistedCategories(t, listed, 2)).toBe(2);
    expect(calls).toEqual(['/categories/2/children', '/categories/3/children']);
    expect(listed).toHaveLength(3);
  });
});
