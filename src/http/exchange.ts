// One HTTP exchange as the report shows it: already redacted, body cut to an excerpt, with a curl
// command that replays it (secrets left as placeholders the user fills in).
import type { Exchange } from '../results/model.ts';
import { redactBodyText, redactHeaders, redactUrl, REDACTED } from './redact.ts';

export const BODY_EXCERPT_CHARS = 2_000;

export type { Exchange } from '../results/model.ts';

export interface RawExchange {
  method: string;
  url: string;
  requestHeaders: Record<string, string>;
  requestBody?: string;
  status: number | null;
  responseHeaders: Record<string, string | string[] | undefined>;
  responseBody?: string;
  error?: string;
  durationMs: number;
}

export function excerpt(text: string, max = BODY_EXCERPT_CHARS): string {
  return text.length <= max ? text : `${text.slice(0, max)}... [${text.length - max} more characters]`;
}

/** Redacts first, then cuts: cutting first could split a secret and leave half of it readable. */
export function recordExchange(raw: RawExchange): Exchange {
  const exchange: Exchange = {
    method: raw.method,
    url: redactUrl(raw.url),
    requestHeaders: redactHeaders(raw.requestHeaders),
    status: raw.status,
    responseHeaders: redactHeaders(raw.responseHeaders),
    durationMs: Math.round(raw.durationMs),
  };
  if (raw.requestBody !== undefined) exchange.requestBody = excerpt(redactBodyText(raw.requestBody));
  if (raw.responseBody !== undefined) exchange.responseBody = excerpt(redactBodyText(raw.responseBody));
  if (raw.error !== undefined) exchange.error = raw.error;
  return exchange;
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** Quotes for a POSIX shell, turning each redacted value into "$ACCESS_TOKEN" for the user to set. */
function quoteWithPlaceholder(text: string): string {
  if (text === '') return "''";
  return text
    .split(REDACTED)
    .map((part) => (part === '' ? '' : shellQuote(part)))
    .join('"$ACCESS_TOKEN"');
}

/** A curl command reproducing the request; secrets appear as "$ACCESS_TOKEN", never as values. */
export function toCurl(exchange: Exchange): string {
  const parts = ['curl', '-i'];
  if (exchange.method !== 'GET') parts.push('-X', exchange.method);
  parts.push(quoteWithPlaceholder(exchange.url));
  for (const [name, value] of Object.entries(exchange.requestHeaders)) {
    const lower = name.toLowerCase();
    if (lower === 'content-length' || lower === 'host') continue;
    parts.push('-H', quoteWithPlaceholder(`${name}: ${value}`));
  }
  if (exchange.requestBody !== undefined) parts.push('--data-raw', quoteWithPlaceholder(exchange.requestBody));
  return parts.join(' ');
}

const CLIENT_CREDENTIALS = (authUrl: string) =>
  `export ACCESS_TOKEN="$(curl -s -X POST ${shellQuote(`${authUrl.replace(/\/+$/, '')}/oauth2/token`)} --data-urlencode grant_type=client_credentials --data-urlencode scope=public --data-urlencode client_id="$CATALOGUE_CLIENT_ID" --data-urlencode client_secret="$CATALOGUE_CLIENT_SECRET" | sed -E 's/.*"access_token" *: *"([^"]*)".*/\\1/')"`;

/**
 * How to obtain the token a replay needs ($ACCESS_TOKEN), never the token: a command from the
 * user's own credentials (CATALOGUE_CLIENT_ID and _SECRET, CATALOGUE_USER_TOKEN); null when the
 * request carried no secret. `authUrl`: where /oauth2/token lives.
 */
export function tokenStep(exchange: Exchange, authUrl: string): string | null {
  const carries = [exchange.url, ...Object.values(exchange.requestHeaders), exchange.requestBody ?? ''].some((text) => text.includes(REDACTED));
  if (!carries) return null;
  switch (exchange.token) {
    case 'app':
      return `${CLIENT_CREDENTIALS(authUrl)}   # an application token`;
    case 'user':
      return 'export ACCESS_TOKEN="$CATALOGUE_USER_TOKEN"   # a token of the user the run acted as (README: User token)';
    case 'own':
      return 'export ACCESS_TOKEN=...   # the test sent a token of its own (made up, expired, or a user session it ends): set ACCESS_TOKEN to one of that kind';
    default:
      return `${CLIENT_CREDENTIALS(authUrl)}   # an application token; for a user's request: export ACCESS_TOKEN="$CATALOGUE_USER_TOKEN"`;
  }
}

/** A compact multi-line rendering for junit system-out and the terminal; with `authUrl`, the replay says how to get its token. */
export function formatExchange(exchange: Exchange, authUrl?: string): string {
  const lines = [`> ${exchange.method} ${exchange.url}`];
  for (const [name, value] of Object.entries(exchange.requestHeaders)) lines.push(`> ${name}: ${value}`);
  if (exchange.requestBody !== undefined) lines.push(`> ${exchange.requestBody}`);
  if (exchange.status === null) {
    lines.push(`< (no response: ${exchange.error ?? 'unknown error'})`);
  } else {
    lines.push(`< ${exchange.status}${exchange.error ? ` (${exchange.error})` : ''}`);
    for (const [name, value] of Object.entries(exchange.responseHeaders)) lines.push(`< ${name}: ${value}`);
    if (exchange.responseBody !== undefined && exchange.responseBody !== '') lines.push(`< ${exchange.responseBody}`);
  }
  const step = authUrl === undefined ? null : tokenStep(exchange, authUrl);
  if (step) lines.push(`  token:  ${step}`);
  lines.push(`  replay: ${toCurl(exchange)}`);
  return lines.join('\n');
}
