// Faults of favorite lists and favorites (the States and transitions table) (see ../faults.ts).

import type { FaultInfo } from './types.ts';

export const FAVORITE_FAULTS = {
  'favorite-update-applied-to-other-favorite': {
    requirement: 'FAV-13',
    // Every PUT misses the favorite asked: the endpoint's row (200 {favorite}, the members applied
    // per the table), favorite_list_id accepted on update, and the rows of have_it=true and
    // new_list_name as much as that of favorite_list_id.
    consequences: ['FAV-31', 'FAV-8', 'FAV-11', 'FAV-14'],
    description: "PUT /favorites/:id applies the change to another of the user's favorites (the lowest other id) and answers with that one.",
  },
  'favorite-list-delete-not-stored': {
    requirement: 'FAV-22',
    // The same row's 204 for an existing list (FAV-21): the list does not leave the listing. The
    // second 204 breaks the Errors section's 404 "also on deleting a missing ... favorite list" (ERR-10) as much as the row.
    consequences: ['FAV-21', 'ERR-10'],
    description: 'DELETE /favorite_lists/:id answers 204 but deletes nothing: the list is still listed, and deleting it again is 204 again.',
  },
  'custom-list-single-category': {
    requirement: 'FAV-4',
    clause: 'FAV-4#1',
    // The refused request is a POST /favorites with a favorite_list_id, which the endpoint's row answers 201 {favorite}.
    consequences: ['FAV-30'],
    description: 'A custom list refuses (422) a favorite of a SKU whose category differs from that of the favorites already in it.',
  },
  // Row 1: POST /favorites with no list.
  'auto-list-not-created': {
    requirement: 'FAV-10',
    clause: 'FAV-10#1',
    // The same row's outcome (the favorite in the auto list of the SKU's category), and the Auto
    // list entry of the lists table ("created automatically when a favorite is created without a favorite_list").
    consequences: ['FAV-9', 'FAV-5'],
    description: 'POST /favorites without a list, for a SKU whose category has no auto list yet, creates no auto list and stores the favorite with favorite_list_id null.',
  },
  'auto-list-ignores-category': {
    requirement: 'FAV-9',
    clause: 'FAV-9#1',
    // That auto list is then tied to two categories, and the SKU's category, which had none, gets
    // no auto list (the same row: created if needed).
    consequences: ['FAV-5', 'FAV-10'],
    description: "POST /favorites without a list puts the favorite into the user's first auto list whatever its category, instead of the auto list of the SKU's category.",
  },
  // Row 2: PUT have_it=true.
  'have-it-keeps-list': {
    requirement: 'FAV-11',
    clause: 'FAV-11#2',
    // The same row: with the favorite's own list id sent, keeping the list is honouring that id.
    consequences: ['FAV-12'],
    description: 'PUT /favorites/:id with have_it=true sets have_it but keeps favorite_list_id, so the favorite never becomes owned.',
  },
  'have-it-honours-list-id': {
    requirement: 'FAV-12',
    clause: 'FAV-12#1',
    // The same row's outcome: owned, favorite_list_id null.
    consequences: ['FAV-11'],
    description: 'PUT /favorites/:id with have_it=true and a favorite_list_id moves the favorite into that list instead of ignoring the list id.',
  },
  // Row 3: PUT favorite_list_id.
  'favorite-list-id-ignored-on-update': {
    requirement: 'FAV-13',
    clause: 'FAV-13#1',
    // The Favorite table says it again: favorite_list_id accepted on update.
    consequences: ['FAV-8'],
    description: 'PUT /favorites/:id ignores favorite_list_id: the favorite stays in its list.',
  },
  // Row 4: new_list_name.
  'new-list-name-keeps-have-it': {
    requirement: 'FAV-16',
    clause: 'FAV-16#1',
    description: 'A move by new_list_name leaves have_it as it was instead of setting it to null.',
  },
  'new-list-name-duplicates-list': {
    requirement: 'FAV-15',
    clause: 'FAV-15#2',
    description: 'A new_list_name that names an existing custom list creates a second custom list of that name instead of using the existing one.',
  },
  'invalid-new-list-name-422': {
    requirement: 'FAV-17',
    clause: 'FAV-17#1',
    // The Errors section says it again: 400 with an errors body when new_list_name fails.
    consequences: ['ERR-5'],
    description: 'A blank or too long new_list_name gives 422 instead of 400.',
  },
  // Listings.
  'owned-favorites-listed': {
    requirement: 'FAV-26',
    clause: 'FAV-26#1',
    // The Change history row 3.2.0 dates it: favorites listings exclude owned favorites unless owned=true.
    consequences: ['CHG-2'],
    description: 'GET /favorites (3.2) lists owned favorites even without owned=true.',
  },
  'owned-param-ignored': {
    requirement: 'FAV-24',
    // The owned list is what owned=true reads (FAV-6.a): read so, it holds favorites that are not owned.
    consequences: ['FAV-6'],
    description: 'GET /favorites ignores owned=true and answers the default listing.',
  },
  'owned-excluded-before-3-2': {
    requirement: 'CHG-2',
    clause: 'CHG-2#19',
    description: 'GET /favorites excludes owned favorites in versions 3.0 and 3.1 too, although the exclusion came with 3.2.0.',
  },
  'favorites-order-dir-ignored': {
    requirement: 'FAV-25',
    clause: 'FAV-25#2',
    description: 'GET /favorites ignores order_dir=asc and always lists the newest first.',
  },
  // Lists and deletion.
  'duplicate-custom-list-accepted': {
    requirement: 'FAV-20',
    clause: 'FAV-20#1',
    description: 'POST /favorite_lists with the name of an existing custom list creates a second list (201) instead of failing.',
  },
  'favorite-delete-missing-204': {
    requirement: 'FAV-33',
    clause: 'FAV-33#1',
    // The Errors section says it again: 404 on deleting a missing favorite.
    consequences: ['ERR-10'],
    description: 'DELETE /favorites/:id of a missing favorite answers 204 instead of 404.',
  },
  'favorite-created-twice': {
    requirement: 'FAV-9',
    clause: 'FAV-9#1',
    // POST /favorites answers one favorite of the SKU sent (FAV-30): the model finds the twin under it too.
    consequences: ['FAV-30'],
    description: 'POST /favorites stores the new favorite twice (a second record under another id); the answer shows the first.',
  },
  'favorite-list-created-twice': {
    requirement: 'FAV-19',
    clause: 'FAV-19#3',
    description: 'POST /favorite_lists stores the new list twice (a second list of the same name under another id); the answer shows the first.',
  },
  'category-favorites-under-data-key': {
    requirement: 'CAT-22',
    clause: 'CAT-22#1',
    // The envelope is keyed by the resource name (GEN-7); the favorites permission serves this listing (SCOPE-3).
    consequences: ['GEN-7', 'SCOPE-3'],
    description: 'GET /categories/:id/favorites answers {data: [...], meta} instead of {favorites: [...], meta}.',
  },
  'category-favorites-without-permission': {
    requirement: 'CAT-23',
    clause: 'CAT-23#1',
    // The favorites permission statement names this endpoint too (SCOPE-3).
    consequences: ['SCOPE-3'],
    description: 'GET /categories/:id/favorites serves a user token without the favorites permission.',
  },
} satisfies Record<string, FaultInfo>;
