// Faults of SKU reviews, review forms, votes, flags (see ../faults.ts).

import type { FaultInfo } from './types.ts';

export const REVIEW_FAULTS = {
  'reviews-demoted-listed-first': {
    requirement: 'REV-18',
    clause: 'REV-18#1',
    // The Change history row that dates this very order (3.0.2: most recent non-demoted first).
    consequences: ['CHG-29'],
    description: 'The default review listing puts demoted reviews before the non-demoted ones.',
  },
  'reviews-most-helpful-refused': {
    requirement: 'REV-19',
    clause: 'REV-19#1',
    description: 'The review listing rejects the most_helpful sort with 400.',
  },
  'review-aggregation-score-string': {
    requirement: 'REV-6',
    clause: 'REV-6#3',
    description: 'meta.sku_reviews_aggregation gives each score as a string instead of an integer.',
  },
  'review-user-claims-for-app-token': {
    requirement: 'REV-3',
    clause: 'REV-3#3',
    description: 'For an application token every SKU review says voted true and helpful true, as if some user had voted it helpful.',
  },
  'edit-form-without-selected': {
    requirement: 'REV-13',
    clause: 'REV-13#3',
    // The endpoint's row says it again ("{review_form} with selected answers"); the field is
    // omitted, where blank fields are present with null, never omitted.
    consequences: ['REV-23', 'GEN-8'],
    description: "The edit form's answers carry no selected, so the form does not show which answers the review has.",
  },
  'created-review-rating-string': {
    requirement: 'REV-2',
    clause: 'REV-2#3',
    description: 'The review returned by POST /skus/:id/reviews has its rating as a string.',
  },
  'review-delete-returns-200-with-body': {
    requirement: 'REV-25',
    clause: 'REV-25#2',
    description: 'DELETE /skus/:id/reviews/:id answers 200 with the deleted review instead of 204 with an empty body.',
  },
  'most-helpful-sorted-as-recent': {
    requirement: 'REV-19',
    clause: 'REV-19#2',
    description: 'The review listing accepts sort=most_helpful but sorts most recent first, as for most_recent.',
  },
  'review-delete-not-stored': {
    requirement: 'REV-25',
    clause: 'REV-25#1',
    description: 'DELETE /skus/:id/reviews/:review_id answers 204 but deletes nothing: the review stays, and deleting it again is 204 again.',
  },
  'vote-applied-to-other-review': {
    requirement: 'REV-26',
    clause: 'REV-26#1',
    description: 'POST /skus/:id/reviews/:review_id/votes stores the vote on another review of the SKU (the oldest), answered 201 all the same.',
  },
  'flag-applied-to-other-review': {
    requirement: 'REV-28',
    clause: 'REV-28#1',
    description: 'POST /skus/:id/reviews/:review_id/flags stores the flag on another review of the SKU (the oldest), answered 201 all the same.',
  },
  'review-update-not-stored': {
    requirement: 'REV-24',
    clause: 'REV-24#1',
    description: 'PUT /skus/:id/reviews/:id answers 200 with the change applied, but stores nothing: the edit form and the listing show the old rating.',
  },
  'vote-not-stored': {
    requirement: 'REV-26',
    clause: 'REV-26#2',
    description: 'POST .../votes answers 201 with the vote, but stores nothing: the review keeps its counts, and voted false for the voter.',
  },
  'vote-counted-twice': {
    requirement: 'REV-26',
    clause: 'REV-26#3',
    description: 'A new vote adds 2 to votes_count (and to helpful_votes_count when helpful) instead of 1.',
  },
  'flag-not-stored': {
    requirement: 'REV-28',
    clause: 'REV-28#2',
    description: 'POST .../flags answers 201, but stores nothing: the review says flagged false to the user who flagged it.',
  },
  'vote-without-permission-accepted': {
    requirement: 'REV-27',
    clause: 'REV-27#2',
    // The permissions table says it again: publish_sku_review_actions is what grants voting.
    consequences: ['SCOPE-5'],
    description: 'Voting on a review does not check the publish_sku_review_actions permission.',
  },
  'flag-unknown-reason-accepted': {
    requirement: 'REV-28',
    clause: 'REV-28#3',
    // The flag record's field table says it again (reason: values bad_language, wrong_section, spam).
    consequences: ['REV-10'],
    description: 'Flagging a review accepts a reason outside bad_language, wrong_section, spam.',
  },
} satisfies Record<string, FaultInfo>;
