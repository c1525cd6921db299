// schemas/endpoints.json: for every endpoint of the spec and each documented status, how the body
// validates (json against a schema, empty, json-or-empty, any). Read here once; the validator
// (validateExchange), the OpenAPI generator and the tests use it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PresenceRule } from './presence.ts';

export type BodyKind = 'json' | 'empty' | 'json-or-empty' | 'any';

export interface BodyExpectation {
  body: BodyKind;
  /** Schema id relative to schemas/ (e.g. "responses/sku.json"); present for json and json-or-empty. */
  schema?: string;
  /** The spec statements that document this status (the endpoint's table row; the Errors rows for the defaults). */
  requirements?: string[];
  /** Fields required only where a condition holds in the exchange (src/schemas/presence.ts). */
  present?: PresenceRule[];
}

/** Status ("200", "422") or class ("4xx", "5xx") -> expectation. */
export type StatusMap = Record<string, BodyExpectation>;

export interface EndpointIndex {
  $comment?: string;
  /** Apply to every API endpoint unless the endpoint names the status itself. */
  defaults: StatusMap;
  /** "METHOD /path" as the spec writes it -> statuses. */
  endpoints: Record<string, StatusMap>;
  /** The OAuth endpoints, "METHOD {auth_url}/path"; defaults do not apply to them. */
  auth: Record<string, StatusMap>;
}

export const BODY_KINDS: readonly BodyKind[] = ['json', 'empty', 'json-or-empty', 'any'];

export function loadEndpointIndex(schemasDir: string): EndpointIndex {
  return JSON.parse(readFileSync(join(schemasDir, 'endpoints.json'), 'utf8')) as EndpointIndex;
}

/** What the index says of `status` for `endpoint` (an API or auth key), defaults included; null when undocumented. */
export function expectationFor(index: EndpointIndex, endpoint: string, status: number): { expectation: BodyExpectation; key: string } | null {
  const own = index.endpoints[endpoint] ?? index.auth[endpoint];
  if (!own) throw new Error(`"${endpoint}" is not an endpoint of schemas/endpoints.json (write it as the spec does, e.g. "GET /skus/:id/reviews")`);
  const exact = own[String(status)];
  if (exact) return { expectation: exact, key: String(status) };
  // A class the endpoint documents itself ("4xx" of the token endpoint).
  const ownClass = own[`${Math.floor(status / 100)}xx`];
  if (ownClass) return { expectation: ownClass, key: `${Math.floor(status / 100)}xx` };
  // The defaults are for the API; the OAuth endpoints document their own statuses.
  if (!index.endpoints[endpoint]) return null;
  const klass = `${Math.floor(status / 100)}xx`;
  for (const key of [String(status), klass]) {
    const fallback = index.defaults[key];
    if (fallback) return { expectation: fallback, key };
  }
  return null;
}

/** The statuses documented for an endpoint, its own and the defaults, for messages. */
export function documentedStatuses(index: EndpointIndex, endpoint: string): string[] {
  const own = Object.keys(index.endpoints[endpoint] ?? index.auth[endpoint] ?? {});
  const defaults = index.endpoints[endpoint] ? Object.keys(index.defaults) : [];
  return [...new Set([...own, ...defaults])];
}

/** The requirements of every status an endpoint documents itself (its table row): cited for a status it does not document. */
export function endpointRequirements(index: EndpointIndex, endpoint: string): string[] {
  const own = index.endpoints[endpoint] ?? index.auth[endpoint] ?? {};
  return [...new Set(Object.values(own).flatMap((e) => e.requirements ?? []))];
}
