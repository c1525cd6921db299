// Category specifications, manufacturers, filter groups and SKU listing (spec "Endpoints >
// Categories", rows 6, 7, 9, 10). The SKU listing, its ordering, filters and meta, is
// category-skus.ts; the catalogue index and keyword matching shared with search.ts and
// manufacturers.ts are catalog-index.ts, the finders and orders of the listings listing.ts.
//
// Choices where the spec is silent or says "not shown":
// - Unknown or non-integer category ids: 404 RecordNotFound (as in categories.ts).
// - Specifications: only leaf categories have definitions; a non-leaf category answers 200 with
//   an empty array. Ordered by `order`, then id. Not paginated: the body is `{specifications}`
//   (or `{groups, specifications}` with include=group) without meta. include=group puts each
//   group once, in order of first appearance (variant specifications-by-group: order counts
//   within the group, 1, 2, ... in each, and with include=group the specifications come group by
//   group, the groups by their order).
//   Served from 3.1.1 (older versions: 404 NotFound).
// - Category manufacturers: the manufacturers of the SKUs in the category and below it.
//   Default order name asc (variant manufacturers-default-popularity: popularity desc). order_by
//   without order_dir: name asc, popularity desc. Name order is case-insensitive by code point;
//   ties by id ascending whatever the direction (variant name-order-collation: Intl.Collator,
//   accents and case ignored, ties by id descending). "OEM
//   manufacturers are not returned for tiles-layout categories" applies to layout_mode "tiles"
//   only (not "wide_tiles"), and from 3.2.0.
// - Filter groups: those of the category, ordered by id; Cache-Control on 200 and 304 answers
//   only (not on errors).
// - Category SKU listing: see category-skus.ts.

import type { ApiResult } from '../http.ts';
import type { CategoryRecord, FilterGroupRecord, ManufacturerRecord, SpecificationRecord } from '../model.ts';
import type { ApiContext, RouteModule } from '../router.ts';
import { serializeManufacturer } from '../serializers/manufacturer.ts';
import { serializeSpecification, specGroupLink } from '../serializers/specification.ts';
import { respondMany } from '../shape.ts';
import { NO_VARIANTS, type Variants } from '../variants.ts';
import { applyVersion, LATEST_VERSION, versionAtLeast, type ApiVersion } from '../versioning.ts';
import { catalogIndex, skusUnder } from './catalog-index.ts';
import { categorySkus } from './category-skus.ts';
import { filterView } from './filter-groups.ts';
import { defaultManufacturerOrder, findCategory, nameOrder, orderDirParam, sortBy, type Dir } from './listing.ts';
import { enumParam, withoutParam } from './params.ts';

type Json = Record<string, unknown>;

/** Each specification's place within its group (1, 2, ... by order, then id). */
function orderWithinGroup(defs: readonly SpecificationRecord[]): (s: SpecificationRecord) => number {
  const place = new Map<number, number>();
  const byGroup = new Map<number, SpecificationRecord[]>();
  for (const s of defs) byGroup.set(s.groupId, [...(byGroup.get(s.groupId) ?? []), s]);
  for (const members of byGroup.values()) [...members].sort((a, b) => a.order - b.order || a.id - b.id).forEach((s, i) => place.set(s.id, i + 1));
  return (s) => place.get(s.id) ?? s.order;
}

function categorySpecifications(ctx: ApiContext): ApiResult {
  const c = findCategory(ctx, ctx.params['id']);
  const defs = c.childIds.length === 0 ? (catalogIndex(ctx.data).specsByCategory.get(c.id) ?? []) : [];
  // "order on specifications (returned in order)" (3.0.23).
  const sign = ctx.fault === 'specifications-out-of-order' ? -1 : 1;
  // Variant specifications-by-group: order counts within the group, and include=group lists the
  // specifications group by group (the groups by their order).
  const perGroup = ctx.variants.has('specifications-by-group');
  const orderOf = perGroup ? orderWithinGroup(defs) : (s: SpecificationRecord) => s.order;
  const grouped = perGroup && (ctx.query.get('include') ?? '').split(',').includes('group');
  const groupKey = (s: SpecificationRecord): number[] => (grouped ? [ctx.data.specGroups.get(s.groupId)?.order ?? 0, s.groupId] : []);
  const byGroup = (a: SpecificationRecord, b: SpecificationRecord): number => groupKey(a).reduce((d, v, i) => d || v - groupKey(b)[i]!, 0);
  const ordered = [...defs].sort((a, b) => byGroup(a, b) || sign * (orderOf(a) - orderOf(b)) || a.id - b.id);
  // Definitions: the values belong to SKUs.
  // The bug: the definitions come under a generic key.
  const result = respondMany(
    ctx,
    ctx.fault === 'specifications-under-data-key' ? 'data' : 'specifications',
    ordered,
    (s) => serializeSpecification(ctx, { ...s, order: orderOf(s) }, null),
    {
      links: [specGroupLink(ctx)],
      paginate: false,
    },
  );
  if (ctx.fault === 'specifications-groups-array-missing') delete (result.body as Json)['groups'];
  return result;
}

