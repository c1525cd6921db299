// Legal variants of the catalogue: categories, search, SKUs, products, shops (see ../variants.ts).

import type { VariantInfo } from './types.ts';

export const CATALOG_VARIANTS = {
  'onclick-behavior-spelling': {
    choice: "onclick_behaviour (the Category table) or onclick_behavior (the 3.2.0 Change history): the reference uses the table's spelling.",
    description: 'Single categories carry onclick_behavior instead of onclick_behaviour.',
    requirements: ['CAT-13', 'CAT-12'],
  },
  'no-fashion': {
    choice: 'fashion, which 3.0.18 says layout_mode replaces: the reference still sends it.',
    description: 'Categories carry no fashion field.',
    requirements: ['CAT-7', 'CHG-12'],
  },
  'family-id-in-search': {
    choice: 'family_id is "present on single-category and some search responses": the reference puts it on strong_matches.category only.',
    description: 'Every category of a search answer carries family_id, the listed ones and the strong match.',
    requirements: ['CAT-10', 'CAT-11'],
    conflicts: ['family-id-not-in-search'],
  },
  'family-id-not-in-search': {
    choice: 'family_id is "present on single-category and some search responses": which search responses is not shown.',
    description: 'No category of a search answer carries family_id, the strong match included.',
    requirements: ['CAT-10', 'CAT-11'],
    conflicts: ['family-id-in-search'],
  },
  'manufacturers-default-popularity': {
    choice: 'Default order of manufacturer and category-manufacturer listings: not shown; the reference uses name ascending.',
    description: 'Manufacturer listings without order_by are ordered by popularity, most popular first.',
    requirements: ['ORD-2'],
  },
  'name-order-collation': {
    choice: 'Name ordering: the reference compares case-insensitively by code point, ties by id ascending.',
    description: 'Ordering by name uses a locale collation (Intl.Collator, accents and case ignored), ties by id descending.',
    requirements: ['CAT-21', 'MAN-4'],
  },
  'order-by-methods-all': {
    choice: 'order_by_methods per category: the reference offers a per-category subset.',
    description: 'Every category offers all five SKU order methods (pricevat, rank, rating, popularity, price) in every version.',
    requirements: ['CAT-27', 'CAT-37'],
  },
  'sku-rating-weighted': {
    choice: 'What key order_by=rating sorts by: not shown (a label only); the reference sorts by reviewscore.',
    description: 'order_by=rating sorts by a rating weighted by the number of reviews (reviewscore pulled towards 3 by 5 phantom reviews), so reviewscore alone is not in order.',
    requirements: ['CHG-22', 'CAT-28'],
    // A rating order the kit cannot read from the SKUs' fields: reversed, it looks the same from outside.
    narrows: true,
  },
  'sku-default-order-desc': {
    choice: 'The default order_by and order_dir differ across categories: the reference orders price and rank ascending by default.',
    description: 'The default order_dir of the SKU listing is desc for every method.',
    requirements: ['CAT-36', 'CAT-28'],
  },
  'nonleaf-skus-descendants': {
    choice: 'SKU listing of a non-leaf category: not shown; the reference answers an empty list.',
    description: 'The SKU listing of a non-leaf category lists the SKUs of every leaf below it.',
    requirements: ['CAT-26', 'CAT-2'],
  },
  'filter-ids-and': {
    choice: 'How filter_ids[] combine: not shown; the reference ORs within a filter group and ANDs across groups.',
    description: 'filter_ids[] are combined with AND, within a filter group too.',
    requirements: ['CAT-31'],
  },
  'available-filters-nonzero': {
    choice: 'available_filters counts: the reference lists zero counts too.',
    description: 'Ids with a count of 0 are left out of meta.available_filters (maps and arrays alike).',
    requirements: ['FILT-3'],
  },
  'applied-filters-list': {
    choice: 'Shape of meta.applied_filters: not shown; the reference sends an object of six keys.',
    description: 'meta.applied_filters is an array of {name, value} for the filters applied.',
    requirements: ['FILT-7', 'CAT-35'],
  },
  'favorited-everywhere': {
    choice: 'favorited ("user-authenticated requests; category SKU listing"): for an application token it may be absent or false, and it may appear in other SKU listings too.',
    description: 'Every SKU object carries favorited: true or false for a user token, false for an application token, on every endpoint and version from 3.1.0.',
    requirements: ['SKU-7'],
  },
  'strong-matches-null': {
    choice: 'strong_matches kinds without a match: the reference leaves them out; blank fields are null.',
    description: 'meta.strong_matches always has category, manufacturer and sku, null where nothing matches.',
    requirements: ['SRCH-5', 'GEN-8'],
  },
  'alternatives-always': {
    choice: 'meta.alternatives: the reference fills it only when nothing is found.',
    description: 'meta.alternatives also lists terms (important false) when categories are found.',
    requirements: ['SRCH-3'],
  },
  'alternatives-without-count': {
    choice: 'count of an alternative is optional.',
    description: 'Alternatives carry no count.',
    requirements: ['SRCH-3'],
  },
  'search-q-as-sent': {
    choice: 'meta.q, "the applied query": the reference trims it and makes runs of spaces one.',
    description: 'meta.q is q exactly as sent.',
    requirements: ['SRCH-2'],
  },
  'autocomplete-five': {
    choice: 'Number of autocomplete suggestions: not shown; the reference gives at most 10, and leaves d out where there is none.',
    description: 'Autocomplete gives at most 5 items, and d is null (not absent) on items without one.',
    requirements: ['SRCH-6', 'SRCH-10'],
  },
  'unit-price-number': {
    choice: 'unit_price: "type is given nowhere"; the reference sends a string.',
    description: 'unit_price is a number (or null).',
    requirements: ['SKU-8'],
  },
  'final-price-nulls-first': {
    choice: 'Where products without a final price go when ordered by final_price: not shown; the reference puts them last.',
    description: 'order_by=final_price puts products whose final_price is null first.',
    requirements: ['PRD-14'],
  },
  'product-filter-meta-filtered': {
    choice: 'include_meta[]=filters: the reference computes it over the unfiltered list.',
    description: 'meta.filters is computed over the filtered list.',
    requirements: ['PRD-19', 'FILT-5'],
  },
  'full-description-null': {
    choice: 'meta.full_description is "present if available": the reference leaves it out when there is none.',
    description: 'SKU specifications carry meta.full_description null when there is none.',
    requirements: ['SPEC-6', 'GEN-8'],
  },
  'price-history-weekly': {
    choice: 'Points of the price history: not shown beyond date and price; the reference gives one a day.',
    description: 'The price history has one point a week (the same weekday) over the last 6 months.',
    requirements: ['HIST-2', 'HIST-3'],
  },
  'too-new-30-days': {
    choice: 'Which SKUs are too new for a price history: not shown; the reference says under 7 days.',
    description: 'A SKU added less than 30 days ago is too new: its price history is empty (from 3.2.0).',
    requirements: ['HIST-4'],
  },
  'too-new-history-404': {
    choice: '"No price history for too-new SKUs" (3.2.0): "no data" may be an empty series or no resource; the reference answers an empty series.',
    description: 'The price history of a too-new SKU (a future SKU included) is answered 404 RecordNotFound from 3.2.0.',
    requirements: ['HIST-4', 'CHG-26'],
  },
  'shop-uid-non-integer-400': {
    choice: 'shop_uid is "documented as integer" but is the shop\'s own string: the reference answers a non-integer with an empty list.',
    description: 'A shop_uid that is not an integer is answered 400 InvalidParameter.',
    requirements: ['PRD-12', 'ERR-4'],
  },
  'shop-search-missing-q-422': {
    choice: 'Shop search without q: the reference answers 400 ParameterMissing.',
    description: 'Shop search with q missing or blank is answered 422 InvalidSearch.',
    requirements: ['SHOP-15', 'ERR-11'],
  },
  'shop-rating-breakdown-nonzero': {
    choice: 'shop_rating_breakdown: the reference always sends positive and negative.',
    description: 'An impression with no review is left out of shop_rating_breakdown.',
    requirements: ['SHOP-10'],
  },
  'unstructured-address-id': {
    choice:
      'An unstructured location\'s address: "fields are null when format is unstructured"; whether its id is one of those fields admits two readings (the reference nulls it).',
    description: "An unstructured location's embedded address keeps an integer id (its other fields null); embed_ids and include give that id.",
    requirements: ['SHOP-13'],
  },
  'location-of-other-shop-served': {
    choice: 'GET /shops/:shop_id/locations/:id with the location of another shop: not shown; the reference answers 404.',
    description: 'A location is served under any shop id.',
    requirements: ['SHOP-18'],
  },
} as const satisfies Record<string, VariantInfo>;
