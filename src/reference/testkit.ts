// Helpers for the reference server's own tests (not a test file itself).

import { startReference, type ReferenceOptions, type RunningReference } from './server.ts';

export const VND = 'application/vnd.service+json';

export interface Clock {
  now: () => number;
  advance(ms: number): void;
  set(ms: number): void;
}

/** A settable clock, starting at 2024-03-10T12:00:00Z unless told otherwise. */
export function makeClock(start = Date.UTC(2024, 2, 10, 12, 0, 0)): Clock {
  let t = start;
  return {
    now: () => t,
    advance: (ms) => {
      t += ms;
    },
    set: (ms) => {
      t = ms;
    },
  };
}

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  /** Parsed JSON body, or undefined when the body is empty or not JSON. */
  body: any;
}

async function toReply(res: Response): Promise<Reply> {
  const text = await res.text();
  let body: unknown;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, text, body };
}

export async function post(url: string, form: Record<string, string>, headers: Record<string, string> = {}): Promise<Reply> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(form).toString(),
  });
  return toReply(res);
}

export async function appToken(ref: RunningReference): Promise<string> {
  const r = await post(`${ref.authUrl}/oauth2/token`, {
    grant_type: 'client_credentials',
    client_id: ref.client.id,
    client_secret: ref.client.secret,
    scope: 'public',
  });
  if (r.status !== 200) throw new Error(`token request failed: ${r.status} ${r.text}`);
  return r.body.access_token as string;
}

/** Runs the authorization step and returns the decoded code (and the raw Location). */
export async function authorize(ref: RunningReference, scope = 'public favorites'): Promise<{ code: string; location: string }> {
  const q = new URLSearchParams({ client_id: ref.client.id, redirect_uri: ref.client.redirectUri, response_type: 'code', scope });
  const res = await fetch(`${ref.authUrl}/oauth2/authorizations/new?${q}`, { redirect: 'manual' });
  await res.text();
  const location = res.headers.get('location');
  if (res.status !== 302 || location === null) throw new Error(`authorize failed: ${res.status}`);
  const code = new URL(location).searchParams.get('code');
  if (code === null) throw new Error(`no code in ${location}`);
  return { code, location };
}

export async function userTokens(ref: RunningReference, scope = 'public favorites'): Promise<{ access: string; refresh: string }> {
  const { code } = await authorize(ref, scope);
  const r = await post(`${ref.authUrl}/oauth2/token`, {
    grant_type: 'authorization_code',
    client_id: ref.client.id,
    client_secret: ref.client.secret,
    redirect_uri: ref.client.redirectUri,
    code,
  });
  if (r.status !== 200) throw new Error(`code exchange failed: ${r.status} ${r.text}`);
  return { access: r.body.access_token as string, refresh: r.body.refresh_token as string };
}

export interface GetOptions {
  token?: string | null;
  /** Send the token as ?oauth_token= instead of the Authorization header. */
  inQuery?: boolean;
  version?: string | null;
  headers?: Record<string, string>;
  method?: string;
}

/** GET {baseUrl}{path} with the token in the header (default) or the query. */
export async function get(ref: RunningReference, path: string, opts: GetOptions = {}): Promise<Reply> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  let url = ref.baseUrl + path;
  if (opts.token) {
    if (opts.inQuery) url += `${url.includes('?') ? '&' : '?'}oauth_token=${encodeURIComponent(opts.token)}`;
    else headers['Authorization'] = `Bearer ${opts.token}`;
  }
  if (opts.version !== undefined && opts.version !== null) headers['Accept'] = `${VND}; version=${opts.version}`;
  const res = await fetch(url, { method: opts.method ?? 'GET', headers });
  return toReply(res);
}

/** Starts a server and returns it with an application token. */
export async function startWithToken(options: ReferenceOptions = {}): Promise<{ ref: RunningReference; token: string }> {
  const ref = await startReference(options);
  try {
    return { ref, token: await appToken(ref) };
  } catch (err) {
    await ref.close();
    throw err;
  }
}

/** Parses an RFC 8288 Link header into rel -> URL. */
export function parseLink(header: string | null): Record<string, string> {
  const out: Record<string, string> = {};
  if (!header) return out;
  for (const part of header.split(/,\s*(?=<)/)) {
    const m = /^<([^>]*)>\s*;\s*rel="([^"]+)"$/.exec(part.trim());
    if (m) out[m[2]!] = m[1]!;
  }
  return out;
}
