// Each review check passes what the spec allows and fails what it forbids.
import { describe, expect, test } from 'vitest';
import type { CheckResult } from './check.ts';
import {
  aggregationWellFormed,
  flagStored,
  mostHelpfulFirst,
  voteCounted,
  voteStored,
  demotedAfterNonDemoted,
  editFormSelects,
  flagCatalogueIsExact,
  isClientError,
  mostHelpfulVerdict,
  newFormHasNoEditFields,
  noUserClaimsForAppToken,
  nonDemotedNewestFirst,
  reviewHas,
  selectionUnchanged,
  voteEmbedsReview,
  voteMatches,
  votePermissionMatchesFlag,
  ownReviewVoteRefused,
  permissionMismatchBreaks,
} from './reviews.ts';

const passes = (result: CheckResult) => expect(result).toEqual({ ok: true });
const failsWith = (result: CheckResult, pattern: RegExp) => {
  expect(result.ok).toBe(false);
  expect(result.ok ? '' : result.message).toMatch(pattern);
};
const review = (id: number, demoted: boolean, created_at: string) => ({ id, demoted, created_at });

describe('default order', () => {
  test('non-demoted reviews come first', () => {
    passes(demotedAfterNonDemoted([review(1, false, 'x'), review(2, false, 'x'), review(3, true, 'x')]));
    passes(demotedAfterNonDemoted([review(1, true, 'x'), review(2, true, 'x')]));
    passes(demotedAfterNonDemoted([]));
    failsWith(demotedAfterNonDemoted([review(1, false, 'x'), review(2, true, 'x'), review(3, false, 'x')]), /review 3 .*position 3.*demoted review 2/);
  });

  test('non-demoted reviews are newest first; demoted ones and offsets are taken as they come', () => {
    passes(nonDemotedNewestFirst([review(1, false, '2024-03-02T00:00:00Z'), review(2, true, '2024-03-05T00:00:00Z'), review(3, false, '2024-03-01T00:00:00Z')]));
    // 2024-03-02T01:00:00+02:00 is 2024-03-01T23:00:00Z: older than midnight UTC.
    passes(nonDemotedNewestFirst([review(1, false, '2024-03-02T00:00:00Z'), review(2, false, '2024-03-02T01:00:00+02:00')]));
    passes(nonDemotedNewestFirst([review(1, false, '2024-03-02T00:00:00Z'), review(2, false, '2024-03-02T00:00:00Z')]));
    failsWith(nonDemotedNewestFirst([review(1, false, '2024-03-01T00:00:00Z'), review(2, false, '2024-03-02T00:00:00Z')]), /review 2 .*after review 1/);
  });
});

describe('user-only fields', () => {
  test('an application token: absent, or the value of nobody (false, null); never a claim about a user', () => {
    passes(noUserClaimsForAppToken([{ id: 1 }, { id: 2, voted: null, flagged: null, helpful: null }]));
    passes(noUserClaimsForAppToken([{ id: 1, voted: false, flagged: false, helpful: false, own_review: null }]));
    failsWith(noUserClaimsForAppToken([{ id: 1, voted: true, flagged: false, helpful: true }]), /review 1 carries voted=true, helpful=true for an application token/);
    failsWith(noUserClaimsForAppToken([{ id: 1, own_review: { id: 9 } }]), /own_review=/);
    // Only the fields asked about: voted, flagged, helpful (REV-3) apart from own_review (REV-5).
    passes(noUserClaimsForAppToken([{ id: 1, voted: true, own_review: null }], ['own_review']));
    passes(noUserClaimsForAppToken([{ id: 1, own_review: { id: 9 } }], ['voted', 'flagged', 'helpful']));
  });
});

test('sku_reviews_aggregation is an array of {label, score integer, style}', () => {
  passes(aggregationWellFormed({ sku_reviews_aggregation: [] }));
  passes(aggregationWellFormed({ sku_reviews_aggregation: [{ label: 'battery', score: 80, style: 'positive' }] }));
  failsWith(aggregationWellFormed({ sku_reviews_aggregation: [{ label: 'battery', score: '80', style: 'positive' }] }), /score "80" \(expected an integer\)/);
  failsWith(aggregationWellFormed({ sku_reviews_aggregation: [{ label: 'battery', score: 80.5, style: 'positive' }] }), /score 80.5/);
  failsWith(aggregationWellFormed({ sku_reviews_aggregation: [{ label: 1, score: 1 }] }), /label 1.*style undefined/);
  failsWith(aggregationWellFormed({}), /expected an array/);
});

