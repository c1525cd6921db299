// Resource serializers: data records -> JSON objects as the given API version shows them.
// Blank fields are present with value null (never omitted).

import type { CategoryRecord } from './data.ts';
import type { FaultName } from './faults.ts';
import { NO_VARIANTS, type Variants } from './variants.ts';
import { applyVersion, type ApiVersion } from './versioning.ts';

export interface SerializeOptions {
  version: ApiVersion;
  fault: FaultName | null;
  /** The server's legal variants (see variants.ts); none when left out. */
  variants?: Variants;
}

export interface CategoryOptions extends SerializeOptions {
  /**
   * 'detail': a single-category response (/categories/:id, /root, /:id/parent), which adds
   * family_id, show_manufacturers_filter, adult, onclick_behaviour, show_spec_summary,
   * unit_price_label, reviewable, comparable (in listings too under the variant
   * category-listings-full). 'list': category collections.
   * match_count (search only) is added by the search serializer, never here (variant
   * match-count-null-outside-search: null here, the search serializer's value there).
   */
  view: 'list' | 'detail';
}

/** children_count; the bugs: a leaf says 1; a category with children counts one too many. */
function childrenCount(c: CategoryRecord, fault: FaultName | null | undefined): number | null {
  const isLeaf = c.childIds.length === 0;
  if (isLeaf) return fault === 'leaf-children-count-nonzero' ? 1 : fault === 'leaf-children-count-null' ? null : 0;
  return fault === 'children-count-off-by-one' ? c.childIds.length + 1 : c.childIds.length;
}

export function serializeCategory(c: CategoryRecord, opts: CategoryOptions): Record<string, unknown> {
  const { fault } = opts;
  const variants = opts.variants ?? NO_VARIANTS;
  const isRoot = c.depth === 0;
  const out: Record<string, unknown> = {
    id: c.id,
    name: c.name,
    children_count: childrenCount(c, fault),
    image_url: c.imageUrl,
    parent_id: isRoot && fault === 'root-parent-id-self' ? c.id : isRoot && fault === 'root-parent-id-null' ? null : c.parentId,
    fashion: c.fashion,
    // Variant wide-tiles-after-3-0: wide_tiles came later than layout_mode (3.0.18); the 3.0 series shows tiles.
    layout_mode: c.layoutMode === 'wide_tiles' && variants.has('wide-tiles-after-3-0') && opts.version.minor === 0 ? 'tiles' : c.layoutMode,
    // Before 3.0.18, which brought layout_mode (variant implements-3.0.0 serves it): tiles or not.
    show_in_tiles: c.layoutMode !== 'list',
    web_uri: c.webUri,
    code: c.code,
    path: (fault === 'path-reversed' ? [...c.pathIds].reverse() : c.pathIds).join(','),
    show_specifications: c.showSpecifications,
    manufacturer_title: c.manufacturerTitle,
  };
  // 3.0.18 says layout_mode replaces fashion: a deployment may have dropped it.
  if (variants.has('no-fashion')) delete out['fashion'];
  // A serializer shared with search, whose blank match_count is present with value null (search sets it).
  if (variants.has('match-count-null-outside-search')) out['match_count'] = null;
  // The root stands for the whole catalogue: its picture, page, code, title and path mean nothing.
  if (isRoot && variants.has('root-fields-blank')) Object.assign(out, { image_url: null, web_uri: null, code: null, path: null, manufacturer_title: null });
  if (c.imageUrl === null && fault === 'null-field-omitted') delete out['image_url'];
  if (opts.view === 'detail' || variants.has('category-listings-full')) {
    Object.assign(out, {
      family_id: fault === 'family-id-is-parent-id' && c.depth > 0 ? c.parentId : categoryFamilyId(c, variants),
      show_manufacturers_filter: c.showManufacturersFilter,
      adult: c.adult,
      onclick_behaviour: c.onclickBehaviour,
      show_spec_summary: c.showSpecSummary,
      unit_price_label: c.unitPriceLabel,
      reviewable: c.reviewable,
      comparable: c.comparable,
    });
  }
  const shown = applyVersion('category', out, opts.version, fault);
  // The Change history's spelling of the field, in the table's place.
  return variants.has('onclick-behavior-spelling') ? renameKey(shown, 'onclick_behaviour', 'onclick_behavior') : shown;
}

/** family_id; the root, above every family, has none under the variant root-fields-blank. */
export function categoryFamilyId(c: CategoryRecord, variants: Variants): number | null {
  return c.depth === 0 && variants.has('root-fields-blank') ? null : c.familyId;
}

/** `obj` with key `from` renamed `to`, in the same position; unchanged when `from` is absent. */
function renameKey(obj: Record<string, unknown>, from: string, to: string): Record<string, unknown> {
  if (!(from in obj)) return obj;
  return Object.fromEntries(Object.entries(obj).map(([k, v]) => [k === from ? to : k, v]));
}
