// Checks of SKU reviews, review forms, votes and flags (spec: Resources and their fields > SKU
// review, SKU review vote, Flag, Review form; Endpoints > SKU reviews).
import { allOf, blank, fail, isPlainObject, pass, show, type CheckResult, statedValue, typed } from './check.ts';

export type Json = Record<string, unknown>;

/** The flag reasons the spec names (Flag (reason catalogue)). */
export const FLAG_REASONS = ['bad_language', 'wrong_section', 'spam'] as const;

/** Fields of a SKU review sent to authorized users only. */
export const USER_ONLY_FIELDS = ['voted', 'flagged', 'helpful'] as const;

/** "default sort most_recent (non-demoted first)": no demoted review comes before a non-demoted one. */
export function demotedAfterNonDemoted(reviews: readonly Json[]): CheckResult {
  const firstDemoted = reviews.findIndex((r) => r['demoted'] === true);
  if (firstDemoted < 0) return pass();
  const later = reviews.slice(firstDemoted + 1).findIndex((r) => r['demoted'] === false);
  if (later < 0) return pass();
  const at = firstDemoted + 1 + later;
  return fail(
    `review ${show(reviews[at]!['id'])} (demoted false, position ${at + 1}) comes after the demoted review ${show(reviews[firstDemoted]!['id'])} (position ${firstDemoted + 1}); non-demoted reviews come first`,
  );
}

/** "default sort most_recent": the non-demoted reviews are newest first by created_at. */
export function nonDemotedNewestFirst(reviews: readonly Json[]): CheckResult {
  const dated = reviews
    .filter((r) => r['demoted'] === false)
    .map((r) => ({ id: r['id'], at: typeof r['created_at'] === 'string' ? Date.parse(r['created_at']) : Number.NaN, raw: r['created_at'] }))
    .filter((r) => !Number.isNaN(r.at));
  for (let i = 1; i < dated.length; i++) {
    const [a, b] = [dated[i - 1]!, dated[i]!];
    if (b.at > a.at)
      return fail(
        `non-demoted review ${show(b.id)} (created_at ${show(b.raw)}) comes after review ${show(a.id)} (created_at ${show(a.raw)}), which is older: expected most recent first`,
      );
  }
  return pass();
}

/** How "most helpful" may rank a review (the spec names the sort only): helpful votes, their share of the votes, or helpful minus unhelpful. */
const HELPFULNESS: readonly { name: string; of: (r: Json) => number | null }[] = [
  { name: 'helpful_votes_count', of: (r) => (Number.isInteger(r['helpful_votes_count']) ? (r['helpful_votes_count'] as number) : null) },
  {
    name: 'the share of helpful votes',
    of: (r) =>
      Number.isInteger(r['helpful_votes_count']) && Number.isInteger(r['votes_count'])
        ? (r['votes_count'] as number) > 0
          ? (r['helpful_votes_count'] as number) / (r['votes_count'] as number)
          : 0
        : null,
  },
  {
    name: 'helpful minus unhelpful votes',
    of: (r) => (Number.isInteger(r['helpful_votes_count']) && Number.isInteger(r['votes_count']) ? 2 * (r['helpful_votes_count'] as number) - (r['votes_count'] as number) : null),
  },
];

/**
 * The most_helpful sort: the reviews ranked most helpful first, by one of the usual measures
 * (HELPFULNESS), judged among the non-demoted reviews and among the demoted ones apart (where a
 * sort puts demoted reviews is REV-18's). A list ordered by none of them, as by recency, fails.
 */
