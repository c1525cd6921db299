// Invariants of the category tree (What the service does; Category fields children_count, path,
// parent_id).
import { blank, type CheckResult, fail, pass, show, statedValue, typed } from './check.ts';

export interface CategoryLike {
  id: unknown;
  parent_id?: unknown;
  children_count?: unknown;
  path?: unknown;
}

export function hasId(category: CategoryLike, id: number): CheckResult {
  return statedValue(category.id === id, `category id is ${show(category.id)}, expected ${id}`);
}

/** The root category has parent_id 0. */
export function isRootCategory(category: CategoryLike): CheckResult {
  // 0 is the value the spec states: a null is a wrong value here, not a blank (GEN-8).
  return statedValue(category.parent_id === 0, `root category ${show(category.id)} has parent_id ${show(category.parent_id)}, expected 0`);
}

export function parsePath(path: unknown): number[] | null {
  if (typeof path !== 'string' || !/^\d+(,\d+)*$/.test(path)) return null;
  return path.split(',').map(Number);
}

/** path: comma-separated category ids from the root down to this category. */
export function pathRunsFromRootToSelf(category: CategoryLike, rootId: number): CheckResult {
  const ids = parsePath(category.path);
  if (!ids) return typed(category.path, false, `path of category ${show(category.id)} is ${show(category.path)}, expected comma-separated ids`);
  if (ids[0] !== rootId) return fail(`path ${show(category.path)} of category ${show(category.id)} does not start at the root ${rootId}`);
  // A blank id cannot be found at the end of the path: the null only warns.
  if (ids[ids.length - 1] !== category.id) return typed(category.id, false, `path ${show(category.path)} of category ${show(category.id)} does not end with its own id`);
  if (new Set(ids).size !== ids.length) return fail(`path ${show(category.path)} repeats an id`);
  return pass();
}

/** A child's path is its parent's path followed by the child's id. */
export function childPathExtendsParentPath(child: CategoryLike, parent: CategoryLike): CheckResult {
  if (typeof parent.path !== 'string') return typed(parent.path, false, `parent ${show(parent.id)} has no path to compare with`);
  if (child.id === null) return blank(`category with path ${show(child.path)} has id null, so its path cannot be compared with its parent's`);
  const expected = `${parent.path},${String(child.id)}`;
  return typed(child.path, child.path === expected, `path of category ${show(child.id)} is ${show(child.path)}, expected ${show(expected)} (parent path + own id)`);
}

/** Every listed child names the parent it was listed under. */
export function childrenNameTheirParent(children: readonly CategoryLike[], parentId: number): CheckResult {
  const strays = children.filter((c) => c.parent_id !== parentId);
  if (strays.length === 0) return pass();
  const message = `${strays.length} listed children of ${parentId} have another parent_id: ${strays
    .slice(0, 5)
    .map((c) => `${show(c.id)} (parent_id ${show(c.parent_id)})`)
    .join(', ')}`;
  // The parent listed under is the value stated (CAT-19): parent_id null is a wrong value, not a blank (issue 38, point 3).
  return statedValue(false, message);
}

/**
 * Every category `shown` (another listing, GET /categories) names as a child of `parentId` is
 * among `children`, when the children listing is whole (one page); a child left out is the
 * children listing's finding (CAT-19), whatever children_count says.
 */
export function childrenListingHasEveryChild(shown: readonly CategoryLike[], parentId: number, children: readonly CategoryLike[], whole: boolean): CheckResult {
  if (!whole) return pass();
  const listed = new Set(children.map((c) => c.id));
  const missing = shown.filter((c) => c.parent_id === parentId && c.id !== parentId && !listed.has(c.id));
  if (missing.length === 0) return pass();
  return fail(
    `GET /categories shows ${missing.length} child${missing.length === 1 ? '' : 'ren'} of ${parentId} that its children listing leaves out: ${show(missing.map((c) => c.id))}`,
  );
}