test('most_helpful: refused only when the same parameter takes most_recent', () => {
  expect(mostHelpfulVerdict(200, 200)).toBe('accepted');
  expect(mostHelpfulVerdict(400, 200)).toBe('accepted');
  expect(mostHelpfulVerdict(200, 400)).toBe('refused');
  expect(mostHelpfulVerdict(200, 422)).toBe('refused');
  expect(mostHelpfulVerdict(400, 400)).toBe('unknown-name');
  expect(mostHelpfulVerdict(200, 500)).toBe('unknown-name');
});

test('GET /flags lists exactly the three reasons, each with a description', () => {
  const entry = (reason: unknown, description: unknown = 'text') => ({ reason, description });
  passes(flagCatalogueIsExact([entry('spam'), entry('bad_language'), entry('wrong_section')]));
  failsWith(flagCatalogueIsExact([entry('spam'), entry('bad_language')]), /missing wrong_section/);
  failsWith(flagCatalogueIsExact([entry('spam'), entry('bad_language'), entry('wrong_section'), entry('rude')]), /does not name: "rude"/);
  failsWith(flagCatalogueIsExact([entry('spam'), entry('spam'), entry('bad_language'), entry('wrong_section')]), /more than once: spam/);
  failsWith(flagCatalogueIsExact([entry('spam', null), entry('bad_language'), entry('wrong_section')]), /without a string description/);
});

describe('review forms', () => {
  const question = (answers: object[]) => ({ text: 'q', type: 'eval_sentiment', answers });
  test('the new form has no rating, review or selected', () => {
    passes(newFormHasNoEditFields({ requires_body: true, questions: [question([{ id: 1, text: 'a' }])] }));
    failsWith(newFormHasNoEditFields({ requires_body: true, questions: [question([{ id: 1, text: 'a', selected: false }])] }), /selected on 1 answer/);
    failsWith(newFormHasNoEditFields({ requires_body: true, rating: 4, questions: [] }), /rating 4/);
  });

  test('the edit form selects exactly the answers sent', () => {
    const form = {
      questions: [
        question([
          { id: 1, selected: true },
          { id: 2, selected: false },
        ]),
        question([{ id: 3, selected: true }]),
      ],
    };
    passes(editFormSelects(form, [1, 3]));
    failsWith(editFormSelects(form, [1]), /answers 3 are selected but were not sent/);
    failsWith(editFormSelects(form, [1, 2, 3]), /answers 2 were sent but are not selected/);
    failsWith(editFormSelects({ questions: [question([{ id: 1 }])] }, []), /answer 1 has selected undefined/);
  });

  test('an update without answer_ids leaves the selection as the edit form showed it before', () => {
    const form = (selected: (boolean | undefined)[]) => ({ questions: [question(selected.map((s, i) => (s === undefined ? { id: i + 1 } : { id: i + 1, selected: s })))] });
    passes(selectionUnchanged(form([true, false]), form([true, false])));
    // No selected before and after: nothing changed (the missing field is editFormSelects').
    passes(selectionUnchanged(form([undefined, undefined]), form([undefined, undefined])));
    failsWith(selectionUnchanged(form([true, false]), form([false, true])), /answers 1 no longer selected; answers 2 selected anew/);
  });
});

test('a created or updated review has the rating and text sent (the rating by its value)', () => {
  passes(reviewHas({ rating: 4, review: 'x' }, { rating: 4, review: 'x' }, 'POST'));
  failsWith(reviewHas({ rating: '5', review: 'x' }, { rating: 4 }, 'POST /skus/1/reviews'), /POST \/skus\/1\/reviews answered a review with rating "5", sent 4/);
  // The value sent with the wrong type: the type is the field table's (REV-2, the schema), not this check's.
  passes(reviewHas({ rating: '4', review: 'x' }, { rating: 4 }, 'POST /skus/1/reviews'));
  failsWith(reviewHas({ rating: 4, review: 'y' }, { review: 'x' }, 'PUT'), /review "y", sent "x"/);
});

