// Preflight (issue 19): before any suite, GET /categories (the collection every deployment
// serves, with the application token the run already holds) tells whether the base URL points at
// this API at all. A target that is not it gets one line and exit 2 instead of a wall of
// failures: a 404 (the base URL may lack its path prefix, or carry it twice: one more request
// tries the likely one), a page that is not JSON, the token refused, a 406 for the media type or
// version asked, a server error on every endpoint tried, a 2xx body with none of the API's
// envelopes. Anything else goes on to the suites, which judge it: a JSON answer with the wrong
// envelope or wrong types is the API with a bug, to FAIL, not a target to give up on.
import { isPlainObject } from '../checks/check.ts';
import { HttpError, type HttpResponse } from '../http/client.ts';
import type { ApiClient } from './api.ts';

/** What the preflight found: nothing in the way, or the one line that stops the run. */
export type PreflightOutcome = { ok: true } | { ok: false; problem: string };

/** "GET <url> answered 404 text/html" */
function answered(response: HttpResponse, url: string): string {
  const type = (response.headers['content-type'] ?? '').split(';')[0]!.trim();
  let code = '';
  try {
    const body: unknown = JSON.parse(response.text);
    const first = isPlainObject(body) && Array.isArray(body['errors']) ? body['errors'][0] : undefined;
    if (isPlainObject(first) && typeof first['code'] === 'string') code = ` ${first['code']}`;
  } catch {
    // not JSON: the type says what it is
  }
  const redirected = response.url !== url ? ` after a redirect to ${response.url}` : '';
  return `GET ${url} answered ${response.status}${code}${type ? ` (${type})` : ''}${redirected}`;
}

/** Whether an answer is the collection of categories: 200, JSON, a categories array. */
export function isCategoryCollection(response: HttpResponse): boolean {
  if (response.status !== 200) return false;
  try {
    const body: unknown = JSON.parse(response.text);
    return isPlainObject(body) && Array.isArray(body['categories']);
  } catch {
    return false;
  }
}

/**
 * The keys that make an answer to GET /categories this API's, right or wrong: the resource's
 * plural and singular key. Not meta or errors alone: other JSON services use those too
 * ({data, meta} of JSON:API), and a run against one would be a wall of failures, not a finding.
 */
const CATEGORY_ENVELOPE_KEYS = ['categories', 'category'];

/**
 * Whether a 2xx answer that is not the collection of categories is still this API, with a bug
 * (issue 38: a wrong envelope or wrong types are findings, not another service): a JSON object
 * holding the categories under either key, of any type. A page, broken JSON or a JSON document
 * with neither key is not.
 */
export function isApiWithWrongEnvelope(response: HttpResponse): boolean {
  try {
    const body: unknown = JSON.parse(response.text);
    return isPlainObject(body) && CATEGORY_ENVELOPE_KEYS.some((key) => key in body);
  } catch {
    return false;
  }
}

/**
 * The base URL a user likely meant when GET /categories is 404: with /api when it has no path,
 * without the last segment when that repeats the one before (/api/api); else null.
 */
export function likelyBaseUrl(baseUrl: string): string | null {
  const url = new URL(baseUrl);
  const segments = url.pathname.split('/').filter(Boolean);
  if (segments.length === 0) return `${url.origin}/api`;
  if (segments.length >= 2 && segments.at(-1) === segments.at(-2)) return `${url.origin}/${segments.slice(0, -1).join('/')}`;
  return null;
}

/**
 * Judges the answer to GET /categories; `another` asks one more path or base URL when the answer
 * alone cannot tell (a 404, a server error): that request is made only then.
 */
export async function judgePreflight(
  first: HttpResponse,
  url: string,
  baseUrl: string,
  another: { collection: (baseUrl: string) => Promise<HttpResponse | null>; path: (path: string) => Promise<HttpResponse | null> },
): Promise<PreflightOutcome> {
  const what = answered(first, url);
  if (first.status === 404) {
    const likely = likelyBaseUrl(baseUrl);
    const tried = likely === null ? null : await another.collection(likely);
    if (likely !== null && tried !== null && isCategoryCollection(tried)) {
      return { ok: false, problem: `${what}: the base URL looks wrong; GET ${likely}/categories answers the categories, so set CATALOGUE_BASE_URL (--base-url) to ${likely}` };
    }
    const hint =
      new URL(baseUrl).pathname.replace(/\/+$/, '') === ''
        ? `; the base URL may lack its path prefix, e.g. ${new URL(baseUrl).origin}/api`
        : '; the base URL may lack or double its path prefix';
    return { ok: false, problem: `${what}: not the Catalogue API at this base URL${hint}` };
  }
  if (first.status === 406 || first.status === 415) {
    // Versioning: the media type is the service's own (the spec writes vnd.service); a 406 here is most often that.
    const accept = first.exchanges.at(-1)?.requestHeaders['accept'];
    return {
      ok: false,
      problem: `${what}: the deployment does not serve ${accept ? `Accept: ${accept}` : 'the Accept header sent'}; set CATALOGUE_MEDIA_TYPE (--media-type) to its vendor media type, or CATALOGUE_API_VERSION to a version it serves`,
    };
  }
  if (first.status === 401 || first.status === 403) {
    return { ok: false, problem: `${what}: the API refuses the application token; check the client id and secret, and that CATALOGUE_AUTH_URL is this API's authorization server` };
  }
  if (first.status >= 500) {
    const second = await another.path('/manufacturers');
    if (second === null || second.status < 500) return { ok: true };
    return { ok: false, problem: `${what}, and GET /manufacturers answered ${second.status}: the API answers server errors, not one endpoint; nothing to certify until it serves` };
  }
  if (first.status >= 200 && first.status < 300 && !isCategoryCollection(first) && !isApiWithWrongEnvelope(first)) {
    return { ok: false, problem: `${what} without a JSON {categories} body: not the Catalogue API at this base URL` };
  }
  return { ok: true };
}

/** The preflight's requests: GET /categories, and at most one more (see judgePreflight). */
export async function preflight(api: ApiClient): Promise<PreflightOutcome> {
  const url = api.url('/categories');
  let first: HttpResponse;
  try {
    first = await api.get('/categories');
  } catch (error) {
    if (error instanceof HttpError) return { ok: false, problem: `GET ${url}: ${error.message}` };
    throw error;
  }
  const quietly = async (request: () => Promise<HttpResponse>): Promise<HttpResponse | null> => {
    try {
      return await request();
    } catch (error) {
      if (error instanceof HttpError) return null;
      throw error;
    }
  };
  return judgePreflight(first, url, api.baseUrl, {
    // Another base URL: on the same origin the token goes with it (the user's own deployment).
    collection: (base) => quietly(() => api.requestUrl('GET', `${base}/categories`)),
    path: (path) => quietly(() => api.get(path)),
  });
}
