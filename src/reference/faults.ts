// Faults: named, realistic single bugs the reference server can be started with, so the
// kit's self-tests can prove that the conformance suites catch each of them.
//
// Each fault is switched on by name (at most one per server) and is guarded by a literal
// `fault === '<name>'` comparison at the one place where that bug would live in a real
// implementation; there is no separate "faulty" code path. Definitions live in faults/<area>.ts,
// one file per area of the API, and are merged here; names must be unique across areas. `requirement` is the id of the
// spec requirement the fault violates, from src/requirements/catalogue.json.

import { CORE_FAULTS } from './faults/core.ts';
import { CATALOG_FAULTS } from './faults/catalog.ts';
import { CATEGORY_FAULTS } from './faults/categories.ts';
import { PRODUCT_FAULTS } from './faults/products.ts';
import { REVIEW_FAULTS } from './faults/reviews.ts';
import { ACCOUNT_FAULTS } from './faults/account.ts';
import { FAVORITE_FAULTS } from './faults/favorites.ts';
import { PROTOCOL_FAULTS } from './faults/protocol.ts';
import { OAUTH_FAULTS } from './faults/oauth.ts';
import { PAGINATION_FAULTS } from './faults/pagination.ts';
import { CACHING_FAULTS } from './faults/caching.ts';
import { VERSIONING_FAULTS } from './faults/versioning.ts';
import type { FaultInfo } from './faults/types.ts';

export type { FaultInfo } from './faults/types.ts';

const FAULT_DEFINITIONS = {
  ...CORE_FAULTS,
  ...CATALOG_FAULTS,
  ...CATEGORY_FAULTS,
  ...PRODUCT_FAULTS,
  ...REVIEW_FAULTS,
  ...ACCOUNT_FAULTS,
  ...FAVORITE_FAULTS,
  ...PROTOCOL_FAULTS,
  ...OAUTH_FAULTS,
  ...PAGINATION_FAULTS,
  ...CACHING_FAULTS,
  ...VERSIONING_FAULTS,
};

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
