// Faults of pagination on every paginated collection (see ../faults.ts). Faults of this area
// defined before this file are in ./protocol.ts and ./core.ts. Each of these breaks one
// collection (or one family) only, so that a check made on a single sample collection misses it:
// suites/pagination.suite.ts runs the same checks on every paginated collection.

import type { FaultInfo } from './types.ts';

export const PAGINATION_FAULTS = {
  // A filter lost on page 2 (issue 38, point 6): the first page is right, the later ones are of
  // another collection, whose total_results is not the one of the collection asked for.
  'search-q-dropped-past-page-1': {
    requirement: 'PAG-1',
    clause: 'PAG-1#4',
    description: 'GET /search applies q on page 1 only: page=2 and later page through every category holding SKUs, as if q were not sent.',
  },
  'shop-search-q-dropped-past-page-1': {
    requirement: 'PAG-1',
    clause: 'PAG-1#4',
    description: 'GET /shops/search applies q on page 1 only: page=2 and later page through every shop.',
  },
  'shop-reviews-per-ignored': {
    requirement: 'PAG-4',
    clause: 'PAG-4#1',
    description: 'GET /shops/:id/reviews ignores per: every page holds up to 25 reviews and meta.pagination.per is 25.',
  },
  'manufacturer-skus-total-counts-page': {
    requirement: 'PAG-1',
    clause: 'PAG-1#4',
    description: 'GET /manufacturers/:id/skus counts only the SKUs of the page it returns in meta.pagination.total_results (and total_pages follows from that count).',
  },
  'favorites-link-missing': {
    requirement: 'PAG-5',
    clause: 'PAG-5#1',
    description: 'The favorites listings (GET /favorites, /favorite_lists/:id/favorites, /categories/:id/favorites) carry no Link header, though other pages exist.',
  },
  'manufacturers-per-as-string': {
    requirement: 'PAG-1',
    clause: 'PAG-1#2',
    // The listing's own row (MAN-2) says it is paginated.
    consequences: ['MAN-2'],
    description: 'GET /manufacturers gives meta.pagination.per as a string ("25") instead of an integer.',
  },
  'manufacturers-page-zero-based': {
    requirement: 'PAG-1',
    clause: 'PAG-1#3',
    // The listing's own row (MAN-2) says it is paginated, and page 0 is not the page asked (PAG-3).
    consequences: ['MAN-2', 'PAG-3'],
    description: 'GET /manufacturers counts meta.pagination.page from 0: its first page says page 0.',
  },
} satisfies Record<string, FaultInfo>;