describe('votes', () => {
  test('a vote is for the review, with the helpful value sent', () => {
    passes(voteMatches({ sku_review_id: 5, helpful: false }, 5, false));
    failsWith(voteMatches({ sku_review_id: 6, helpful: 'true' }, 5, true), /sku_review_id 6, voted on 5, helpful "true", sent true/);
  });

  test('sku_review only with embed=sku_review', () => {
    passes(voteEmbedsReview({ id: 1 }, 5, false));
    passes(voteEmbedsReview({ id: 1, sku_review: { id: 5 } }, 5, true));
    failsWith(voteEmbedsReview({ id: 1, sku_review: { id: 5 } }, 5, false), /without embed=sku_review/);
    failsWith(voteEmbedsReview({ id: 1 }, 5, true), /expected the review object/);
    failsWith(voteEmbedsReview({ id: 1, sku_review: { id: 6 } }, 5, true), /embeds review 6, voted on 5/);
    // A vote stored on review 6 embeds review 6: the wrong review is voteMatches' failure.
    passes(voteEmbedsReview({ id: 1, sku_review_id: 6, sku_review: { id: 6 } }, 5, true));
    failsWith(voteEmbedsReview({ id: 1, sku_review_id: 6, sku_review: { id: 5 } }, 5, true), /embeds review 5, the vote's sku_review_id being 6/);
  });

  test('one token may vote and flag, or neither', () => {
    passes(votePermissionMatchesFlag(201, 201));
    passes(votePermissionMatchesFlag(401, 401));
    passes(votePermissionMatchesFlag(401, 403));
    // Other refusals (a rule on one's own review, say) say nothing about the permission.
    passes(votePermissionMatchesFlag(201, 422));
    failsWith(votePermissionMatchesFlag(201, 401), /accepted for voting \(201\) but refused for flagging \(401\)/);
    failsWith(votePermissionMatchesFlag(401, 201), /refused for voting \(401\) but accepted for flagging \(201\)/);
    // A 403 for a vote on one's own review, the flag accepted: a rule on own reviews, only noted.
    passes(votePermissionMatchesFlag(403, 201));
  });

  test('a vote and a flag that disagree break the permission row, and the endpoint that answered against the scopes known', () => {
    const granted = ['public', 'publish_sku_review_actions'];
    expect(permissionMismatchBreaks(201, 401, undefined)).toEqual(['SCOPE-5']);
    expect(permissionMismatchBreaks(201, 401, ['public', 'favorites'])).toEqual(['SCOPE-5', 'REV-27']);
    expect(permissionMismatchBreaks(201, 401, granted)).toEqual(['SCOPE-5', 'REV-28']);
    expect(permissionMismatchBreaks(401, 201, ['public'])).toEqual(['SCOPE-5', 'REV-28']);
    expect(permissionMismatchBreaks(401, 201, granted)).toEqual(['SCOPE-5', 'REV-27']);
  });

  test("a vote on one's own review refused with 403 while the flag is accepted is noted", () => {
    failsWith(ownReviewVoteRefused(403, 201), /the 403 refuses a vote on one's own review, which the spec neither allows nor forbids/);
    passes(ownReviewVoteRefused(201, 201));
    passes(ownReviewVoteRefused(403, 403));
    passes(ownReviewVoteRefused(401, 201));
  });
});

test('an invalid value is refused with a 4xx', () => {
  passes(isClientError(400, 'x'));
  passes(isClientError(422, 'x'));
  failsWith(isClientError(201, 'POST flags'), /POST flags answered 201, expected a refusal \(4xx\)/);
  failsWith(isClientError(500, 'x'), /answered 500/);
});

// GEN-8: "blank fields are present with value null". A null where the spec types a value is blank
// (a warning citing GEN-8); a wrong value that is not null still fails, not blank.
describe('GEN-8: a null is blank, a wrong value a failure', () => {
  const isBlank = (result: CheckResult) => expect(result).toMatchObject({ ok: false, blank: true });
  const isHard = (result: CheckResult) => {
    expect(result.ok).toBe(false);
    expect(result).not.toHaveProperty('blank');
  };
  const entry = (reason: unknown, description: unknown = 'text') => ({ reason, description });

  test('GET /flags: a null description or reason is blank; a reason missing otherwise, or a wrong one, fails', () => {
    isBlank(flagCatalogueIsExact([entry('spam', null), entry('bad_language'), entry('wrong_section')]));
    isBlank(flagCatalogueIsExact([entry('spam'), entry('bad_language'), entry(null)]));
    isHard(flagCatalogueIsExact([entry('spam'), entry('bad_language'), entry('rude')]));
    isHard(flagCatalogueIsExact([entry('spam', 5), entry('bad_language'), entry('wrong_section')]));
    isHard(flagCatalogueIsExact([entry('spam', null), entry('bad_language')]));
  });

  test('a created review, a vote and its embedded review', () => {
    isBlank(reviewHas({ rating: null, review: 'text' }, { rating: 4, review: 'text' }, 'POST'));
    isHard(reviewHas({ rating: '5', review: 'text' }, { rating: 4, review: 'text' }, 'POST'));
    isHard(reviewHas({ rating: null, review: 'other' }, { rating: 4, review: 'text' }, 'POST'));
    isBlank(voteMatches({ sku_review_id: null, helpful: true }, 5, true));
    isBlank(voteMatches({ sku_review_id: 5, helpful: null }, 5, true));
    isHard(voteMatches({ sku_review_id: 6, helpful: null }, 5, true));
    isBlank(voteEmbedsReview({ sku_review: null }, 5, true));
    isHard(voteEmbedsReview({ sku_review: { id: null } }, 5, true));
    isHard(voteEmbedsReview({ sku_review: { id: 6 } }, 5, true));
  });
});

describe('voteStored and flagStored: the listing after a helpful vote and a flag', () => {
  const created = { id: 9, votes_count: 0, helpful_votes_count: 0 };
  test('voted and flagged true, each count one more: passes; fields the listing leaves out are not judged', () => {
    expect(voteStored({ id: 9, voted: true, votes_count: 1, helpful_votes_count: 1 }, created).ok).toBe(true);
    expect(voteStored({ id: 9, votes_count: 1, helpful_votes_count: 1 }, created).ok).toBe(true);
    expect(flagStored({ id: 9, flagged: true }).ok).toBe(true);
    expect(flagStored({ id: 9 }).ok).toBe(true);
  });
  test('a vote or flag not stored, or a vote counted twice: fails', () => {
    expect(voteStored({ id: 9, voted: false, votes_count: 0, helpful_votes_count: 0 }, created).ok).toBe(false);
    expect(voteStored({ id: 9, voted: true, votes_count: 2, helpful_votes_count: 2 }, created).ok).toBe(false);
    expect(flagStored({ id: 9, flagged: false }).ok).toBe(false);
  });
  test("the author's own vote left out of the counts: stored all the same; voteCounted notes it", () => {
    const uncounted = { id: 9, voted: true, votes_count: 0, helpful_votes_count: 0 };
    expect(voteStored(uncounted, created).ok).toBe(true);
    expect(voteCounted(uncounted, created).ok).toBe(false);
    expect(voteCounted({ id: 9, voted: true, votes_count: 1, helpful_votes_count: 1 }, created).ok).toBe(true);
  });
});

describe('mostHelpfulFirst: ranked by a usual measure of helpfulness, demoted reviews judged apart', () => {
  const r = (id: number, helpful: number, votes: number, demoted = false) => ({ id, helpful_votes_count: helpful, votes_count: votes, demoted });
  test('by helpful votes, by their share, or by helpful minus unhelpful: passes', () => {
    expect(mostHelpfulFirst([r(1, 5, 9), r(2, 3, 3), r(3, 0, 0), r(4, 4, 4, true)]).ok).toBe(true);
    expect(mostHelpfulFirst([r(2, 3, 3), r(1, 5, 9), r(3, 0, 0)]).ok).toBe(true);
    expect(mostHelpfulFirst([r(1, 4, 4), r(2, 5, 9)]).ok).toBe(true);
  });
  test('ordered by none of them (as by recency): fails', () => {
    expect(mostHelpfulFirst([r(1, 0, 2), r(2, 5, 5), r(3, 1, 1)]).ok).toBe(false);
  });
});
