// Faults of SKU products, product cards, SKU specifications, price history, products, shops, shop reviews and locations (see ../faults.ts).

import type { FaultInfo } from './types.ts';

export const PRODUCT_FAULTS = {
  'sku-specifications-paginated': {
    requirement: 'SKU-14',
    description: 'GET /skus/:id/specifications is paginated: meta.pagination is added and per cuts the list.',
  },
  'sku-specifications-sorted-by-name': {
    requirement: 'CHG-7',
    description: 'SKU specifications come sorted by name instead of by their order field.',
  },
  'final-price-omits-payment-cost': {
    requirement: 'PRD-14',
    clause: 'PRD-14#4',
    description: 'blp.final_price is price plus shipping cost only, leaving out the payment method cost.',
  },
  'order-by-final-price-sorts-by-net-price': {
    requirement: 'PRD-14',
    clause: 'PRD-14#3',
    description: 'order_by=final_price is reported in meta.ordered_by but the products are sorted by net price.',
  },
  'size-filter-includes-next-size': {
    requirement: 'PRD-15',
    clause: 'PRD-15#1',
    description: 'The size filter 40 also keeps products whose size is exactly 41 (the upper bound is inclusive).',
  },
  'distance-filter-lists-other-skus': {
    requirement: 'PRD-16',
    // The 3.2.1 Change history row dates this very filter.
    consequences: ['CHG-1'],
    description: 'With distance, the product list loses its SKU scope: products of every SKU within that distance are listed.',
  },
  'availability-zero-refused': {
    requirement: 'PRD-17',
    clause: 'PRD-17#1',
    // The 3.2.1 Change history row dates this very filter.
    consequences: ['CHG-1'],
    description: 'availability is validated as a positive integer of days, so availability=0 (immediate) is refused with 400.',
  },
  'zero-installments-true-refused': {
    requirement: 'PRD-18',
    clause: 'PRD-18#1',
    // The 3.2.1 Change history row dates this very filter.
    consequences: ['CHG-1'],
    description: 'zero_installments is parsed as 1 or 0 only, so zero_installments=true (and false) is refused with 400.',
  },
  'future-sku-price-history': {
    requirement: 'HIST-4',
    clause: 'HIST-4#1',
    description: 'A future SKU (not yet released, too new for any price) returns a price history of the last 30 days.',
  },
  'future-sku-price-history-500': {
    requirement: 'HIST-4',
    description: 'The price history of a future SKU fails with 500 (no price to average), instead of no data.',
  },
  'price-history-older-than-six-months': {
    requirement: 'HIST-3',
    clause: 'HIST-3#1',
    // The same window, stated again in the Limits table.
    consequences: ['HIST-6'],
    description: 'Price history starts 240 days back, older than the 6-month window.',
  },
  'shop-review-score-not-rounded': {
    requirement: 'SHOP-3',
    clause: 'SHOP-3#2',
    // The 3.0.23 Change history row dates this very rounding.
    consequences: ['CHG-7'],
    description: 'Shop review_score is the live average of the counted reviews, not rounded to 1 decimal.',
  },
  'unstructured-address-fields-not-null': {
    requirement: 'SHOP-13',
    clause: 'SHOP-13#2',
    description: 'The embedded address of an unstructured location carries parts split from full_address instead of null fields.',
  },
  'product-embed-shop-ignored': {
    requirement: 'PRD-13',
    clause: 'PRD-13#1',
    // The shop row of the Product table (PRD-8), the general embed rule (LINK-1), and a documented field left out (GEN-8: never omitted).
    consequences: ['PRD-8', 'LINK-1', 'GEN-8'],
    description: 'GET /products/:id ignores embed=shop: the product comes without its shop.',
  },
  'location-id-ignored': {
    requirement: 'SHOP-18',
    clause: 'SHOP-18#2',
    description: "GET /shops/:shop_id/locations/:id answers the shop's first location whatever the id asked.",
  },
  'shop-reviews-count-as-string': {
    requirement: 'SHOP-1',
    clause: 'SHOP-1#3',
    description: 'Shop reviews_count is a string ("12") instead of an integer.',
  },
  'shop-review-score-as-string': {
    requirement: 'SHOP-3',
    clause: 'SHOP-3#1',
    description: 'Shop review_score is a string with one decimal ("4.0") instead of a number.',
  },
  'shop-payment-flags-as-tinyint': {
    requirement: 'SHOP-4',
    clause: 'SHOP-4#2',
    description: "The shop's payment_methods flags (credit_card, paypal, bank, spot_cash) are 0 or 1 instead of booleans.",
  },
  'future-sku-future-as-string': {
    requirement: 'SKU-5',
    clause: 'SKU-5#1',
    description: 'Future SKUs give future as the string "true"; the others keep the boolean false.',
  },
  'sku-reviews-count-as-string': {
    requirement: 'SKU-2',
    clause: 'SKU-2#12',
    description: 'SKU reviews_count is a string instead of an integer.',
  },
  'sku-virtual-as-tinyint': {
    requirement: 'SKU-2',
    clause: 'SKU-2#13',
    description: 'SKU virtual is 0 or 1 instead of a boolean.',
  },
  'sku-reviewscore-as-string': {
    requirement: 'SKU-2',
    clause: 'SKU-2#8',
    description: 'SKU reviewscore is a string ("4.5") where the SKU has reviews, instead of a number.',
  },
  'sku-shop-count-as-string': {
    requirement: 'SKU-2',
    clause: 'SKU-2#9',
    description: 'SKU shop_count is a string ("3") instead of an integer.',
  },
  'shop-latest-reviews-count-as-string': {
    requirement: 'SHOP-1',
    clause: 'SHOP-1#4',
    description: 'Shop latest_reviews_count is a string instead of an integer.',
  },
} satisfies Record<string, FaultInfo>;