/** children_count equals the number of children the children endpoint lists. */
export function childrenCountMatches(parent: CategoryLike, listedTotal: number): CheckResult {
  return statedValue(
    parent.children_count === listedTotal,
    `category ${show(parent.id)} has children_count ${show(parent.children_count)}, but its children listing has total_results ${listedTotal}`,
  );
}

/** A leaf category has children_count equal to 0 and no children. */
export function leafHasNoChildren(leaf: CategoryLike, listedTotal: number): CheckResult {
  if (leaf.children_count !== 0) return statedValue(false, `category ${show(leaf.id)} was taken as a leaf but has children_count ${show(leaf.children_count)}`);
  return listedTotal === 0 ? pass() : fail(`leaf ${show(leaf.id)} (children_count 0) lists ${listedTotal} children`);
}

/** The id before a category's own in its path is its parent_id (none for the root). */
export function pathEndsWithParent(category: CategoryLike): CheckResult {
  const ids = parsePath(category.path);
  if (!ids) return typed(category.path, false, `path of category ${show(category.id)} is ${show(category.path)}, expected comma-separated ids`);
  if (!Number.isInteger(category.parent_id))
    return typed(category.parent_id, false, `category ${show(category.id)} has parent_id ${show(category.parent_id)}, so its path cannot be checked against it`);
  if (category.parent_id === 0) {
    return ids.length === 1 ? pass() : fail(`category ${show(category.id)} has parent_id 0 (root) but path ${show(category.path)}`);
  }
  const before = ids[ids.length - 2];
  return before === category.parent_id
    ? pass()
    : fail(`path ${show(category.path)} of category ${show(category.id)} names ${show(before)} before it, but its parent_id is ${show(category.parent_id)}`);
}

/**
 * match_count (integer): "only on categories returned by search". Where the condition does not
 * hold the field may still come as null: blank fields are present with value null (GEN-8), and
 * "only on" says where it is shown (a serializer shared with search). A value outside search is
 * what the suites judge; search must carry it (resources/search-category.json).
 */
export function hasNoMatchCount(category: Record<string, unknown>): CheckResult {
  return 'match_count' in category && category['match_count'] !== null
    ? fail(`category ${show(category['id'])} carries match_count ${show(category['match_count'])} outside search, where the spec shows it only on categories returned by search`)
    : pass();
}

/**
 * family_id: "family id of the category, not the parent id" (CAT-10#3). The true family cannot be
 * known from outside, and a family's id may equal some category's id by chance: family ids and
 * category ids are separate numbers. Readings:
 * - FAMILY.a a family_id equal to the parent_id of each of two or more categories with different
 *   parents is the parent id (no chance agrees twice): FAIL;
 * - FAMILY.b one category's family_id equal to its parent_id may be chance: WARN (`warnOnly`);
 * - FAMILY.c a null family_id (a category with no family, CAT-10.e) and the root (parent_id 0,
 *   above every family) are not judged.
 */
export function familyIdIsNotParentId(categories: readonly Record<string, unknown>[]): { result: CheckResult; warnOnly: boolean } {
  const judged = categories.filter((c) => Number.isInteger(c['family_id']) && Number.isInteger(c['parent_id']) && c['parent_id'] !== 0);
  const same = judged.filter((c) => c['family_id'] === c['parent_id']);
  const parents = new Set(same.map((c) => c['parent_id']));
  if (!same.length) return { result: pass(), warnOnly: false };
  const listed = same.map((c) => `category ${show(c['id'])}: family_id ${show(c['family_id'])}, parent_id ${show(c['parent_id'])}`).join('; ');
  if (same.length === judged.length && parents.size >= 2) {
    return { result: fail(`family_id is the parent id on every category judged (${listed}): the spec says the family id, not the parent id`), warnOnly: false };
  }
  return { result: fail(`family_id equals parent_id (${listed}); the spec says it is the family id, not the parent id (one category may agree by chance)`), warnOnly: true };
}
