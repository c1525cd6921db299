// Faults: named, realistic single bugs the reference server can be started with, so the
// kit's self-tests can prove that the conformance suites catch each of them.
//
// Each fault is switched on by name (at most one per server) and is guarded by a literal
// `fault === '<name>'` comparison at the one place where that bug would live in a real
// implementation; there is no separate "faulty" code path. `requirement` is the id of the
// spec requirement the fault violates, from src/requirements/catalogue.json.

export interface FaultInfo {
  requirement: string;
  description: string;
}

const FAULT_DEFINITIONS = {
  'leaf-children-count-nonzero': {
    requirement: 'CAT-3',
    description: 'Leaf categories report children_count 1 instead of 0.',
  },
  'root-parent-id-null': {
    requirement: 'CAT-6',
    description: 'The root category reports parent_id null instead of 0.',
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
  'children-includes-grandchildren': {
    requirement: 'CAT-19',
    description: 'GET /categories/:id/children lists grandchildren as well as direct children.',
  },
  'not-found-wrong-body': {
    requirement: 'ERR-2',
    description: 'An unknown record gives 404 with body {"error":"not found"} instead of the errors format.',
  },
  'match-count-outside-search': {
    requirement: 'CAT-14',
    description: 'Categories outside search carry match_count (0), a field meant only for search results.',
  },
  'default-per-not-25': {
    requirement: 'PAG-2',
    description: 'Collections return 20 items per page when no per is sent, instead of 25.',
  },
  'page-param-ignored': {
    requirement: 'PAG-3',
    description: 'The page parameter is ignored: every request gets the first page.',
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
  'token-in-query-ignored': {
    requirement: 'SEND-2',
    description: 'An access token sent as the oauth_token query parameter is ignored, so such requests get 401.',
  },
} satisfies Record<string, FaultInfo>;

/** Name of a known fault. */
export type FaultName = keyof typeof FAULT_DEFINITIONS;

/** Every known fault, by name. */
export const FAULTS: Record<string, FaultInfo> = FAULT_DEFINITIONS;

/** Names of all known faults, in definition order. */
export const FAULT_NAMES: readonly FaultName[] = Object.freeze(Object.keys(FAULT_DEFINITIONS) as FaultName[]);

export function isFaultName(name: string): name is FaultName {
  return Object.prototype.hasOwnProperty.call(FAULT_DEFINITIONS, name);
}

/** Validates an option value; throws an Error naming the known faults for an unknown name. */
export function resolveFault(name: string | null | undefined): FaultName | null {
  if (name === null || name === undefined || name === '') return null;
  if (!isFaultName(name)) {
    throw new Error(`Unknown fault "${name}". Known faults: ${FAULT_NAMES.join(', ')}`);
  }
  return name;
}
