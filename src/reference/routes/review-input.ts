// The body of a review create or update ({review: {rating, answer_ids, review}}), read and judged
// as the review form asks (the choices are listed in reviews.ts).

import type { SkuReviewRecord } from '../data.ts';
import type { ApiContext } from '../router.ts';
import type { Json } from './review-records.ts';
import { refuseMissingFields } from './validation.ts';

/** The review form's requires_body: true for every SKU (variant rating-only-reviews: false, a review may be a rating alone). */
export function requiresBody(ctx: ApiContext): boolean {
  return !ctx.variants.has('rating-only-reviews');
}

function integerValue(v: unknown): number | null {
  if (typeof v === 'number') return Number.isSafeInteger(v) ? v : null;
  if (typeof v === 'string' && /^\s*-?\d{1,15}\s*$/.test(v)) return Number(v);
  return null;
}

export interface ReviewChanges {
  rating?: number;
  answerIds?: number[];
  /** null: no text (a rating-only review). */
  review?: string | null;
}

/** Reads `{review: {...}}`; every problem becomes a message of one 422. */
export function readReviewInput(ctx: ApiContext, input: Json, current: SkuReviewRecord | null): { changes: ReviewChanges; errors: string[] } {
  const errors: string[] = [];
  const changes: ReviewChanges = {};
  // The form requires rating and (requires_body) review.
  if (current === null)
    refuseMissingFields(
      ctx,
      ['rating', ...(requiresBody(ctx) ? ['review'] : [])].filter((k) => input[k] === undefined).map((k) => `review[${k}]`),
    );

  const rawRating = input['rating'];
  if (rawRating === undefined) {
    if (current === null) errors.push('rating is required: an integer from 1 to 5');
  } else {
    const n = integerValue(rawRating);
    if (n === null || n < 1 || n > 5) errors.push('rating must be an integer from 1 to 5');
    else changes.rating = n;
  }

  const rawAnswers = input['answer_ids'];
  if (rawAnswers !== undefined) {
    const ids: number[] = [];
    const malformed = !Array.isArray(rawAnswers) || rawAnswers.some((v) => v !== '' && integerValue(v) === null);
    if (malformed) errors.push('answer_ids must be an array of integers');
    else {
      for (const v of rawAnswers as unknown[]) {
        const n = v === '' ? null : integerValue(v);
        if (n !== null && !ids.includes(n)) ids.push(n);
      }
      const questionOf = new Map<number, number>();
      ctx.data.reviewQuestions.forEach((q, qi) => q.answers.forEach((a) => questionOf.set(a.id, qi)));
      const unknown = ids.filter((id) => !questionOf.has(id));
      if (unknown.length > 0) errors.push(`answer_ids: no such answer in the review form: ${unknown.join(', ')}`);
      else {
        ctx.data.reviewQuestions.forEach((q, qi) => {
          const picked = ids.filter((id) => questionOf.get(id) === qi);
          if (q.type === 'eval_sentiment' && picked.length > 1) {
            errors.push(`answer_ids: the question "${q.text}" takes at most one answer, got ${picked.join(', ')}`);
          }
        });
        changes.answerIds = ids;
      }
    }
  }

  const rawText = input['review'];
  const withBody = requiresBody(ctx);
  if (!withBody && (rawText === null || (typeof rawText === 'string' && rawText.trim() === ''))) changes.review = null;
  else if (rawText !== undefined && typeof rawText !== 'string') errors.push('review must be a string');
  else {
    if (typeof rawText === 'string') changes.review = rawText;
    // An update that leaves the text alone is not judged on it.
    const judged = current === null || rawText !== undefined;
    if (withBody && judged && (changes.review ?? '').trim() === '') {
      errors.push("review can't be blank: the review form requires a body");
    }
  }
  return { changes, errors };
}
