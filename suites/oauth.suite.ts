// Spec: Authentication (whole: Permissions, Application token, User token, Renewal, Sending the
// token); Errors (401 for missing, invalid or expired credentials, the errors body); Limits (token
// lifetimes); Endpoints (which endpoints need the favorites, notifications and
// publish_sku_review_actions permissions).
//
// Frugal by design: tokens and codes count against the client's 1,000 calls a day. One consent
// request (scope public) serves both the code-flow and the denial test; the user token it gives
// (scope public alone) is refreshed once and then shown to every endpoint that needs a permission
// it lacks. Requests that must be refused name ids that do not exist and carry bodies that create
// nothing, so a server that forgets a permission check changes nothing either; a server that looks
// the made-up records up or validates the bodies first answers otherwise, and then only a warning
// says the permission could not be judged (src/checks/oauth-cases.ts, probeJudgement).
// The tokens later tests share outlive the tests that could end them: a reused code may revoke
// its tokens (RFC 6749 4.1.2), a new application token may revoke the earlier ones (AUTH-26).
// Every token and code the suite obtains is registered as a secret before it is used.
import { describe } from 'vitest';
import { hasStatus } from '../src/checks/http.ts';
import {
  APP_TOKEN_LIFETIME_S,
  codeIsUrlEncoded,
  denialRedirect,
  expiresInIsIntegerSeconds,
  expiresInWithinLifetime,
  extraScopeNotGranted,
  grantRedirectCarriesCode,
  isBearerTokenResponse,
  notServed,
  refreshTokenIs,
  scopeNotDefaulted,
  scopeUnstated,
  tokenRefused,
  USER_TOKEN_LIFETIME_S,
} from '../src/checks/oauth.ts';
import {
  APP_TOKEN_ENDPOINTS,
  FAVORITES_ENDPOINTS,
  labelled,
  noCodeReason,
  noDenialReason,
  NOTIFICATIONS_ENDPOINTS,
  otherRedirectUri,
  permissionIds,
  probeJudgement,
  probePath,
  REVIEW_ACTION_ENDPOINTS,
  type Probe,
} from '../src/checks/oauth-cases.ts';
import { clientForm, judgeRefusal, needsRedirectUri, NO_RENEW, OAuthSession, tokenAnswer, tokenUrl, unauthorized } from '../src/engines/oauth.ts';
import { conformanceTest, type ConformanceContext } from '../src/harness/conformance.ts';
import { mustCarryRateLimit } from '../src/harness/requests.ts';
import type { HttpResponse } from '../src/http/client.ts';
import { pathOf } from '../src/rules/api-paths.ts';

/**
 * Read by src/runner/passes.ts: this suite runs after the other writers. Its writes are meant to be refused,
 * but the run cannot know they were not carried out, so each makes the kept answers its area
 * may change stale (src/harness/reuse.ts);
 * sent last, they leave the answers the other writers reuse alone (issue 17).
 */
export const RUNS_AFTER_THE_OTHER_WRITERS = true;

const PUBLIC_ENDPOINT = pathOf('GET /categories/root');
/** An endpoint only a user token may use (For an authorized user the service also offers: profile). */
const USER_ENDPOINT = pathOf('GET /user');

/** The consent request, asked once, and the real ids of the permission probes. */
const session = new OAuthSession();

/**
 * POST {auth_url}/oauth2/token, untouched by the run's token handling; any token in it is a secret
 * from now on. Sent here, not in src/engines/oauth.ts: src/runner/passes.ts finds a suite's writes
 * in its source (SENDS_WRITES), and this request is the one that shows it, making the suite a
 * writer that runs after the others (RUNS_AFTER_THE_OTHER_WRITERS).
 */
async function tokenRequest(t: ConformanceContext, form: Record<string, string>): Promise<{ response: HttpResponse; body: unknown }> {
  const answer = tokenAnswer(await t.api.requestUrl('POST', tokenUrl(t), { form, auth: 'none', ...NO_RENEW, accept: 'application/json' }));
  if (form['grant_type'] === 'client_credentials' && typeof (answer.body as Record<string, unknown> | null)?.['access_token'] === 'string') session.appTokenIssued();
  return answer;
}

// --- the user token of scope public, shared by the later tests -------------------------------

interface PublicUserToken {
  access: string;
  refresh: string | null;
  /** A request with it was served. */
  proven: boolean;
}

