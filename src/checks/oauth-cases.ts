// What the OAuth suite (suites/oauth.suite.ts) asks and how it reads the answers, apart from the
// requests (src/engines/oauth.ts): the endpoints a token without a permission is shown (spec:
// Authentication > Permissions; Endpoints: which need favorites, notifications and
// publish_sku_review_actions), the requirement ids of each, the path of a probe, how a refusal
// is judged, and why a consent answer gives no code or no denial to judge.
import type { CheckResult } from './check.ts';
import { isRefused, notARefusal, refusalJudgement, type Judgement } from './http.ts';
import type { ConsentRedirect } from './oauth.ts';
import { pathIn, templateOf, type ApiEndpoint } from '../rules/api-paths.ts';
import type { Feature } from '../rules/change-history.ts';

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
  /** The Change-history feature that brought the endpoint: not asked of a deployment without it. */
  since?: Feature;
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
  { endpoint: 'POST /notifications/view', json: { ids: [NO_ID] }, since: 'notifications-view' },
];
/** Every endpoint that needs publish_sku_review_actions. */
export const REVIEW_ACTION_ENDPOINTS: Probe[] = [
  { endpoint: 'POST /skus/:sku_id/reviews/:review_id/votes', json: { vote: { helpful: true } }, since: 'review-votes' },
  { endpoint: 'POST /skus/:sku_id/reviews/:review_id/flags', json: { flag: { reason: 'spam' } }, since: 'review-flags' },
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

/** What the kit made up in a probe: an id in the path that does not exist, a body that names no existing record or lacks fields. */
export interface MadeUp {
  placeholder: boolean;
  body: boolean;
}

/**
 * How the answer to a probe is judged: a refusal (401 or 403) passes; a 2xx served without the
 * permission fails; a 404 only warns (refusalJudgement). A correct server may look up the record
 * a made-up id names, or validate a made-up body, before it checks the permission (the order is
 * not stated): then another 4xx (with a path id), or 400, 404 or 422 (with a body), cannot be
 * judged and only warns, saying why.
 */
export function probeJudgement(status: number, what: string, madeUp: MadeUp): Judgement {
  if (isRefused(status, what).ok || (status >= 200 && status < 300)) return { check: isRefused(status, what), must: true };
  if (madeUp.placeholder && status >= 400 && status < 500) {
    return { check: notARefusal(status, what, 'the permission could not be judged: the id does not exist, and the record may be looked up first'), must: false };
  }
  if (madeUp.body && (status === 400 || status === 404 || status === 422)) {
    const why = 'the permission could not be judged: the body names no existing record or lacks fields, and it may be validated first';
    return { check: notARefusal(status, what, why), must: false };
  }
  return refusalJudgement(status, what);
}

/** The answer to the authorization request: its status, and where it redirects. */
export interface ConsentOutcome {
  status: number;
  redirect: ConsentRedirect | null;
}

/**
 * Error codes of an authorization answer that are not the user's denial (RFC 6749 4.1.2.1, and
 * OpenID Connect's for a request no person can answer): the request itself, the client or the
 * service, or the lack of a person at a browser. The spec requires access_denied of a denial only.
 */
export const NOT_A_DENIAL: readonly string[] = [
  'invalid_request',
  'unauthorized_client',
  'unsupported_response_type',
  'invalid_scope',
  'server_error',
  'temporarily_unavailable',
  'login_required',
  'consent_required',
  'interaction_required',
  'account_selection_required',
];

/**
 * Why a consent answer shows nothing without a person at a browser, or null: a consent page, a
 * redirect elsewhere (a sign-in page of the authorization server), or a refusal without a
 * redirect (RFC 6749 forbids redirecting to a redirect URI or for a client it does not know: the
 * kit's configuration is not the deployment's).
 */
function needsAPerson(outcome: ConsentOutcome, what: 'the code flow' | 'a denial'): string | null {
  const { status, redirect } = outcome;
  if (status === 200) return `the deployment shows a consent page: ${what} needs a person at a browser`;
  if (redirect && !redirect.toRedirectUri) {
    // Its query (a return address) would only lengthen the message.
    const where = redirect.location.replace(/\?.*$/, '');
    const cannot = what === 'the code flow' ? 'the code flow cannot run' : 'no denial can be provoked';
    return `the authorization request redirects to ${where}, not to the redirect_uri: the deployment needs a person to sign in first, so ${cannot} without one`;
  }
  if (!redirect && status >= 400 && status < 500) {
    return `the authorization request answered ${status} without a redirect: the deployment does not take the configured client or redirect URI (CATALOGUE_CLIENT_ID, CATALOGUE_REDIRECT_URI), a matter of configuration`;
  }
  return null;
}

/** Why a consent answer gives no code without a person, or null when it carries one. */
export function noCodeReason(outcome: ConsentOutcome): string | null {
  const { status, redirect } = outcome;
  if (redirect?.toRedirectUri && redirect.params.get('code')) return null;
  if (redirect?.toRedirectUri && redirect.params.has('error'))
    return `the deployment answered the authorization request with error=${redirect.params.get('error')} at once (no person consented)`;
  return (
    needsAPerson(outcome, 'the code flow') ??
    `the authorization request answered ${status}${redirect ? ` (a redirect to ${redirect.location})` : ''}, not a redirect to the redirect_uri`
  );
}

/** Why a consent answer cannot show how the deployment answers a denial, or null when it is one to judge. */
export function noDenialReason(outcome: ConsentOutcome): string | null {
  const { redirect } = outcome;
  if (redirect?.toRedirectUri && redirect.params.get('code')) return 'the deployment consents at once without a person, so a denial cannot be provoked';
  const error = redirect?.toRedirectUri ? redirect.params.get('error') : null;
  if (error && NOT_A_DENIAL.includes(error)) {
    return `the deployment answered the authorization request with error=${error} at once: not a denial by the user (of which error=access_denied is required), and without a person none can be provoked`;
  }
  return needsAPerson(outcome, 'a denial');
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
