// Which suite catches which fault of the reference (one list for every self-test), and how a run
// must be set up for a fault to show. src/selftest/mutation.test.ts proves the list: for each
// fault it starts the reference with that fault, runs the suites that catch it, and requires a
// MUST failure naming the fault's requirement (the mutation score, which must stay 100%).

import type { FaultName } from '../reference/faults.ts';
import type { ReferenceOptions } from '../reference/server.ts';
import { mutationBundle } from '../reference/variants.ts';

/** Suite(s) -> the faults they catch. */
export const CAUGHT_BY = {
  categories: [
    'root-endpoint-parent-id-null',
    'categories-per-ignored',
    'children-drops-first-child',
    'leaf-children-count-nonzero',
    'leaf-children-count-null',
    'root-parent-id-null',
    'categories-under-singular-key',
    'root-parent-id-self',
    'path-reversed',
    'family-id-is-parent-id',
    'null-field-omitted',
    'pagination-total-pages-off-by-one',
    'link-header-missing',
    'children-includes-grandchildren',
    'children-count-off-by-one',
    'not-found-wrong-body',
    'default-per-not-25',
    'page-param-ignored',
    'link-next-drops-query',
    'parent-returns-self',
    // The 404 of an unknown category carries the rate-limit headers (issue 17: the rate-limits suite asks no error of its own).
    'ratelimit-headers-missing-on-errors', // The Category table's fields and the category endpoints' envelopes, one fault per clause.
    'category-name-localized',
    'category-image-url-object',
    'fashion-as-tinyint',
    'category-web-uri-object',
    'category-code-is-id',
    'show-specifications-as-string',
    'manufacturer-title-localized',
    'listed-categories-without-web-uri',
    'children-count-as-string',
    'children-count-zero-based',
    'parent-id-as-string',
    'layout-mode-enum-index',
    'layout-mode-grid',
    'path-as-array',
    'path-slash-separated',
    'path-skips-parent',
    'family-id-as-string',
    'family-id-missing',
    'show-manufacturers-filter-as-tinyint',
    'adult-as-tinyint',
    'onclick-behaviour-enum-index',
    'show-spec-summary-as-tinyint',
    'unit-price-label-object',
    'reviewable-as-tinyint',
    'comparable-as-string',
    'detail-fields-missing',
    'match-count-outside-search',
    'category-under-data-key',
    'parent-under-parent-key',
    'root-under-root-key',
    'children-under-children-key',
  ],
  'search, manufacturers': [
    'short-query-answered-400',
    'match-count-as-string',
    'search-short-query-accepted',
    'search-no-match-404',
    'search-match-count-missing',
    'search-finds-nothing',
    'search-matches-everything',
    'autocomplete-ignores-q',
    'manufacturer-skus-price-order-reversed',
    'manufacturer-categories-order-dir-ignored',
  ],
  favorites: [
    'favorite-list-created-twice',
    'favorite-created-twice',
    'category-favorites-under-data-key',
    'category-favorites-without-permission',
    'auto-list-not-created',
    'auto-list-ignores-category',
    'have-it-keeps-list',
    'have-it-honours-list-id',
    'favorite-list-id-ignored-on-update',
    'new-list-name-keeps-have-it',
    'new-list-name-duplicates-list',
    'invalid-new-list-name-422',
    'owned-favorites-listed',
    'owned-param-ignored',
    'owned-excluded-before-3-2',
    'favorites-order-dir-ignored',
    'duplicate-custom-list-accepted',
    'favorite-delete-missing-204',
    'custom-list-single-category',
    'favorite-list-delete-not-stored',
    'favorite-update-applied-to-other-favorite',
  ],
  'skus, shops': [
    'sku-reviewscore-as-string',
    'sku-shop-count-as-string',
    'shop-latest-reviews-count-as-string',
    'shop-reviews-count-as-string',
    'shop-review-score-as-string',
    'shop-payment-flags-as-tinyint',
    'future-sku-future-as-string',
    'sku-reviews-count-as-string',
    'sku-virtual-as-tinyint',
    'sku-specifications-paginated',
    'sku-specifications-sorted-by-name',
    'final-price-omits-payment-cost',
    'order-by-final-price-sorts-by-net-price',
    'size-filter-includes-next-size',
    'price-history-older-than-six-months',
    'shop-review-score-not-rounded',
    'unstructured-address-fields-not-null',
    'product-embed-shop-ignored',
    'location-id-ignored',
    'distance-filter-lists-other-skus',
    'availability-zero-refused',
    'zero-installments-true-refused',
    'future-sku-price-history',
    'future-sku-price-history-500',
  ],
  'category-listings': [
    'specifications-under-data-key',
    'category-manufacturers-under-brands-key',
    'category-manufacturers-name-order-ignored',
    'category-manufacturers-per-ignored',
    'filter-groups-under-groups-key',
    'filter-groups-per-ignored',
    'category-skus-under-products-key',
    'category-skus-stray-sku-last',
    'available-filters-not-added',
    'applied-filters-not-added',
    'ordered-by-missing',
    'ordered-by-always-default',
    'order-by-methods-missing',
    'order-by-methods-labels-objects',
    'sku-order-by-pricevat-refused',
    'category-manufacturers-order-dir-ignored',
    'filter-groups-cache-control-missing',
    'filter-groups-of-another-category',
    'category-manufacturers-miss-one',
    'specifications-groups-array-missing',
    'specifications-out-of-order',
    'category-skus-favorited-missing',
    'sku-filter-ids-ignored',
    'manufacturer-ids-dropped-with-order-by',
    'sku-shop-filter-ignored',
    'sku-distance-takes-km',
    'sku-availability-filter-drops-category',
    'sku-q-filter-ignored',
    'sku-q-filter-whole-name',
    'favorited-always-false',
    'sku-rating-order-reversed',
    'category-skus-order-dir-ignored',
  ],
  reviews: [
    'reviews-demoted-listed-first',
    'review-aggregation-score-string',
    'review-user-claims-for-app-token',
    'edit-form-without-selected',
    'created-review-rating-string',
    'review-delete-returns-200-with-body',
    'vote-without-permission-accepted',
    'flag-unknown-reason-accepted',
    'reviews-most-helpful-refused',
    'most-helpful-sorted-as-recent',
    'review-update-not-stored',
    'vote-not-stored',
    'vote-counted-twice',
    'flag-not-stored',
    'review-delete-not-stored',
    'vote-applied-to-other-review',
    'flag-applied-to-other-review',
  ],
  'user, notifications, logout': [
    'user-etag-from-request-target',
    'addresses-etag-from-request-target',
    'address-created-twice',
    'notifications-view-marks-all',
    'user-email-missing-in-3-2',
    'address-region-as-id',
    'address-numeric-zip-rejected',
    'personalization-put-ignored',
    'notifications-view-returns-body',
    'notifications-view-not-persisted',
    'price-drop-notification-without-category-name',
    'sku-review-notification-without-user',
    'logout-returns-body',
    'user-patch-not-stored',
    'user-patch-clears-unsent-fields',
    'address-update-not-stored',
    'address-update-clears-unsent-fields',
    'address-delete-not-stored',
    'address-update-applied-to-other-address',
    'personalization-put-not-stored',
    'products-ignore-user-personalization',
  ],
  oauth: [
    'client-secret-optional',
    'client-credentials-repeat-invalid',
    'app-token-extra-scope',
    'authorization-code-reusable',
    'expires-in-milliseconds',
    'token-in-query-ignored',
    'code-exchange-redirect-uri-not-compared',
    'refresh-grant-unsupported',
    'missing-token-answered-403',
    'token-expiry-not-checked',
    'notification-read-without-permission',
  ],
  pagination: [
    'search-q-dropped-past-page-1',
    'shop-search-q-dropped-past-page-1',
    'manufacturers-per-as-string',
    'manufacturers-page-zero-based',
    'shop-reviews-per-ignored',
    'manufacturer-skus-total-counts-page',
    'favorites-link-missing',
    'link-drops-base-path',
  ],
  fieldsets: [
    'fields-except-applied-before-fields',
    'embedded-trimmed-by-root-fieldset',
    'embed-ids-not-array',
    'fieldsets-ignored-in-3-1',
    'fields-except-ignored-on-search',
    'fieldsets-ignored-on-forms',
    'association-fieldset-ignored',
    'included-array-misses-linked-objects',
  ],
  versioning: [
    'version-param-ignored',
    'version-major-only-gives-latest',
    'version-patch-not-ignored',
    'unknown-minor-gives-oldest',
    'version-unspecified-gives-oldest',
    'family-id-missing-in-3-1',
  ],
  'conditional-requests, rate-limits, daily-limit': [
    'category-etag-ignores-query',
    'etag-never-sent',
    'ratelimit-limit-decimal',
    'ratelimit-remaining-decimal',
    'ratelimit-reset-window-start',
    'if-none-match-ignored',
    'etag-changes-every-response',
    'ratelimit-headers-missing-on-304',
    'not-modified-not-counted',
    'ratelimit-remaining-not-decreasing',
    'ratelimit-reset-in-milliseconds',
    'etag-from-request-target',
    // Enforcement: the destructive profile only.
    'ratelimit-status-429',
    'ratelimit-not-enforced',
    'ratelimit-403-without-message',
    'daily-limit-not-enforced',
  ],
  errors: ['malformed-json-500', 'unknown-route-html-200', 'invalid-order-by-500', 'non-integer-id-500'],
  // The rules checked on every exchange of the run (suites/last/observed.suite.ts).
  observed: ['unauthorized-messages-string', 'redirect-without-location'],
} as const satisfies Record<string, readonly FaultName[]>;

