// Legal variants of reviews, favorites, the user and notifications (see ../variants.ts).

import type { VariantInfo } from './types.ts';

export const ACCOUNT_VARIANTS = {
  'review-sort-order-by': {
    choice: "Name of the reviews' sorting parameter: not shown; the reference takes sort (and order_by).",
    description: "The reviews' sorting parameter is order_by; sort is ignored.",
    requirements: ['REV-20', 'REV-19'],
  },
  'review-user-fields-false-for-app': {
    choice: 'voted, flagged, helpful are "authorized user only": for an application token they may be absent or false (the reference leaves them out, and own_review).',
    description: 'For an application token, reviews carry voted, flagged and helpful false and own_review null.',
    requirements: ['REV-3', 'REV-5'],
  },
  'own-review-in-meta': {
    choice: 'own_review, "the current user\'s review, exposed in review listings": on each review (the reference) or once in the listing\'s meta.',
    description: 'A review listing for a user token carries own_review once, in meta, and not on the reviews.',
    requirements: ['REV-5'],
  },
  'second-vote-refused': {
    choice: 'A second vote by the same user: not shown; the reference replaces the first.',
    description: 'A second vote by the same user on a review is answered 422 RecordInvalid.',
    requirements: ['REV-26'],
  },
  'own-votes-not-counted': {
    choice: "Whether a vote on one's own review counts in votes_count and helpful_votes_count: not shown; the reference counts it.",
    description: "A vote on the voter's own review is stored (voted and helpful show it) but left out of votes_count and helpful_votes_count.",
    requirements: ['REV-26', 'REV-3'],
  },
  'flag-empty-body': {
    choice: 'The flag answer: "the text says an empty body unless an error occurs, while the example shows the flag record"; the reference sends {flag: record}.',
    description: 'A created flag is answered 201 with an empty body.',
    requirements: ['REV-29', 'REV-28'],
    conflicts: ['flag-bare-record'],
  },
  'flag-bare-record': {
    choice: 'The flag answer: the example shows the flag record, as a bare object; the reference wraps it in {flag}.',
    description: 'A created flag is answered 201 with the flag record as a bare object.',
    requirements: ['REV-29', 'REV-11', 'GEN-7'],
    conflicts: ['flag-empty-body'],
  },
  'second-flag-refused': {
    choice: 'A second flag by the same user: not shown; the reference updates the first.',
    description: 'A second flag by the same user on a review is answered 422 RecordInvalid.',
    requirements: ['REV-28'],
  },
  'auto-lists-unlisted': {
    choice: 'Auto lists in GET /favorite_lists: not shown; the reference lists them.',
    description: "GET /favorite_lists lists the user's custom lists only.",
    requirements: ['FAV-18', 'FAV-5'],
    // Together they hide an auto list from every answer but PUT's: no client could find it.
    conflicts: ['favorite-list-id-on-update-only'],
  },
  'duplicate-list-400': {
    choice: 'Status for a custom list with an existing custom name: not shown; the reference answers 422.',
    description: 'A custom list with an existing custom name is answered 400 InvalidParameter.',
    requirements: ['FAV-20', 'ERR-18'],
  },
  'auto-list-dropped-when-empty': {
    choice: 'What becomes of an auto list when its last favorite leaves: not shown; the reference keeps it.',
    description: 'An auto list is deleted when its last favorite is deleted or moves away.',
    requirements: ['FAV-5', 'FAV-10'],
  },
  'favorite-list-type-on-create-only': {
    choice: 'type of a favorite list, "custom (in the create response)": present in other answers or not.',
    description: 'A favorite list carries type only in the answer of POST /favorite_lists.',
    requirements: ['FAV-3', 'FAV-1'],
  },
  'favorite-list-id-on-update-only': {
    choice: 'favorite_list_id of a favorite, "(integer, accepted on update)": shown in every answer or only on update.',
    description: 'A favorite carries favorite_list_id only in the answer of PUT /favorites/:id.',
    requirements: ['FAV-8', 'FAV-7'],
    conflicts: ['auto-lists-unlisted'],
  },
  'address-coordinates-null': {
    choice: 'lng, lat of a user address are "string or null": the reference geocodes every address.',
    description: 'User addresses carry lat and lng null (nothing is geocoded).',
    requirements: ['USER-9'],
  },
  'saved-orders-oldest-first': {
    choice: 'Order of saved orders: not shown; the reference lists the newest first.',
    description: 'Saved orders are listed oldest first.',
    requirements: ['USER-24'],
  },
  'personalization-reset-on-address-delete': {
    choice: 'Deleting the address the personalization uses: not shown; the reference keeps the location with address_id null.',
    description: "Deleting the personalization's address resets the personalization to the default (quick_address at the map centre).",
    requirements: ['PERS-2', 'USER-23'],
  },
  'sentiments-always-three': {
    choice: 'sentiments: arrays positive, mediocre, negative (each optional); the reference leaves out the empty ones.',
    description: "A review's sentiments always carry positive, mediocre and negative, [] when empty.",
    requirements: ['REV-4'],
  },
  'notification-keys-absent': {
    choice: 'sku, category_name and user of notifications whose etype embeds none: the reference sends null.',
    description: 'Notifications carry sku, category_name and user only where the Events section embeds them.',
    requirements: ['NOTIF-2', 'NOTIF-5', 'EVT-10', 'EVT-11', 'EVT-12'],
  },
  'notification-sku-minimal': {
    choice:
      'The embedded Sku of notifications: "id, display_name, images, click_url, virtual, future; later also category_id and first_product_shop_info", the later ones with no version named.',
    description: 'Notifications embed the Sku without category_id and first_product_shop_info.',
    requirements: ['EVT-10'],
  },
} as const satisfies Record<string, VariantInfo>;
