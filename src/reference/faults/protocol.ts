// Faults of OAuth, versioning, ETag, sparse fieldsets and embedding, rate limits (see ../faults.ts).

import type { FaultInfo } from './types.ts';

export const PROTOCOL_FAULTS = {
  'if-none-match-ignored': {
    requirement: 'ETAG-2',
    clause: 'ETAG-2#1',
    description: 'If-None-Match is never compared with the ETag, so an unchanged resource is sent again with 200 instead of 304.',
  },
  'etag-changes-every-response': {
    requirement: 'ETAG-2',
    clause: 'ETAG-2#1',
    description: 'The ETag mixes in the time of the response, so it changes on every request and If-None-Match never gives 304.',
  },
  'ratelimit-headers-missing-on-304': {
    requirement: 'RATE-4',
    clause: 'RATE-4#1',
    description: 'A 304 Not Modified reply carries no X-RateLimit-* headers.',
  },
  'not-modified-not-counted': {
    requirement: 'RATE-9',
    clause: 'RATE-9#1',
    description: 'A 304 reply is not counted against the per-minute limit: X-RateLimit-Remaining does not go down.',
  },
  'ratelimit-remaining-not-decreasing': {
    requirement: 'RATE-6',
    clause: 'RATE-6#2',
    description: 'X-RateLimit-Remaining always reports the full limit instead of the requests left in the window.',
  },
  'ratelimit-reset-in-milliseconds': {
    requirement: 'RATE-7',
    clause: 'RATE-7#1',
    description: 'X-RateLimit-Reset is sent in epoch milliseconds instead of epoch seconds.',
  },
  'version-major-only-gives-latest': {
    requirement: 'VER-8',
    clause: 'VER-8#1',
    // The answer to version=3 carries the fields of 3.2.0 and 3.2.1, which a request below them lacks (CHG-2.b, CHG-1.b: version=3 included).
    consequences: ['CHG-2', 'CHG-1'],
    description: 'Accept version=3 (major only) is served the latest version instead of the oldest.',
  },
  'version-patch-not-ignored': {
    requirement: 'VER-5',
    clause: 'VER-5#1',
    // version=3.2.0 is 3.2, whose answers carry the fields of 3.2.0 and 3.2.1 (CHG-2.a, CHG-1.a): served 3.1, they lack them.
    consequences: ['CHG-2', 'CHG-1'],
    description: 'A patch number in the requested version is compared with the served patch, so version=3.2.0 is served 3.1 instead of 3.2.',
  },
  'unknown-minor-gives-oldest': {
    requirement: 'VER-10',
    clause: 'VER-10#1',
    // The answer to version=3.999 is the latest's, with the fields every later row added (CHG-5 3.1.1, CHG-4 3.1.2, CHG-2 3.2.0, CHG-1 3.2.1): served 3.0, it lacks them.
    consequences: ['CHG-5', 'CHG-4', 'CHG-2', 'CHG-1'],
    description: 'A requested minor version that is not served (3.3) falls back to the oldest version instead of the previous one.',
  },
  'fields-except-applied-before-fields': {
    requirement: 'FIELDS-4',
    clause: 'FIELDS-4#1',
    description: 'fields_except[t] is applied before fields[t], and the inclusion then picks its fields from the complete object, so a field named in both parameters stays.',
  },
  'embedded-trimmed-by-root-fieldset': {
    requirement: 'FIELDS-5',
    clause: 'FIELDS-5#1',
    description: 'fields[root] is applied to embedded associations too, although an association not named in a fields parameter must stay complete.',
  },
  'embed-ids-not-array': {
    requirement: 'LINK-2',
    clause: 'LINK-2#1',
    description: 'embed_ids=<name> puts a bare id (or null) in <name>_ids instead of an array of ids.',
  },
  'association-fieldset-ignored': {
    requirement: 'FIELDS-3',
    clause: 'FIELDS-3#2',
    description: 'fields[<name>] and fields_except[<name>] of a linked resource are ignored: only the root target is honoured, so embedded and included objects stay complete.',
  },
  'included-array-misses-linked-objects': {
    requirement: 'LINK-3',
    clause: 'LINK-3#4',
    // include=group on specifications is such an include: its groups array misses the groups of all but the first specification (LINK-5.a: each group_id names a listed group).
    consequences: ['LINK-5'],
    description: 'include=<name> fills the top-level array from the first parent only, so the ids the other parents carry resolve to no object.',
  },
  'fields-except-ignored-on-search': {
    requirement: 'FIELDS-2',
    clause: 'FIELDS-2#1',
    // An exclusion never applied is not applied after the inclusion either: with both, a field both name stays (FIELDS-4).
    consequences: ['FIELDS-4'],
    description:
      'fields_except[...] is ignored by the search endpoints (/search, /autocomplete, /shops/search, /shops/:shop_id/products/search), whose answers honour fields[...] only.',
  },
  'fieldsets-ignored-on-forms': {
    requirement: 'FIELDS-1',
    clause: 'FIELDS-1#1',
    // fields_except[...] is ignored too (FIELDS-2), and so both together (FIELDS-4).
    consequences: ['FIELDS-2', 'FIELDS-4'],
    description: 'The new-review and new-address forms (GET /skus/:id/reviews/new, GET /user/addresses/new) ignore fields[...] and fields_except[...]: they answer the whole form.',
  },
  'fieldsets-ignored-in-3-1': {
    requirement: 'FIELDS-1',
    // Every fieldset parameter is ignored: fields_except[...] (FIELDS-2), both together (FIELDS-4), and an association's as target (FIELDS-3).
    consequences: ['FIELDS-2', 'FIELDS-3', 'FIELDS-4'],
    description: 'Sparse fieldsets are ignored in answers to 3.1 requests (complete objects) although they arrived in 3.1.1.',
  },
  'app-token-extra-scope': {
    requirement: 'SCOPE-2',
    clause: 'SCOPE-2#1',
    description: 'A client-credentials request for "public favorites" is granted both scopes instead of being refused.',
  },
  'authorization-code-reusable': {
    requirement: 'AUTH-3',
    clause: 'AUTH-3#1',
    description: 'An authorization code can be exchanged for tokens more than once.',
  },
  'expires-in-milliseconds': {
    requirement: 'AUTH-7',
    clause: 'AUTH-7#6',
    // The user token response's expires_in too (AUTH-19: integer seconds): every token response is built alike.
    consequences: ['AUTH-19'],
    description: 'expires_in of the token response is given in milliseconds instead of seconds.',
  },
  'etag-never-sent': {
    requirement: 'ETAG-1',
    clause: 'ETAG-1#1',
    description: 'No answer carries an ETag (If-None-Match is then never answered 304).',
  },
  'ratelimit-limit-decimal': {
    requirement: 'RATE-5',
    clause: 'RATE-5#1',
    description: 'X-RateLimit-Limit is written as a decimal ("100.0") instead of a whole number.',
  },
  'ratelimit-remaining-decimal': {
    requirement: 'RATE-6',
    clause: 'RATE-6#1',
    description: 'X-RateLimit-Remaining is written as a decimal ("99.0") instead of a whole number.',
  },
  'ratelimit-reset-window-start': {
    requirement: 'RATE-7',
    clause: 'RATE-7#2',
    description: 'X-RateLimit-Reset is the time the current window started (a minute before it resets).',
  },
  'version-param-ignored': {
    requirement: 'VER-9',
    clause: 'VER-9#1',
    // Rule 4 (version=3, VER-8) is ignored alike, and the matrix finds each later field under its Change history row.
    consequences: ['VER-8', 'CHG-1', 'CHG-2', 'CHG-3', 'CHG-4', 'CHG-5', 'CHG-6'],
    description: "The Accept header's version parameter is read but not used: every request is served the latest version.",
  },
} satisfies Record<string, FaultInfo>;
