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
    description: 'blp.final_price is price plus shipping cost only, leaving out the payment method cost.',
  },
  'order-by-final-price-sorts-by-net-price': {
    requirement: 'PRD-14',
    description: 'order_by=final_price is reported in meta.ordered_by but the products are sorted by net price.',
  },
  'size-filter-includes-next-size': {
    requirement: 'PRD-15',
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
    // The 3.2.1 Change history row dates this very filter.
    consequences: ['CHG-1'],
    description: 'availability is validated as a positive integer of days, so availability=0 (immediate) is refused with 400.',
  },
  'zero-installments-true-refused': {
    requirement: 'PRD-18',
    // The 3.2.1 Change history row dates this very filter.
    consequences: ['CHG-1'],
    description: 'zero_installments is parsed as 1 or 0 only, so zero_installments=true (and false) is refused with 400.',
  },
  'future-sku-price-history': {
    requirement: 'HIST-4',
    description: 'A future SKU (not yet released, too new for any price) returns a price history of the last 30 days.',
  },
  'future-sku-price-history-500': {
    requirement: 'HIST-4',
    description: 'The price history of a future SKU fails with 500 (no price to average), instead of no data.',
  },
  'price-history-older-than-six-months': {
    requirement: 'HIST-3',
    // The same window, stated again in the Limits table.
    consequences: ['HIST-6'],
    description: 'Price history starts 240 days back, older than the 6-month window.',
  },
  'shop-review-score-not-rounded': {
    requirement: 'SHOP-3',
    // The 3.0.23 Change history row dates this very rounding.
    consequences: ['CHG-7'],
    description: 'Shop review_score is the live average of the counted reviews, not rounded to 1 decimal.',
  },
  'unstructured-address-fields-not-null': {
    requirement: 'SHOP-13',
    description: 'The embedded address of an unstructured location carries parts split from full_address instead of null fields.',
  },
  'product-embed-shop-ignored': {
    requirement: 'PRD-13',
    // The shop row of the Product table (PRD-8), the general embed rule (LINK-1), and a documented field left out (GEN-8: never omitted).
    consequences: ['PRD-8', 'LINK-1', 'GEN-8'],
    description: 'GET /products/:id ignores embed=shop: the product comes without its shop.',
  },
  'location-id-ignored': {
    requirement: 'SHOP-18',
    description: "GET /shops/:shop_id/locations/:id answers the shop's first location whatever the id asked.",
  },
} satisfies Record<string, FaultInfo>;
