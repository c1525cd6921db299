// What a rule of one exchange sees (src/rules/exchange-rules.ts): the exchange, the path below the
// API's base path and the spec's endpoint it matches, the whole body and its JSON, the request's
// query, the version served and, when known, the kind of token. Built by the live run's observer,
// the suites' t.rules and the passive judge of recorded traffic alike.
import type { Exchange } from '../http/exchange.ts';
import { apiPathUnder, matchEndpoint } from './api-paths.ts';
import { VersionScope } from './version-scope.ts';

export interface ExchangeView {
  exchange: Exchange;
  /** The path below the API's base path; null when the URL is outside it. */
  apiPath: string | null;
  /** The spec's endpoint ("GET /skus/:id/reviews") the method and path match; null when none. */
  endpoint: string | null;
  /** Whether it is an answer of the API: under the base URL, not an OAuth endpoint, answered. */
  isApi: boolean;
  /** The whole answer text, redacted; undefined when not known (not recorded, or cut short). */
  text: string | undefined;
  /** Why the text is not known, for a skip's reason. */
  textNote: string;
  /** The text parsed as JSON; undefined when there is none or it is not JSON. */
  body: unknown;
  query: URLSearchParams;
  /** The version served: asked in the Accept header, at the deployment's patch level, bounded by the time of a recording. */
  scope: VersionScope;
  /** The kind of token the request carried, when the run knows it; null for recorded traffic. */
  token: 'app' | 'user' | null;
  /** When the answer came, ms since the epoch; NaN when not known. */
  atMs: number;
}

export interface ViewInput {
  exchange: Exchange;
  /** The whole answer text when the caller has it (the record keeps an excerpt). */
  text?: string | undefined;
  /** Why there is no text (a HAR entry without body, an undecodable one). */
  textNote?: string;
  /** The API's base URL, path prefix included. */
  baseUrl: string;
  /** Where the OAuth endpoints live, when known. */
  authUrl?: string;
  /** The patch level the deployment implements; default the newest of the Change history. */
  implements?: string;
  /** The minor series the deployment serves, or 'unknown' (VersionScope); absent: every series up to the patch level. */
  servedSeries?: readonly string[] | 'unknown';
  token?: 'app' | 'user' | null;
  atMs: number;
  /** Bound the version by the time of the exchange (recorded traffic): a change dated later is not required. */
  bounded?: boolean;
}

/**
 * Whether a URL is one of the OAuth endpoints ({auth_url}/oauth2/token, .../oauth2/authorizations/new,
 * and the form a consent page posts to): they follow OAuth 2.0, not the API's rules (errors
 * format, rate-limit headers), wherever they are served. The API has no /oauth2/ path of its own.
 */
export function isOAuthUrl(url: string, authUrl?: string): boolean {
  try {
    const target = new URL(url);
    if (/\/oauth2\/(token|authorizations(\/new)?)\/?$/.test(target.pathname)) return true;
    if (!authUrl) return false;
    const auth = new URL(authUrl);
    const prefix = auth.pathname.replace(/\/+$/, '');
    return target.origin === auth.origin && target.pathname.startsWith(`${prefix}/oauth2/`);
  } catch {
    return false;
  }
}

/** The Accept header's version parameter as sent (major, major.minor or with a patch), or null when there is none. */
export function askedVersion(headers: Record<string, string>): string | null {
  const accept = Object.entries(headers).find(([name]) => name.toLowerCase() === 'accept')?.[1] ?? '';
  return /(?:^|;)\s*version\s*=\s*"?(\d+(?:\.\d+)*)/i.exec(accept)?.[1] ?? null;
}

const CUT = /\.\.\. \[\d+ more characters\]$/;

function parseJson(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export function viewOf(input: ViewInput): ExchangeView {
  const { exchange } = input;
  const apiPath = apiPathUnder(exchange.url, input.baseUrl);
  const oauth = isOAuthUrl(exchange.url, input.authUrl);
  const endpoint = apiPath === null || oauth ? null : matchEndpoint(exchange.method, apiPath);
  // The record keeps an excerpt of long bodies: a cut body is not judged.
  const recorded = exchange.responseBody;
  const text = input.text ?? (recorded !== undefined && !CUT.test(recorded) ? recorded : undefined);
  let query: URLSearchParams;
  try {
    query = new URL(exchange.url).searchParams;
  } catch {
    query = new URLSearchParams();
  }
  return {
    exchange,
    apiPath,
    endpoint,
    isApi: apiPath !== null && !oauth && exchange.status !== null,
    text,
    textNote: text !== undefined ? '' : (input.textNote ?? (recorded === undefined ? 'body not recorded' : 'the record keeps only an excerpt of the body')),
    body: parseJson(text),
    query,
    scope: new VersionScope({
      asked: askedVersion(exchange.requestHeaders),
      ...(input.implements ? { implements: input.implements } : {}),
      ...(input.servedSeries ? { servedSeries: input.servedSeries } : {}),
      recordedAt: input.bounded && !Number.isNaN(input.atMs) ? input.atMs : null,
    }),
    token: input.token ?? null,
    atMs: input.atMs,
  };
}
