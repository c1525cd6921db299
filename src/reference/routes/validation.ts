// A creation body that lacks a field its form requires (a review's rating, an address field, a
// favorite list's name): the reference calls it a failed validation (422 RecordInvalid, with the
// other problems of the body); the variant validation-as-400 calls it a missing parameter, as
// the Errors table's 400 "a required parameter is missing" also reads.

import { ApiError } from '../http.ts';
import type { ApiContext } from '../router.ts';

/** Under the variant validation-as-400, 400 ParameterMissing naming each missing field; otherwise nothing. */
export function refuseMissingFields(ctx: ApiContext, missing: readonly string[]): void {
  if (missing.length === 0 || !ctx.variants.has('validation-as-400')) return;
  throw new ApiError(
    400,
    'ParameterMissing',
    missing.map((name) => `param is missing or the value is empty: ${name}`),
  );
}