let publicUser: PublicUserToken | null = null;
let publicUserMissing = 'the authorization-code test did not run';

/** The user token of a code exchange's answer, not yet shown to work; null without an access_token. */
function userTokenOf(body: unknown): PublicUserToken | null {
  const fields = (body ?? {}) as Record<string, unknown>;
  if (typeof fields['access_token'] !== 'string') return null;
  return { access: fields['access_token'], refresh: typeof fields['refresh_token'] === 'string' ? fields['refresh_token'] : null, proven: false };
}

/** POST {auth_url}/oauth2/token with grant_type authorization_code. */
function exchangeCode(t: ConformanceContext, redirectUri: string, code: string): Promise<{ response: HttpResponse; body: unknown }> {
  return tokenRequest(t, { ...clientForm(t), grant_type: 'authorization_code', redirect_uri: redirectUri, code });
}

/** The redirect URI of the code the code-flow test exchanged twice, until the shared user token is renewed after it. */
let reusedCode: { redirectUri: string } | null = null;

/**
 * A server SHOULD revoke the tokens issued from a code exchanged twice (RFC 6749 4.1.2), as the
 * code-flow test does with the code of the shared user token. When a request with that token
 * failed, and its access token gets 401 (`accessStatus`, asked when not known), a new code gives
 * a new token: true when it did. Once, and only then, so a run costs nothing more when the token
 * works.
 */
async function renewedAfterReuse(t: ConformanceContext, accessStatus?: number): Promise<boolean> {
  const reuse = reusedCode;
  const user = publicUser;
  if (!reuse || !user) return false;
  reusedCode = null;
  const status = accessStatus ?? (await t.api.get(PUBLIC_ENDPOINT, { auth: { token: user.access } })).status;
  if (status !== 401) return false;
  const outcome = await session.consentAgain(t, reuse.redirectUri);
  const reason = noCodeReason(outcome);
  publicUser = reason ? null : userTokenOf((await exchangeCode(t, reuse.redirectUri, outcome.redirect!.params.get('code')!)).body);
  if (!publicUser) publicUserMissing = `the user token was revoked when its code was reused, and no new one came${reason ? `: ${reason}` : ''}`;
  return publicUser !== null;
}

describe('Application token (client credentials)', () => {
  conformanceTest(
    'POST /oauth2/token with scope public answers JSON {access_token, token_type bearer, expires_in in integer seconds}, no refresh_token',
    {
      id: 'client-credentials-token',
      clauses: ['AUTH-5#1', 'AUTH-7#1-6', 'AUTH-10#1', 'AUTH-11#1'],
      requirements: ['AUTH-5', 'AUTH-7', 'AUTH-10', 'AUTH-22', 'AUTH-11', 'AUTH-9', 'AUTH-8', 'AUTH-26'],
      readings: ['AUTH-5.a-f', 'AUTH-7.a-g', 'AUTH-10.a-g', 'AUTH-22.a-d', 'AUTH-11.a-c', 'AUTH-8.a-e', 'AUTH-26.a-f'],
      requests: 2,
    },
    async (t) => {
      // The run holds an application token already: this repeats the request.
      const { response, body } = await tokenRequest(t, { ...clientForm(t), grant_type: 'client_credentials', scope: 'public' });
      t.require(hasStatus(response, 200), 'AUTH-5');
      t.json(response, 'AUTH-7');
      t.must(isBearerTokenResponse(body), 'AUTH-7');
      // "Repeating the request returns the existing token or a new one": either way, one that works
      // (and that repeat is how an application token is renewed).
      const access = (body as Record<string, unknown>)['access_token'];
      if (typeof access === 'string' && access !== '') {
        const used = await t.api.get(PUBLIC_ENDPOINT, { auth: { token: access } });
        // AUTH-10 alone: the run's token is valid still, so this repeat is not the renewal after expiry (AUTH-22).
        t.must(labelled(hasStatus(used, 200), `GET ${PUBLIC_ENDPOINT} with the token of the repeated client-credentials request`), 'AUTH-10');
      }
      t.must(expiresInIsIntegerSeconds(body), 'AUTH-7');
      t.must(refreshTokenIs(body, 'absent'), 'AUTH-11');
      // The spec's own sample exceeds 2 weeks (AUTH-9): more than the lifetime only warns.
      t.warn(expiresInWithinLifetime(body, APP_TOKEN_LIFETIME_S, 'application token'), 'AUTH-9', 'AUTH-8', 'AUTH-26');
    },
  );

  conformanceTest(
    'all parameters are required: without client_secret no token is issued (without scope, one issued only warns)',
    { id: 'client-secret-required', clauses: ['AUTH-5#2', 'AUTH-6#1'], requirements: ['AUTH-6', 'AUTH-5'], readings: ['AUTH-6.a-e', 'AUTH-5.a-f'], requests: 2 },
    async (t) => {
      const { client_secret: _secret, ...withoutSecret } = clientForm(t);
      const noSecret = await tokenRequest(t, { ...withoutSecret, grant_type: 'client_credentials', scope: 'public' });
      t.must(tokenRefused(noSecret.response.status, noSecret.body, 'a client-credentials request without client_secret'), 'AUTH-6');
      const noScope = await tokenRequest(t, { ...clientForm(t), grant_type: 'client_credentials' });
      t.warn(scopeNotDefaulted(noScope.response.status, noScope.body), 'AUTH-6');
    },
  );

  conformanceTest(
    'a scope other than public is not granted: "public favorites" is refused or narrowed to public',
    { id: 'extra-scope-not-granted', clauses: ['SCOPE-2#1'], requirements: ['SCOPE-2', 'SCOPE-7', 'AUTH-5'], readings: ['SCOPE-2.a-c', 'SCOPE-7.a-g', 'AUTH-5.a-f'], requests: 1 },
    async (t) => {
      const { response, body } = await tokenRequest(t, { ...clientForm(t), grant_type: 'client_credentials', scope: 'public favorites' });
      t.must(extraScopeNotGranted(response.status, body, 'public'), 'SCOPE-2');
      t.warn(scopeUnstated(response.status, body), 'SCOPE-2');
    },
  );
});