/** The value that occurs most often (the first of equals). */
function mostCommon(values: readonly number[]): number | undefined {
  const counts = new Map<number, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
}

function categoryManufacturers(ctx: ApiContext): ApiResult {
  const c = findCategory(ctx, ctx.params['id']);
  const orderBy = enumParam(ctx, 'order_by', ['name', 'popularity'] as const) ?? defaultManufacturerOrder(ctx);
  const requestedDir = orderDirParam(ctx);
  const defaultDir: Dir = orderBy === 'name' ? 'asc' : 'desc';
  const dir = ctx.fault === 'category-manufacturers-order-dir-ignored' ? defaultDir : (requestedDir ?? defaultDir);
  // Variant wide-tiles-hide-oem: "tiles-layout categories" are those of tiles and wide_tiles.
  const tilesLayout = c.layoutMode === 'tiles' || (c.layoutMode === 'wide_tiles' && ctx.variants.has('wide-tiles-hide-oem'));
  const hideOem = tilesLayout && versionAtLeast(ctx.version, '3.2.0');
  const skus = skusUnder(ctx, c.id);
  const ids = new Set(skus.map((s) => s.manufacturer_id));
  // The bug: the manufacturer of the most SKUs of the category is left out.
  if (ctx.fault === 'category-manufacturers-miss-one') ids.delete(mostCommon(skus.map((s) => s.manufacturer_id)) ?? -1);
  const found = [...ids].map((id) => ctx.data.manufacturers.get(id)).filter((m): m is ManufacturerRecord => m !== undefined && !(hideOem && m.oem));
  const names = nameOrder(ctx);
  // The bug: order_by=name falls through to the popularity sort.
  const byName = orderBy === 'name' && ctx.fault !== 'category-manufacturers-name-order-ignored';
  const sorted = byName ? sortBy(found, (a, b) => names.compare(a.name, b.name), dir, names.ties) : sortBy(found, (a, b) => a.popularity - b.popularity, dir);
  // The bugs: the list under the front end's word for manufacturers; per not read.
  const key = ctx.fault === 'category-manufacturers-under-brands-key' ? 'brands' : 'manufacturers';
  return respondMany(ctx.fault === 'category-manufacturers-per-ignored' ? withoutParam(ctx, 'per') : ctx, key, sorted, serializeManufacturer);
}

/** A filter group; a group without a hint has hint "" (variant filter-hint-null: null). */
export function serializeFilterGroup(g: FilterGroupRecord, variants: Variants = NO_VARIANTS, version: ApiVersion = LATEST_VERSION): Json {
  const out: Json = {
    id: g.id,
    name: g.name,
    active: g.active,
    category_id: g.category_id,
    created_at: g.created_at,
    updated_at: g.updated_at,
    hint: g.hint === '' && variants.has('filter-hint-null') ? null : g.hint,
    combined: g.combined,
    filter_type: g.filter_type,
  };
  return applyVersion('filter_group', out, version);
}

/** A leaf that is neither `c` nor one of its ancestors, with filter groups (the fault filter-groups-of-another-category). */
function otherLeafWithGroups(ctx: ApiContext, c: CategoryRecord, view: ReturnType<typeof filterView>): number | null {
  for (const other of ctx.data.categories.values()) {
    if (other.id !== c.id && other.childIds.length === 0 && !c.pathIds.includes(other.id) && view.groupsOf(other.id).length > 0) return other.id;
  }
  return null;
}

function filterGroups(ctx: ApiContext): ApiResult {
  const c = findCategory(ctx, ctx.params['category_id']);
  // Its own groups and (variant filter-groups-inherited) those it inherits; the bug: another leaf's.
  const view = filterView(ctx);
  const groups = view.groupsOf(ctx.fault === 'filter-groups-of-another-category' ? (otherLeafWithGroups(ctx, c, view) ?? c.id) : c.id);
  // "filter groups cached for 5 minutes" (3.0.3).
  const cached = ctx.fault !== 'filter-groups-cache-control-missing' && versionAtLeast(ctx.version, '3.0.3');
  const headers = cached ? { 'Cache-Control': 'max-age=300, private' } : undefined;
  // The bugs: the list under a shorter key; per not read.
  const key = ctx.fault === 'filter-groups-under-groups-key' ? 'groups' : 'filter_groups';
  const paged = ctx.fault === 'filter-groups-per-ignored' ? withoutParam(ctx, 'per') : ctx;
  return respondMany(paged, key, groups, (g) => serializeFilterGroup(g, ctx.variants, ctx.version), headers ? { headers } : {});
}

export const catalogRoutes: RouteModule = (router) => {
  // "category specifications endpoint" (3.1.1).
  router.get('/categories/:id/specifications', categorySpecifications, { since: '3.1.1' });
  router.get('/categories/:id/manufacturers', categoryManufacturers);
  router.get('/categories/:category_id/filter_groups', filterGroups);
  router.get('/categories/:category_id/skus', categorySkus);
};
