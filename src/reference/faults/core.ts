// Faults of the category endpoints, pagination and the request pipeline (see ../faults.ts).

import type { FaultInfo } from './types.ts';

export const CORE_FAULTS = {
  'malformed-json-500': {
    requirement: 'ERR-4',
    description: 'A request body that is not valid JSON makes the server fail: 500 InternalServerError instead of 400.',
  },
  'non-integer-id-500': {
    requirement: 'GEN-15',
    description: 'A path placeholder that is not an integer (GET /categories/abc) makes the server fail: 500 instead of 404 or 400.',
  },
  'unknown-route-html-200': {
    requirement: 'ERR-9',
    description: "A path no route serves gets 200 with the web front end's HTML page (a catch-all route) instead of 404 with the errors body.",
  },
  'leaf-children-count-nonzero': {
    requirement: 'CAT-3',
    description: 'Leaf categories report children_count 1 instead of 0.',
  },
  'root-parent-id-self': {
    requirement: 'CAT-6',
    description: 'The root category reports its own id as parent_id instead of 0.',
  },
  'path-reversed': {
    requirement: 'CAT-9',
    description: 'Category path lists ids from the category up to the root instead of root down.',
  },
  'null-field-omitted': {
    requirement: 'GEN-8',
    description: 'A blank image_url is omitted from the category object instead of being present as null.',
  },
  'pagination-total-pages-off-by-one': {
    requirement: 'PAG-1',
    description: 'meta.pagination.total_pages is one more than the real number of pages.',
  },
  'link-header-missing': {
    requirement: 'PAG-5',
    description: 'Paginated responses carry no Link header even when other pages exist.',
  },
  'children-count-off-by-one': {
    requirement: 'CAT-5',
    description: 'A category with children reports children_count one more than the children it has (leaves stay 0).',
  },
  'children-includes-grandchildren': {
    requirement: 'CAT-19',
    description: 'GET /categories/:id/children lists grandchildren as well as direct children.',
  },
  'not-found-wrong-body': {
    requirement: 'ERR-2',
    description: 'An unknown record gives 404 with body {"error":"not found"} instead of the errors format.',
  },
  'default-per-not-25': {
    requirement: 'PAG-2',
    description: 'Collections return 20 items per page when no per is sent, instead of 25.',
  },
  'page-param-ignored': {
    requirement: 'PAG-3',
    description: 'The page parameter is ignored: every request gets the first page.',
  },
  'link-drops-base-path': {
    requirement: 'GEN-14',
    description: 'Link URLs are built from the route path, not the request path: behind a base path (/api) they lack it and lead to no endpoint.',
  },
  'redirect-without-location': {
    requirement: 'RED-3',
    description: 'The API moved from /v3 to its base path: the old URLs answer 301, but one with a query gets no Location header (the rewrite rule does not match it).',
  },
  'link-next-drops-query': {
    requirement: 'PAG-5',
    description: 'Link header URLs keep only page=, dropping the other query parameters (such as per).',
  },
  'parent-returns-self': {
    requirement: 'CAT-17',
    description: 'GET /categories/:id/parent answers with the category itself instead of its parent.',
  },
  'ratelimit-headers-missing-on-errors': {
    requirement: 'RATE-4',
    description: 'X-RateLimit-* headers are left out of 4xx responses.',
  },
  'unauthorized-messages-string': {
    requirement: 'ERR-2',
    description: 'The body of a 401 carries messages as one string instead of an array of strings.',
  },
  'token-in-query-ignored': {
    requirement: 'SEND-2',
    description: 'An access token sent as the oauth_token query parameter is ignored, so such requests get 401.',
  },
} satisfies Record<string, FaultInfo>;