/** How a run must differ from the default for a fault to show. */
export interface FaultSetup {
  /** Suites to run instead of those of the fault's CAUGHT_BY key. */
  suites?: readonly string[];
  /** Reference options besides the fault (every fault run also has basePath /api). */
  options?: Omit<ReferenceOptions, 'fault'>;
  /** Environment of the CLI run. */
  env?: Record<string, string>;
  /** The run's base URL is the reference's moved one (movedBaseUrl), which redirects to the base path. */
  movedBase?: boolean;
}

/**
 * Limits low enough for the destructive tests to reach in seconds, on a scaled clock (a minute
 * lasts a second; the mutation test tells the kit's pacer so).
 */
const LOW_LIMITS = { perMinute: 20, perDay: 80, windowMs: 1_000 };
const DESTRUCTIVE = { CATALOGUE_PROFILES: 'read,write,destructive', CATALOGUE_MAX_REQUESTS: '1000' };

/**
 * Faults that show in a single exchange, by the rules validate-traffic judges (schemas by status
 * and version, content type, error body, rate-limit headers, pagination arithmetic and Link, 304):
 * the mutation test requires the passive judge to find each in the HAR of the fault's run, under
 * the fault's own requirement.
 * Not here although one exchange may carry it: flag-unknown-reason-accepted (a deployment may
 * answer a flag with an empty body, REV-29, and the mutation bundle's variant does, so the reason
 * taken shows in no single answer); missing-token-answered-403. A 403 with the errors
 * body is what a refused permission may get (401 or 403, the spec names neither), and only the
 * request's intent (no credentials) tells the two apart: a HAR may drop the Authorization header.
 */