export function mostHelpfulFirst(reviews: readonly Json[]): CheckResult {
  const blocks = [reviews.filter((r) => r['demoted'] !== true), reviews.filter((r) => r['demoted'] === true)];
  const ordered = (of: (r: Json) => number | null) =>
    blocks.every((block) => {
      const values = block.map(of).filter((v): v is number => v !== null);
      return values.every((v, i) => i === 0 || values[i - 1]! >= v);
    });
  if (HELPFULNESS.some((h) => ordered(h.of))) return pass();
  const shown = reviews.slice(0, 8).map((r) => `${show(r['id'])} (${show(r['helpful_votes_count'])} of ${show(r['votes_count'])}${r['demoted'] === true ? ', demoted' : ''})`);
  return fail(
    `the most_helpful sort lists reviews ${shown.join(', ')}${reviews.length > 8 ? ', ...' : ''}: ordered by none of ${HELPFULNESS.map((h) => h.name).join(', ')}, most first`,
  );
}

/**
 * voted, flagged, helpful and own_review are "authorized user only" / "for logged-on users": for
 * an application token there is no user. Both readings of the condition are legal: the fields
 * absent, or shown with the value of nobody (false, null). What no reading allows is a claim about a
 * user who is not there: voted, flagged or helpful true, or an own_review object. `fields`: those
 * judged (voted, flagged and helpful are REV-3's, own_review REV-5's).
 */
export function noUserClaimsForAppToken(reviews: readonly Json[], fields: readonly string[] = [...USER_ONLY_FIELDS, 'own_review']): CheckResult {
  return allOf(
    reviews.map((r) => {
      const claims = fields.filter((f) => (f === 'own_review' ? isPlainObject(r[f]) : r[f] === true));
      return claims.length
        ? fail(`review ${show(r['id'])} carries ${claims.map((f) => `${f}=${show(r[f], 40)}`).join(', ')} for an application token, which has no user (authorized user only)`)
        : pass();
    }),
  );
}

/** meta.sku_reviews_aggregation: an array of {label: string, score: integer, style: string}. */
export function aggregationWellFormed(meta: unknown): CheckResult {
  const list = isPlainObject(meta) ? meta['sku_reviews_aggregation'] : undefined;
  if (!Array.isArray(list)) return typed(list, false, `meta.sku_reviews_aggregation is ${show(list)}, expected an array`);
  return allOf(
    list.flatMap((e, i) => {
      if (!isPlainObject(e)) return [fail(`sku_reviews_aggregation[${i}] is ${show(e)}, expected {label, score, style}`)];
      const at = `sku_reviews_aggregation[${i}]`;
      return [
        typed(e['label'], typeof e['label'] === 'string', `${at} has label ${show(e['label'])} (expected a string)`),
        typed(e['score'], typeof e['score'] === 'number' && Number.isInteger(e['score']), `${at} has score ${show(e['score'])} (expected an integer)`),
        typed(e['style'], typeof e['style'] === 'string', `${at} has style ${show(e['style'])} (expected a string)`),
      ];
    }),
  );
}

/**
 * most_helpful is accepted; the parameter's name is not shown. A `sort` that takes most_recent
 * but refuses most_helpful is a sort parameter refusing most_helpful: a server that did not know
 * `sort` would ignore it (both succeed) or refuse it (both fail).
 */
export function mostHelpfulVerdict(recentStatus: number, helpfulStatus: number): 'accepted' | 'refused' | 'unknown-name' {
  const ok = (s: number) => s >= 200 && s < 300;
  if (ok(helpfulStatus)) return 'accepted';
  return ok(recentStatus) && helpfulStatus >= 400 && helpfulStatus < 500 ? 'refused' : 'unknown-name';
}

