// Resource serializers: data records -> JSON objects as the given API version shows them.
// Blank fields are present with value null (never omitted).

import type { CategoryRecord } from './data.ts';
import type { FaultName } from './faults.ts';
import { applyVersion, type ApiVersion } from './versioning.ts';

export interface SerializeOptions {
  version: ApiVersion;
  fault: FaultName | null;
}

export interface CategoryOptions extends SerializeOptions {
  /**
   * 'detail': a single-category response (/categories/:id, /root, /:id/parent), which adds
   * family_id, show_manufacturers_filter, adult, onclick_behaviour, show_spec_summary,
   * unit_price_label, reviewable, comparable. 'list': category collections.
   * match_count (search only) is added by the search serializer, never here.
   */
  view: 'list' | 'detail';
}

export function serializeCategory(c: CategoryRecord, opts: CategoryOptions): Record<string, unknown> {
  const { fault } = opts;
  const isLeaf = c.childIds.length === 0;
  const isRoot = c.depth === 0;
  const out: Record<string, unknown> = {
    id: c.id,
    name: c.name,
    children_count: isLeaf && fault === 'leaf-children-count-nonzero' ? 1 : c.childIds.length,
    image_url: c.imageUrl,
    parent_id: isRoot && fault === 'root-parent-id-null' ? null : c.parentId,
    fashion: c.fashion,
    layout_mode: c.layoutMode,
    web_uri: c.webUri,
    code: c.code,
    path: (fault === 'path-reversed' ? [...c.pathIds].reverse() : c.pathIds).join(','),
    show_specifications: c.showSpecifications,
    manufacturer_title: c.manufacturerTitle,
  };
  if (c.imageUrl === null && fault === 'null-field-omitted') delete out['image_url'];
  if (fault === 'match-count-outside-search') out['match_count'] = 0;
  if (opts.view === 'detail') {
    Object.assign(out, {
      family_id: c.familyId,
      show_manufacturers_filter: c.showManufacturersFilter,
      adult: c.adult,
      onclick_behaviour: c.onclickBehaviour,
      show_spec_summary: c.showSpecSummary,
      unit_price_label: c.unitPriceLabel,
      reviewable: c.reviewable,
      comparable: c.comparable,
    });
  }
  return applyVersion('category', out, opts.version, fault);
}