export const SEEN_IN_ONE_EXCHANGE: ReadonlySet<FaultName> = new Set<FaultName>([
  // Bodies against the schema of their status and version
  'null-field-omitted',
  'categories-under-singular-key',
  'not-found-wrong-body',
  'unauthorized-messages-string',
  'unstructured-address-fields-not-null',
  'review-aggregation-score-string',
  'edit-form-without-selected',
  'created-review-rating-string',
  'review-delete-returns-200-with-body',
  'user-email-missing-in-3-2',
  'address-region-as-id',
  'logout-returns-body',
  'notifications-view-returns-body',
  'ratelimit-status-429',
  'version-patch-not-ignored',
  'unknown-minor-gives-oldest',
  'version-unspecified-gives-oldest',
  'family-id-missing-in-3-1',
  // Pagination, Link, rate-limit headers
  'pagination-total-pages-off-by-one',
  'manufacturer-skus-total-counts-page',
  'page-param-ignored',
  'shop-reviews-per-ignored',
  'default-per-not-25',
  'link-header-missing',
  'link-next-drops-query',
  'favorites-link-missing',
  'ratelimit-headers-missing-on-errors',
  'ratelimit-headers-missing-on-304',
  'ratelimit-reset-in-milliseconds',
  'ratelimit-403-without-message',
  // Fields shown under a condition that the exchange shows (embed=shop, the etype)
  'product-embed-shop-ignored',
  'price-drop-notification-without-category-name',
  'sku-review-notification-without-user',
  // The Category table's field types and the category envelopes
  'category-name-localized',
  'category-image-url-object',
  'fashion-as-tinyint',
  'category-web-uri-object',
  'category-code-is-id',
  'show-specifications-as-string',
  'manufacturer-title-localized',
  'children-count-as-string',
  'parent-id-as-string',
  'layout-mode-enum-index',
  'layout-mode-grid',
  'path-as-array',
  'path-slash-separated',
  'family-id-as-string',
  'family-id-missing',
  'show-manufacturers-filter-as-tinyint',
  'adult-as-tinyint',
  'onclick-behaviour-enum-index',
  'show-spec-summary-as-tinyint',
  'unit-price-label-object',
  'reviewable-as-tinyint',
  'comparable-as-string',
  'detail-fields-missing',
  'match-count-as-string',
  'category-under-data-key',
  'parent-under-parent-key',
  'root-under-root-key',
  'children-under-children-key',
  // Issue 38's faults the HAR shows: a field's type or presence, an envelope, a per not served, meta that include_meta[] asks, a header value
  'root-parent-id-null',
  'listed-categories-without-web-uri',
  'root-endpoint-parent-id-null',
  'categories-per-ignored',
  'specifications-under-data-key',
  'category-manufacturers-under-brands-key',
  'category-manufacturers-per-ignored',
  'filter-groups-under-groups-key',
  'filter-groups-per-ignored',
  'category-skus-under-products-key',
  'available-filters-not-added',
  'applied-filters-not-added',
  'ordered-by-missing',
  'order-by-methods-missing',
  'order-by-methods-labels-objects',
  'shop-reviews-count-as-string',
  'shop-review-score-as-string',
  'shop-payment-flags-as-tinyint',
  'future-sku-future-as-string',
  'sku-reviews-count-as-string',
  'sku-virtual-as-tinyint',
  'sku-reviewscore-as-string',
  'sku-shop-count-as-string',
  'shop-latest-reviews-count-as-string',
  'category-favorites-under-data-key',
  'ratelimit-limit-decimal',
  'ratelimit-remaining-decimal',
  'ratelimit-reset-window-start',
  'manufacturers-per-as-string',
  'manufacturers-page-zero-based',
  // Rules of one endpoint
  'filter-groups-cache-control-missing',
  'search-match-count-missing',
  'root-parent-id-self',
  'shop-review-score-not-rounded',
  'sku-specifications-paginated',
  'specifications-groups-array-missing',
  'price-history-older-than-six-months',
  // Redirects
  'redirect-without-location',
]);

