// Which filter groups a category has, and which of their filters a SKU matches: what the filter
// groups listing and the SKU listing's filter_ids and available_filters read.
//
// The reference gives every leaf its own groups. Variant filter-groups-inherited: the customer
// rating group (filter_type 4) is defined once on each top-level category and inherited by every
// category below it, so a leaf's listing shows it with the top-level category's category_id; a
// SKU matches its filters where it matched those of its leaf's own rating group.

import type { Dataset } from '../data.ts';
import type { FilterGroupRecord, SkuRecord } from '../model.ts';
import type { ApiContext } from '../router.ts';
import { catalogIndex } from './catalog-index.ts';

export interface FilterView {
  /** The filter groups of a category, its own and those it inherits, by id. */
  groupsOf(categoryId: number): readonly FilterGroupRecord[];
  /** The ids of the filters the SKU matches, among its category's groups. */
  filterIdsOf(sku: SkuRecord): readonly number[];
}

const RATING_FILTER_TYPE = 4;
const inherited = new WeakMap<Dataset, FilterView>();

export function filterView(ctx: Pick<ApiContext, 'data' | 'variants'>): FilterView {
  if (ctx.variants.has('filter-groups-inherited')) {
    if (!inherited.has(ctx.data)) inherited.set(ctx.data, inheritedView(ctx.data));
    return inherited.get(ctx.data)!;
  }
  const index = catalogIndex(ctx.data);
  return { groupsOf: (id) => index.filterGroupsByCategory.get(id) ?? [], filterIdsOf: (s) => s.filterIds };
}

/** The rating group of the first leaf below each top-level category, owned by that category; the other leaves' rating filters mapped onto it. */
function inheritedView(data: Dataset): FilterView {
  const index = catalogIndex(data);
  const shared = new Map<number, FilterGroupRecord>();
  const remap = new Map<number, number>();
  for (const top of data.categoryList.filter((c) => c.depth === 1)) {
    const ratings = data.categoryList
      .filter((c) => c.pathIds[1] === top.id)
      .flatMap((c) => (index.filterGroupsByCategory.get(c.id) ?? []).filter((g) => g.filter_type === RATING_FILTER_TYPE));
    const owner = ratings[0];
    if (!owner) continue;
    shared.set(top.id, { ...owner, category_id: top.id });
    const canonical = [...owner.filters.keys()];
    for (const g of ratings.slice(1)) [...g.filters.keys()].forEach((id, i) => remap.set(id, canonical[i] ?? id));
  }
  return {
    groupsOf: (id) => {
      const c = data.categories.get(id);
      const own = (index.filterGroupsByCategory.get(id) ?? []).filter((g) => g.filter_type !== RATING_FILTER_TYPE);
      const from = c && c.depth >= 1 ? shared.get(c.pathIds[1]!) : undefined;
      return [...own, ...(from ? [from] : [])].sort((a, b) => a.id - b.id);
    },
    filterIdsOf: (s) => [...new Set(s.filterIds.map((id) => remap.get(id) ?? id))].sort((a, b) => a - b),
  };
}
