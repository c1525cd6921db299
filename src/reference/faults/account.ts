// Faults of user, profile, avatars, addresses, saved orders, personalization, logout, notifications (see ../faults.ts).

import type { FaultInfo } from './types.ts';

export const ACCOUNT_FAULTS = {
  'user-email-missing-in-3-2': {
    requirement: 'CHG-2',
    clause: 'CHG-2#12',
    // The User table lists email; the field is omitted where blank fields are null, never
    // omitted; and what version=3.2 returns is not 3.2's User (the version rule, VER-9).
    consequences: ['USER-2', 'GEN-8', 'VER-9'],
    description: 'GET /user in version 3.2 has no email, which the Change history adds to User in 3.2.0.',
  },
  'address-region-as-id': {
    requirement: 'USER-9',
    clause: 'USER-9#3',
    description: 'Addresses carry the integer region id in region instead of the region name.',
  },
  'address-numeric-zip-rejected': {
    requirement: 'USER-21',
    clause: 'USER-21#1',
    description: 'POST /user/addresses refuses a zip sent as a JSON number with 422.',
  },
  'user-patch-not-stored': {
    requirement: 'USER-13',
    clause: 'USER-13#4',
    description: 'PATCH /user answers 200 with the change applied, but stores nothing: GET /user still shows the old value.',
  },
  'user-patch-clears-unsent-fields': {
    requirement: 'USER-13',
    clause: 'USER-13#5',
    description: 'PATCH /user sets sex and birthyear from the body as a whole form would, so the one not sent becomes null.',
  },
  'address-delete-not-stored': {
    requirement: 'USER-23',
    clause: 'USER-23#2',
    description: 'DELETE /user/addresses/:id answers 204 but deletes nothing: the address is still listed, and deleting it again is 204 again.',
  },
  'address-update-applied-to-other-address': {
    requirement: 'USER-22',
    clause: 'USER-22#5',
    description: "PUT /user/addresses/:id writes the change to another of the user's addresses (the lowest other id) and answers with that one.",
  },
  'personalization-put-not-stored': {
    requirement: 'PERS-3',
    clause: 'PERS-3#1',
    description: 'PUT /personalization answers 200 with the personalization pointing at the address sent, but stores nothing: GET shows the old one.',
  },
  'address-update-not-stored': {
    requirement: 'USER-22',
    clause: 'USER-22#3',
    description: 'PUT /user/addresses/:id answers 200 with the change applied, but stores nothing: GET /user/addresses shows the old address.',
  },
  'address-update-clears-unsent-fields': {
    requirement: 'USER-22',
    clause: 'USER-22#4',
    description: 'PUT /user/addresses/:id replaces the address instead of merging the partial body: the name and street fields not sent become empty (the label is kept).',
  },
  'logout-returns-body': {
    requirement: 'USER-26',
    clause: 'USER-26#2',
    description: 'DELETE /user/logout answers 200 with a JSON body instead of an empty body.',
  },
  'personalization-put-ignored': {
    requirement: 'PERS-3',
    description: 'PUT /personalization answers 200 with the old personalization and does not change the location.',
  },
  'notifications-view-returns-body': {
    requirement: 'NOTIF-10',
    clause: 'NOTIF-10#2',
    // The States and transitions row says it again: status 204.
    consequences: ['NOTIF-6'],
    description: 'POST /notifications/view answers 200 with a JSON body instead of 204 with an empty body.',
  },
  'notifications-view-not-persisted': {
    requirement: 'EVT-13',
    clause: 'EVT-13#1',
    // The States and transitions row EVT-13 refers to: is_viewed false -> true.
    consequences: ['NOTIF-6'],
    description: 'POST /notifications/view answers 204 but the notifications keep is_viewed false.',
  },
  'price-drop-notification-without-category-name': {
    requirement: 'EVT-11',
    clause: 'EVT-11#1',
    // The Notification table says it again (category_name for price notifications), the Change
    // history row 3.0.10 dates it, and the key is omitted where blank fields are never omitted.
    consequences: ['NOTIF-2', 'CHG-20', 'GEN-8'],
    description: 'price_drop notifications carry no category_name key; only price_up ones get the category name.',
  },
  'sku-review-notification-without-user': {
    requirement: 'EVT-12',
    clause: 'EVT-12#1',
    // The Notification table says it again (user embedded for sku_review), the Change history row
    // 3.0.10 dates it, and the key is omitted where blank fields are never omitted.
    consequences: ['NOTIF-5', 'CHG-20', 'GEN-8'],
    description: 'sku_review notifications carry no user key instead of the embedded reviewing user.',
  },
  'products-ignore-user-personalization': {
    requirement: 'PRD-6',
    clause: 'PRD-6#1',
    description: "Product answers compute blp from the service's default personalization, not the requesting user's, and say so in meta.personalization.",
  },
  // The same cache-key tag on one endpoint alone (issue 38, point 6: a stale ETag on three endpoints).
  'user-etag-from-request-target': {
    requirement: 'ERR-3',
    clause: 'ERR-3#1',
    description: 'GET /user tags its answer with the request target: after PATCH /user, If-None-Match with the old ETag gets 304 Not Modified.',
  },
  'addresses-etag-from-request-target': {
    requirement: 'ERR-3',
    clause: 'ERR-3#1',
    description: 'GET /user/addresses tags its answer with the request target: after an address is created or changed, If-None-Match with the old ETag gets 304 Not Modified.',
  },
  'address-created-twice': {
    requirement: 'USER-20',
    clause: 'USER-20#2',
    description: 'POST /user/addresses stores the new address twice (a second record under another id); the answer shows the first.',
  },
  'notifications-view-marks-all': {
    requirement: 'NOTIF-6',
    clause: 'NOTIF-6#1',
    description: 'POST /notifications/view marks every notification of the user viewed, not only those whose ids it was sent.',
  },
} satisfies Record<string, FaultInfo>;
