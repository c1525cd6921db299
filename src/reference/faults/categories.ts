// Faults of the Category resource's fields and the category endpoints' envelopes (see ../faults.ts):
// one per clause of the Category table and the category rows of Endpoints (issue 38, point 2),
// each breaking that clause alone. Field types go wrong as they do in real servers: booleans from
// a tinyint column, counts from a COUNT() that the driver gives as a string, enum indexes, a
// localized object where a string belongs.

import type { FaultInfo } from './types.ts';

export const CATEGORY_FAULTS = {
  'category-name-localized': {
    requirement: 'CAT-4',
    clause: 'CAT-4#2',
    description: 'Category name is a localized object ({"en": "..."}) instead of a string.',
  },
  'category-image-url-object': {
    requirement: 'CAT-4',
    clause: 'CAT-4#3',
    description: 'A category with a picture gives image_url as an object ({"url": "..."}) instead of a string.',
  },
  'fashion-as-tinyint': {
    requirement: 'CAT-4',
    clause: 'CAT-4#4',
    description: 'Category fashion is 0 or 1 (a tinyint column) instead of a boolean.',
  },
  'category-web-uri-object': {
    requirement: 'CAT-4',
    clause: 'CAT-4#5',
    description: 'Category web_uri is an object ({"href": "..."}) instead of a string.',
  },
  'category-code-is-id': {
    requirement: 'CAT-4',
    clause: 'CAT-4#6',
    description: "Category code is the category's integer id (a legacy numeric code) instead of a string.",
  },
  'show-specifications-as-string': {
    requirement: 'CAT-4',
    clause: 'CAT-4#7',
    description: 'Category show_specifications is the string "true" or "false" instead of a boolean.',
  },
  'manufacturer-title-localized': {
    requirement: 'CAT-4',
    clause: 'CAT-4#8',
    description: 'Category manufacturer_title is a localized object ({"en": "..."}) instead of a string.',
  },
  'listed-categories-without-web-uri': {
    requirement: 'CAT-4',
    clause: 'CAT-4#9',
    // A field left out, never omitted (GEN-8).
    consequences: ['GEN-8'],
    description: 'Categories in listings (GET /categories, children) leave out web_uri; single-category answers keep it.',
  },
  'children-count-as-string': {
    requirement: 'CAT-5',
    clause: 'CAT-5#1',
    description: 'Category children_count is a string ("3"), as a driver gives a COUNT(), instead of an integer.',
  },
  'children-count-zero-based': {
    requirement: 'CAT-5',
    // It breaks CAT-5#3 too (the count is the number of children), of the same statement.
    clause: 'CAT-5#2',
    description: 'A category with children reports one child fewer than it has, so one with a single child says 0, as a leaf would.',
  },
  'parent-id-as-string': {
    requirement: 'CAT-6',
    clause: 'CAT-6#1',
    // The root's "0" is not the 0 stated (CAT-18), and no string parent_id names an integer id, so the parent, children and path relations fail with it.
    consequences: ['CAT-18', 'CAT-17', 'CAT-19', 'CAT-9'],
    description: 'Category parent_id is a string ("12"; the root\'s "0") instead of an integer.',
  },
  'layout-mode-enum-index': {
    requirement: 'CAT-8',
    clause: 'CAT-8#1',
    description: 'Category layout_mode is the enum index (0 list, 1 tiles, 2 wide_tiles) instead of a string.',
  },
  'layout-mode-grid': {
    requirement: 'CAT-8',
    clause: 'CAT-8#2',
    description: 'Categories shown in wide tiles report layout_mode "grid", a value outside list, tiles and wide_tiles.',
  },
  'path-as-array': {
    requirement: 'CAT-9',
    clause: 'CAT-9#1',
    description: 'Category path is an array of integer ids instead of a comma-separated string.',
  },
  'path-slash-separated': {
    requirement: 'CAT-9',
    clause: 'CAT-9#2',
    description: 'Category path separates its ids with slashes ("1/4/12") instead of commas.',
  },
  'path-skips-parent': {
    requirement: 'CAT-9',
    clause: 'CAT-9#4',
    description: "The path of a category two or more levels below the root leaves out its parent's id (root first, own id last).",
  },
  'family-id-as-string': {
    requirement: 'CAT-10',
    clause: 'CAT-10#1',
    description: 'Single-category answers give family_id as a string instead of an integer.',
  },
  'family-id-missing': {
    requirement: 'CAT-10',
    clause: 'CAT-10#2',
    // A field left out (GEN-8) that 3.1.2 added (CHG-4): the versioning matrix takes every version asked for one that lacks it.
    consequences: ['GEN-8', 'CHG-4', 'CAT-12', 'VER-7', 'VER-9', 'VER-10'],
    description: 'GET /categories/:id leaves family_id out (the other single-category fields are there).',
  },
  'show-manufacturers-filter-as-tinyint': {
    requirement: 'CAT-12',
    clause: 'CAT-12#1',
    description: 'Single-category show_manufacturers_filter is 0 or 1 instead of a boolean.',
  },
  'adult-as-tinyint': {
    requirement: 'CAT-12',
    clause: 'CAT-12#2',
    description: 'Single-category adult is 0 or 1 instead of a boolean.',
  },
  'onclick-behaviour-enum-index': {
    requirement: 'CAT-12',
    clause: 'CAT-12#3',
    description: 'Single-category onclick_behaviour is an enum index (0 show_skus, 1 show_children) instead of a string.',
  },
  'show-spec-summary-as-tinyint': {
    requirement: 'CAT-12',
    clause: 'CAT-12#4',
    description: 'Single-category show_spec_summary is 0 or 1 instead of a boolean.',
  },
  'unit-price-label-object': {
    requirement: 'CAT-12',
    clause: 'CAT-12#5',
    description: 'Single-category unit_price_label is an object ({"unit": "kg"}) instead of a string.',
  },
  'reviewable-as-tinyint': {
    requirement: 'CAT-12',
    clause: 'CAT-12#6',
    description: 'Single-category reviewable is 0 or 1 instead of a boolean.',
  },
  'comparable-as-string': {
    requirement: 'CAT-12',
    clause: 'CAT-12#7',
    description: 'Single-category comparable is the string "true" or "false" instead of a boolean.',
  },
  'detail-fields-missing': {
    requirement: 'CAT-12',
    clause: 'CAT-12#8',
    // Fields left out (GEN-8) that 3.2.0 added (CHG-2): the versioning matrix takes every version asked for one that lacks them.
    consequences: ['GEN-8', 'CHG-2', 'CAT-10', 'VER-7', 'VER-9', 'VER-10'],
    description: 'GET /categories/:id serializes the category as a listing does: the single-category fields but family_id are left out.',
  },
  'match-count-outside-search': {
    requirement: 'CAT-14',
    clause: 'CAT-14#3',
    description: 'Categories outside search carry match_count 0 (a value) instead of no match_count.',
  },
  'category-under-data-key': {
    requirement: 'CAT-16',
    clause: 'CAT-16#1',
    // The envelope is keyed by the resource name (GEN-7).
    consequences: ['GEN-7'],
    description: 'GET /categories/:id answers {data: {...}} instead of {category: {...}}.',
  },
  'parent-under-parent-key': {
    requirement: 'CAT-17',
    clause: 'CAT-17#1',
    // The envelope is keyed by the resource name (GEN-7).
    consequences: ['GEN-7'],
    description: 'GET /categories/:id/parent answers {parent: {...}} instead of {category: {...}}.',
  },
  'root-under-root-key': {
    requirement: 'CAT-18',
    clause: 'CAT-18#1',
    // The envelope is keyed by the resource name (GEN-7).
    consequences: ['GEN-7'],
    description: 'GET /categories/root answers {root: {...}} instead of {category: {...}}.',
  },
  'children-under-children-key': {
    requirement: 'CAT-19',
    clause: 'CAT-19#1',
    // The envelope is keyed by the resource name (GEN-7).
    consequences: ['GEN-7'],
    description: 'GET /categories/:id/children answers {children: [...], meta} instead of {categories: [...], meta}.',
  },
  'root-endpoint-parent-id-null': {
    requirement: 'CAT-18',
    clause: 'CAT-18#2',
    // The root's parent_id 0 is CAT-6's too.
    consequences: ['CAT-6'],
    description: 'GET /categories/root gives the root parent_id null; the listings give it 0.',
  },
  'categories-per-ignored': {
    // Its row's own clause (CAT-15#2) restates PAG-4 for this endpoint: the checks judge per as PAG-4's.
    requirement: 'PAG-4',
    clause: 'PAG-4#1',
    description: 'GET /categories reads page but not per: every page holds 25 categories.',
  },
  'children-drops-first-child': {
    requirement: 'CAT-19',
    clause: 'CAT-19#3',
    description: 'GET /categories/:id/children of a category with two or more children leaves out the first one.',
  },
  'specifications-under-data-key': {
    requirement: 'CAT-20',
    clause: 'CAT-20#1',
    // The envelope is keyed by the resource name (GEN-7).
    consequences: ['GEN-7'],
    description: 'GET /categories/:id/specifications answers {data: [...]} instead of {specifications: [...]}.',
  },
  'category-manufacturers-under-brands-key': {
    requirement: 'CAT-21',
    clause: 'CAT-21#1',
    // The envelope is keyed by the resource name (GEN-7).
    consequences: ['GEN-7'],
    description: 'GET /categories/:id/manufacturers answers {brands: [...], meta} instead of {manufacturers: [...], meta}.',
  },
  'category-manufacturers-name-order-ignored': {
    requirement: 'CAT-21',
    clause: 'CAT-21#3',
    description: 'GET /categories/:id/manufacturers with order_by=name orders them by popularity.',
  },
  'category-manufacturers-per-ignored': {
    // Its row's own clause (CAT-21#6) restates PAG-4 for this endpoint: the checks judge per as PAG-4's.
    requirement: 'PAG-4',
    clause: 'PAG-4#1',
    description: 'GET /categories/:id/manufacturers reads page but not per: every page holds 25 manufacturers.',
  },
  'filter-groups-under-groups-key': {
    requirement: 'CAT-24',
    clause: 'CAT-24#1',
    // The envelope is keyed by the resource name (GEN-7).
    consequences: ['GEN-7'],
    description: 'GET /categories/:id/filter_groups answers {groups: [...], meta} instead of {filter_groups: [...], meta}.',
  },
  'filter-groups-per-ignored': {
    // Its row's own clause (CAT-24#2) restates PAG-4 for this endpoint: the checks judge per as PAG-4's.
    requirement: 'PAG-4',
    clause: 'PAG-4#1',
    description: 'GET /categories/:id/filter_groups reads page but not per: every page holds 25 groups.',
  },
  'category-skus-under-products-key': {
    requirement: 'CAT-26',
    clause: 'CAT-26#1',
    // The envelope is keyed by the resource name (GEN-7); the include_meta[] answers are the same listing (CAT-35).
    consequences: ['GEN-7', 'CAT-35'],
    description: 'GET /categories/:id/skus answers {products: [...], meta} instead of {skus: [...], meta}.',
  },
  'category-skus-stray-sku-last': {
    requirement: 'CAT-26',
    clause: 'CAT-26#2',
    // The stray SKU's manufacturer is not among the leaf's manufacturers (CAT-21).
    consequences: ['CAT-21'],
    description: "The last page of a leaf's unfiltered SKU listing also holds one SKU of another leaf.",
  },
  'available-filters-not-added': {
    requirement: 'CAT-35',
    clause: 'CAT-35#1',
    // meta.available_filters is what FILT-3 describes.
    consequences: ['FILT-3'],
    description: 'GET /categories/:id/skus accepts include_meta[]=available_filters but adds no meta.available_filters.',
  },
  'applied-filters-not-added': {
    requirement: 'CAT-35',
    clause: 'CAT-35#2',
    description: 'GET /categories/:id/skus accepts include_meta[]=applied_filters but adds no meta.applied_filters.',
  },
  'ordered-by-missing': {
    requirement: 'CAT-37',
    clause: 'CAT-37#1',
    // A field left out (GEN-8).
    consequences: ['GEN-8'],
    description: "The category SKU listing's meta has no ordered_by.",
  },
  'ordered-by-always-default': {
    requirement: 'CAT-37',
    clause: 'CAT-37#2',
    description: "The category SKU listing's meta.ordered_by names the default method whatever order_by asked (the SKUs are ordered as asked).",
  },
  'order-by-methods-missing': {
    requirement: 'CAT-37',
    clause: 'CAT-37#3',
    // A field left out (GEN-8) that 3.2.0 added (CHG-2).
    consequences: ['GEN-8', 'CHG-2'],
    description: "The category SKU listing's meta has no order_by_methods.",
  },
  'order-by-methods-labels-objects': {
    requirement: 'CAT-37',
    clause: 'CAT-37#4',
    description: 'meta.order_by_methods maps each method to an object ({"label": "..."}) instead of its label.',
  },
} satisfies Record<string, FaultInfo>;
