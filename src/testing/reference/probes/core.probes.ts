// Probes of the core faults: each resolves true when the server shows the bug (test-only code).

import { expect } from 'vitest';
import { allCategories, call, get, leavesOf, parseLink, singularEnvelope, type CategoryRef } from '../testkit.ts';
import type { ProbeTable } from './probe.ts';

export const CORE_PROBES: ProbeTable = {
  'malformed-json-500': async (ref, { user: token }) =>
    (await call(ref, 'POST', '/favorite_lists', { token, raw: '{"favorite_list": {"name": ', headers: { 'Content-Type': 'application/json' } })).status >= 500,
  'non-integer-id-500': async (ref, { app: token }) => (await get(ref, '/categories/cc-not-an-id', { token })).status >= 500,
  'unknown-route-html-200': async (ref, { app: token }) => (await get(ref, '/cc-no-such-route', { token })).status === 200,
  'leaf-children-count-nonzero': async (ref, { app: token }) => {
    const cats = await allCategories(ref, token);
    const leaf = leavesOf(cats)[0]!;
    return typeof leaf.children_count === 'number' && leaf.children_count !== 0;
  },
  'leaf-children-count-null': async (ref, { app: token }) => {
    // None listed (another fault pages from 0) shows no leaf.
    const leaves = leavesOf(await allCategories(ref, token));
    return leaves.length > 0 && leaves.every((leaf) => leaf.children_count === null);
  },
  'root-parent-id-null': async (ref, { app: token }) => {
    const root = (await get(ref, '/categories/root', { token })).body.category;
    // The root's row in the listing too (another fault has only GET /categories/root say null).
    return root.parent_id === null && (await allCategories(ref, token)).some((c) => c.id === root.id && c.parent_id === null);
  },
  'children-count-off-by-one': async (ref, { app: token }) => {
    // Children counted from the whole tree (children-includes-grandchildren changes the children listing).
    const root = (await get(ref, '/categories/root', { token })).body.category;
    // One too many (other faults give one too few, or the count or parent_id as a string).
    const children = (await allCategories(ref, token)).filter((c) => String(c.parent_id) === String(root.id) && c.id !== root.id).length;
    return root.children_count === children + 1;
  },
  'categories-under-singular-key': async (ref, { app: token }) => {
    const body = (await get(ref, '/categories', { token })).body;
    return Array.isArray(body.category) && !('categories' in body);
  },
  'root-parent-id-self': async (ref, { app: token }) => {
    const root = (await get(ref, '/categories/root', { token })).body.category as CategoryRef;
    return root.parent_id === root.id;
  },
  'family-id-is-parent-id': async (ref, { app: token }) => {
    const child = (await allCategories(ref, token)).find((c) => Number.isInteger(c.parent_id) && c.parent_id !== 0)!;
    const category = (await get(ref, `/categories/${child.id}`, { token })).body.category;
    return category.family_id === category.parent_id;
  },
  'path-reversed': async (ref, { app: token }) => {
    const cats = await allCategories(ref, token);
    const deep = cats.find((c) => c.path.split(',').length >= 3)!;
    return !deep.path.endsWith(`,${deep.id}`);
  },
  'null-field-omitted': async (ref, { app: token }) => {
    const cats = await allCategories(ref, token);
    return cats.some((c) => !('image_url' in c));
  },
  'pagination-total-pages-off-by-one': async (ref, { app: token }) => {
    const p = (await get(ref, '/categories', { token })).body.meta.pagination;
    return p.total_pages !== Math.ceil(p.total_results / p.per);
  },
  'link-header-missing': async (ref, { app: token }) => (await get(ref, '/categories', { token })).headers.get('link') === null,
  'children-includes-grandchildren': async (ref, { app: token }) => {
    const root = (await get(ref, '/categories/root', { token })).body.category as CategoryRef;
    const answer = (await get(ref, `/categories/${root.id}/children?per=100`, { token })).body;
    const kids = (answer.categories ?? singularEnvelope(answer, 'categories')) as CategoryRef[];
    // Compared as text: another fault gives parent_id as a string.
    return kids.some((k) => String(k.parent_id) !== String(root.id));
  },
  'not-found-wrong-body': async (ref, { app: token }) => {
    const r = await get(ref, '/categories/999999', { token });
    expect(r.status).toBe(404);
    return !Array.isArray(r.body?.errors);
  },
  'unauthorized-messages-string': async (ref) => {
    // An invalid token, not a missing one: another fault answers a missing token with 403.
    const r = await get(ref, '/categories/root', { token: 'not-a-token-of-this-server' });
    expect(r.status).toBe(401);
    return typeof r.body?.errors?.[0]?.messages === 'string';
  },
  // Compared as numbers: another fault gives per as a string.
  'default-per-not-25': async (ref, { app: token }) => Number((await get(ref, '/categories', { token })).body.meta.pagination.per) !== 25,
  // Page 2 starts where page 1 does (other faults number the pages from 0).
  'page-param-ignored': async (ref, { app: token }) =>
    (await get(ref, '/categories?per=2&page=2', { token })).body.categories[0]?.id === (await get(ref, '/categories?per=2&page=1', { token })).body.categories[0]?.id,
  'link-next-drops-query': async (ref, { app: token }) => {
    const r = await get(ref, '/categories?per=2', { token });
    const next = parseLink(r.headers.get('link')).next;
    return next !== undefined && !next.includes('per=2');
  },
  'link-drops-base-path': async (ref, { app: token }) => {
    const r = await get(ref, '/categories?per=2', { token });
    const next = parseLink(r.headers.get('link')).next;
    const base = new URL(ref.baseUrl).pathname.replace(/\/+$/, '');
    return next !== undefined && !new URL(next, ref.baseUrl).pathname.startsWith(`${base}/`);
  },
  'redirect-without-location': async (ref, { app: token }) => {
    // Only this fault brings the moved base path (/v3) of the probe's server.
    if (ref.movedBaseUrl === null) return false;
    const r = await fetch(`${ref.movedBaseUrl}/categories?per=2`, { headers: { Authorization: `Bearer ${token}` }, redirect: 'manual' });
    return r.status >= 300 && r.status < 400 && r.headers.get('location') === null;
  },
  'parent-returns-self': async (ref, { app: token }) => {
    const cats = await allCategories(ref, token);
    // Not the root (by its path, which other faults leave as long as it is), whatever its parent_id says.
    const child = cats.find((c) => c.path.split(',').length >= 2)!;
    return (await get(ref, `/categories/${child.id}/parent`, { token })).body.category.id === child.id;
  },
  'ratelimit-headers-missing-on-errors': async (ref, { app: token }) => {
    const ok = await get(ref, '/categories/root', { token });
    expect(ok.headers.get('x-ratelimit-limit')).not.toBeNull();
    const r = await get(ref, '/categories/999999', { token });
    return r.headers.get('x-ratelimit-limit') === null;
  },
  'token-in-query-ignored': async (ref, { app: token }) => (await get(ref, '/categories/root', { token, inQuery: true })).status === 401,
};