describe('User token (authorization code) and renewal', () => {
  conformanceTest(
    'the consent redirect carries the code; the exchange needs the same redirect_uri, answers {access_token, refresh_token, token_type bearer, expires_in}, and a code works once',
    {
      id: 'authorization-code-flow',
      clauses: ['AUTH-3#1', 'AUTH-14#3', 'AUTH-16#1', 'AUTH-18#1', 'AUTH-18#3', 'AUTH-19#1-5'],
      requirements: ['AUTH-12', 'AUTH-14', 'AUTH-16', 'AUTH-18', 'AUTH-19', 'AUTH-3', 'AUTH-20', 'AUTH-27', 'AUTH-2'],
      readings: ['AUTH-12.a-h', 'AUTH-14.a-g', 'AUTH-16.a-c', 'AUTH-18.a-h', 'AUTH-19.a-d', 'AUTH-3.a-i', 'AUTH-20.a-f', 'AUTH-27.a-e', 'AUTH-2.a-e'],
      requests: 6,
    },
    async (t) => {
      const redirectUri = needsRedirectUri(t);
      let outcome = await session.consentOnce(t, redirectUri);
      const reason = noCodeReason(outcome);
      if (reason) {
        publicUserMissing = `no user token of scope public: ${reason}`;
        t.skip(reason);
      }
      t.must(grantRedirectCarriesCode(outcome.redirect, outcome.status), 'AUTH-14');
      t.must(codeIsUrlEncoded(outcome.redirect!.rawCode, false), 'AUTH-16');
      t.warn(codeIsUrlEncoded(outcome.redirect!.rawCode, true), 'AUTH-16');
      // URLSearchParams decodes the code once; the form body encodes it again (AUTH-17).
      let code = outcome.redirect!.params.get('code')!;
      const exchange = (uri: string, c: string) => exchangeCode(t, uri, c);

      const wrong = await exchange(otherRedirectUri(redirectUri), code);
      t.must(tokenRefused(wrong.response.status, wrong.body, 'the code exchange with another redirect_uri than the authorization request'), 'AUTH-18');

      let granted = await exchange(redirectUri, code);
      if (granted.response.status !== 200) {
        // A server may end a code after a refused exchange (or used it up on the wrong one): a second code, once.
        outcome = await session.consentAgain(t, redirectUri);
        const again = noCodeReason(outcome);
        if (again) t.skip(`a second code was needed after the refused exchange: ${again}`);
        code = outcome.redirect!.params.get('code')!;
        granted = await exchange(redirectUri, code);
      }
      t.require(hasStatus(granted.response, 200), 'AUTH-18');
      t.json(granted.response, 'AUTH-19');
      t.must(isBearerTokenResponse(granted.body), 'AUTH-19');
      t.must(refreshTokenIs(granted.body, 'present'), 'AUTH-19');
      t.must(expiresInIsIntegerSeconds(granted.body), 'AUTH-19');
      t.warn(expiresInWithinLifetime(granted.body, USER_TOKEN_LIFETIME_S, 'user token'), 'AUTH-20', 'AUTH-27', 'AUTH-2');
      publicUser = userTokenOf(granted.body);

      const reused = await exchange(redirectUri, code);
      t.must(tokenRefused(reused.response.status, reused.body, 'a second exchange of the same code'), 'AUTH-3');
      // The server may have revoked publicUser now: the later tests renew it if so (renewedAfterReuse).
      reusedCode = { redirectUri };
    },
  );

  conformanceTest(
    'a denial redirects to the redirect_uri with error=access_denied',
    { id: 'denial-access-denied', clauses: ['AUTH-15#2'], requirements: ['AUTH-15'], readings: ['AUTH-15.a-f'], requests: 1 },
    async (t) => {
      const redirectUri = needsRedirectUri(t);
      const outcome = await session.consentOnce(t, redirectUri);
      const reason = noDenialReason(outcome);
      if (reason) t.skip(reason);
      t.must(denialRedirect(outcome.redirect, outcome.status), 'AUTH-15');
    },
  );

  conformanceTest(
    'the refresh grant gives a usable access token (the rest of the refresh response is not shown)',
    {
      id: 'refresh-grant',
      clauses: ['SCOPE-1#1', 'SCOPE-6#1', 'AUTH-23#1'],
      requirements: ['AUTH-23', 'AUTH-24', 'SCOPE-6', 'SCOPE-1'],
      readings: ['AUTH-23.a-i', 'SCOPE-6.a-e', 'SCOPE-1.a-g'],
      requests: 2,
    },
    async (t) => {
      const refreshOf = (user: PublicUserToken | null): string => {
        if (!user) return t.skip(publicUserMissing);
        return user.refresh ?? t.skip('the code exchange gave no refresh token');
      };
      const refreshGrant = (refresh: string) => tokenRequest(t, { ...clientForm(t), grant_type: 'refresh_token', refresh_token: refresh });
      let { response, body } = await refreshGrant(refreshOf(publicUser));
      if (response.status !== 200 && (await renewedAfterReuse(t))) ({ response, body } = await refreshGrant(refreshOf(publicUser)));
      t.require(hasStatus(response, 200), 'AUTH-23');
      t.json(response, 'AUTH-23');
      const fields = body as Record<string, unknown>;
      const access = fields['access_token'];
      t.require(
        typeof access === 'string' && access !== '' ? { ok: true } : { ok: false, message: `the refresh response has access_token ${JSON.stringify(access)}, expected a token` },
        'AUTH-23',
      );
      // Shape not shown (AUTH-24): what a token response usually carries only warns.
      t.warn(isBearerTokenResponse(body), 'AUTH-24');
      t.warn(expiresInIsIntegerSeconds(body), 'AUTH-24');
      const used = await t.api.get(PUBLIC_ENDPOINT, { auth: { token: access as string } });
      t.must(labelled(hasStatus(used, 200), `GET ${PUBLIC_ENDPOINT} with the refreshed token (scope public)`), 'AUTH-23', 'SCOPE-6', 'SCOPE-1');
      if (used.status === 200) publicUser = { access: access as string, refresh: typeof fields['refresh_token'] === 'string' ? fields['refresh_token'] : null, proven: true };
    },
  );
});

