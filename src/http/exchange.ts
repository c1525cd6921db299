// One HTTP exchange as the report shows it: already redacted, body cut to an excerpt, with a curl
// command that replays it (secrets left as placeholders the user fills in).
import { redactBodyText, redactHeaders, redactUrl, REDACTED } from './redact.ts';

export const BODY_EXCERPT_CHARS = 2_000;

export interface Exchange {
  method: string;
  url: string;
  requestHeaders: Record<string, string>;
  requestBody?: string;
  /** null when no response came (connection refused, timeout, ...). */
  status: number | null;
  responseHeaders: Record<string, string>;
  responseBody?: string;
  /** Why no (complete) response came. */
  error?: string;
  durationMs: number;
}

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

/** A compact multi-line rendering for junit system-out and the terminal. */
export function formatExchange(exchange: Exchange): string {
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
  lines.push(`  replay: ${toCurl(exchange)}`);
  return lines.join('\n');
}