/** GET /flags lists exactly bad_language, wrong_section and spam, once each, each with a string description. */
export function flagCatalogueIsExact(flags: readonly unknown[]): CheckResult {
  const reasons = flags.map((f) => (isPlainObject(f) ? f['reason'] : undefined));
  const problems: string[] = [];
  // Blank only when every problem may come of a null (GEN-8): a null reason, a null description.
  let hard = false;
  const nullReasons = reasons.filter((r) => r === null).length;
  const missing = FLAG_REASONS.filter((r) => !reasons.includes(r));
  if (missing.length) {
    problems.push(`missing ${missing.join(', ')}`);
    hard ||= nullReasons < missing.length;
  }
  const extra = reasons.filter((r) => !(FLAG_REASONS as readonly unknown[]).includes(r));
  if (extra.length) {
    problems.push(`reasons the spec does not name: ${extra.map((r) => show(r)).join(', ')}`);
    hard ||= extra.some((r) => r !== null);
  }
  const twice = FLAG_REASONS.filter((r) => reasons.filter((x) => x === r).length > 1);
  if (twice.length) {
    problems.push(`listed more than once: ${twice.join(', ')}`);
    hard = true;
  }
  const undescribed = flags.filter((f) => !isPlainObject(f) || typeof f['description'] !== 'string');
  if (undescribed.length) {
    problems.push(`without a string description: ${undescribed.map((f) => show(f, 60)).join(', ')}`);
    hard ||= undescribed.some((f) => !isPlainObject(f) || f['description'] !== null);
  }
  if (!problems.length) return pass();
  const message = `GET /flags: ${problems.join('; ')} (expected exactly ${FLAG_REASONS.join(', ')})`;
  return hard ? fail(message) : blank(message);
}

function answersOf(form: Json): Json[] {
  const questions = Array.isArray(form['questions']) ? form['questions'] : [];
  return questions.flatMap((q) => (isPlainObject(q) && Array.isArray(q['answers']) ? q['answers'].filter(isPlainObject) : []));
}

/** The new-review form has no rating, no review and no answers[].selected (edit form only). */
export function newFormHasNoEditFields(form: Json): CheckResult {
  const problems: string[] = [];
  for (const key of ['rating', 'review']) if (key in form) problems.push(`${key} ${show(form[key])}`);
  const selected = answersOf(form).filter((a) => 'selected' in a);
  if (selected.length) problems.push(`selected on ${selected.length} answer(s) (answer ${show(selected[0]!['id'])}: ${show(selected[0]!['selected'])})`);
  return problems.length ? fail(`the new-review form carries ${problems.join(', ')}, which belong to the edit form only`) : pass();
}

/** The edit form marks as selected exactly the answers the review was written with. */
export function editFormSelects(form: Json, answerIds: readonly number[]): CheckResult {
  const answers = answersOf(form);
  const problems: string[] = [];
  // A null selected is a blank (GEN-8): the answer counts as not selected.
  const notBoolean = answers.filter((a) => typeof a['selected'] !== 'boolean' && a['selected'] !== null);
  if (notBoolean.length) problems.push(`answer ${show(notBoolean[0]!['id'])} has selected ${show(notBoolean[0]!['selected'])}, expected a boolean`);
  const selected = answers.filter((a) => a['selected'] === true).map((a) => a['id']);
  const missing = answerIds.filter((id) => !selected.includes(id));
  const extra = selected.filter((id) => !answerIds.includes(id as number));
  if (missing.length) problems.push(`answers ${missing.join(', ')} were sent but are not selected`);
  if (extra.length) problems.push(`answers ${extra.map((id) => show(id)).join(', ')} are selected but were not sent`);
  return problems.length ? fail(`the edit form: ${problems.join('; ')}`) : pass();
}

/**
 * An update that sent no answer_ids leaves the answers selected as they were: the edit form after
 * it selects what the edit form before it did (whether that was right is editFormSelects').
 */
export function selectionUnchanged(before: Json, after: Json): CheckResult {
  const selected = (form: Json) =>
    answersOf(form)
      .filter((a) => a['selected'] === true)
      .map((a) => a['id']);
  const [was, now] = [selected(before), selected(after)];
  const lost = was.filter((id) => !now.includes(id));
  const gained = now.filter((id) => !was.includes(id));
  if (!lost.length && !gained.length) return pass();
  const changes = [
    ...(lost.length ? [`answers ${lost.map((id) => show(id)).join(', ')} no longer selected`] : []),
    ...(gained.length ? [`answers ${gained.map((id) => show(id)).join(', ')} selected anew`] : []),
  ];
  return fail(`the edit form: ${changes.join('; ')}, against the edit form before the update`);
}

