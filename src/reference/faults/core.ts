// Faults of the category endpoints, pagination and the request pipeline (see ../faults.ts).

import type { FaultInfo } from './types.ts';

export const CORE_FAULTS = {
  'malformed-json-500': {
    requirement: 'ERR-4',
    clause: 'ERR-4#2',
    // A 500 shows a server error for the client's mistake: the status does not show the outcome (ERR-1.a: 4xx client errors).
    consequences: ['ERR-1'],
    description: 'A request body that is not valid JSON makes the server fail: 500 InternalServerError instead of 400.',
  },
  'non-integer-id-500': {
    requirement: 'GEN-15',
    clause: 'GEN-15#2',
    // A 500 shows a server error for the client's mistake: the status does not show the outcome (ERR-1.a: 4xx client errors).
    consequences: ['ERR-1'],
    description: 'A path placeholder that is not an integer (GET /categories/abc) makes the server fail: 500 instead of 404 or 400.',
  },
  'unknown-route-html-200': {
    requirement: 'ERR-9',
    clause: 'ERR-9#1',
    // A 200 shows a success where nothing was found (ERR-1), and the HTML page is an API answer that is not JSON (GEN-4, GEN-1).
    consequences: ['ERR-1', 'GEN-4', 'GEN-1'],
    description: "A path no route serves gets 200 with the web front end's HTML page (a catch-all route) instead of 404 with the errors body.",
  },
  'categories-under-singular-key': {
    requirement: 'GEN-7',
    clause: 'GEN-7#2',
    // The endpoints' rows state the same envelope: `{categories, meta}`.
    consequences: ['CAT-15', 'CAT-19'],
    description:
      'Collections of categories (GET /categories, /categories/:id/children) come as an array under the singular key category instead of categories: the API with a bug, not another service.',
  },
  'leaf-children-count-nonzero': {
    requirement: 'CAT-3',
    clause: 'CAT-3#1',
    // The Category table says it again: children_count "0 means leaf".
    consequences: ['CAT-5'],
    description: 'Leaf categories report children_count 1 instead of 0.',
  },
  'root-parent-id-self': {
    requirement: 'CAT-6',
    clause: 'CAT-6#2',
    // GET /categories/root's row says parent_id 0 too (CAT-18), and a root that is its own parent is a cycle in the tree (CAT-1).
    consequences: ['CAT-18', 'CAT-1'],
    description: 'The root category reports its own id as parent_id instead of 0.',
  },
  'root-parent-id-null': {
    requirement: 'CAT-6',
    clause: 'CAT-6#2',
    // GET /categories/root's row says parent_id 0 too (CAT-18).
    consequences: ['CAT-18'],
    description: 'The root category reports parent_id null instead of the 0 the spec states (a wrong value, not a blank field).',
  },
  'leaf-children-count-null': {
    requirement: 'CAT-3',
    clause: 'CAT-3#1',
    // The Category table says it again: children_count "0 means leaf".
    consequences: ['CAT-5'],
    description: 'Leaf categories report children_count null instead of the 0 the spec states (a wrong value, not a blank field).',
  },
  'family-id-is-parent-id': {
    requirement: 'CAT-10',
    clause: 'CAT-10#3',
    description: "Single-category answers carry the parent's id as family_id (the root keeps its family).",
  },
  'path-reversed': {
    requirement: 'CAT-9',
    clause: 'CAT-9#3',
    description: 'Category path lists ids from the category up to the root instead of root down.',
  },
  'null-field-omitted': {
    requirement: 'GEN-8',
    clause: 'GEN-8#1',
    // The Category table gives every category image_url (string or null): the object lacks a field of its table.
    consequences: ['CAT-4'],
    description: 'A blank image_url is omitted from the category object instead of being present as null.',
  },
  'pagination-total-pages-off-by-one': {
    requirement: 'PAG-1',
    clause: 'PAG-1#5',
    description: 'meta.pagination.total_pages is one more than the real number of pages.',
  },
  'link-header-missing': {
    requirement: 'PAG-5',
    clause: 'PAG-5#1',
    description: 'Paginated responses carry no Link header even when other pages exist.',
  },
  'children-count-off-by-one': {
    requirement: 'CAT-5',
    clause: 'CAT-5#3',
    description: 'A category with children reports children_count one more than the children it has (leaves stay 0).',
  },
  'children-includes-grandchildren': {
    requirement: 'CAT-19',
    clause: 'CAT-19#2',
    description: 'GET /categories/:id/children lists grandchildren as well as direct children.',
  },
  'not-found-wrong-body': {
    requirement: 'ERR-2',
    clause: 'ERR-2#1',
    // That body carries no RecordNotFound code (ERR-14), and lacks the documented errors member (GEN-8.a: documented fields are present).
    consequences: ['ERR-14', 'GEN-8'],
    description: 'An unknown record gives 404 with body {"error":"not found"} instead of the errors format.',
  },
  'default-per-not-25': {
    requirement: 'PAG-2',
    clause: 'PAG-2#1',
    // The Limits table says it again (PAG-7); and Link URLs that leave out per=20 as the default name pages of 25 (PAG-5.h: only a per of 25 may be left out).
    consequences: ['PAG-7', 'PAG-5'],
    description: 'Collections return 20 items per page when no per is sent, instead of 25.',
  },
  'page-param-ignored': {
    requirement: 'PAG-3',
    clause: 'PAG-3#1',
    // GET /skus/:id/reviews's row takes page too (REV-16.a: honouring page and per).
    consequences: ['REV-16'],
    description: 'The page parameter is ignored: every request gets the first page.',
  },
  'link-drops-base-path': {
    requirement: 'GEN-14',
    clause: 'GEN-14#1',
    // Those Link URLs lead to no page: rel=next and rel=last name no URL of the collection's pages.
    consequences: ['PAG-5'],
    description: 'Link URLs are built from the route path, not the request path: behind a base path (/api) they lack it and lead to no endpoint.',
  },
  'redirect-without-location': {
    requirement: 'RED-3',
    clause: 'RED-3#1',
    description: 'The API moved from /v3 to its base path: the old URLs answer 301, but one with a query gets no Location header (the rewrite rule does not match it).',
  },
  'link-next-drops-query': {
    requirement: 'PAG-5',
    clause: 'PAG-5#2',
    description: 'Link header URLs keep only page=, dropping the other query parameters (such as per).',
  },
  'parent-returns-self': {
    requirement: 'CAT-17',
    clause: 'CAT-17#2',
    description: 'GET /categories/:id/parent answers with the category itself instead of its parent.',
  },
  'ratelimit-headers-missing-on-errors': {
    requirement: 'RATE-4',
    clause: 'RATE-4#1',
    description: 'X-RateLimit-* headers are left out of 4xx responses.',
  },
  'unauthorized-messages-string': {
    requirement: 'ERR-2',
    clause: 'ERR-2#3',
    description: 'The body of a 401 carries messages as one string instead of an array of strings.',
  },
  'token-in-query-ignored': {
    requirement: 'SEND-2',
    clause: 'SEND-2#1',
    description: 'An access token sent as the oauth_token query parameter is ignored, so such requests get 401.',
  },
} satisfies Record<string, FaultInfo>;
