// The categories a test picks leaves from: GET /categories, and, where that listing leaves part
// of the tree out (CAT-1.e: a deployment may list the top level alone), the children of each
// category that counts more children than are listed. Discovery: a bad answer adds nothing.
import { isPlainObject } from '../checks/check.ts';
import type { ConformanceContext } from '../harness/conformance.ts';
import { pathOf } from '../rules/api-paths.ts';

type Json = Record<string, unknown>;

/** Most children listings read for the categories GET /categories leaves out. */
export const CHILDREN_READ = 16;
/** Leaves listed that are enough to pick from: no children listing is read then (a listing of many pages names some on its first). */
export const LEAVES_ENOUGH = 12;

/**
 * Adds to `categories` (GET /categories as listed) those it leaves out, through the children of
 * each category counting more children than the listing names under it, breadth first, at most
 * `limit` listings; none when the listing names LEAVES_ENOUGH leaves already. Returns the number
 * of requests made.
 */
export async function addUnlistedCategories(t: ConformanceContext, categories: unknown[], limit = CHILDREN_READ): Promise<number> {
  const listed = categories.filter((c): c is Json => isPlainObject(c) && Number.isInteger(c['id']));
  if (listed.filter((c) => c['children_count'] === 0).length >= LEAVES_ENOUGH) return 0;
  const known = new Set(listed.map((c) => c['id']));
  const listedChildren = (id: unknown) => listed.filter((c) => c['parent_id'] === id).length;
  const queue = listed.filter((c) => typeof c['children_count'] === 'number' && c['children_count'] > listedChildren(c['id']));
  let read = 0;
  for (; read < limit && queue.length > 0; read++) {
    const parent = queue.shift()!;
    const response = await t.api.get(pathOf('GET /categories/:id/children', { id: parent['id'] as number }));
    const children = response.status === 200 ? (response.json<{ categories?: unknown }>() ?? {}).categories : undefined;
    if (!Array.isArray(children)) continue;
    for (const child of children) {
      if (!isPlainObject(child) || !Number.isInteger(child['id']) || known.has(child['id'])) continue;
      known.add(child['id']);
      listed.push(child);
      categories.push(child);
      if (typeof child['children_count'] === 'number' && child['children_count'] > 0) queue.push(child);
    }
  }
  return read;
}
