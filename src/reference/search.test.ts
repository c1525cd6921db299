// GET /search and GET /autocomplete (spec "Endpoints > Search", "Search result meta",
// "Autocomplete item", "Errors": InvalidSearch). Queries are built from names discovered
// through the API; every test runs on both datasets, the second under a base path.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningReference } from './server.ts';
import { allCategories, allSkus, CATEGORY_FIELDS, get, leavesOf, parseLink, SETUPS, SKU_FIELDS, sorted, startServer, type Reply } from '../testing/reference/testkit.ts';

type Json = any;

const NONSENSE = 'zzqxjvw';

const words = (text: string): string[] =>
  text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== '');
const q = (text: string): string => encodeURIComponent(text);

describe.each(SETUPS)('search (%s)', (_name, options) => {
  let ref: RunningReference;
  let app: string;
  let user: string;
  let cats: Json[];
  let leaves: Json[];
  let manufacturers: Json[];
  /** Leaf id -> its SKUs. */
  const skus = new Map<number, Json[]>();

  const api = (path: string, opts: { token?: string; version?: string } = {}): Promise<Reply> => get(ref, path, { token: opts.token ?? app, version: opts.version ?? null });
  const search = async (text: string, extra = '', version?: string): Promise<Json> => {
    const r = await api(`/search?q=${q(text)}${extra}`, version ? { version } : {});
    expect(r.status, text).toBe(200);
    return r.body;
  };

  beforeAll(async () => {
    ({ ref, app, user } = await startServer(options));
    cats = await allCategories(ref, app);
    leaves = leavesOf(cats);
    manufacturers = (await api('/manufacturers?per=100')).body.manufacturers;
    for (const leaf of leaves) skus.set(leaf.id, []);
    for (const s of await allSkus(ref, app)) skus.get(s.category_id)!.push(s);
  });
  afterAll(async () => {
    await ref?.close();
  });

  describe('GET /search', () => {
    it('answers 422 InvalidSearch for q shorter than 2 characters, blank or missing', async () => {
      for (const path of ['/search?q=a', '/search?q=%20b%20', '/search?q=', '/search?q=%20%20%20', '/search', '/search?q=%C3%A9']) {
        const r = await api(path);
        expect(r.status, path).toBe(422);
        expect(r.body, path).toEqual({ errors: [{ code: 'InvalidSearch', messages: [expect.any(String)] }] });
      }
      expect((await api('/search?q=ab')).status).toBe(200);
    });

    it('a query without a match gives 200, an empty categories array and the full meta', async () => {
      const r = await api(`/search?q=${NONSENSE}`);
      expect(r.status).toBe(200);
      expect(r.body).toEqual({
        categories: [],
        meta: { q: NONSENSE, alternatives: [], strong_matches: {}, pagination: { total_results: 0, total_pages: 0, page: 1, per: 25 } },
      });
    });

    it('finds a leaf by its name: match_count counts its SKUs; it is the strong category match', async () => {
      for (const leaf of leaves) {
        const body = await search(`  ${leaf.name.toUpperCase()} `);
        expect(sorted(Object.keys(body))).toEqual(['categories', 'meta']);
        expect(Object.keys(body.meta)).toEqual(['q', 'alternatives', 'strong_matches', 'pagination']);
        expect(body.meta.q).toBe(leaf.name.toUpperCase());
        expect(body.meta.alternatives).toEqual([]);
        const hit = (body.categories as Json[]).find((c) => c.id === leaf.id);
        expect(hit, leaf.name).toBeDefined();
        expect(hit.match_count).toBe(skus.get(leaf.id)!.length);
        const { match_count: _m, ...rest } = hit;
        expect(rest).toEqual(cats.find((c) => c.id === leaf.id));
        const strong = body.meta.strong_matches.category;
        expect(words(strong.name)).toEqual(words(leaf.name));
        expect(sorted(Object.keys(strong))).toEqual(sorted([...CATEGORY_FIELDS, 'family_id', 'match_count']));
        expect(strong.family_id).toEqual(expect.any(Number));
      }
    });

    it('categories carry the list fields and match_count, ordered by match_count descending', async () => {
      const rootName = cats.find((c) => c.parent_id === 0).name;
      const body = await search(rootName, '&per=100');
      const found = body.categories as Json[];
      expect(found.length).toBeGreaterThan(1);
      for (const c of found) {
        expect(sorted(Object.keys(c))).toEqual(sorted([...CATEGORY_FIELDS, 'match_count']));
        expect(Number.isInteger(c.match_count)).toBe(true);
      }
      const counts = found.map((c) => c.match_count as number);
      expect(counts).toEqual([...counts].sort((a, b) => b - a));
      // Every leaf holding SKUs is found through the root's name.
      const withSkus = leaves.filter((l) => skus.get(l.id)!.length > 0).map((l) => l.id);
      expect(found.map((c) => c.id)).toEqual(expect.arrayContaining(withSkus));
    });

    it('is paginated; meta other than pagination is the same on every page', async () => {
      const rootName = cats.find((c) => c.parent_id === 0).name;
      const all = await search(rootName, '&per=100');
      const p2 = await api(`/search?q=${q(rootName)}&per=3&page=2`);
      expect(p2.body.categories).toEqual(all.categories.slice(3, 6));
      expect(p2.body.meta.pagination).toEqual({ total_results: all.categories.length, total_pages: Math.ceil(all.categories.length / 3), page: 2, per: 3 });
      const { pagination: _a, ...meta1 } = all.meta;
      const { pagination: _b, ...meta2 } = p2.body.meta;
      expect(meta2).toEqual(meta1);
      expect(parseLink(p2.headers.get('link')).next).toContain(`q=${q(rootName)}`);
    });

    it('strong matches: a manufacturer by its name, a SKU by its name', async () => {
      for (const m of manufacturers.slice(0, 10)) {
        const strong = (await search(m.name)).meta.strong_matches;
        expect(sorted(Object.keys(strong.manufacturer))).toEqual(['id', 'image_url', 'name']);
        expect(words(strong.manufacturer.name)).toEqual(words(m.name));
        expect(strong.manufacturer).toEqual(manufacturers.find((x) => x.id === strong.manufacturer.id));
      }
      const sample = leaves.flatMap((l) => skus.get(l.id)!.slice(0, 1)).slice(0, 10);
      expect(sample.length).toBeGreaterThan(0);
      for (const s of sample) {
        const body = await search(s.display_name, '', undefined);
        const strong = body.meta.strong_matches;
        expect(sorted(Object.keys(strong.sku))).toEqual(sorted(SKU_FIELDS));
        expect(words(strong.sku.display_name)).toEqual(words(s.display_name));
        expect((body.categories as Json[]).map((c) => c.id)).toContain(s.category_id);
        // The manufacturer's name is part of the display name.
        const maker = manufacturers.find((m) => m.id === s.manufacturer_id);
        if (maker && words(s.display_name).join(' ').includes(words(maker.name).join(' '))) expect(strong.manufacturer).toBeDefined();
        // No favorited outside the category SKU listing, even for a user token.
        const asUser = (await api(`/search?q=${q(s.display_name)}`, { token: user })).body.meta.strong_matches.sku;
        expect(asUser).not.toHaveProperty('favorited');
      }
    });

    it('a misspelt word gets an important alternative whose count is what the term finds', async () => {
      let checked = 0;
      const seen = new Set<string>();
      for (const c of cats) {
        for (const w of words(c.name).filter((x) => x.length >= 5 && /^[a-z]+$/.test(x))) {
          if (seen.has(w)) continue;
          seen.add(w);
          const typo = w.charAt(0) + w.charAt(2) + w.charAt(1) + w.slice(3);
          const body = await search(typo);
          if (body.categories.length > 0) continue;
          const alt = (body.meta.alternatives as Json[]).find((a) => a.important === true);
          expect(alt, typo).toBeDefined();
          expect(sorted(Object.keys(alt))).toEqual(['count', 'important', 'term']);
          expect(typeof alt.term).toBe('string');
          expect((await search(alt.term)).meta.pagination.total_results).toBe(alt.count);
          expect(alt.count).toBeGreaterThan(0);
          checked += 1;
        }
      }
      expect(checked).toBeGreaterThan(3);
    });

    it('words that find nothing get a drop alternative', async () => {
      const leaf = leaves.find((l) => words(l.name).length === 1 && skus.get(l.id)!.length > 0)!;
      const word = words(leaf.name)[0]!;
      const body = await search(`${leaf.name} ${NONSENSE}`);
      expect(body.categories).toEqual([]);
      const count = (await search(word)).meta.pagination.total_results;
      expect(body.meta.alternatives).toEqual([
        {
          term: word,
          important: false,
          count,
          drop: [
            { token: word, dropped: false },
            { token: NONSENSE, dropped: true },
          ],
        },
      ]);
    });

    it('family_id on the strong category from 3.1.2; match_count in every version', async () => {
      let leaf: Json;
      let v30: Json;
      for (const l of leaves) {
        // Adult categories are not found before 3.2.0.
        v30 = (await search(l.name, '', '3.0')).meta.strong_matches.category;
        leaf = l;
        if (v30) break;
      }
      expect(v30).not.toHaveProperty('family_id');
      expect(v30.match_count).toEqual(expect.any(Number));
      expect((await search(leaf.name, '', '3.1')).meta.strong_matches.category.family_id).toEqual(expect.any(Number));
    });

    it('adult categories are found from 3.2.0 only', async () => {
      const adult: Json[] = [];
      for (const c of cats) if ((await api(`/categories/${c.id}`)).body.category.adult === true) adult.push(c);
      for (const c of adult) {
        expect((await search(c.name, '&per=100', '3.2')).categories.map((x: Json) => x.id)).toContain(c.id);
        const old = await search(c.name, '&per=100', '3.1');
        expect(old.categories.map((x: Json) => x.id)).not.toContain(c.id);
        expect(old.meta.strong_matches.category?.id).not.toBe(c.id);
      }
    });
  });

  describe('GET /autocomplete', () => {
    const complete = async (text: string): Promise<Json[]> => {
      const r = await api(`/autocomplete?q=${q(text)}`);
      expect(r.status).toBe(200);
      expect(Object.keys(r.body)).toEqual(['autocomplete']);
      return r.body.autocomplete;
    };

    it('suggests keyphrases in which q begins a word; i is where; d names a category', async () => {
      for (const leaf of leaves.slice(0, 12)) {
        const name = leaf.name as string;
        const prefix = name.slice(0, 3);
        const items = await complete(prefix);
        expect(items.length).toBeGreaterThan(0);
        expect(items.length).toBeLessThanOrEqual(10);
        for (const it of items) {
          expect(sorted(Object.keys(it)).filter((k) => k !== 'd')).toEqual(['i', 'k']);
          expect(typeof it.k).toBe('string');
          expect(Number.isInteger(it.i)).toBe(true);
          expect(it.k.toLowerCase().startsWith(prefix.toLowerCase(), it.i)).toBe(true);
          if ('d' in it) {
            expect(sorted(Object.keys(it.d))).toEqual(['id', 'n']);
            expect(cats.find((c) => c.id === it.d.id)?.name).toBe(it.d.n);
          }
        }
        expect(items).toContainEqual({ k: name, i: 0, d: { n: name, id: leaf.id } });
      }
    });

    it('i points inside the phrase when q begins a later word', async () => {
      const multi = cats.find((c) => words(c.name).length > 1 && c.parent_id !== 0)!;
      const second = (multi.name as string)
        .split(/\s+/)
        .slice(1)
        .find((w) => /^[A-Za-z]{2}/.test(w))!;
      const items = await complete(second.slice(0, 2));
      const item = items.find((x) => x.k === multi.name);
      if (item) expect(item.i).toBe((multi.name as string).indexOf(second));
      const anyInner = await complete(second);
      expect(anyInner.some((x) => x.i > 0 || x.k.toLowerCase().startsWith(second.toLowerCase()))).toBe(true);
    });

    it("SKU suggestions name the SKU's category in d; manufacturers have no d", async () => {
      const leaf = leaves.find((l) => skus.get(l.id)!.length > 0)!;
      const sku = skus.get(leaf.id)![0];
      const items = await complete(sku.display_name);
      expect(items).toContainEqual({ k: sku.display_name, i: 0, d: { n: leaf.name, id: leaf.id } });
      const maker = manufacturers[0];
      expect(await complete(maker.name)).toContainEqual({ k: maker.name, i: 0 });
    });

    it('a missing, blank or unmatched q gives an empty list', async () => {
      expect((await api('/autocomplete')).body).toEqual({ autocomplete: [] });
      expect((await api('/autocomplete?q=%20')).body).toEqual({ autocomplete: [] });
      expect((await api(`/autocomplete?q=${NONSENSE}`)).body).toEqual({ autocomplete: [] });
    });
  });
});
