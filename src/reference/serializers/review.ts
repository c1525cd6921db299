// Serializers of SKU reviews, review votes, flag records and review forms (spec "SKU review",
// "SKU review vote", "Flag (reason catalogue) and flag record", "Review form").
//
// voted, flagged and helpful depend on who asks: they are computed from the votes and flags of
// the requesting user (a ReviewViewer) and are absent for application tokens. own_review is
// added only by the review listing (see routes/reviews.ts for the choices).

import type { Dataset, FlagRecord, ReviewQuestionRecord, SkuReviewRecord, VoteRecord } from '../data.ts';
import type { FaultName } from '../faults.ts';
import { NO_VARIANTS, type Variants } from '../variants.ts';
import { applyVersion, type ApiVersion } from '../versioning.ts';

type Json = Record<string, unknown>;

/** The requesting user's relation to reviews: their votes and flags. */
export interface ReviewViewer {
  /** null for an application token. */
  readonly userId: number | null;
  /** review id -> this user's vote. */
  readonly votes: ReadonlyMap<number, VoteRecord>;
  /** Ids of the reviews this user has flagged. */
  readonly flagged: ReadonlySet<number>;
  /** The token was granted publish_sku_review_actions (the permission for votes and flags). */
  readonly mayActOnReviews: boolean;
}

export function reviewViewer(data: Dataset, userId: number | null, scopes: readonly string[] = []): ReviewViewer {
  const votes = new Map<number, VoteRecord>();
  const flagged = new Set<number>();
  if (userId !== null) {
    for (const v of data.votes.values()) if (v.user_id === userId) votes.set(v.sku_review_id, v);
    for (const f of data.flags.values()) {
      if (f.user_id === userId && f.flaggable_type === 'SkuReview') flagged.add(f.flaggable_id);
    }
  }
  return { userId, votes, flagged, mayActOnReviews: scopes.includes('publish_sku_review_actions') };
}

export interface ReviewSerializeOptions {
  version: ApiVersion;
  fault: FaultName | null;
  variants?: Variants;
  viewer: ReviewViewer;
  /**
   * Review listings only: the requesting user's review of the listed SKU (null when none).
   * undefined: no own_review key (single reviews, application tokens).
   */
  ownReview?: SkuReviewRecord | null;
}

function sentiments(s: SkuReviewRecord['sentiments'], variants: Variants): Json {
  const out: Json = {};
  // Each array is optional: only the non-empty ones are sent (variant sentiments-always-three: all three, [] when empty;
  // variant sentiments-empty-null: all three, null when empty).
  const emptyAsNull = variants.has('sentiments-empty-null');
  const allThree = variants.has('sentiments-always-three') || emptyAsNull;
  for (const key of ['positive', 'mediocre', 'negative'] as const) {
    const list = s[key] ?? [];
    if (allThree || list.length > 0) out[key] = emptyAsNull && list.length === 0 ? null : [...list];
  }
  return out;
}

export function serializeSkuReview(r: SkuReviewRecord, opts: ReviewSerializeOptions): Json {
  const { viewer, fault } = opts;
  const variants = opts.variants ?? NO_VARIANTS;
  const out: Json = {
    id: r.id,
    sku_id: r.sku_id,
    user_id: r.user_id,
    review: r.review,
    rating: r.rating,
    created_at: r.created_at,
    demoted: r.demoted,
    votes_count: r.votes_count,
    helpful_votes_count: r.helpful_votes_count,
  };
  // "authorized user only": an application token gets none of the three (variant: all false).
  const appToken = viewer.userId === null;
  // Variant review-user-fields-null-for-app: an application token gets the three, null (no user to speak of).
  const nullForApp = appToken && variants.has('review-user-fields-null-for-app');
  // The bug: an application token's reviews are read with a stand-in vote, as if someone had voted helpful.
  const claimsForApp = appToken && fault === 'review-user-claims-for-app-token';
  // Variant review-user-fields-need-actions-scope: a user token without the votes-and-flags permission gets none either.
  const userFields = appToken
    ? claimsForApp || nullForApp || variants.has('review-user-fields-false-for-app')
    : viewer.mayActOnReviews || !variants.has('review-user-fields-need-actions-scope');
  if (userFields) {
    const vote = claimsForApp ? { helpful: true } : viewer.votes.get(r.id);
    // Variant review-user-fields-null-until-acted: null, not false, for what the user has not done.
    const notDone = (variants.has('review-user-fields-null-until-acted') && !appToken) || nullForApp ? null : false;
    out['voted'] = vote !== undefined ? true : notDone;
    out['flagged'] = viewer.flagged.has(r.id) ? true : notDone;
    // The user's own vote; false when they have not voted (voted tells the two apart).
    out['helpful'] = vote?.helpful ?? notDone;
  }
  out['sentiments'] = sentiments(r.sentiments, variants);
  if (opts.ownReview !== undefined) {
    out['own_review'] = opts.ownReview === null ? null : serializeSkuReview(opts.ownReview, { ...opts, ownReview: undefined });
  }
  return applyVersion('sku_review', out, opts.version);
}

export function serializeVote(v: VoteRecord): Json {
  return {
    id: v.id,
    sku_review_id: v.sku_review_id,
    user_id: v.user_id,
    helpful: v.helpful,
    created_at: v.created_at,
  };
}

export function serializeFlag(f: FlagRecord): Json {
  return {
    id: f.id,
    flaggable_id: f.flaggable_id,
    flaggable_type: f.flaggable_type,
    user_id: f.user_id,
    reason: f.reason,
    created_at: f.created_at,
    updated_at: f.updated_at,
  };
}

export interface ReviewFormOptions {
  requiresBody: boolean;
  /** The review being edited (edit form); undefined for the new-review form. */
  edit?: SkuReviewRecord;
  fault: FaultName | null;
  variants?: Variants;
}

/** `review_form`: rating, review and answers[].selected only on the edit form. */
export function serializeReviewForm(questions: readonly ReviewQuestionRecord[], opts: ReviewFormOptions): Json {
  const { edit } = opts;
  const variants = opts.variants ?? NO_VARIANTS;
  // Variant review-new-form-members-null: the new form carries the edit-only members too, null (nothing chosen yet).
  const nullOnNew = edit === undefined && variants.has('review-new-form-members-null');
  // The bug: the edit form's answers are built like the new form's, without selected.
  const withSelected = (edit !== undefined && opts.fault !== 'edit-form-without-selected') || nullOnNew;
  const selected = new Set(edit?.answerIds ?? []);
  // Variant review-form-unchosen-selected-null: an answer not chosen is selected null, not false.
  const notChosen = nullOnNew || variants.has('review-form-unchosen-selected-null') ? null : false;
  const out: Json = { requires_body: opts.requiresBody };
  if (edit !== undefined || nullOnNew) {
    out['rating'] = edit?.rating ?? null;
    out['review'] = edit?.review ?? null;
  }
  out['questions'] = questions.map((q) => ({
    text: q.text,
    type: q.type,
    answers: q.answers.map((a) => (withSelected ? { id: a.id, text: a.text, selected: selected.has(a.id) ? true : notChosen } : { id: a.id, text: a.text })),
  }));
  return out;
}