/** Whether the deployment serves the probe's endpoint (a later patch level may bring it: Change history). */
function served(t: ConformanceContext, probe: Probe): boolean {
  return probe.since === undefined || t.has(probe.since);
}

describe('Permissions', () => {
  const all = [...FAVORITES_ENDPOINTS, ...NOTIFICATIONS_ENDPOINTS, ...REVIEW_ACTION_ENDPOINTS];
  conformanceTest(
    'a user token of scope public alone is refused (401 or 403) by every favorites, notifications and review-action endpoint',
    {
      id: 'public-scope-user-refused',
      clauses: ['CAT-23#1', 'NOTIF-7#1', 'FAV-34#1', 'SCOPE-3#3', 'SCOPE-4#2', 'SCOPE-6#1', 'EVT-1#3'],
      requirements: ['FAV-34', 'CAT-23', 'SCOPE-3', 'NOTIF-7', 'SCOPE-4', 'EVT-1', 'REV-27', 'REV-28', 'SCOPE-5', 'SCOPE-6'],
      readings: ['FAV-34.a-e', 'CAT-23.a-d', 'SCOPE-3.a-g', 'NOTIF-7.a-d', 'SCOPE-4.a-e', 'EVT-1.a-g', 'REV-27.a-g', 'REV-28.a-j', 'SCOPE-5.a-h', 'SCOPE-6.a-e'],
      profile: 'read',
      requests: all.length + 4,
    },
    async (t) => {
      const user = publicUser;
      if (!user) return t.skip(publicUserMissing);
      const auth = { token: user.access };
      if (!user.proven) {
        // A refusal means something only if the token works where its scope reaches.
        let used = await t.api.get(PUBLIC_ENDPOINT, { auth });
        if (used.status !== 200 && (await renewedAfterReuse(t, used.status))) {
          auth.token = publicUser!.access;
          used = await t.api.get(PUBLIC_ENDPOINT, { auth });
        }
        t.require(labelled(hasStatus(used, 200), `GET ${PUBLIC_ENDPOINT} with the user token of scope public`), 'SCOPE-6');
      }
      const ids = await session.realIds(t);
      for (const probe of all.filter((p) => served(t, p))) {
        const { method, path, placeholder } = probePath(probe, ids);
        const response = await t.api.request(method, path, { auth, ...(probe.json !== undefined ? { json: probe.json } : {}) });
        const what = `${method} ${path} (${probe.endpoint}) with a user token of scope public`;
        judgeRefusal(t, probeJudgement(response.status, what, { placeholder, body: probe.json !== undefined }), ...permissionIds(probe));
      }
    },
  );

  conformanceTest(
    'an application token (scope public, no user) is refused (401 or 403) by user endpoints',
    {
      id: 'app-token-refused-on-user',
      clauses: ['NOTIF-7#1', 'USER-1#1', 'FAV-34#1'],
      requirements: ['USER-1', 'FAV-34', 'NOTIF-7', 'SCOPE-2'],
      readings: ['USER-1.a-g', 'FAV-34.a-e', 'NOTIF-7.a-d', 'SCOPE-2.a-c'],
      requests: APP_TOKEN_ENDPOINTS.length + 3,
    },
    async (t) => {
      const real = await session.realIds(t);
      // A refusal of a revoked application token would say nothing of the permission.
      await session.appTokenInForce(t);
      for (const probe of APP_TOKEN_ENDPOINTS.filter((p) => served(t, p))) {
        const { method, path, placeholder } = probePath(probe, real);
        const response = await t.api.request(method, path, { auth: 'app', ...NO_RENEW, ...(probe.json !== undefined ? { json: probe.json } : {}) });
        const ids = probe.endpoint === 'GET /user' ? ['USER-1'] : [...permissionIds(probe), 'SCOPE-2'];
        const what = `${method} ${path} (${probe.endpoint}) with an application token`;
        judgeRefusal(t, probeJudgement(response.status, what, { placeholder, body: probe.json !== undefined }), ...ids);
      }
    },
  );
});

