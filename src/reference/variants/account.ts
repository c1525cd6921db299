// Legal variants of reviews, favorites, the user and notifications (see ../variants.ts).

import type { VariantInfo } from './types.ts';

export const ACCOUNT_VARIANTS = {
  'review-sort-order-by': {
    choice: "Name of the reviews' sorting parameter: not shown; the reference takes sort (and order_by).",
    description: "The reviews' sorting parameter is order_by; sort is ignored.",
    requirements: ['REV-20', 'REV-19'],
    readings: ['REV-19.b', 'CHG-3.d'],
  },
  'review-user-fields-false-for-app': {
    choice: 'voted, flagged, helpful are "authorized user only": for an application token they may be absent or false (the reference leaves them out, and own_review).',
    description: 'For an application token, reviews carry voted, flagged and helpful false and own_review null.',
    requirements: ['REV-3', 'REV-5'],
    readings: ['REV-2.d', 'REV-3.c', 'REV-5.f', 'SCOPE-1.e'],
  },
  'review-user-fields-need-actions-scope': {
    choice:
      'voted, flagged, helpful are "authorized user only": the reference sends them to every user token; a deployment may send them only to a token granted publish_sku_review_actions, the permission for votes and flags, which it may refuse at authorization.',
    description:
      "The authorization step refuses publish_sku_review_actions, and reviews carry voted, flagged and helpful only for a user token granted it, so the run's user token gets none of them.",
    requirements: ['REV-2', 'REV-3', 'SCOPE-8'],
    readings: ['REV-2.e', 'REV-3.d'],
    options: { reviewActionsScope: 'refused' },
    // Without the scope no vote or flag can be made: the faults of votes and flags would not show.
    narrows: true,
  },
  'own-review-in-meta': {
    choice: 'own_review, "the current user\'s review, exposed in review listings": on each review (the reference) or once in the listing\'s meta.',
    description: 'A review listing for a user token carries own_review once, in meta, and not on the reviews.',
    requirements: ['REV-5'],
    readings: ['REV-2.j', 'REV-5.c', 'REV-16.e', 'REV-18.c', 'CHG-3.e'],
    conflicts: ['own-review-top-level'],
  },
  'own-review-top-level': {
    choice: 'own_review, "the current user\'s review, exposed in review listings": on each review (the reference), once in meta, or once at the top level of the body.',
    description: 'A review listing for a user token carries own_review once, at the top level beside reviews and meta, and not on the reviews.',
    requirements: ['REV-5', 'REV-2', 'REV-16'],
    readings: ['REV-2.k', 'REV-5.d', 'REV-16.f'],
    conflicts: ['own-review-in-meta'],
  },
  'second-vote-refused': {
    choice: 'A second vote by the same user: not shown; the reference replaces the first.',
    description: 'A second vote by the same user on a review is answered 422 RecordInvalid.',
    requirements: ['REV-26'],
    readings: ['REV-1.e', 'REV-7.c', 'REV-26.c'],
    conflicts: ['second-vote-updated-200'],
  },
  'second-vote-updated-200': {
    choice: 'A second vote by the same user: not shown; the reference replaces the first and answers 201.',
    description: 'A second vote by the same user on a review replaces the first and is answered 200 with the vote.',
    requirements: ['REV-26', 'REV-27'],
    readings: ['REV-26.d', 'REV-27.g'],
    conflicts: ['second-vote-refused'],
  },
  'own-review-vote-refused': {
    choice: 'Whether users may vote on their own reviews: not shown; the reference lets them vote on and flag them.',
    description: "A vote on the voter's own review is refused with 403 Forbidden; flagging it is accepted.",
    requirements: ['REV-26', 'REV-27'],
    readings: ['REV-26.e'],
    conflicts: ['own-votes-not-counted'],
    // The kit votes only on its own review: the faults of votes would not show.
    narrows: true,
  },
  'own-votes-not-counted': {
    choice: "Whether a vote on one's own review counts in votes_count and helpful_votes_count: not shown; the reference counts it.",
    description: "A vote on the voter's own review is stored (voted and helpful show it) but left out of votes_count and helpful_votes_count.",
    requirements: ['REV-26', 'REV-3'],
    readings: ['REV-26.h'],
    conflicts: ['own-review-vote-refused'],
  },
  'flag-empty-body': {
    choice: 'The flag answer: "the text says an empty body unless an error occurs, while the example shows the flag record"; the reference sends {flag: record}.',
    description: 'A created flag is answered 201 with an empty body.',
    requirements: ['REV-29', 'REV-28'],
    readings: ['REV-1.b', 'REV-11.c', 'REV-28.b', 'REV-29.a'],
    conflicts: ['flag-bare-record'],
  },
  'flag-bare-record': {
    choice: 'The flag answer: the example shows the flag record, as a bare object; the reference wraps it in {flag}.',
    description: 'A created flag is answered 201 with the flag record as a bare object.',
    requirements: ['REV-29', 'REV-11', 'GEN-7'],
    readings: ['GEN-7.e', 'REV-11.d', 'REV-28.d', 'REV-29.b'],
    conflicts: ['flag-empty-body'],
  },
  'second-flag-refused': {
    choice: 'A second flag by the same user: not shown; the reference updates the first.',
    description: 'A second flag by the same user on a review is answered 422 RecordInvalid.',
    requirements: ['REV-28'],
    readings: ['REV-1.f', 'REV-10.d', 'REV-28.g'],
  },
  'review-form-refused-when-reviewed': {
    choice: 'The new-review form for a SKU the user has reviewed, or one that is not reviewable: not shown; the reference serves it.',
    description: 'GET /skus/:id/reviews/new is refused with 422 RecordInvalid for a SKU the user has reviewed or that is not reviewable.',
    requirements: ['REV-21'],
    readings: ['REV-21.g'],
  },
  'flags-from-3.0.21': {
    choice: 'GET /flags (the flag reasons) in versions before 3.0.21, which brought flagging: not shown; the reference serves it in every version.',
    description: 'GET /flags is served from version 3.0.21; a request for an older version gets 404.',
    requirements: ['REV-30', 'REV-9', 'REV-10', 'CHG-9'],
    readings: ['REV-9.f', 'REV-10.f', 'REV-30.e', 'CHG-9.b'],
  },
  'auto-lists-unlisted': {
    choice: 'Auto lists in GET /favorite_lists: not shown; the reference lists them.',
    description: "GET /favorite_lists lists the user's custom lists only.",
    requirements: ['FAV-18', 'FAV-5'],
    readings: ['FAV-5.c', 'FAV-18.c'],
    // Together they hide an auto list from every answer but PUT's: no client could find it.
    conflicts: ['favorite-list-id-on-update-only'],
  },
  'duplicate-list-400': {
    choice: 'Status for a custom list with an existing custom name: not shown; the reference answers 422.',
    description: 'A custom list with an existing custom name is answered 400 InvalidParameter.',
    requirements: ['FAV-20', 'ERR-18'],
    readings: ['FAV-19.b', 'FAV-20.b', 'ERR-11.e'],
  },
  'auto-list-dropped-when-empty': {
    choice: 'What becomes of an auto list when its last favorite leaves: not shown; the reference keeps it.',
    description: 'An auto list is deleted when its last favorite is deleted or moves away.',
    requirements: ['FAV-5', 'FAV-10'],
    readings: ['FAV-1.h', 'FAV-5.e', 'FAV-10.c', 'FAV-11.d', 'FAV-32.b'],
  },
  'favorite-list-type-on-create-only': {
    choice: 'type of a favorite list, "custom (in the create response)": present in other answers or not.',
    description: 'A favorite list carries type only in the answer of POST /favorite_lists.',
    requirements: ['FAV-3', 'FAV-1'],
    readings: ['FAV-1.c', 'FAV-3.c', 'FAV-18.e'],
  },
  'favorite-list-id-on-update-only': {
    choice: 'favorite_list_id of a favorite, "(integer, accepted on update)": shown in every answer or only on update.',
    description: 'A favorite carries favorite_list_id only in the answer of PUT /favorites/:id.',
    requirements: ['FAV-8', 'FAV-7'],
    readings: ['FAV-7.d', 'FAV-8.c', 'FAV-23.g', 'FAV-27.c', 'FAV-29.b', 'FAV-30.d'],
    conflicts: ['auto-lists-unlisted'],
  },
  'auto-list-favorites-null-list-id': {
    choice:
      "favorite_list_id of a favorite in an auto list: the auto list's (negative) id, or null, its membership following from the SKU's category (the 'owned' list is favorite_list_id null and have_it true).",
    description: "A favorite of an auto list shows favorite_list_id null; GET /favorite_lists and the auto list's favorites show where it is.",
    requirements: ['FAV-9', 'FAV-2', 'FAV-5', 'FAV-7'],
    readings: ['FAV-2.d', 'FAV-5.b', 'FAV-7.c', 'FAV-9.b'],
    // Together they hide an auto list from every answer: no client could find it.
    conflicts: ['auto-lists-unlisted'],
  },
  'auto-list-delete-refused': {
    choice: 'Deleting an auto list: not shown; the reference deletes it with its favorites.',
    description: 'DELETE /favorite_lists/:id of an auto list is refused with 422 RecordInvalid (auto lists are managed by the service).',
    requirements: ['FAV-21', 'FAV-22', 'FAV-2', 'ERR-10'],
    readings: ['FAV-2.f', 'FAV-21.b', 'FAV-22.c', 'ERR-10.d'],
  },
  'category-favorites-list-owned': {
    choice:
      'Owned favorites in GET /categories/:id/favorites: the exclusion is stated for GET /favorites and GET /favorite_lists/:id/favorites, the listings that take owned=true; the reference leaves them out of the category listing too.',
    description: 'GET /categories/:id/favorites lists owned favorites in every version.',
    requirements: ['CAT-22', 'CHG-2', 'FAV-26'],
    readings: ['CAT-22.d', 'FAV-26.d', 'CHG-2.i'],
  },
  'owned-param-since-3-2': {
    choice: 'owned=true: the Change history brings it with 3.2.0 ("favorites listings exclude owned favorites unless owned=true"); the reference honours it in every version.',
    description: 'Below 3.2.0 owned=true is ignored: GET /favorites answers every favorite.',
    requirements: ['FAV-24', 'FAV-6', 'FAV-23', 'CHG-2'],
    readings: ['FAV-6.d', 'FAV-23.c', 'FAV-24.b', 'FAV-28.b'],
    narrows: true,
    // It shows only where a version below 3.2.0 is served: kept out of the bundle of
    // implements-3.2.0 (which serves 3.2.0 to every request), so that it runs with implements-3.1.1.
    conflicts: ['implements-3.2.0'],
  },
  'address-coordinates-null': {
    choice: 'lng, lat of a user address are "string or null": the reference geocodes every address.',
    description: 'User addresses carry lat and lng null (nothing is geocoded).',
    requirements: ['USER-9'],
    readings: ['USER-9.c', 'PERS-3.d', 'USER-18.d', 'USER-20.e'],
  },
  'avatar-per-user-address': {
    choice: "The avatar URI after PATCH /user: not shown; the reference answers the preset's URI for avatar_preset and a new URI for each upload.",
    description: "The user's avatar is served at one address of the user's own: a preset chosen is copied there and an uploaded image stored there, so the URI stays the same.",
    requirements: ['USER-14', 'USER-15', 'USER-5', 'USER-13'],
    readings: ['USER-5.d', 'USER-13.f', 'USER-14.c', 'USER-15.f'],
  },
  'address-form-from-3.2.0': {
    choice: 'GET /user/addresses/new (the address form) in versions before 3.2.0, which brought address create: not shown; the reference serves it in every version.',
    description: 'GET /user/addresses/new is served from version 3.2.0; a request for an older version gets 404.',
    requirements: ['USER-19', 'USER-10', 'CHG-2'],
    readings: ['USER-10.c', 'USER-19.c'],
  },
  'personalization-endpoints-from-3.2.0': {
    choice: 'GET and PUT /personalization before 3.2.0, which brought blp (computed from the personalization): not shown; the reference serves them in every version.',
    description: 'GET and PUT /personalization are served from version 3.2.0; a request for an older version gets 404.',
    requirements: ['PERS-1', 'PERS-2', 'PERS-3', 'CHG-2'],
    readings: ['PERS-2.i'],
  },
  'saved-orders-oldest-first': {
    choice: 'Order of saved orders: not shown; the reference lists the newest first.',
    description: 'Saved orders are listed oldest first.',
    requirements: ['USER-24'],
    readings: ['USER-24.c'],
  },
  'personalization-reset-on-address-delete': {
    choice: 'Deleting the address the personalization uses: not shown; the reference keeps the location with address_id null.',
    description: "Deleting the personalization's address resets the personalization to the default (quick_address at the map centre).",
    requirements: ['PERS-2', 'USER-23'],
    readings: ['PERS-2.h', 'USER-23.e'],
  },
  'sentiments-always-three': {
    choice: 'sentiments: arrays positive, mediocre, negative (each optional); the reference leaves out the empty ones.',
    description: "A review's sentiments always carry positive, mediocre and negative, [] when empty.",
    requirements: ['REV-4'],
    readings: ['REV-2.l', 'REV-4.b', 'CHG-3.g'],
  },
  'notification-keys-absent': {
    choice: 'sku, category_name and user of notifications whose etype embeds none: the reference sends null.',
    description: 'Notifications carry sku, category_name and user only where the Events section embeds them.',
    requirements: ['NOTIF-2', 'NOTIF-5', 'EVT-10', 'EVT-11', 'EVT-12'],
    readings: ['GEN-8.d', 'NOTIF-1.d', 'NOTIF-2.c', 'NOTIF-5.d', 'NOTIF-8.c', 'NOTIF-9.c', 'EVT-1.f', 'EVT-10.e', 'EVT-11.c', 'EVT-12.e', 'CHG-20.e'],
  },
  'notification-sku-minimal': {
    choice:
      'The embedded Sku of notifications: "id, display_name, images, click_url, virtual, future; later also category_id and first_product_shop_info", the later ones with no version named.',
    description: 'Notifications embed the Sku without category_id and first_product_shop_info.',
    requirements: ['EVT-10'],
    readings: ['CAT-2.e', 'SKU-4.d', 'NOTIF-1.e', 'NOTIF-8.b', 'NOTIF-9.b', 'EVT-10.b', 'CHG-20.c'],
  },
} as const satisfies Record<string, VariantInfo>;
