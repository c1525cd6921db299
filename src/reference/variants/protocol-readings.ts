// Legal variants written for the catalogue's readings of OAuth, scopes, rate limits, errors, pagination, versioning, redirects, ETags and the Change history (issue 37, point 1): each serves
// readings the kit accepts and the reference's default does not (see ../variants.ts).

import type { VariantInfo } from './types.ts';

export const PROTOCOL_READING_VARIANTS = {
  'token-type-capitalised': {
    choice: 'token_type: the spec writes bearer; RFC 6750 writes Bearer and the value is case-insensitive.',
    description: 'Token answers carry token_type "Bearer", capitalised.',
    requirements: ['AUTH-7', 'AUTH-19'],
    readings: ['AUTH-7.b', 'AUTH-19.b'],
  },
  'app-refresh-token-null': {
    choice: 'No refresh token is used for application tokens: the reference leaves refresh_token out of their answer.',
    description: 'The client-credentials answer carries refresh_token null.',
    requirements: ['AUTH-7', 'AUTH-11'],
    readings: ['AUTH-7.g', 'AUTH-11.b'],
  },
  'expires-in-as-sample': {
    choice: "The sample response's expires_in is larger than 2 weeks in seconds: the reference reports the 2 weeks.",
    description:
      'Application token answers report one day more than the token has left in expires_in (2 weeks and a day for a new one); the token still expires 2 weeks after creation.',
    requirements: ['AUTH-1', 'AUTH-7', 'AUTH-26'],
    readings: ['AUTH-1.b', 'AUTH-7.f', 'AUTH-26.b'],
    conflicts: ['app-token-lifetime-3-weeks'],
  },
  'app-token-lifetime-3-weeks': {
    choice: "The sample response's expires_in is larger than 2 weeks in seconds, read as the lifetime the server applies.",
    description: 'Application tokens live 3 weeks and their answers report it in expires_in.',
    requirements: ['AUTH-8'],
    readings: ['AUTH-8.b'],
    conflicts: ['expires-in-as-sample'],
  },
  'same-app-token-full-expires-in': {
    choice: '"Repeating the request returns the existing token or a new one": the reference issues a new one.',
    description: "A repeated client-credentials request returns the client's existing valid token, its expires_in restating the full 2 weeks (the token still ends when it did).",
    requirements: ['AUTH-10'],
    readings: ['AUTH-10.f'],
    conflicts: ['client-credentials-same-token', 'app-token-replaces-earlier'],
  },
  'missing-scope-public': {
    choice: 'All parameters of the client-credentials request are required: the reference refuses a request without scope.',
    description: 'A client-credentials request without scope is granted the default scope public.',
    requirements: ['AUTH-6'],
    readings: ['AUTH-6.b'],
  },
  'unknown-scopes-dropped': {
    choice: 'A scope the server cannot grant (another than public in an application token, an unknown name): the reference refuses with invalid_scope.',
    description:
      'Scope names the server cannot grant are dropped: a client-credentials request gets a token with scope public, an authorization step a code for the names left (invalid_scope when none is).',
    requirements: ['SCOPE-2', 'SCOPE-7'],
    readings: ['SCOPE-2.b', 'SCOPE-7.e'],
  },
  'authorize-errors-redirect': {
    choice: 'A bad response_type or scope in the authorization step, the client and redirect_uri being good: the reference answers 400; RFC 6749 4.1.2.1 redirects back.',
    description:
      'With a known client and its redirect_uri, a missing or bad response_type or scope redirects back with error=invalid_request, unsupported_response_type or invalid_scope.',
    requirements: ['AUTH-12'],
    readings: ['AUTH-12.d'],
    conflicts: ['authorize-failures-access-denied'],
  },
  'authorize-failures-access-denied': {
    choice: '"Otherwise the redirect is <redirect_uri>?error=access_denied", read as every outcome but a grant: the reference answers bad parameters 400.',
    description: 'With a known client and its redirect_uri, every failed authorization step (missing or bad response_type or scope) redirects back with error=access_denied.',
    requirements: ['AUTH-15'],
    readings: ['AUTH-15.c'],
    conflicts: ['authorize-errors-redirect'],
  },
  'url-safe-codes': {
    choice: 'The code is URL-encoded: the reference issues codes holding +, / and = so that a client that forgets to decode fails.',
    description: 'Authorization codes hold URL-safe characters only (base64url, no padding).',
    requirements: ['AUTH-16'],
    readings: ['AUTH-16.b'],
  },
  'logout-keeps-token': {
    choice: 'Effect of /user/logout on issued tokens: not shown; the reference ends the calling token.',
    description: 'DELETE /user/logout ends no token: the calling token stays valid until its day is out.',
    requirements: ['AUTH-20', 'ERR-6'],
    readings: ['AUTH-20.d', 'ERR-6.h', 'USER-26.d'],
    conflicts: ['logout-ends-all-tokens'],
  },
  'refresh-ends-previous-token': {
    choice: 'Shape and effect of the refresh: not shown; the reference keeps the previous access token valid until it expires.',
    description: 'A refresh ends at once the access tokens issued before it from the same authorization.',
    requirements: ['AUTH-23'],
    readings: ['AUTH-23.d'],
  },
  'per-uncapped': {
    choice: 'Largest per (maximum value of per: not shown): the reference caps at 100.',
    description: 'Any per is honoured exactly, meta.pagination.per echoing it.',
    requirements: ['PAG-4'],
    readings: ['PAG-4.b'],
    conflicts: ['per-cap-50', 'per-over-max-refused'],
  },
  'page-past-end-last': {
    choice: 'A page past the end: the reference answers 200 with an empty array.',
    description: 'A page past the last one is clamped to the last page (page 1 of an empty collection), meta.pagination.page naming it.',
    requirements: ['PAG-3'],
    readings: ['PAG-3.d'],
    conflicts: ['page-past-end-404'],
  },
  'link-off-last-page': {
    choice: 'Link header on the last page of several: the reference sends rel=last there.',
    description: 'The last page of a collection carries no Link header, there being no next page.',
    requirements: ['PAG-5'],
    readings: ['PAG-5.d'],
    conflicts: ['link-every-rel'],
  },
  'link-rel-unquoted': {
    choice: 'Link header rel values: the reference quotes them; RFC 8288 allows a bare token.',
    description: 'Link header rel values are unquoted (rel=next, rel=last).',
    requirements: ['PAG-5'],
    readings: ['PAG-5.i'],
  },
  'etag-off-collections': {
    choice: '"Most responses carry ETag": the reference tags every 200 GET.',
    description: 'Paginated collections carry no ETag (and If-None-Match is ignored on them, 200); single resources keep theirs.',
    requirements: ['ETAG-1'],
    readings: ['ETAG-1.d'],
    // The one resource the kit changes and reads again is a collection (GET /favorite_lists): with
    // no tag on it, a tag that ignores the content (etag-from-request-target) cannot be shown.
    narrows: true,
  },
  'etag-strong-comparison': {
    choice: 'If-None-Match comparison: the reference compares weakly (W/"x" matches "x").',
    description: 'If-None-Match gives 304 only when it holds the exact ETag string sent (or *).',
    requirements: ['ETAG-2'],
    readings: ['ETAG-2.c'],
    conflicts: ['weak-etags'],
  },
  'unknown-order-ignored': {
    choice: 'An order_by or order_dir value the endpoint does not allow: the reference refuses it with 400.',
    description: 'An order_by or order_dir value the endpoint does not allow is ignored: the default order is used.',
    requirements: ['ORD-1'],
    readings: ['ORD-1.b', 'MAN-4.h'],
    conflicts: ['unknown-order-422'],
    // A fault that refuses a known order_by (sku-order-by-pricevat-refused) then shows as another order, under other statements.
    narrows: true,
  },
  'unknown-order-422': {
    choice: 'An order_by or order_dir value the endpoint does not allow: the reference refuses it with 400.',
    description: 'An order_by or order_dir value the endpoint does not allow is refused with 422 InvalidParameter.',
    requirements: ['ORD-1'],
    readings: ['ORD-1.d'],
    conflicts: ['unknown-order-ignored'],
  },
  'placeholder-not-integer-400': {
    choice: 'A path placeholder that is not an integer (/categories/abc): the reference answers 404, no record matching.',
    description: 'A path placeholder that is not an integer is refused with 400 InvalidParameter.',
    requirements: ['GEN-15', 'ERR-4'],
    readings: ['GEN-15.c', 'ERR-4.h'],
    // A shop's canonical address (/shops/<id>-<slug>) is a placeholder that is not an integer.
    conflicts: ['placeholder-not-integer-422', 'shop-canonical-redirect'],
  },
  'placeholder-not-integer-422': {
    choice: 'A path placeholder that is not an integer (/categories/abc): the reference answers 404, no record matching.',
    description: 'A path placeholder that is not an integer is refused with 422 InvalidParameter, as typed path parameters are in common frameworks.',
    requirements: ['GEN-15'],
    readings: ['GEN-15.d'],
    conflicts: ['placeholder-not-integer-400', 'shop-canonical-redirect'],
  },
  'ratelimit-errors-body': {
    choice: 'Body of the per-minute 403: the Errors table says {message}; the spec also says the errors format is for the whole API.',
    description: 'The per-minute 403 carries the errors body alone ({errors: [{code: RateLimitExceeded, messages}]}).',
    requirements: ['ERR-7', 'RATE-8'],
    readings: ['ERR-7.b', 'RATE-8.b'],
    conflicts: ['ratelimit-message-and-errors'],
  },
  'ratelimit-message-and-errors': {
    choice: 'Body of the per-minute 403: the Errors table says {message}; the spec also says the errors format is for the whole API.',
    description: 'The per-minute 403 carries message and the errors array beside it.',
    requirements: ['ERR-7', 'RATE-8'],
    readings: ['ERR-7.c', 'RATE-8.c'],
    conflicts: ['ratelimit-errors-body'],
  },
  'remaining-before-count': {
    choice: 'X-RateLimit-Remaining: the reference counts the request first.',
    description: 'X-RateLimit-Remaining is what was left before the request was counted (one higher than the reference).',
    requirements: ['RATE-6'],
    readings: ['RATE-6.b'],
  },
  'user-token-limit-doubled': {
    choice: 'Requests per minute "per OAuth token of an application": the limit of user tokens is not stated.',
    description: 'User tokens have twice the per-minute limit of application tokens, and X-RateLimit-Limit says so.',
    requirements: ['RATE-2', 'RATE-5'],
    readings: ['RATE-2.b', 'RATE-5.c'],
  },
  'ratelimit-sliding-window': {
    choice: "Per-minute window: the reference counts 60 s from the key's first request.",
    description: 'The window is the last 60 seconds: Remaining rises as old requests leave it, and X-RateLimit-Reset is when the oldest counted request does.',
    requirements: ['RATE-6', 'RATE-7', 'RATE-9'],
    readings: ['RATE-6.c', 'RATE-7.d', 'RATE-9.c'],
    conflicts: ['ratelimit-calendar-minute'],
  },
  'refusals-not-counted': {
    choice: 'Which requests count against the per-minute limit: the reference counts every one.',
    description: 'A 401 and the over-limit 403 itself are not counted against the window (304s are).',
    requirements: ['RATE-2'],
    readings: ['RATE-2.f'],
  },
  'daily-limit-service-day': {
    choice: '"Until the next day begins": the reference uses the UTC day.',
    description: "The daily limit's day begins at midnight in the service's own time zone, UTC+02:00.",
    requirements: ['RATE-1', 'RATE-3'],
    readings: ['RATE-1.c', 'RATE-3.c'],
  },
  'lockout-token-refusal-429': {
    choice: 'The token endpoint after the daily limit: "creating new tokens is disabled", the status not shown; the reference answers 403.',
    description: 'After the daily limit is exceeded the token endpoint refuses new tokens with 429 access_denied.',
    requirements: ['RATE-1'],
    readings: ['RATE-1.f'],
  },
  'review-user-fields-null-for-app': {
    choice: 'voted, flagged and helpful are "authorized user only": the reference leaves them out for application tokens.',
    description: 'For an application token, reviews carry voted, flagged and helpful null.',
    requirements: ['CHG-8', 'CHG-9', 'CHG-13'],
    readings: ['CHG-8.d', 'CHG-9.e', 'CHG-13.f'],
    conflicts: ['review-user-fields-false-for-app'],
  },
  'sentiments-empty-null': {
    choice: 'sentiments: arrays positive, mediocre, negative (each optional); the reference leaves out the empty ones.',
    description: "A review's sentiments always carry positive, mediocre and negative, null when empty.",
    requirements: ['CHG-3'],
    readings: ['CHG-3.h'],
    conflicts: ['sentiments-always-three'],
  },
  'wide-tiles-hide-oem': {
    choice: '"OEM manufacturers are not returned for tiles-layout categories": the reference reads layout_mode tiles only.',
    description: 'From 3.2.0 the manufacturers of a category whose layout_mode is tiles or wide_tiles leave out OEM manufacturers.',
    requirements: ['CHG-2'],
    readings: ['CHG-2.h'],
  },
  'trailing-slash-redirect': {
    choice: 'A non-canonical form of a path (a trailing slash): the reference serves it as the path without it.',
    description: 'A path with a trailing slash is answered 301 with an absolute Location of the path without it (the query kept), which answers.',
    requirements: ['GEN-14', 'RED-3', 'ERR-1'],
    readings: ['GEN-14.d', 'RED-3.a', 'ERR-1.f'],
    conflicts: ['trailing-slash-redirect-308'],
  },
  'trailing-slash-redirect-308': {
    choice: 'A non-canonical form of a path (a trailing slash): the reference serves it; a server may redirect it with 308, its Location a relative reference (RFC 9110 10.2.2).',
    description: 'A path with a trailing slash is answered 308 with a relative Location (absolute path and query) of the path without it.',
    requirements: ['RED-3'],
    readings: ['RED-3.b', 'RED-3.d'],
    conflicts: ['trailing-slash-redirect'],
  },
  'review-writes-need-actions-scope': {
    choice: 'Permissions required by SKU review create, update and delete: not shown; the reference asks a user token only.',
    description: 'Creating, updating and deleting a SKU review need a user token granted publish_sku_review_actions.',
    requirements: ['SCOPE-5'],
    readings: ['SCOPE-5.g'],
    // The kit votes and flags only on a review it wrote: a token refused the permission writes
    // none, so a vote accepted without it (vote-without-permission-accepted) cannot be provoked.
    narrows: true,
  },
  'public-user-token-refused': {
    choice: 'Permissions required by /user, /user/*, /personalization and SKU review writes: not shown; the reference serves any user token.',
    description:
      "A user token whose scope is public alone is refused (as a token lacking a route's scope) on the user's own endpoints: /user, /user/*, /personalization and the review forms and writes.",
    requirements: ['SCOPE-1'],
    readings: ['SCOPE-1.c'],
  },
  'missing-record-before-scope': {
    choice: 'A token lacking the scope asking for a record that does not exist: which comes first is not shown; the reference checks the scope first.',
    description:
      'A favorite, favorite list, category (of /categories/:id/favorites) or notification named in the path that does not exist is answered 404 RecordNotFound before the scope is checked.',
    requirements: ['SCOPE-3', 'SCOPE-4'],
    readings: ['SCOPE-3.d', 'SCOPE-4.c'],
  },
  'vendor-type-required': {
    choice:
      'When version is unspecified the latest is returned: the reference reads a request without the vendor media type (no Accept, */*, application/json) as unspecified too.',
    description: 'A request whose Accept does not name the vendor media type (or that has no Accept) is refused with 406; the vendor type without version gets the latest.',
    requirements: ['VER-7'],
    readings: ['VER-7.c'],
  },
} as const satisfies Record<string, VariantInfo>;
