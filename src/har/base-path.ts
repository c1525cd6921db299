// validate-traffic without --base-url or --base-path (issue 20, point 10): the API's base path is
// read off the traffic itself. Of the entries of the API's hosts (named, or speaking as the API:
// its media type or rate-limit headers), the path prefix under which the most of them are an
// endpoint of the spec is the base path: '' for /categories/root, /api for /api/categories/root.
// No prefix under which any entry is an endpoint: it cannot be told, and the run says so.
import { matchEndpoint } from '../rules/api-paths.ts';
import { speaksApi } from './judge.ts';
import { harExchanges } from './read.ts';

/** Entries looked at: enough to tell, few enough to cost little on a large HAR. */
const ENTRIES_LOOKED_AT = 5000;
/** Prefixes of at most this many path segments are tried. */
const MAX_PREFIX_SEGMENTS = 3;

export interface FoundBasePath {
  basePath: string;
  /** Entries that are an endpoint under it, of the API entries looked at. */
  matched: number;
  of: number;
}

/** The base path the traffic shows, or null when no prefix makes any entry an endpoint. */
export function findBasePath(files: readonly string[], hosts: readonly string[], mediaType: string): FoundBasePath | null {
  const named = new Set(hosts);
  const counts = new Map<string, number>();
  let of = 0;
  let seen = 0;
  for (const file of files) {
    for (const entry of harExchanges(file)) {
      if (++seen > ENTRIES_LOOKED_AT) break;
      let url: URL;
      try {
        url = new URL(entry.url);
      } catch {
        continue;
      }
      if (named.size ? !named.has(url.host.toLowerCase()) : !speaksApi(entry, mediaType)) continue;
      of++;
      const segments = url.pathname.split('/').filter(Boolean);
      for (let n = 0; n <= Math.min(MAX_PREFIX_SEGMENTS, segments.length - 1); n++) {
        const prefix = n === 0 ? '' : `/${segments.slice(0, n).join('/')}`;
        if (matchEndpoint(entry.method, `/${segments.slice(n).join('/')}`) !== null) counts.set(prefix, (counts.get(prefix) ?? 0) + 1);
      }
    }
  }
  // The most entries; of equals, the shorter prefix.
  const best = [...counts].sort((a, b) => b[1] - a[1] || a[0].length - b[0].length)[0];
  return best ? { basePath: best[0], matched: best[1], of } : null;
}
