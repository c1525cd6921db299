// What a write leaves behind, judged alike wherever the suites write (issue 38, point 6): the
// read that follows a change goes out with If-None-Match set to the ETag from before it, so a
// stale tag (a 304, or the same tag on the changed representation) shows at no request more; and
// two representations that differ never share a tag.
//
// Readings (ERR-3, ETAG-2): a deployment may send no ETag ("most responses"), or ignore
// If-None-Match: neither is judged here. Only a 304 or an unchanged tag on a representation
// that did change fails, as the client would then keep the old one.
import { inContext } from '../checks/check.ts';
import { changedResourceIsSentAgain, headerValue } from '../checks/caching.ts';
import type { ConformanceContext } from '../harness/conformance.ts';
import type { ApiRequestOptions } from '../harness/api.ts';
import type { HttpResponse } from '../http/client.ts';

/** The ETag of a 200 answer, or undefined (none, or blank). */
export function etagOf(response: HttpResponse | null): string | undefined {
  const etag = response && response.status === 200 ? headerValue(response.headers, 'ETag') : undefined;
  return etag !== undefined && etag.trim() !== '' ? etag : undefined;
}

/**
 * GET `path` after `change` changed what it shows, with If-None-Match of `before` (the 200 read
 * before the change): a 304, or the old tag again, on a representation that differs from
 * `before` fails ERR-3. A change that was not stored (the same representation) is left to the
 * write's own check: its 304 is right. Returns the representation (after a 304, asked again
 * without the condition, so the caller judges the change all the same).
 */
export async function readAfterChange(t: ConformanceContext, path: string, before: HttpResponse | null, change: string, options: ApiRequestOptions = {}): Promise<HttpResponse> {
  const etag = etagOf(before);
  if (etag === undefined) return t.api.get(path, { ...options, fresh: true });
  const conditional = await t.api.get(path, { ...options, fresh: true, headers: { ...options.headers, 'If-None-Match': etag } });
  const current = conditional.status === 304 ? await t.api.get(path, { ...options, fresh: true }) : conditional;
  const changed = current.status === 200 && !sameRepresentation(current, before!);
  if (changed && (conditional.status === 200 || conditional.status === 304)) {
    t.must(inContext(`after ${change}`, changedResourceIsSentAgain(conditional, etag, `GET ${path}`)), 'ERR-3');
  }
  return current;
}

/** Whether two answers carry the same JSON (key order and spacing aside, as a cache would keep it). */
function sameRepresentation(a: HttpResponse, b: HttpResponse): boolean {
  if (a.text === b.text) return true;
  try {
    return canonical(JSON.parse(a.text)) === canonical(JSON.parse(b.text));
  } catch {
    return false;
  }
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}