describe('Sending the token', () => {
  conformanceTest(
    'the token is accepted in the Authorization header and as the oauth_token query parameter',
    { id: 'token-in-header-or-query', clauses: ['SEND-1#1', 'SEND-2#1'], requirements: ['SEND-1', 'SEND-2'], readings: ['SEND-1.a-f', 'SEND-2.a-e'], requests: 2 },
    async (t) => {
      await session.appTokenInForce(t);
      const header = await t.api.get(PUBLIC_ENDPOINT, { auth: 'app', tokenVia: 'header', ...NO_RENEW });
      t.must(labelled(hasStatus(header, 200), `GET ${PUBLIC_ENDPOINT} with Authorization: Bearer`), 'SEND-1');
      const query = await t.api.get(PUBLIC_ENDPOINT, { auth: 'app', tokenVia: 'query', ...NO_RENEW });
      t.must(labelled(hasStatus(query, 200), `GET ${PUBLIC_ENDPOINT} with oauth_token`), 'SEND-2');
    },
  );

  conformanceTest(
    'both ways in one request: the spec forbids it to clients and names no answer, so serving it only warns',
    { id: 'token-both-ways', requirements: ['SEND-3'], readings: ['SEND-3.a-b'], severity: 'WARN', requests: 1 },
    async (t) => {
      await session.appTokenInForce(t);
      const both = await t.api.get(PUBLIC_ENDPOINT, { auth: 'app', tokenVia: 'both', ...NO_RENEW });
      t.warn(notServed(both.status, `GET ${PUBLIC_ENDPOINT} with the token in the header and in oauth_token`), 'SEND-3');
    },
  );
});

