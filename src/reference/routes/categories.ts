// Categories (spec "Endpoints > Categories", first five rows).
//
// Choices where the spec is silent:
// - A non-integer id (/categories/abc) is 404 RecordNotFound, like an unknown integer id (the
//   spec says path placeholders are integers, so no such record can exist).
// - "root" is special only in GET /categories/root itself; /categories/root/children and
//   /categories/root/parent are 404 RecordNotFound (a client uses the root's id for those).
// - GET /categories/:id/parent of the root is 404 RecordNotFound (parent_id 0 names no record).
// - Collections are ordered by id; children are the direct children only.
// - Fields (serializers.ts): onclick_behaviour, the field table's spelling (variant
//   onclick-behavior-spelling: onclick_behavior, the Change history's); fashion is still sent,
//   although 3.0.18 says layout_mode replaces it (variant no-fashion: left out).
// - /root and /:id/parent answer as /:id, with the single-category fields (variant
//   root-parent-plain-category: the fields of a listing only).
// - A leaf's children listing is 200 with an empty list (variant leaf-children-404: 404
//   RecordNotFound). Adult categories are listed in every version, so children_count and the
//   listing agree (variant adult-children-hidden-before-3-2: left out of children listings before
//   3.2.0, "adult content shown in Category and Search", and still counted by children_count).

import { childrenOf, type CategoryRecord } from '../data.ts';
import { ApiError, recordNotFound, type ApiResult } from '../http.ts';
import { parseId, withoutParam } from './params.ts';
import type { ApiContext, RouteModule } from '../router.ts';
import { serializeCategory } from '../serializers.ts';
import { respondMany, respondOne } from '../shape.ts';
import { versionAtLeast } from '../versioning.ts';

function findCategory(ctx: ApiContext, raw: string | undefined): CategoryRecord {
  const id = parseId(raw, 'Category');
  const c = ctx.data.categories.get(id);
  if (!c) throw recordNotFound('Category', id);
  return c;
}

/** A single category under `category`; the bugs: under a key named after the route. */
function detail(ctx: ApiContext, c: CategoryRecord, key = 'category'): ApiResult {
  return respondOne(ctx, key, c, (x) => serializeCategory(x, { view: 'detail', version: ctx.version, fault: ctx.fault, variants: ctx.variants }));
}

/** A category of the tree's single answers (root, parent): as /:id, or (variant) as a listing gives it. */
function treeNode(ctx: ApiContext, c: CategoryRecord, key = 'category'): ApiResult {
  if (!ctx.variants.has('root-parent-plain-category')) return detail(ctx, c, key);
  return respondOne(ctx, key, c, (x) => serializeCategory(x, { view: 'list', version: ctx.version, fault: ctx.fault, variants: ctx.variants }));
}

function list(ctx: ApiContext, items: readonly CategoryRecord[], key = 'categories'): ApiResult {
  return respondMany(ctx, ctx.fault === 'categories-under-singular-key' ? 'category' : key, items, (c) =>
    serializeCategory(c, { view: 'list', version: ctx.version, fault: ctx.fault, variants: ctx.variants }),
  );
}

export const categoryRoutes: RouteModule = (router) => {
  // Variant categories-top-level-only: the root and its children, the rest reached through children.
  router.get('/categories', (ctx) => {
    const all = ctx.variants.has('categories-top-level-only') ? ctx.data.categoryList.filter((c) => c.depth <= 1) : ctx.data.categoryList;
    // The bug: this listing reads page but not per.
    return list(ctx.fault === 'categories-per-ignored' ? withoutParam(ctx, 'per') : ctx, all);
  });

  router.get('/categories/root', (ctx) => {
    const result = treeNode(ctx, ctx.data.categories.get(ctx.data.rootId)!, ctx.fault === 'root-under-root-key' ? 'root' : 'category');
    // The bug: this route serializes the root by itself, and its "no parent" comes out null.
    const shown = (result.body as Record<string, Record<string, unknown> | undefined>)['category'];
    if (ctx.fault === 'root-endpoint-parent-id-null' && shown && 'parent_id' in shown) shown['parent_id'] = null;
    return result;
  });

  router.get('/categories/:id', (ctx) => detail(ctx, findCategory(ctx, ctx.params['id']), ctx.fault === 'category-under-data-key' ? 'data' : 'category'));

  router.get('/categories/:id/parent', (ctx) => {
    const c = findCategory(ctx, ctx.params['id']);
    const parent = ctx.fault === 'parent-returns-self' ? c : ctx.data.categories.get(c.parentId);
    if (!parent) {
      throw new ApiError(404, 'RecordNotFound', [`Couldn't find Category with id=${c.parentId} (Category ${c.id} is the root and has no parent)`]);
    }
    return treeNode(ctx, parent, ctx.fault === 'parent-under-parent-key' ? 'parent' : 'category');
  });

  router.get('/categories/:id/children', (ctx) => {
    const c = findCategory(ctx, ctx.params['id']);
    if (c.childIds.length === 0 && ctx.variants.has('leaf-children-404')) {
      throw new ApiError(404, 'RecordNotFound', [`Category ${c.id} is a leaf category: it has no children`]);
    }
    let items = childrenOf(ctx.data, c.id);
    if (ctx.variants.has('adult-children-hidden-before-3-2') && !versionAtLeast(ctx.version, '3.2.0')) items = items.filter((child) => !child.adult);
    if (ctx.fault === 'children-includes-grandchildren') {
      items = [...items, ...items.flatMap((child) => childrenOf(ctx.data, child.id))].sort((a, b) => a.id - b.id);
    }
    // The bug: the children query skips a row (an OFFSET of 1 meant for the parent row).
    if (ctx.fault === 'children-drops-first-child' && items.length > 1) items = items.slice(1);
    return list(ctx, items, ctx.fault === 'children-under-children-key' ? 'children' : 'categories');
  });
};
