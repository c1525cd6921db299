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

/** children_count; the bugs: a leaf says 1 or null; a category with children counts one too many or one too few; a string. */
function childrenCount(c: CategoryRecord, fault: FaultName | null | undefined): number | string | null {
  const isLeaf = c.childIds.length === 0;
  if (isLeaf) return fault === 'leaf-children-count-nonzero' ? 1 : fault === 'leaf-children-count-null' ? null : 0;
  if (fault === 'children-count-zero-based') return c.childIds.length - 1;
  if (fault === 'children-count-as-string') return String(c.childIds.length);
  return fault === 'children-count-off-by-one' ? c.childIds.length + 1 : c.childIds.length;
}

export function serializeCategory(c: CategoryRecord, opts: CategoryOptions): Record<string, unknown> {
  const { fault } = opts;
  const variants = opts.variants ?? NO_VARIANTS;
  const isRoot = c.depth === 0;
  const out: Record<string, unknown> = {
    id: c.id,
    name: fault === 'category-name-localized' ? { en: c.name } : c.name,
    children_count: childrenCount(c, fault),
    image_url: fault === 'category-image-url-object' && c.imageUrl !== null ? { url: c.imageUrl } : c.imageUrl,
    parent_id: parentId(c, fault),
    fashion: fault === 'fashion-as-tinyint' ? Number(c.fashion) : c.fashion,
    layout_mode: layoutMode(c, opts),
    // Before 3.0.18, which brought layout_mode (variant implements-3.0.0 serves it): tiles or not.
    show_in_tiles: c.layoutMode !== 'list',
    web_uri: fault === 'category-web-uri-object' ? { href: c.webUri } : c.webUri,
    code: fault === 'category-code-is-id' ? c.id : c.code,
    path: categoryPath(c, fault),
    show_specifications: fault === 'show-specifications-as-string' ? String(c.showSpecifications) : c.showSpecifications,
    manufacturer_title: fault === 'manufacturer-title-localized' ? { en: c.manufacturerTitle } : c.manufacturerTitle,
  };
  // 3.0.18 says layout_mode replaces fashion: a deployment may have dropped it.
  if (variants.has('no-fashion')) delete out['fashion'];
  // A serializer shared with search, whose blank match_count is present with value null (search sets it).
  if (variants.has('match-count-null-outside-search')) out['match_count'] = null;
  if (fault === 'match-count-outside-search') out['match_count'] = 0;
  // The root stands for the whole catalogue: its picture, page, code, title and path mean nothing.
  if (isRoot && variants.has('root-fields-blank')) Object.assign(out, { image_url: null, web_uri: null, code: null, path: null, manufacturer_title: null });
  if (c.imageUrl === null && fault === 'null-field-omitted') delete out['image_url'];
  if (opts.view === 'list' && fault === 'listed-categories-without-web-uri') delete out['web_uri'];
  if (opts.view === 'detail' && fault === 'detail-fields-missing') {
    out['family_id'] = categoryFamilyId(c, variants);
  } else if (opts.view === 'detail' || variants.has('category-listings-full')) {
    Object.assign(out, detailFields(c, fault, variants));
    if (fault === 'family-id-missing') delete out['family_id'];
  }
  const shown = applyVersion('category', out, opts.version, fault);
  // The Change history's spelling of the field, in the table's place.
  return variants.has('onclick-behavior-spelling') ? renameKey(shown, 'onclick_behaviour', 'onclick_behavior') : shown;
}

/** parent_id; the bugs: the root its own parent or null, every parent_id a string. */
function parentId(c: CategoryRecord, fault: FaultName | null): number | string | null {
  if (c.depth === 0 && fault === 'root-parent-id-self') return c.id;
  if (c.depth === 0 && fault === 'root-parent-id-null') return null;
  return fault === 'parent-id-as-string' ? String(c.parentId) : c.parentId;
}

/** layout_mode; variant wide-tiles-after-3-0: wide_tiles came later than layout_mode (3.0.18), so the 3.0 series shows tiles. */
function layoutMode(c: CategoryRecord, opts: CategoryOptions): string | number {
  const variants = opts.variants ?? NO_VARIANTS;
  if (opts.fault === 'layout-mode-enum-index') return LAYOUT_MODES.indexOf(c.layoutMode);
  if (c.layoutMode !== 'wide_tiles') return c.layoutMode;
  if (opts.fault === 'layout-mode-grid') return 'grid';
  return variants.has('wide-tiles-after-3-0') && opts.version.minor === 0 ? 'tiles' : c.layoutMode;
}
const LAYOUT_MODES = ['list', 'tiles', 'wide_tiles'];

/** path: ids from the root down, comma-separated; the bugs: reversed, without the parent, slash-separated, an array. */
function categoryPath(c: CategoryRecord, fault: FaultName | null): string | number[] {
  const ids = fault === 'path-reversed' ? [...c.pathIds].reverse() : fault === 'path-skips-parent' && c.depth >= 2 ? c.pathIds.filter((_, i) => i !== c.depth - 1) : [...c.pathIds];
  if (fault === 'path-as-array') return ids;
  return ids.join(fault === 'path-slash-separated' ? '/' : ',');
}

/** The single-category fields; the bugs: tinyint booleans, enum indexes, objects for strings. */
function detailFields(c: CategoryRecord, fault: FaultName | null, variants: Variants): Record<string, unknown> {
  const familyId = fault === 'family-id-is-parent-id' && c.depth > 0 ? c.parentId : categoryFamilyId(c, variants);
  return {
    family_id: fault === 'family-id-as-string' && familyId !== null ? String(familyId) : familyId,
    show_manufacturers_filter: fault === 'show-manufacturers-filter-as-tinyint' ? Number(c.showManufacturersFilter) : c.showManufacturersFilter,
    adult: fault === 'adult-as-tinyint' ? Number(c.adult) : c.adult,
    onclick_behaviour: fault === 'onclick-behaviour-enum-index' ? ['show_skus', 'show_children'].indexOf(c.onclickBehaviour) : c.onclickBehaviour,
    show_spec_summary: fault === 'show-spec-summary-as-tinyint' ? Number(c.showSpecSummary) : c.showSpecSummary,
    unit_price_label: fault === 'unit-price-label-object' ? { unit: c.unitPriceLabel.replace(/^per /, '') } : c.unitPriceLabel,
    reviewable: fault === 'reviewable-as-tinyint' ? Number(c.reviewable) : c.reviewable,
    comparable: fault === 'comparable-as-string' ? String(c.comparable) : c.comparable,
  };
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