/** An answer that served the request (2xx): no token, or no valid one, was needed after all. */
const servedAnyway = (response: HttpResponse): boolean => response.status >= 200 && response.status < 300;

describe('Missing, invalid and expired tokens', () => {
  conformanceTest(
    'no token: 401 with the errors body and the rate-limit headers, on a public and on a user endpoint',
    {
      id: 'no-token-401',
      clauses: ['RATE-4#1', 'RATE-5#1-2', 'RATE-6#1-2', 'RATE-7#1-2', 'GEN-5#1', 'ERR-2#1-3', 'ERR-6#1', 'AUTH-3#2'],
      requirements: ['GEN-5', 'AUTH-3', 'ERR-6', 'ERR-2', 'RATE-4', 'RATE-5', 'RATE-6', 'RATE-7'],
      readings: ['GEN-5.a-f', 'AUTH-3.a-i', 'ERR-6.a-i', 'ERR-2.a-h', 'RATE-4.a-d', 'RATE-5.a-c', 'RATE-6.a-d', 'RATE-7.a-d'],
      requests: 2,
    },
    async (t) => {
      for (const path of [PUBLIC_ENDPOINT, USER_ENDPOINT]) {
        const response = await t.api.get(path, { auth: 'none' });
        // Refused with another status, the request still needed a token (GEN-5, AUTH-3): only the 401 row (ERR-6) is broken.
        unauthorized(t, response, `GET ${path} without a token`, 'ERR-6', ...(servedAnyway(response) ? ['GEN-5', 'AUTH-3'] : []));
        mustCarryRateLimit(t, response.headers, `the ${response.status} to GET ${path} without a token`);
      }
    },
  );

  conformanceTest(
    'an invalid token: 401 with the errors body, on a public and on a user endpoint',
    {
      id: 'invalid-token-401',
      clauses: ['ERR-2#1-3', 'ERR-6#2', 'AUTH-3#2'],
      requirements: ['ERR-6', 'ERR-2', 'AUTH-3'],
      readings: ['ERR-6.a-i', 'ERR-2.a-h', 'AUTH-3.a-i'],
      requests: 2,
    },
    async (t) => {
      const token = `conformance-invalid-${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`;
      for (const path of [PUBLIC_ENDPOINT, USER_ENDPOINT]) {
        const response = await t.api.get(path, { auth: { token } });
        unauthorized(t, response, `GET ${path} with an invalid token`, 'ERR-6', ...(servedAnyway(response) ? ['AUTH-3'] : []));
      }
    },
  );

  conformanceTest(
    'an expired token: 401 with the errors body, on a public and on a user endpoint',
    {
      id: 'expired-token-401',
      clauses: ['ERR-2#1-3', 'ERR-6#3', 'AUTH-1#1-2', 'AUTH-21#1'],
      requirements: ['AUTH-21', 'ERR-6', 'ERR-2', 'AUTH-1', 'AUTH-2'],
      readings: ['AUTH-21.a-g', 'ERR-6.a-i', 'ERR-2.a-h', 'AUTH-1.a-e', 'AUTH-2.a-e'],
      requests: 2,
    },
    async (t) => {
      const token = t.run.expiredToken;
      if (!token) return t.skip('no expired token (CATALOGUE_EXPIRED_TOKEN)');
      for (const path of [PUBLIC_ENDPOINT, USER_ENDPOINT]) {
        const response = await t.api.get(path, { auth: { token } });
        unauthorized(t, response, `GET ${path} with an expired token`, 'AUTH-21', 'ERR-6', 'AUTH-1', 'AUTH-2');
      }
    },
  );
});