export const FAULT_SETUP: Partial<Record<FaultName, FaultSetup>> = {
  // Every minor answered alike looks, from outside, like a deployment serving the latest alone (SERVED.c): the certifier names the versions it serves.
  'version-param-ignored': { env: { CATALOGUE_VERSIONS: '3.0,3.1,3.2' } },
  // The shop search term of the kit matches one shop here: the pages need the wider 1-character
  // term, which the bundle's variant shop-search-short-q-422 refuses (a skip, legally).
  'shop-search-q-dropped-past-page-1': { options: { variants: mutationBundle().filter((v) => v !== 'shop-search-short-q-422') } },
  // The mutation bundle's variant no-fashion leaves fashion out, so its type shows only without it.
  'fashion-as-tinyint': { options: { variants: mutationBundle().filter((v) => v !== 'no-fashion') } },
  // Viewing an unviewed notification cannot be undone: the destructive profile only.
  'notifications-view-not-persisted': { env: { CATALOGUE_PROFILES: 'read,write,destructive' } },
  'notifications-view-marks-all': { env: { CATALOGUE_PROFILES: 'read,write,destructive' } },
  // The bug is in what 3.1 serves.
  'owned-excluded-before-3-2': { env: { CATALOGUE_API_VERSION: '3.1' } },
  'fieldsets-ignored-in-3-1': { env: { CATALOGUE_API_VERSION: '3.1' } },
  // Shows only with a user token that lacks publish_sku_review_actions.
  'vote-without-permission-accepted': { options: { reviewActionsScope: 'refused' } },
  // Enforcement: provoked by the destructive profile only.
  'ratelimit-status-429': { suites: ['rate-limits'], options: { limits: LOW_LIMITS }, env: DESTRUCTIVE },
  'ratelimit-not-enforced': { suites: ['rate-limits'], options: { limits: LOW_LIMITS }, env: DESTRUCTIVE },
  // A daily limit far off and a longer window: on a loaded machine a 1 s window renewed often
  // enough to let the per-minute test reach a daily limit of 80 first, whose 403 has its message.
  'ratelimit-403-without-message': { suites: ['rate-limits'], options: { limits: { perMinute: 20, perDay: 1_000, windowMs: 2_000 } }, env: DESTRUCTIVE },
  // The kit is told the deployment's daily limit, as a user of a test deployment with a low one would.
  'daily-limit-not-enforced': { suites: ['daily-limit'], options: { limits: LOW_LIMITS }, env: { ...DESTRUCTIVE, CATALOGUE_DAILY_LIMIT: String(LOW_LIMITS.perDay) } },
  // The observed rules judge what other suites exchanged: the oauth suite provokes 401s (missing,
  // invalid and expired tokens), whatever status a deployment gives a refused scope.
  'unauthorized-messages-string': { suites: ['oauth', 'observed'] },
  // A moved base path's redirects: the run is pointed at the old base URL, as a user whose
  // configuration predates the move would be.
  'redirect-without-location': { suites: ['categories', 'observed'], movedBase: true },
};

/**
 * Faults whose suite is not written yet, with the issue that brings it: none. A fault no suite
 * catches is a missing test (src/selftest/mutation.test.ts fails on it).
 */
export const AWAITING_SUITE: Record<string, string> = {};
