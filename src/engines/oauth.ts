// The requests of the OAuth suite (suites/oauth.suite.ts) and what it judges of their answers
// along the way: the answers of token requests (every token they give is a secret from then on;
// the suite sends them itself), the consent request asked once per suite file, the real ids the
// permission probes of reads use, the judging of a probe's refusal, and the 401 with the errors
// body. The pure parts are in src/checks/oauth-cases.ts.
import { errorBodyIsWellFormed } from '../checks/errors.ts';
import { hasStatus, type Judgement } from '../checks/http.ts';
import { readConsentRedirect } from '../checks/oauth.ts';
import type { ConsentOutcome, RealIdKind, RealIds } from '../checks/oauth-cases.ts';
import type { ConformanceContext, DiscoveryRole } from '../harness/conformance.ts';
import { joinUrl, type HttpResponse } from '../http/client.ts';
import { secrets } from '../http/redact.ts';
import { pathOf } from '../rules/api-paths.ts';

/** A request the run's token handling must not renew on a 401. */
export const NO_RENEW = { renewOn401: false } as const;

/** {auth_url}/oauth2/token. */
export function tokenUrl(t: ConformanceContext): string {
  return joinUrl(t.run.authUrl, '/oauth2/token');
}

/**
 * The answer to a token request (sent by the suite itself: src/runner/passes.ts finds its writes
 * in its source) and its JSON body, null when it has none; any token in it is a secret from now on.
 */
export function tokenAnswer(response: HttpResponse): { response: HttpResponse; body: unknown } {
  let body: unknown = null;
  try {
    body = response.json();
  } catch {
    body = null;
  }
  if (body && typeof body === 'object') {
    const fields = body as Record<string, unknown>;
    for (const key of ['access_token', 'refresh_token']) if (typeof fields[key] === 'string') secrets.add(fields[key]);
  }
  return { response, body };
}

/** The run's client: client_id and client_secret of a token request. */
export function clientForm(t: ConformanceContext): Record<string, string> {
  return { client_id: t.run.client.id, client_secret: t.run.client.secret };
}

/** GET {auth_url}/oauth2/authorizations/new with scope public, not followed; a code in the answer is a secret from now on. */
async function askConsent(t: ConformanceContext, redirectUri: string): Promise<ConsentOutcome> {
  const url = joinUrl(t.run.authUrl, '/oauth2/authorizations/new', {
    client_id: t.run.client.id,
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: 'public',
  });
  const response = await t.api.requestUrl('GET', url, { auth: 'none', followRedirects: false, accept: null });
  const redirect = readConsentRedirect(response.status, response.headers, url, redirectUri);
  const code = redirect?.params.get('code');
  if (code) secrets.add(code);
  return { status: response.status, redirect };
}

/**
 * What the suite asks once and its later tests share: the consent request (scope public) and the
 * real ids of the permission probes. One is made with the suite file, so that what it keeps
 * lasts as long as the suite's run.
 */
export class OAuthSession {
  #consent: Promise<ConsentOutcome> | null = null;
  #realIds: RealIds | null = null;
  /** The suite was granted an application token of its own since the run's was last shown to work. */
  #appTokenReplaced = false;

  /** A client-credentials request of the suite was granted a token. */
  appTokenIssued(): void {
    this.#appTokenReplaced = true;
  }

  /**
   * Before requests with the run's application token that are not renewed on a 401 (NO_RENEW):
   * a server may revoke a client's earlier application tokens when it issues a new one (the fate
   * of the earlier token is not shown, AUTH-26), so after the suite was granted one, a request
   * that is renewed on a 401 makes sure the run's token is in force, whatever the order of tests.
   */
  async appTokenInForce(t: ConformanceContext): Promise<void> {
    if (!this.#appTokenReplaced) return;
    this.#appTokenReplaced = false;
    await t.api.get(pathOf('GET /categories/root'), { auth: 'app', fresh: true });
  }

  /** The consent answer; the first test that needs it asks. */
  consentOnce(t: ConformanceContext, redirectUri: string): Promise<ConsentOutcome> {
    this.#consent ??= askConsent(t, redirectUri);
    return this.#consent;
  }

  /** Asks for consent again (a second code), and keeps that answer for the later tests. */
  consentAgain(t: ConformanceContext, redirectUri: string): Promise<ConsentOutcome> {
    this.#consent = askConsent(t, redirectUri);
    return this.#consent;
  }

  /** Real ids for the reads: discovery's, found with the run's user token (which carries every scope asked for). */
  async realIds(t: ConformanceContext): Promise<RealIds> {
    if (this.#realIds) return this.#realIds;
    const found: RealIds = {};
    // Discovery's ids (shared by the run's workers); a role the run cannot fill keeps NO_ID.
    const roles: Record<RealIdKind, DiscoveryRole> = { favoriteList: 'favoriteList', favorite: 'favorite', notification: 'notification', category: 'rootCategory' };
    for (const [kind, role] of Object.entries(roles) as [RealIdKind, DiscoveryRole][]) {
      try {
        found[kind] = await t.discover(role);
      } catch {
        // keeps NO_ID (no user token, or nothing of that kind)
      }
    }
    this.#realIds = found;
    return found;
  }
}

/** The redirect URI of the run's client; skips the test without one. */
export function needsRedirectUri(t: ConformanceContext): string {
  const uri = t.run.client.redirectUri;
  if (!uri) return t.skip('no redirect URI (CATALOGUE_REDIRECT_URI): the authorization-code flow cannot run');
  return uri;
}

/** Records the judgement of a refusal (refusalJudgement, probeJudgement): a MUST, or a warning where a correct server may answer so. */
export function judgeRefusal(t: ConformanceContext, { check, must }: Judgement, ...ids: string[]): void {
  if (must) t.must(check, ...ids);
  else t.warn(check, ...ids);
}

/** 401 with the errors body (from 3.1.0, the normalized error format). */
export function unauthorized(t: ConformanceContext, response: HttpResponse, what: string, ...ids: string[]): void {
  t.must(hasStatus(response, 401), ...ids);
  if (response.status === 401 && t.has('normalized-errors')) {
    let body: unknown = null;
    try {
      body = response.json();
    } catch {
      body = response.text;
    }
    const check = errorBodyIsWellFormed(body);
    t.must(check.ok ? check : { ok: false, message: `${what}: ${check.message}` }, 'ERR-2');
  }
}