/**
 * A review returned by create or update has the values sent. The rating is judged by its value: a
 * rating "4" for 4 sent is the value sent with the wrong type, the field table's (REV-2, the schema).
 */
export function reviewHas(review: Json, sent: { rating?: number; review?: string }, what: string): CheckResult {
  const problems: string[] = [];
  // Blank only when every difference is a null (GEN-8).
  let hard = false;
  const rating = review['rating'];
  const sameRating = rating === sent.rating || (typeof rating === 'string' && rating.trim() !== '' && Number(rating) === sent.rating);
  if (sent.rating !== undefined && !sameRating) {
    problems.push(`rating ${show(review['rating'])}, sent ${sent.rating}`);
    hard ||= review['rating'] !== null;
  }
  if (sent.review !== undefined && review['review'] !== sent.review) {
    problems.push(`review ${show(review['review'], 60)}, sent ${show(sent.review, 60)}`);
    hard ||= review['review'] !== null;
  }
  if (!problems.length) return pass();
  const message = `${what} answered a review with ${problems.join(', ')}`;
  return hard ? fail(message) : blank(message);
}

/** A created vote is for the review voted on, with the helpful value sent. */
export function voteMatches(vote: Json, reviewId: number, helpful: boolean): CheckResult {
  const problems: string[] = [];
  // Blank only when every difference is a null (GEN-8).
  let hard = false;
  if (vote['sku_review_id'] !== reviewId) {
    problems.push(`sku_review_id ${show(vote['sku_review_id'])}, voted on ${reviewId}`);
    hard ||= vote['sku_review_id'] !== null;
  }
  if (vote['helpful'] !== helpful) {
    problems.push(`helpful ${show(vote['helpful'])}, sent ${helpful}`);
    hard ||= vote['helpful'] !== null;
  }
  if (!problems.length) return pass();
  const message = `the created vote has ${problems.join(', ')}`;
  return hard ? fail(message) : blank(message);
}

/**
 * sku_review on a vote: present with embed=sku_review, absent without; the review embedded is the
 * vote's own, as its sku_review_id says (the review voted on where it says none): a vote stored on
 * another review than the one voted on is voteMatches' failure, not the embedding's.
 */
export function voteEmbedsReview(vote: Json, reviewId: number, embedded: boolean): CheckResult {
  if (!embedded) return 'sku_review' in vote ? fail(`the vote carries sku_review ${show(vote['sku_review'], 60)} without embed=sku_review`) : pass();
  const review = vote['sku_review'];
  if (!isPlainObject(review)) return typed(review, false, `the vote has sku_review ${show(review, 60)} with embed=sku_review, expected the review object`);
  const own = vote['sku_review_id'];
  const votedOn = Number.isInteger(own) ? (own as number) : reviewId;
  const expected = votedOn === reviewId ? `voted on ${reviewId}` : `the vote's sku_review_id being ${votedOn}`;
  return statedValue(review['id'] === votedOn, `the vote embeds review ${show(review['id'])}, ${expected}`);
}

const refused = (s: number) => s === 401 || s === 403;
const created = (s: number) => s >= 200 && s < 300;

/**
 * Voting and flagging need the same permission (publish_sku_review_actions), so one token (valid
 * for both requests) may do both or neither: one accepted and the other refused for want of
 * permission means one of them ignores or misreads it. A vote refused with 403 while the flag is
 * accepted is not judged here: the kit votes on the user's own review, and a 403 may refuse that
 * (ownReviewVoteRefused notes it).
 */
export function votePermissionMatchesFlag(voteStatus: number, flagStatus: number): CheckResult {
  if (created(voteStatus) && refused(flagStatus)) {
    return fail(
      `the same user token was accepted for voting (${voteStatus}) but refused for flagging (${flagStatus}); both need publish_sku_review_actions, so one of them does not check it as the other does`,
    );
  }
  if (voteStatus === 401 && created(flagStatus)) {
    return fail(
      `the same user token was refused for voting (${voteStatus}) but accepted for flagging (${flagStatus}); both need publish_sku_review_actions, so one of them does not check it as the other does`,
    );
  }
  return pass();
}

