// Legal variants of the protocol: pagination, linked resources, fieldsets, media type, ETag,
// timestamps, errors, tokens, limits and versions (see ../variants.ts).

import type { VariantInfo } from './types.ts';

export const PROTOCOL_VARIANTS = {
  'per-cap-50': {
    choice: 'Largest per (maximum value of per: not shown): the reference caps at 100.',
    description: 'per above 50 is capped at 50, and meta.pagination.per says 50.',
    requirements: ['PAG-4', 'PAG-6'],
  },
  'empty-collection-one-page': {
    choice: 'total_pages of an empty collection: the reference says 0.',
    description: 'An empty collection has total_pages 1 (page 1 exists and is empty).',
    requirements: ['PAG-1'],
  },
  'page-past-end-404': {
    choice: 'A page past the end: the reference answers 200 with an empty array.',
    description: 'A page past the last one is answered 404 RecordNotFound with the errors body.',
    requirements: ['PAG-3', 'ERR-9'],
  },
  'bad-paging-defaults': {
    choice: 'page or per not a positive integer: the reference answers 400 InvalidParameter.',
    description: 'A page or per that is not a positive integer is ignored: the defaults (page 1, per 25) apply.',
    requirements: ['PAG-3', 'PAG-4', 'ERR-4'],
  },
  'link-relative': {
    choice: 'Link header URLs: the reference writes absolute URLs (RFC 8288 allows relative references).',
    description: 'Link header URLs are relative references (absolute path and query, no scheme or host).',
    requirements: ['PAG-5'],
  },
  'link-every-rel': {
    choice: 'Link header: the reference sends it only when total_pages > 1, with next and last.',
    description: 'Every answer of a paginated collection carries a Link header with first and last, and prev and next where those pages exist (a single page too).',
    requirements: ['PAG-5'],
  },
  'link-default-per-omitted': {
    choice: 'Link URLs keep every query parameter of the request in the reference.',
    description: 'Link URLs leave out per when it is the default 25 (the same pages either way).',
    requirements: ['PAG-5', 'PAG-2'],
  },
  'include-keyed-by-name': {
    choice: 'Top-level array of include=<name>: the spec says "keyed by the name" and shows groups for group; the reference uses the plural for every name.',
    description:
      'include=address, include=shop and include=sku_review put the linked objects under the name as written (address, shop, sku_review); group keeps groups, as the spec states.',
    requirements: ['LINK-3', 'LINK-5'],
  },
  'unknown-link-name-ignored': {
    choice: 'A linked name the endpoint does not offer: the reference answers 400 InvalidParameter.',
    description: 'embed, embed_ids and include naming a link the endpoint does not offer are ignored (200, nothing added).',
    requirements: ['LINK-4'],
  },
  'include-single-ignored': {
    choice: 'include on single resources: the spec states it for collections; the reference accepts it on single resources too.',
    description: 'include=<name> on a single resource is ignored (the answer is as without it).',
    requirements: ['LINK-3'],
  },
  'fieldsets-in-every-version': {
    choice: 'Sparse fieldsets before 3.1.1: the reference ignores them in 3.0 (they arrived in 3.1.1).',
    description: 'fields[...] and fields_except[...] are honoured in every served version, 3.0 included.',
    requirements: ['CHG-5', 'FIELDS-1', 'FIELDS-2'],
  },
  'validation-as-400': {
    choice: 'A creation body lacking a field its form requires: the reference answers 422 (failed validation); 400 (a required parameter missing) is the other reading.',
    description: 'A creation body lacking a field its form requires (a review rating, an address field, a list name) is answered 400 ParameterMissing instead of 422.',
    requirements: ['ERR-4', 'ERR-11'],
  },
  'not-found-empty-array': {
    choice:
      "A missing record's 404 body: the reference writes the errors format; the spec's one example of a missing category shows an empty array (ERR-16), read here as the answer to every missing record.",
    description: "Every 404 for a missing record (RecordNotFound) is answered with an empty array body, [], as the spec's example of a missing category.",
    requirements: ['ERR-16', 'ERR-2', 'ERR-14'],
  },
  'method-not-allowed-404': {
    choice: 'Wrong method on a known path: the reference answers 405 with Allow.',
    description: 'A method a known path does not take is answered 404 NotFound, as an unknown route, without Allow.',
    requirements: ['ERR-9', 'ERR-1'],
  },
  'unknown-route-501': {
    choice: 'A path no route serves: the reference answers 404 (resource does not exist); 501 (requested action is not implemented) is the other reading.',
    description: 'A path no route serves is answered 501 NotImplemented with the errors body.',
    requirements: ['ERR-9', 'ERR-13'],
  },
  'no-vary': {
    choice: 'Vary: the reference sends Vary: Accept, Authorization on every API answer.',
    description: 'No Vary header.',
    requirements: ['ETAG-1'],
  },
  'weak-etags': {
    choice: 'ETag: the reference sends strong ETags.',
    description: 'ETags are weak (W/"..."); If-None-Match is compared weakly, so W/"x" and "x" match.',
    requirements: ['ETAG-1', 'ETAG-2'],
  },
  'timestamps-offset': {
    choice: 'Timestamps: "Some responses carry a numeric UTC offset instead of Z"; the reference always writes Z.',
    description: 'Every timestamp is written in UTC+02:00 with the offset (2024-05-01T14:00:00+02:00 for 12:00Z), price-history dates unchanged.',
    requirements: ['GEN-9'],
  },
  'extra-fields': {
    choice: 'Undocumented fields: the spec does not forbid them; real deployments add fields.',
    description: 'Every object of every JSON body (resources, embedded objects, meta, envelopes) carries extra undocumented fields (x_internal_id, x_trace).',
    requirements: ['GEN-7'],
  },
  'base-path': {
    choice: 'Whether a path prefix is required: not shown; some documented addresses carry /api.',
    description: 'The API is served below /api.',
    requirements: ['GEN-16', 'GEN-14'],
    options: { basePath: '/api' },
  },
  'prefix-optional': {
    choice: 'Whether a path prefix is required: not shown (GEN-16); a deployment may serve its paths with and without /api.',
    description: 'The API is served below /api and also without the prefix, and its Link URLs leave the prefix out.',
    requirements: ['GEN-16', 'GEN-14', 'PAG-5'],
    options: { basePath: '/api' },
    // Its unprefixed paths answer, so the fault link-drops-base-path (Links to paths that do not) would not show.
    narrows: true,
  },
  'auth-separate-origin': {
    choice: 'The token endpoints live at {auth_url}: the reference serves them on the API origin by default.',
    description: 'The OAuth endpoints are served on another origin, below /oauth.',
    requirements: ['AUTH-5', 'AUTH-12'],
    options: { authOrigin: 'separate', authBasePath: '/oauth' },
  },
  'vendor-media-type': {
    choice: 'The media type "carries a neutral word in place of the service\'s name": a deployment uses its own vendor name.',
    description: 'The API negotiates the version on application/vnd.acme+json (the vnd.service type is not recognised) and answers with that Content-Type.',
    requirements: ['VER-2', 'VER-3', 'VER-1'],
    kitEnv: { CATALOGUE_MEDIA_TYPE: 'application/vnd.acme+json' },
  },
  'vendor-content-type': {
    choice: 'Content-Type of JSON answers: the reference answers application/json.',
    description:
      "JSON answers of the API carry the vendor media type as Content-Type (application/vnd.service+json; version=<served>; charset=utf-8, or the vendor-media-type variant's type).",
    requirements: ['GEN-4'],
  },
  'oauth-plain-errors': {
    choice: "OAuth endpoints: their errors follow OAuth 2.0; the reference adds the API's errors envelope and rate-limit headers to them.",
    description: "The OAuth endpoints' error bodies carry only OAuth 2.0's error and error_description, and their answers carry no X-RateLimit-* headers.",
    requirements: ['ERR-2', 'RATE-4', 'AUTH-5'],
  },
  'refused-scope-403': {
    choice: 'A token without the scope (or the user) a route needs: the status is not shown; the reference answers 401.',
    description: 'A token without the scope or the user a route needs is answered 403 with the errors body (code Forbidden).',
    requirements: ['SCOPE-3', 'SCOPE-4', 'SCOPE-5', 'ERR-6', 'ERR-7'],
  },
  'both-placements-accepted': {
    choice: 'A token both in the header and in the query: the rule is for clients (SEND-3); the reference answers 400.',
    description: 'A request with the same token in the Authorization header and in oauth_token is served.',
    requirements: ['SEND-3'],
  },
  'client-credentials-same-token': {
    choice: '"Repeating the request returns the existing token or a new one": the reference issues a new one.',
    description: "A repeated client-credentials request returns the client's existing valid token (with its remaining expires_in).",
    requirements: ['AUTH-10'],
  },
  'refresh-keeps-refresh-token': {
    choice: 'Shape of the refresh response: not shown; the reference issues a new refresh token and retires the old.',
    description: 'The refresh answer carries a new access token and no refresh_token; the refresh token used stays valid.',
    requirements: ['AUTH-23', 'AUTH-24'],
  },
  'logout-ends-all-tokens': {
    choice: 'Effect of /user/logout on issued tokens: not shown; the reference ends the calling token only.',
    description: 'DELETE /user/logout ends every access and refresh token of the user.',
    requirements: ['AUTH-25', 'USER-26'],
    options: { logoutEnds: 'all-user-tokens' },
  },
  'review-actions-scope-refused': {
    choice: 'The authorization step lists public, favorites and notifications; votes and flags need publish_sku_review_actions. The reference grants it.',
    description: 'The authorization step refuses publish_sku_review_actions with invalid_scope.',
    requirements: ['SCOPE-8', 'AUTH-12'],
    options: { reviewActionsScope: 'refused' },
    // Without the scope no vote or flag can be made: the faults of votes and flags would not show.
    narrows: true,
  },
  'implements-3.2.0': {
    choice: 'The patch level a deployment implements: it may implement 3.2.0 and not 3.2.1.',
    description: 'The server implements the Change history up to 3.2.0: it serves 3.0.23, 3.1.3 and 3.2.0, without the changes of 3.2.1.',
    requirements: ['VER-7', 'VER-9', 'CHG-1'],
    conflicts: ['implements-3.1.1'],
    kitEnv: { CATALOGUE_IMPLEMENTS: '3.2.0' },
    narrows: true,
  },
  'implements-3.1.1': {
    choice: 'The patch level a deployment implements: it may implement 3.1.1 and nothing later.',
    description: 'The server implements the Change history up to 3.1.1: it serves 3.0.23 and 3.1.1; a request for 3.2 gets 3.1.1 (the previous version).',
    requirements: ['VER-7', 'VER-10', 'CHG-2', 'CHG-3', 'CHG-4'],
    conflicts: ['implements-3.2.0'],
    kitEnv: { CATALOGUE_IMPLEMENTS: '3.1.1' },
    narrows: true,
  },
  'unknown-version-latest': {
    choice: 'A version that does not parse, or another major: the reference answers 406.',
    description: 'A version that does not parse, or a major other than 3, gets the latest version (no 406).',
    requirements: ['VER-2', 'VER-7'],
  },
  'errors-legacy-3-0': {
    choice: 'Errors body in 3.0: the format before the 3.1.0 normalization is not shown; the reference uses the errors envelope.',
    description: 'Answers to version 3.0 requests carry errors as {"error": <code>, "message": <text>}.',
    requirements: ['CHG-6', 'ERR-2'],
  },
  'ratelimit-calendar-minute': {
    choice: "Per-minute window: the reference counts 60 s from the key's first request.",
    description: 'Windows are calendar minutes: X-RateLimit-Reset is the start of the next minute.',
    requirements: ['RATE-2', 'RATE-7'],
  },
} as const satisfies Record<string, VariantInfo>;
