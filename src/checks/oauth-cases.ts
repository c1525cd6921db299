// What the OAuth suite (suites/oauth.suite.ts) asks and how it reads the answers, apart from the
// requests (src/engines/oauth.ts): the endpoints a token without a permission is shown (spec:
// Authentication > Permissions; Endpoints: which need favorites, notifications and
// publish_sku_review_actions), the requirement ids of each, the path of a probe, how a refusal
// is judged, and why a consent answer gives no code.
import type { CheckResult } from './check.ts';
import { isRefused } from './http.ts';
import type { ConsentRedirect } from './oauth.ts';
import { pathIn, templateOf, type ApiEndpoint } from '../rules/api-paths.ts';

/** An id no deployment is expected to hold (path placeholders are integers). */
export const NO_ID = 2147483647;

/**
 * Kinds of ids a permission probe of a read may use. Reads change nothing, so they are sent with
 * real ids; writes only ever name NO_ID, so that a server missing the check changes no data.
 */
export type RealIdKind = 'favoriteList' | 'favorite' | 'notification' | 'category';

/** The real ids found for the reads; a kind without one keeps NO_ID. */
export type RealIds = Partial<Record<RealIdKind, number>>;

export interface Probe {
  /** The spec's endpoint: the method and path are made from it, NO_ID (or a real id) in its placeholders. */
  endpoint: ApiEndpoint;
  json?: unknown;
  /** A read whose NO_ID is replaced by a real id of this kind when the run's user can list one. */
  realId?: RealIdKind;
}

/** Every endpoint that needs the favorites permission (Endpoints > Favorites, Categories). */
export const FAVORITES_ENDPOINTS: Probe[] = [
  { endpoint: 'GET /favorite_lists' },
  { endpoint: 'POST /favorite_lists', json: {} },
  { endpoint: 'DELETE /favorite_lists/:id' },
  { endpoint: 'GET /favorites' },
  { endpoint: 'GET /favorite_lists/:id/favorites', realId: 'favoriteList' },
  { endpoint: 'GET /favorites/:id', realId: 'favorite' },
  { endpoint: 'POST /favorites', json: { favorite: { sku_id: NO_ID } } },
  { endpoint: 'PUT /favorites/:id', json: { favorite: { have_it: true } } },
  { endpoint: 'DELETE /favorites/:id' },
  { endpoint: 'GET /categories/:id/favorites', realId: 'category' },
];
/** Every endpoint that needs the notifications permission. */
export const NOTIFICATIONS_ENDPOINTS: Probe[] = [
  { endpoint: 'GET /notifications' },
  { endpoint: 'GET /notifications/:id', realId: 'notification' },
  { endpoint: 'POST /notifications/view', json: { ids: [NO_ID] } },
];
/** Every endpoint that needs publish_sku_review_actions. */
export const REVIEW_ACTION_ENDPOINTS: Probe[] = [
  { endpoint: 'POST /skus/:sku_id/reviews/:review_id/votes', json: { vote: { helpful: true } } },
  { endpoint: 'POST /skus/:sku_id/reviews/:review_id/flags', json: { flag: { reason: 'spam' } } },
];

/**
 * Requirement ids per endpoint: the permission's rule, the scope's grant, and the endpoint's own
 * "needs ..." statement where the catalogue has one.
 */
export function permissionIds(probe: Probe): string[] {
  if (FAVORITES_ENDPOINTS.includes(probe)) return probe.endpoint === 'GET /categories/:id/favorites' ? ['CAT-23', 'SCOPE-3'] : ['FAV-34', 'SCOPE-3'];
  if (NOTIFICATIONS_ENDPOINTS.includes(probe)) return ['NOTIF-7', 'SCOPE-4'];
  return [probe.endpoint.endsWith('/votes') ? 'REV-27' : 'REV-28', 'SCOPE-5'];
}

/**
 * Where user and application tokens are both refused, the application token is already shown
 * (with real ids) to GET /favorite_lists, GET /categories/:id/favorites, GET /notifications and
 * the votes and flags endpoints by their own suites; the OAuth suite shows it to the others.
 */
export const APP_TOKEN_ENDPOINTS: Probe[] = [
  { endpoint: 'GET /user' },
  ...FAVORITES_ENDPOINTS.filter((p) => !['GET /favorite_lists', 'GET /categories/:id/favorites'].includes(p.endpoint)),
  ...NOTIFICATIONS_ENDPOINTS.filter((p) => p.endpoint !== 'GET /notifications'),
];

/** The probe's method and path, with a real id when there is one; `placeholder` tells whether NO_ID stayed. */
export function probePath(probe: Probe, ids: RealIds): { method: string; path: string; placeholder: boolean } {
  const real = probe.realId ? ids[probe.realId] : undefined;
  const params = templateOf(probe.endpoint)
    .split('/')
    .filter((segment) => segment.startsWith(':'))
    .map(() => real ?? NO_ID);
  return { method: probe.endpoint.slice(0, probe.endpoint.indexOf(' ')), path: pathIn(probe.endpoint, params), placeholder: real === undefined && params.length > 0 };
}

/**
 * How the answer to a probe is judged: a refusal (401 or 403) passes; a 2xx served without the
 * permission fails. With an id that does not exist, another 4xx (404, 422) cannot be judged: a
 * correct server may look the record up or validate the body before it checks the permission (the
 * order is not stated), so it only warns (`must` false).
 */
export function refusalJudgement(status: number, what: string, placeholder: boolean): { check: CheckResult; must: boolean } {
  if (!placeholder || (status >= 200 && status < 300)) return { check: isRefused(status, what), must: true };
  return { check: isRefused(status, `${what}, an id that does not exist (the permission could not be judged: the record may be looked up first)`), must: false };
}

/** The answer to the authorization request: its status, and where it redirects. */
export interface ConsentOutcome {
  status: number;
  redirect: ConsentRedirect | null;
}

/** Why a consent answer gives no code without a person, or null when it carries one. */
export function noCodeReason(outcome: ConsentOutcome): string | null {
  const { status, redirect } = outcome;
  if (redirect?.toRedirectUri && redirect.params.get('code')) return null;
  if (redirect?.toRedirectUri && redirect.params.has('error'))
    return `the deployment answered the authorization request with error=${redirect.params.get('error')} at once (no person consented)`;
  if (status === 200) return 'the deployment shows a consent page: the code flow needs a person at a browser';
  return `the authorization request answered ${status}${redirect ? ` (a redirect to ${redirect.location})` : ''}, not a redirect to the redirect_uri`;
}

/** A redirect_uri that differs from the registered one (another path on its origin). */
export function otherRedirectUri(uri: string): string {
  const other = new URL('/conformance-other-callback', uri);
  if (other.toString() === uri) other.pathname = '/conformance-other-callback-2';
  return other.toString();
}

/** The check, its message prefixed by what was asked when it fails. */
export function labelled(check: CheckResult, what: string): CheckResult {
  return check.ok ? check : { ok: false, message: `${what}: ${check.message}` };
}