/**
 * What a vote and a flag that disagree on the permission (votePermissionMatchesFlag) break: the
 * permission's row (SCOPE-5: it grants both) always; where the run knows the token's scopes, the
 * endpoint that answered against them too (voting REV-27, flagging REV-28): with
 * publish_sku_review_actions the one that refused, without it the one that accepted.
 */
export function permissionMismatchBreaks(voteStatus: number, flagStatus: number, scopes: readonly string[] | null | undefined): string[] {
  if (!scopes) return ['SCOPE-5'];
  const granted = scopes.includes('publish_sku_review_actions');
  const against = (s: number) => (granted ? refused(s) : created(s));
  return ['SCOPE-5', ...(against(voteStatus) ? ['REV-27'] : []), ...(against(flagStatus) ? ['REV-28'] : [])];
}

/**
 * A vote on the user's own review refused with 403 while a flag of it was accepted: the token has
 * the permission both need, so the 403 refuses voting on one's own review, which the spec neither
 * allows nor forbids. Only noted.
 */
export function ownReviewVoteRefused(voteStatus: number, flagStatus: number): CheckResult {
  if (voteStatus !== 403 || !created(flagStatus)) return pass();
  return fail(
    `voting on the user's own review answered 403 while flagging it answered ${flagStatus}: the token has the permission both need, so the 403 refuses a vote on one's own review, which the spec neither allows nor forbids`,
  );
}

/** An invalid parameter value is refused with a client error (4xx), never accepted. */
export function isClientError(status: number, what: string): CheckResult {
  return status >= 400 && status < 500 ? pass() : fail(`${what} answered ${status}, expected a refusal (4xx)`);
}

/** How much each count of a review rose from when it was created ("votes_count 1 -> 3"), for messages and the checks below. */
function countChanges(review: Json, created: Json): { field: string; was: number; now: number }[] {
  return ['votes_count', 'helpful_votes_count'].flatMap((field) => {
    const [was, now] = [created[field], review[field]];
    return Number.isInteger(was) && Number.isInteger(now) ? [{ field, was: was as number, now: now as number }] : [];
  });
}

/**
 * What the listing shows of a review after the user's first vote, a helpful one (on the user's
 * own review, which the kit wrote): voted true where the listing carries it (REV-3 decides
 * whether it must), and neither count risen by more than one. A vote answered 201 but not stored,
 * or counted twice, shows here. Whether the author's own vote counts at all is voteCounted's.
 */
export function voteStored(review: Json, created: Json): CheckResult {
  const problems: string[] = [];
  if ('voted' in review && review['voted'] !== true) problems.push(`voted ${show(review['voted'])} for the user who voted`);
  for (const { field, was, now } of countChanges(review, created)) if (now > was + 1 || now < was) problems.push(`${field} ${now}, ${was} before one helpful vote`);
  return problems.length ? fail(`after a helpful vote (201), the listing shows review ${show(review['id'])} with ${problems.join(', ')}`) : pass();
}

/** Both counts one more after the vote: a deployment may leave an author's own vote out of them (not shown), so this only notes. */
export function voteCounted(review: Json, created: Json): CheckResult {
  const still = countChanges(review, created).filter(({ was, now }) => now === was);
  return still.length
    ? fail(`after a helpful vote on the user's own review, ${still.map(({ field, now }) => `${field} is still ${now}`).join(' and ')}: the author's own vote is not counted`)
    : pass();
}

/** What the listing shows of a review the user has flagged (201): flagged true, where the listing carries it. */
export function flagStored(review: Json): CheckResult {
  if (!('flagged' in review) || review['flagged'] === true) return pass();
  return fail(`after a flag (201), the listing shows review ${show(review['id'])} with flagged ${show(review['flagged'])} for the user who flagged it`);
}
