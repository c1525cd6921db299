// Legal variants written for the catalogue's readings of reviews, the user, favorites and notifications (issue 37, point 1): each serves
// readings the kit accepts and the reference's default does not (see ../variants.ts).

import type { VariantInfo } from './types.ts';

export const ACCOUNT_READING_VARIANTS = {
  'review-action-validation-422': {
    choice: 'Status of a vote or flag whose value is missing or invalid: not shown; the reference answers 400 (ParameterMissing, InvalidParameter).',
    description: 'A vote without a boolean helpful, or a flag without a catalogue reason, fails validation: 422 RecordInvalid.',
    requirements: ['REV-1', 'REV-10', 'REV-28', 'REV-26'],
    readings: ['REV-1.g', 'REV-10.c', 'REV-28.f', 'REV-26.f'],
  },
  'vote-sku-review-null': {
    choice: 'sku_review "only with embed=sku_review": without the embed the reference leaves the key out; it may be present with null.',
    description: 'A vote always carries sku_review: null unless embed=sku_review fills it.',
    requirements: ['REV-7', 'REV-8', 'REV-27'],
    readings: ['REV-7.b', 'REV-8.c', 'REV-27.b'],
  },
  'vote-updated-in-place': {
    choice: 'A second vote by the same user: not shown; the reference replaces the first with a new record (new id).',
    description: 'A second vote by the same user on a review updates the first vote record: same id and created_at, the new helpful.',
    requirements: ['REV-7', 'REV-26'],
    readings: ['REV-7.d'],
    conflicts: ['second-vote-refused'],
  },
  'flag-reason-without-description': {
    choice: 'description of a flag reason, "string": the reference writes one for each reason; a reason may have none (null).',
    description: 'GET /flags gives spam a null description (the catalogue has none for it).',
    requirements: ['REV-9'],
    readings: ['REV-9.d'],
  },
  'flags-paginated': {
    choice: 'GET /flags: whether it is paginated is not shown; the reference sends the flags alone.',
    description: 'GET /flags is a paginated collection: {flags, meta: {pagination}}, honouring page and per.',
    requirements: ['REV-9'],
    readings: ['REV-9.e'],
  },
  'flaggable-type-namespaced': {
    choice: 'flaggable_type, "string, for example SkuReview": another class-style name of a review is as good.',
    description: 'A flag record names the review class Sku::Review in flaggable_type.',
    requirements: ['REV-11'],
    readings: ['REV-11.e'],
  },
  'review-new-form-members-null': {
    choice: 'rating, review and selected "only on the edit form": the reference leaves them out of the new form; they may be present with null there.',
    description: 'The new-review form carries rating null, review null and selected null on every answer.',
    requirements: ['REV-12', 'REV-13', 'REV-21'],
    readings: ['REV-12.b', 'REV-13.c', 'REV-21.b'],
  },
  'review-form-unchosen-selected-null': {
    choice: 'selected on the edit form: the reference sends false for an answer not chosen; null is another way of saying it.',
    description: 'On the edit form an answer not chosen carries selected null (true for the chosen ones).',
    requirements: ['REV-23', 'REV-13'],
    readings: ['REV-23.b'],
  },
  'review-user-fields-null-until-acted': {
    choice: 'voted, flagged, helpful before the user did anything: the reference sends false; null ("no vote", "no flag") is another answer.',
    description: 'For a user token, voted and helpful are null on a review the user has not voted on, and flagged null on one they have not flagged.',
    requirements: ['REV-2', 'REV-3'],
    readings: ['REV-2.f', 'REV-3.e'],
  },
  'created-review-pending-fields-null': {
    choice: 'The answer to a review create: the reference computes everything at once; the user relation and the sentiments may be worked out later.',
    description: 'The 201 answer of a review create carries voted, flagged, helpful and sentiments null; listings show them computed.',
    requirements: ['REV-22'],
    readings: ['REV-22.i'],
  },
  'include-meta-bracket-ignored': {
    choice: 'include_meta=<name>: the reference also takes include_meta[]=<name>; a server may honour the literal form only.',
    description: 'GET /skus/:id/reviews reads include_meta only; include_meta[] is ignored.',
    requirements: ['REV-6', 'REV-17'],
    readings: ['REV-6.c'],
  },
  'reviews-aggregation-ignored-before-3.1.3': {
    choice: 'include_meta=sku_reviews_aggregation before 3.1.3, which brought it: the reference refuses it with 400.',
    description: 'Before 3.1.3 include_meta=sku_reviews_aggregation is ignored (no such meta, 200).',
    requirements: ['REV-6', 'REV-16', 'REV-17'],
    readings: ['REV-6.h'],
  },
  'reviews-aggregation-always': {
    choice: 'meta.sku_reviews_aggregation without include_meta: the reference sends it only when asked.',
    description: 'From 3.1.3 every review listing carries meta.sku_reviews_aggregation, asked or not.',
    requirements: ['REV-6', 'REV-16'],
    readings: ['REV-16.d', 'CHG-3.i'],
  },
  'reviews-aggregation-null-when-empty': {
    choice: 'The aggregation of a SKU without reviews: the reference answers []; null is another answer.',
    description: 'meta.sku_reviews_aggregation is null for a SKU without reviews.',
    requirements: ['REV-16', 'REV-17', 'REV-6'],
    readings: ['REV-16.g', 'REV-17.f'],
  },
  'missing-sku-reviews-empty': {
    choice: 'The reviews of a missing SKU: the reference answers 404; the sub-collection may be taken as existing and empty.',
    description: 'GET /skus/:id/reviews of an unknown id answers 200 with an empty list.',
    requirements: ['REV-16'],
    readings: ['REV-16.j'],
  },
  'most-helpful-by-ratio': {
    choice: 'most_helpful: how helpfulness is ranked is not shown; the reference uses helpful_votes_count.',
    description: 'sort=most_helpful ranks reviews by helpful_votes_count / votes_count (0 without votes), then by recency.',
    requirements: ['REV-19'],
    readings: ['REV-19.c'],
  },
  'custom-list-category-of-first-sku': {
    choice: 'category_id of a custom list, "integer or null": the reference sends null; a server may give the category of one of its SKUs.',
    description: "GET /favorite_lists gives a custom list the category of its oldest favorite's SKU (null while it is empty).",
    requirements: ['FAV-1', 'FAV-4', 'FAV-18'],
    readings: ['FAV-1.e', 'FAV-4.b'],
  },
  'owned-list-listed': {
    choice: "The virtual 'owned' list in GET /favorite_lists: not shown; the reference does not list it.",
    description: 'From 3.2.0 GET /favorite_lists lists the virtual owned list first, as {id: null, name: "Owned", category_id: null, type: "owned"}.',
    requirements: ['FAV-1', 'FAV-6', 'FAV-18'],
    readings: ['FAV-1.f', 'FAV-6.b', 'FAV-18.d'],
  },
  'list-names-case-insensitive': {
    choice: 'Whether a custom list name is "absent" or "existing": the reference compares trimmed names exactly.',
    description: "Custom list names are compared case-insensitively: new_list_name 'Foo' reuses 'foo', and POST /favorite_lists refuses it.",
    requirements: ['FAV-15', 'FAV-20'],
    readings: ['FAV-15.b', 'FAV-20.e'],
  },
  'blank-new-list-name-ignored': {
    choice: 'An empty or blank new_list_name: the reference refuses it as invalid (400).',
    description: 'An empty or blank new_list_name counts as not sent: the favorite goes where it would without it.',
    requirements: ['FAV-17'],
    readings: ['FAV-17.c', 'ERR-5.c'],
    // The kit's invalid new_list_name is a blank one, valid here: the fault answering it 422 would not show.
    narrows: true,
  },
  'duplicate-list-409': {
    choice: 'Status for a custom list with an existing custom name: not shown; the reference answers 422.',
    description: 'A custom list with an existing custom name is answered 409 Conflict.',
    requirements: ['FAV-20'],
    readings: ['FAV-20.d'],
    conflicts: ['duplicate-list-400'],
  },
  'list-delete-keeps-favorites': {
    choice: 'What becomes of the favorites of a deleted list: not shown; the reference deletes them.',
    description: "Deleting a custom list moves its favorites to the auto lists of their SKUs' categories; deleting an auto list leaves its favorites without a list.",
    requirements: ['FAV-21'],
    readings: ['FAV-21.d'],
  },
  'owned-favorite-ignores-list-id': {
    choice: "'have_it is not true' in the state table: the request's value (the reference) or the stored one.",
    description: 'A PUT with favorite_list_id and no have_it leaves an owned favorite (have_it true) where it is.',
    requirements: ['FAV-13', 'FAV-31'],
    readings: ['FAV-13.b', 'FAV-31.c'],
  },
  'avatar-uris-protocol-relative': {
    choice: 'avatar and the /user/avatars entries, "URI": the reference writes absolute URLs; relative references are URIs too.',
    description: 'Avatar URIs (user, /user/avatars, users embedded in notifications) are network-path references (//host/path).',
    requirements: ['USER-5', 'USER-17'],
    readings: ['USER-5.b', 'USER-17.b'],
  },
  'comment-count-unknown': {
    choice: 'stats counts, "integers": a server that keeps no count of a kind does not know it.',
    description: "The user's stats.sku_comment_count is null (this server keeps no comments).",
    requirements: ['USER-6', 'USER-2'],
    readings: ['USER-6.c'],
  },
  'email-settings-applicable-only': {
    choice: 'email_notifications lists the five field values: the reference lists all five for every user; a server may list those that apply.',
    description: 'sku_review_email and shop_review_email are listed only for a user who has written such reviews.',
    requirements: ['USER-7'],
    readings: ['USER-7.b'],
  },
  'email-settings-some-undescribed': {
    choice: 'description of an e-mail setting, "string": the reference writes one for each; a setting may have none.',
    description: 'The settings notifications and mail_events carry description null.',
    requirements: ['USER-7', 'USER-2'],
    readings: ['USER-7.d'],
  },
  'saved-orders-on-delete': {
    choice: 'The saved-orders listing: "the reference text labels this path DELETE but the example uses GET"; the reference serves GET only.',
    description: 'The saved-orders listing is served on DELETE /user/saved_orders as well as on GET (it deletes nothing).',
    requirements: ['USER-11'],
    readings: ['USER-11.b'],
  },
  'user-app-token-404': {
    choice: 'GET /user with an application token: not shown; the reference answers 401.',
    description: 'GET /user with an application token answers 404 RecordNotFound: there is no user behind it.',
    requirements: ['USER-12'],
    readings: ['USER-12.d'],
  },
  'avatar-preset-full-uri': {
    choice: 'avatar_preset, "filename from /user/avatars": the reference takes the file name only.',
    description: 'avatar_preset also takes the full URI as GET /user/avatars lists it.',
    requirements: ['USER-14'],
    readings: ['USER-14.b'],
  },
  'avatar-data-uri-stripped': {
    choice: 'avatar, "base64 of an image, without a data-URI preamble": the reference refuses a preamble with 422; a server may tolerate it.',
    description: 'An avatar with a data-URI preamble ("data:image/png;base64,") is taken, the preamble dropped.',
    requirements: ['USER-15'],
    readings: ['USER-15.c'],
  },
  'addresses-paginated': {
    choice: 'GET /user/addresses answers {addresses}: whether it is paginated is not shown; the reference sends the addresses alone.',
    description: 'GET /user/addresses is a paginated collection: {addresses, meta: {pagination}}, honouring page and per.',
    requirements: ['USER-18'],
    readings: ['USER-18.c'],
  },
  'address-body-wrapped': {
    choice: 'The address create and update bodies are flat: a server may take them wrapped in {address: {...}} as well.',
    description: 'POST /user/addresses and PUT /user/addresses/:id also take the fields wrapped in {address: {...}}.',
    requirements: ['USER-20'],
    readings: ['USER-20.b'],
  },
  'snapshot-price-only': {
    choice: 'snapshot, "object: price_min, latest_price, change_rate, from_threshold": the reference fills them on every etype; they describe a price change.',
    description: 'Notifications other than price_up and price_drop carry snapshot {}.',
    requirements: ['NOTIF-1'],
    readings: ['NOTIF-1.b'],
  },
  'change-rate-percent': {
    choice: 'change_rate, "number": the reference writes a signed fraction; a percentage is another reading.',
    description: 'snapshot.change_rate is an unsigned percentage (12.5 for a change of an eighth); the etype tells the direction.',
    requirements: ['NOTIF-1'],
    readings: ['NOTIF-1.i'],
  },
  'aggregated-review-rating-average': {
    choice: "review_rating on an aggregated sku_review notification: its type is given nowhere; the reference sends the latest review's rating.",
    description: "An aggregated sku_review notification carries as review_rating the mean rating of the SKU's reviews, to one decimal.",
    requirements: ['NOTIF-3'],
    readings: ['NOTIF-3.b'],
    conflicts: ['aggregated-review-rating-null'],
  },
  'aggregated-review-rating-null': {
    choice: "review_rating on an aggregated sku_review notification: the reference sends the latest review's rating; several reviews have no one rating.",
    description: 'An aggregated sku_review notification carries review_rating null.',
    requirements: ['NOTIF-3'],
    readings: ['NOTIF-3.c'],
    conflicts: ['aggregated-review-rating-average'],
  },
  'aggregated-review-user-null': {
    choice: 'user on an aggregated sku_review notification: the reference embeds the latest reviewer; several reviewers have no one user.',
    description: 'An aggregated sku_review notification carries user null.',
    requirements: ['NOTIF-5', 'EVT-12'],
    readings: ['NOTIF-5.b', 'EVT-12.c'],
  },
  'view-empty-ids-204': {
    choice: 'POST /notifications/view with an empty ids array: not shown; the reference refuses it with 400.',
    description: 'An empty ids array marks nothing and is answered 204.',
    requirements: ['NOTIF-10'],
    readings: ['NOTIF-10.f', 'CHG-19.f'],
  },
  'bearer-scheme-exact': {
    choice: 'The scheme name of "Authorization: Bearer <ACCESS_TOKEN>": the reference matches it case-insensitively (RFC 7235); a server may take only Bearer as written.',
    description: 'Only the scheme name spelled Bearer is taken; bearer or BEARER is another scheme (401).',
    requirements: ['SEND-1'],
    readings: ['SEND-1.c'],
  },
  'link-urls-keep-oauth-token': {
    choice: "Pagination Link URLs: the reference leaves the request's oauth_token out; they may repeat it like the other parameters.",
    description: 'The Link header URLs keep the oauth_token query parameter of the request.',
    requirements: ['SEND-2'],
    readings: ['SEND-2.d'],
  },
  'rating-only-reviews': {
    choice: 'requires_body of the review form: the reference requires a text for every SKU; a server may take a rating alone.',
    description:
      'The review form has requires_body false and a review may be a rating alone (review null); some reviews are (every seventh, and one that a sku_review notification tells of, with review_text null).',
    requirements: ['REV-2', 'REV-12', 'REV-22', 'NOTIF-4'],
    readings: ['REV-2.g', 'NOTIF-4.c', 'REV-13.d'],
  },
  'user-without-avatar': {
    choice: 'avatar, "string, URI": a user who never set one has none (null, as blank fields are).',
    description: 'The demo user has no avatar (null) until they set one.',
    requirements: ['USER-5', 'USER-2'],
    readings: ['USER-5.c'],
    // A null avatar cannot be put back after a change, so the kit skips its avatar PATCH test: kept apart from the faults.
    narrows: true,
  },
  'user-outside-loyalty': {
    choice: 'loyalty_tier_level and total_acquired_points, "integer": a user outside the loyalty scheme has neither (null, as blank fields are).',
    description: 'The demo user is outside the loyalty scheme: loyalty_tier_level and total_acquired_points are null.',
    requirements: ['USER-2'],
    readings: ['USER-2.c'],
  },
  'address-made-elsewhere': {
    choice: 'User addresses: the reference holds only addresses made through its own form; one made on the web site may lack a field the form requires.',
    description: "One of the demo user's addresses (not the personalization's) was made on the web site and has label null.",
    requirements: ['USER-9'],
    readings: ['USER-9.d'],
  },
  'notification-category-gone': {
    choice:
      "category_name of a price notification: the reference names the SKU's category, which never goes away; a notification may keep the category of the event, since deleted.",
    description: "The demo user's first price notification keeps the category its SKU was in then, since deleted: category_name null.",
    requirements: ['NOTIF-2'],
    readings: ['NOTIF-2.d'],
  },
  'reviews-moderated': {
    choice: 'Moderation of reviews (demoted; sku_review_approve_after_update notifications): the reference publishes new and changed reviews at once.',
    description: "A created review awaits moderation: demoted, and out of the SKU's reviews_count and reviewscore until approved; an update sends it back (demoted).",
    requirements: ['REV-22', 'REV-24'],
    readings: ['REV-22.f', 'REV-24.c'],
  },
  'auto-lists-virtual': {
    choice: "'auto list is created if needed': the reference stores auto lists; a server may derive them from the favorites, so that a list's creation is its appearing.",
    description: 'Auto lists are the favorites of a category seen together: none is empty, one appears with its first favorite and ends with its last.',
    requirements: ['FAV-10'],
    readings: ['FAV-10.b'],
  },
  'vote-counts-later': {
    choice: 'votes_count and helpful_votes_count after a vote: the reference counts at once; a server may recount periodically.',
    description: "A vote is stored at once (voted, helpful), but the review's votes_count and helpful_votes_count change at the next recount, every quarter of an hour.",
    requirements: ['REV-26'],
    readings: ['REV-26.i'],
    // The counts do not move within a run: the fault that counts a vote twice would not show.
    narrows: true,
  },
  'avatar-processed-later': {
    choice: 'PATCH /user with avatar: the reference stores the image at once; a server may process uploads first.',
    description: 'An uploaded avatar becomes the avatar a minute later, once processed; the old one shows meanwhile (the PATCH answer included).',
    requirements: ['USER-13', 'USER-15'],
    readings: ['USER-13.g'],
  },
  'personalization-unset-location-null': {
    choice: 'The personalization of a user who never personalised: the reference answers a default location (the map centre); the location may be unknown instead.',
    description:
      'The demo user never personalised: location is a quick_address with label, lat and lng null (GET /personalization and product meta alike), so no shop distance is known until a PUT sets one.',
    requirements: ['PERS-1'],
    readings: ['PERS-1.d'],
    // PUT /personalization takes an address_id: a location never set could not be put back, so
    // the kit changes none, and the faults of a PUT (personalization-put-*) cannot be shown.
    narrows: true,
  },
} satisfies Record<string, VariantInfo>;
