// Faults of search, autocomplete, category specifications/manufacturers/filter groups/SKU listing, manufacturers (see ../faults.ts).

import type { FaultInfo } from './types.ts';

export const CATALOG_FAULTS = {
  'search-short-query-accepted': {
    requirement: 'SRCH-9',
    clause: 'SRCH-9#1',
    // The same rule, stated again in the Limits table (SRCH-12) and the InvalidSearch code (ERR-15).
    consequences: ['SRCH-12', 'ERR-15'],
    description: 'GET /search accepts a 1-character q with 200 instead of answering 422 InvalidSearch.',
  },
  'search-no-match-404': {
    requirement: 'SRCH-8',
    clause: 'SRCH-8#1',
    description: 'A search that matches nothing answers 404 RecordNotFound instead of 200 with an empty categories array.',
  },
  'search-match-count-missing': {
    requirement: 'CAT-14',
    clause: 'CAT-14#2',
    // A field left out (GEN-8: never omitted), and the match_count row is in the Category table too (CAT-4).
    consequences: ['GEN-8', 'CAT-4'],
    description: 'Categories returned by search (the listed ones and the strong match) carry no match_count.',
  },
  'search-finds-nothing': {
    requirement: 'SRCH-1',
    description: 'GET /search finds nothing for any query (the index is empty): 200, an empty categories array and no strong match, well-formed.',
  },
  'search-matches-everything': {
    requirement: 'SRCH-8',
    description: 'GET /search checks q but then searches without it: every query lists every category holding SKUs.',
  },
  'autocomplete-ignores-q': {
    requirement: 'SRCH-6',
    clause: 'SRCH-6#3',
    // Suggestions whatever q is are not suggestions for q (SRCH-10.a).
    consequences: ['SRCH-10'],
    description: 'GET /autocomplete suggests the first names of the catalogue whatever q is, each with i 0.',
  },
  'favorited-always-false': {
    requirement: 'SKU-7',
    clause: 'SKU-7#3',
    description: "The category SKU listing looks up the favorites of no user, so favorited is false on every SKU, also those in the user's favorite lists.",
  },
  'invalid-order-by-500': {
    requirement: 'ERR-1',
    clause: 'ERR-1#1',
    description: 'An order_by value the listing does not know makes the server fail: 500 InternalServerError instead of a 400 (or the default order).',
  },
  'sku-q-filter-ignored': {
    requirement: 'CAT-29',
    clause: 'CAT-29#1',
    description: 'The category SKU listing reads its keyword from another parameter, so q is never applied: every SKU of the category is listed.',
  },
  'sku-q-filter-whole-name': {
    requirement: 'CAT-29',
    clause: 'CAT-29#1',
    description: 'The category SKU listing keeps only SKUs whose whole name equals q, so a word of a name keeps nothing.',
  },
  'sku-order-by-pricevat-refused': {
    requirement: 'CAT-27',
    clause: 'CAT-27#1',
    // A value the endpoint lists refused: the general rule that the listed values are the allowed ones (ORD-1.i: meta.order_by_methods).
    consequences: ['ORD-1'],
    description: 'The category SKU listing checks order_by against a fixed list, so the pricevat key of meta.order_by_methods gets 400.',
  },
  'category-manufacturers-order-dir-ignored': {
    requirement: 'CAT-21',
    clause: 'CAT-21#5',
    description: 'GET /categories/:id/manufacturers ignores order_dir and always uses the default direction.',
  },
  'category-manufacturers-miss-one': {
    requirement: 'CAT-21',
    clause: 'CAT-21#2',
    description: 'GET /categories/:id/manufacturers leaves out the manufacturer of the most SKUs of the category.',
  },
  'filter-groups-of-another-category': {
    requirement: 'CAT-24',
    clause: 'CAT-24#3',
    description: 'GET /categories/:category_id/filter_groups lists the filter groups of another leaf, neither the category nor one of its ancestors.',
  },
  'filter-groups-cache-control-missing': {
    requirement: 'CAT-25',
    clause: 'CAT-25#1',
    // The 3.0.3 Change history row dates this very caching.
    consequences: ['CHG-28'],
    description: 'GET /categories/:category_id/filter_groups answers without Cache-Control: max-age=300, private.',
  },
  'specifications-groups-array-missing': {
    requirement: 'LINK-5',
    clause: 'LINK-5#1',
    // The general include rule's top-level array (LINK-3), a key of the answer's envelope left out (GEN-7.d: the wrapper holds the include arrays).
    consequences: ['LINK-3', 'GEN-7'],
    description: 'Category specifications with include=group carry group_id but no top-level groups array.',
  },
  'specifications-out-of-order': {
    requirement: 'CHG-7',
    clause: 'CHG-7#4',
    description: 'Category specifications come in descending order instead of ascending order.',
  },
  'category-skus-favorited-missing': {
    requirement: 'SKU-7',
    clause: 'SKU-7#2',
    // The 3.1.0 Change history row dates this very field (CHG-6), and a documented field left out (GEN-8: never omitted).
    consequences: ['CHG-6', 'GEN-8'],
    description: 'SKUs of the category SKU listing carry no favorited field for user tokens.',
  },
  'sku-filter-ids-ignored': {
    requirement: 'CAT-31',
    clause: 'CAT-31#2',
    description: 'The category SKU listing ignores filter_ids[] and returns the unfiltered SKUs.',
  },
  'manufacturer-ids-dropped-with-order-by': {
    requirement: 'CAT-30',
    clause: 'CAT-30#1',
    description: 'The category SKU listing drops manufacturer_ids[] when order_by is given too (each alone works).',
  },
  'sku-shop-filter-ignored': {
    requirement: 'CAT-32',
    clause: 'CAT-32#1',
    description: 'The category SKU listing ignores shop_ids[] and returns the SKUs of every shop.',
  },
  'sku-distance-takes-km': {
    requirement: 'CAT-33',
    clause: 'CAT-33#1',
    description:
      'The category SKU listing reads distance as km (as the product lists do) and checks it against the km of the options, so the id of an option of meta distances gets 400.',
  },
  'sku-availability-filter-drops-category': {
    requirement: 'CAT-34',
    description: 'With availability the category SKU listing loses its category scope and lists the matching SKUs of every category.',
  },
  'manufacturer-categories-order-dir-ignored': {
    requirement: 'MAN-4',
    clause: 'MAN-4#3',
    description: 'GET /manufacturers/:id/categories ignores order_dir: by name always A to Z, by popularity always the most popular first.',
  },
  'sku-rating-order-reversed': {
    requirement: 'CHG-22',
    clause: 'CHG-22#1',
    description: 'The category SKU listing sorts order_by=rating the wrong way round: order_dir=desc lists the lowest reviewscore first, asc the highest.',
  },
  'category-skus-order-dir-ignored': {
    requirement: 'CAT-28',
    clause: 'CAT-28#1',
    description: 'The category SKU listing ignores order_dir: every method sorts in its default direction (price ascending, rating descending), whatever is asked.',
  },
  'manufacturer-skus-price-order-reversed': {
    requirement: 'MAN-5',
    clause: 'MAN-5#3',
    description: 'GET /manufacturers/:id/skus sorts order_by=price the wrong way round: order_dir=asc lists the dearest SKUs first, desc the cheapest.',
  },
  'short-query-answered-400': {
    requirement: 'ERR-15',
    clause: 'ERR-15#1',
    // The same rule, stated in the search row (SRCH-9) and the Limits table (SRCH-12).
    consequences: ['SRCH-9', 'SRCH-12'],
    description: 'GET /search refuses a 1-character q with 400 InvalidSearch instead of 422.',
  },
  'match-count-as-string': {
    requirement: 'CAT-14',
    clause: 'CAT-14#1',
    // The match_count row is in the Category table too (CAT-4).
    consequences: ['CAT-4'],
    description: 'Categories returned by search give match_count as a string instead of an integer.',
  },
} satisfies Record<string, FaultInfo>;
