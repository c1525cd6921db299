// Request helpers the suites share.
import { limitIsWellFormed, rateLimitHeadersPresent, remainingIsWellFormed, resetIsEpochSecondsWithinAMinute } from '../checks/caching.ts';
import { fail, isPlainObject, pass, show } from '../checks/check.ts';
import { hasStatus } from '../checks/http.ts';
import type { HttpResponse } from '../http/client.ts';
import { pathOf } from '../rules/api-paths.ts';
import { PrerequisiteMissing } from './api.ts';
import type { ConformanceContext } from './conformance.ts';

export type Query = Record<string, string | number | readonly string[]>;

/** GET that must answer 200 with a JSON object; stops the test otherwise, citing `requirements`. */
export async function getOk(t: ConformanceContext, path: string, query: Query, ...requirements: string[]): Promise<{ body: Record<string, unknown>; response: HttpResponse }> {
  const response = await t.api.get(path, { query });
  t.require(hasStatus(response, 200), ...requirements);
  const body = t.json<Record<string, unknown>>(response, 'GEN-4');
  t.require(isPlainObject(body) ? pass() : fail(`body is ${show(body)}, expected an object`), 'GEN-7', ...requirements);
  return { body, response };
}

/** A query from the deployment's own data: the name of a discovered leaf category (2 characters or more). */
export async function discoveredQuery(t: ConformanceContext): Promise<string> {
  const leafId = await t.discover('leafCategory');
  const response = await t.api.get(pathOf('GET /categories/:id', { id: leafId }));
  t.require(hasStatus(response, 200), 'CAT-16');
  const body = t.json<{ category?: { name?: unknown } }>(response, 'GEN-4');
  const name = isPlainObject(body) && isPlainObject(body.category) ? body.category['name'] : undefined;
  if (typeof name !== 'string' || name.trim().length < 2) return t.skip(`category ${leafId} has no name of 2 or more characters to search for`);
  return name.trim();
}

/** The first `length` characters of the name's first word (the whole name when that word is shorter). */
export function prefixOf(name: string, length: number): string {
  const word = name.split(/\s+/)[0]!;
  return word.length >= length ? word.slice(0, length) : name;
}

/**
 * A broad search query from the deployment's data: the first two letters of a discovered leaf
 * category's name. The search suite pages through it, and so does the pagination suite: the run
 * asks those pages once for both (issue 17).
 */
export async function searchQuery(t: ConformanceContext): Promise<string> {
  return prefixOf(await discoveredQuery(t), 2);
}

/**
 * The order_by and order_dir pairs an ordering test asks: the method whose order shows in the
 * items' fields (`visible`: name, price) both ways, popularity (whose order no field shows, so only
 * its acceptance is judged) one way. Each value of each parameter is asked, not every pair (issue 17).
 */
export function orderingsOf(visible: string): readonly (readonly [orderBy: string, dir: 'asc' | 'desc'])[] {
  return [
    [visible, 'asc'],
    [visible, 'desc'],
    ['popularity', 'desc'],
  ];
}

/**
 * What the shop search is asked for a shop: the first word of its name of 2 characters or more
 * (else the whole name). The shops, pagination and fieldsets suites ask the same, so the run asks
 * it once (issue 17).
 */
export function shopSearchTerm(name: string): string {
  return name.split(/\s+/).find((w) => w.length >= 2) ?? name.trim();
}

/**
 * The rate-limit header checks of one answer (Limits: "Rate-limit headers are on every response"):
 * present (RATE-4), well formed (RATE-5, RATE-6), Reset in epoch seconds within the coming minute
 * (RATE-7). Used on the answer a test gets anyway, of whichever status (issue 17: the 404, 401
 * and 422 a test asks for serve these checks as well).
 */
export function mustCarryRateLimit(t: ConformanceContext, headers: Record<string, string>, what: string): void {
  t.must(rateLimitHeadersPresent(headers, what), 'RATE-4');
  t.must(limitIsWellFormed(headers, what), 'RATE-5');
  t.must(remainingIsWellFormed(headers, what), 'RATE-6');
  t.must(resetIsEpochSecondsWithinAMinute(headers, Date.now(), what), 'RATE-7');
}

/**
 * A category whose favorites the user has (discovery's favoritesCategory), else the discovered
 * leaf: GET /categories/:id/favorites of it holds favorites to judge, and the pagination and
 * favorites suites ask the same listing, once for the run.
 */
export async function favoritesCategoryOrLeaf(t: ConformanceContext): Promise<number> {
  try {
    return await t.discover('favoritesCategory');
  } catch (error) {
    if (!(error instanceof PrerequisiteMissing)) throw error;
    return t.discover('leafCategory');
  }
}
