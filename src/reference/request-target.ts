// The request target as the pipelines read it: path and query, the path below a base path, its
// decoded segments, and the public URL links are built from.

import type { IncomingMessage } from 'node:http';
import { splitPath } from './router.ts';
import type { ReferenceState } from './state.ts';

export interface Target {
  pathname: string;
  search: string;
  query: URLSearchParams;
}

export function parseTarget(req: IncomingMessage): Target | null {
  const raw = req.url ?? '';
  try {
    let u: URL;
    if (raw.startsWith('/')) u = new URL(`http://reference.invalid${raw}`);
    else if (/^https?:\/\//i.test(raw)) u = new URL(raw);
    else return null;
    return { pathname: u.pathname, search: u.search, query: u.searchParams };
  } catch {
    return null;
  }
}

/** Path below `base`, or null when outside it. */
export function stripBase(pathname: string, base: string): string | null {
  if (base === '') return pathname;
  if (pathname === base) return '/';
  if (pathname.startsWith(`${base}/`)) return pathname.slice(base.length);
  return null;
}

export function decodeSegments(path: string): string[] | null {
  try {
    return splitPath(path).map((s) => decodeURIComponent(s));
  } catch {
    return null;
  }
}

const HOST_RE = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

export function publicUrl(state: ReferenceState, req: IncomingMessage, t: Target): URL {
  const host = req.headers.host;
  const origin = host !== undefined && HOST_RE.test(host) ? `http://${host}` : state.fallbackOrigin;
  return new URL(`${origin}${t.pathname}${t.search}`);
}

/** Request paths echoed in messages are cut short. */
export function clip(text: string, max = 200): string {
  return text.length > max ? `${text.slice(0, max)}...` : text;
}
