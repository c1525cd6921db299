// Checks of status, media type and envelope that apply to every endpoint.
import { fail, isPlainObject, pass, show, type CheckResult } from './check.ts';
import { linkTargets } from './pagination.ts';

export interface Answer {
  status: number;
  headers: Record<string, string>;
  text: string;
}

export function hasStatus(answer: Answer, expected: number | readonly number[]): CheckResult {
  const allowed = typeof expected === 'number' ? [expected] : expected;
  return allowed.includes(answer.status) ? pass() : fail(`status ${answer.status}, expected ${allowed.join(' or ')}`);
}

/** Spec: "All data is sent and received as JSON." */
export function bodyIsJson(answer: Answer): CheckResult {
  try {
    JSON.parse(answer.text);
  } catch {
    return fail(`body is not JSON: ${show(answer.text.slice(0, 80))}`);
  }
  const type = answer.headers['content-type'];
  if (!type) return fail('JSON body sent without a Content-Type header');
  return /\bjson\b|\+json\b/i.test(type) ? pass() : fail(`JSON body sent as Content-Type ${type}`);
}

/** Convention 1: a single resource is returned as an object under its singular key. */
/** The JSON body of a 200 answer, or null for another status or a body that is not JSON (the tests of that endpoint judge those). */
export function okJsonOf(response: { status: number; json<T>(): T }): unknown {
  if (response.status !== 200) return null;
  try {
    return response.json<unknown>();
  } catch {
    return null;
  }
}

export function hasSingleEnvelope(body: unknown, key: string): CheckResult {
  if (!isPlainObject(body)) return fail(`body is ${show(body)}, expected an object with key "${key}"`);
  if (!(key in body)) return fail(`body has no "${key}" key (keys: ${Object.keys(body).join(', ') || 'none'})`);
  return isPlainObject(body[key]) ? pass() : fail(`"${key}" is ${show(body[key])}, expected an object`);
}

/** Convention 1: a collection is returned as an array under its plural key. */
export function hasCollectionEnvelope(body: unknown, key: string): CheckResult {
  if (!isPlainObject(body)) return fail(`body is ${show(body)}, expected an object with key "${key}"`);
  if (!(key in body)) return fail(`body has no "${key}" key (keys: ${Object.keys(body).join(', ') || 'none'})`);
  return Array.isArray(body[key]) ? pass() : fail(`"${key}" is ${show(body[key])}, expected an array`);
}

/** A token without the permission an endpoint needs is refused: 401 or 403 (the spec names neither). */
export function isRefused(status: number, what: string): CheckResult {
  return status === 401 || status === 403 ? pass() : fail(`${what} answered ${status}, expected a refusal (401 or 403)`);
}

/** A check and its weight: a MUST, or a warning where a correct server may answer so (`must` false). */
export interface Judgement {
  check: CheckResult;
  must: boolean;
}

/**
 * A token without the permission (or the user) an endpoint needs: 401 or 403 pass. A 404 only
 * warns: the spec names no status for the refusal, and "no such resource for this token" (no
 * user behind an application token, a resource hidden from a token without the scope) is a
 * reading of it. Anything else fails: a 2xx served what the token may not reach.
 */
export function refusalJudgement(status: number, what: string): Judgement {
  if (status !== 404) return { check: isRefused(status, what), must: true };
  return {
    check: notARefusal(status, what, 'tolerated: the spec names no status for a missing permission, and 404 may say there is no such resource for this token'),
    must: false,
  };
}

/** The finding of an answer that is no refusal but may be a correct server's, and why. */
export function notARefusal(status: number, what: string, why: string): CheckResult {
  return fail(`${what} answered ${status}, not a refusal (401 or 403): ${why}`);
}

/** The redirect statuses (301, 302, 303, 307, 308): not 304, which names no target. */
export const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/**
 * Endpoints > General rules 4: "The target is in the Location header." A redirect without one,
 * or with one that is no URL reference, leaves the client nowhere to go.
 */
export function redirectHasLocation(status: number, headers: Record<string, string>, requestUrl: string, what: string): CheckResult {
  if (!REDIRECT_STATUSES.has(status)) return pass();
  const location = headers['location'];
  if (location === undefined || location.trim() === '') return fail(`${what} answered ${status} without a Location header: the redirect names no target`);
  try {
    new URL(location, requestUrl);
  } catch {
    return fail(`${what} answered ${status} with Location ${show(location)}, which is no URL reference`);
  }
  return pass();
}

/** A host on the machine itself (a deployment under test there is not "the service" of GEN-3). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * What a single exchange shows of "All access is over HTTPS" (GEN-3): a request over plain http
 * (only noted: a deployment under test may be served so; the service must not be), and, from an
 * https URL, a target of the service's that goes down to http (a redirect's Location, a Link
 * URL): a client following it leaves HTTPS, whatever deployment it is. The client's own targets
 * (isTheClients) are not the service's.
 */
export function staysOnHttps(requestUrl: string, headers: Record<string, string>): { downgrade: CheckResult; plainHttp: CheckResult } {
  let url: URL;
  try {
    url = new URL(requestUrl);
  } catch {
    return { downgrade: pass(), plainHttp: pass() };
  }
  if (url.protocol === 'http:') return { downgrade: pass(), plainHttp: fail(`${url.origin} is reached over http; the spec's service is reached over HTTPS only`) };
  if (url.protocol !== 'https:') return { downgrade: pass(), plainHttp: pass() };
  const targets = [...(headers['location'] ? [headers['location']] : []), ...(linkTargets(headers, requestUrl)?.values() ?? [])];
  for (const target of targets) {
    let resolved: URL;
    try {
      resolved = new URL(target, url);
    } catch {
      continue; // not a URL reference: judged by the redirect and Link rules
    }
    if (resolved.protocol === 'http:' && !isTheClients(resolved, url)) {
      return { downgrade: fail(`${requestUrl} (over HTTPS) points to ${target}, over http`), plainHttp: pass() };
    }
  }
  return { downgrade: pass(), plainHttp: pass() };
}

/**
 * A target that is the client's, not the service's: a loopback address (RFC 8252's redirect URI
 * of a native app, as the kit's own interactive consent uses), or the redirect_uri the request
 * names (the OAuth consent step sends the user back to the client's registered URI, whatever its
 * scheme).
 */
function isTheClients(target: URL, request: URL): boolean {
  if (isLoopbackHost(target.hostname)) return true;
  const named = request.searchParams.get('redirect_uri');
  if (named === null) return false;
  try {
    const uri = new URL(named);
    return uri.origin === target.origin && uri.pathname === target.pathname;
  } catch {
    return false;
  }
}
