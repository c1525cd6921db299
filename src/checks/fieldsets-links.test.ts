// The link property's oracle (suites/fieldsets.suite.ts): embed, embed_ids and include of a linked
// name, with and without fieldsets, judged against the answers without fieldsets.
import { describe, expect, test } from 'vitest';
import type { HttpResponse } from '../http/client.ts';
import type { Json } from './fieldsets.ts';
import { embeddedObjects, includedMembers, judgeLink, keysAdded, linkRequest, linksSomething, type LinkCase, type LinkServed } from './fieldsets-links.ts';
import type { PropertyFinding, Verdict } from './fieldsets-oracle.ts';

const answerOf = (body: unknown, status = 200): HttpResponse => ({ status, headers: {}, text: JSON.stringify(body), url: 'http://x/', exchanges: [], json: <T>() => body as T });

const SHOPS: Json[] = [
  { id: 10, name: 'Ten', phone: '1' },
  { id: 11, name: 'Eleven', phone: '2' },
];
const PLAIN: Json[] = [
  { id: 1, name: 'a', shop_id: 10 },
  { id: 2, name: 'b', shop_id: 11 },
];
const EMBEDDED: Json[] = PLAIN.map((p, i) => ({ ...p, shop: SHOPS[i] }));
const ROW: LinkServed = {
  endpoint: 'GET /skus/:id/products',
  path: '/skus/5/products',
  key: 'products',
  single: false,
  noun: 'product',
  schema: 'resources/product.json',
  link: 'shop',
  linkSchema: 'resources/shop.json',
  plain: { body: { products: PLAIN }, items: PLAIN },
  embedded: { body: { products: EMBEDDED }, items: EMBEDDED },
  included: { body: { products: PLAIN, shops: SHOPS }, items: PLAIN },
  embedKeys: new Set(['shop']),
  includeKeys: new Set(['shop_id']),
  rootFields: ['id', 'name', 'shop_id'],
  linkFields: ['id', 'name', 'phone'],
  documented: new Set(['id', 'name', 'shop_id']),
  linkDocumented: new Set(['id', 'name', 'phone']),
};
const judge = (c: Partial<LinkCase>, body: unknown, status = 200): Verdict => judgeLink(ROW, { r: 0, mode: 'embed', root: null, assoc: null, ...c }, answerOf(body, status));
const message = (f: PropertyFinding | undefined) => (f && !f.result.ok ? f.result.message : '');
const trim = (o: Json, keys: string[]) => Object.fromEntries(keys.filter((k) => k in o).map((k) => [k, o[k]]));

describe('the parameters of a case', () => {
  test('fieldsets go with embed and include, never with embed_ids', () => {
    expect(linkRequest(ROW, { r: 0, mode: 'embed', root: { only: ['id', 'shop'] }, assoc: { except: ['phone'] } }).query).toEqual({
      embed: 'shop',
      'fields[root]': 'id,shop',
      'fields_except[shop]': 'phone',
    });
    expect(linkRequest(ROW, { r: 0, mode: 'embed_ids', root: { only: ['id'] }, assoc: { only: ['id'] } }).query).toEqual({ embed_ids: 'shop' });
  });

  test('what a link parameter added, and what it links', () => {
    expect([...keysAdded(EMBEDDED, PLAIN)]).toEqual(['shop']);
    expect(embeddedObjects(EMBEDDED, 'shop')).toEqual(SHOPS);
    expect(linksSomething(EMBEDDED, 'shop')).toBe(true);
    expect(linksSomething([{ id: 1, shop: { name: 'no id' } }], 'shop')).toBe(false);
    expect(includedMembers({ products: PLAIN, shops: SHOPS, meta: [] }, { products: PLAIN })).toEqual(SHOPS);
  });
});

describe('embed', () => {
  test('the embedded objects, complete: no finding', () => {
    expect(judge({}, { products: EMBEDDED })).toEqual({ must: [], warn: [] });
  });

  test('an embedded object that lost a field while no fields parameter names it fails (LINK-1)', () => {
    const verdict = judge({}, { products: EMBEDDED.map((p) => ({ ...p, shop: trim(p['shop'] as Json, ['id', 'name']) })) });
    expect(verdict.must[0]!.ids).toEqual(['LINK-1']);
    expect(message(verdict.must[0])).toMatch(
      /^the shop embedded in product 1 \(shop 10\), .*: lacks phone, which it has without fieldsets, although no fields parameter names shop$/,
    );
  });

  test('fields[shop] trims the embedded objects: exactly the listed fields pass, an unlisted one fails', () => {
    const trimmed = { products: EMBEDDED.map((p) => ({ ...p, shop: trim(p['shop'] as Json, ['id']) })) };
    expect(judge({ assoc: { only: ['id'] } }, trimmed).must).toEqual([]);
    // Complete objects: the association is not honoured as a target (FIELDS-3), the inclusion's rule not seen.
    const verdict = judge({ assoc: { only: ['id'] } }, { products: EMBEDDED });
    expect(verdict.must[0]!.ids).toEqual(['FIELDS-3']);
    expect(message(verdict.must[0])).toMatch(/name is still there \(fields\[shop\] does not list it\)/);
    // Trimmed, but not to the fields listed: the inclusion's rule (FIELDS-1).
    const wrong = judge({ assoc: { only: ['id'] } }, { products: EMBEDDED.map((p) => ({ ...p, shop: trim(p['shop'] as Json, ['id', 'name']) })) });
    expect(wrong.must.map((f) => f.ids)).toEqual([['FIELDS-1']]);
  });

  test('a root fieldset that does not name the association leaves it complete (FIELDS-5), and keeps the key it lists', () => {
    const rooted = EMBEDDED.map((p) => trim(p, ['id', 'shop']));
    expect(judge({ root: { only: ['id', 'shop'] } }, { products: rooted }).must).toEqual([]);
    const lost = judge({ root: { only: ['id', 'shop'] } }, { products: rooted.map((p) => trim(p, ['id'])) });
    expect(message(lost.must[0])).toMatch(/product 1 lacks shop, which embed=shop adds, although fields\[root\]=id,shop does not remove it/);
    const cut = judge({ root: { only: ['id', 'shop'] } }, { products: rooted.map((p) => ({ ...p, shop: trim(p['shop'] as Json, ['id']) })) });
    expect(cut.must[0]!.ids).toEqual(['FIELDS-5']);
  });

  test('an answer that is not usable fails with the parameters and LINK-4', () => {
    const verdict = judge({ assoc: { only: ['id'] } }, {}, 400);
    expect(message(verdict.must[0])).toBe('embed=shop&fields[shop]=id answered 400, not 200');
    expect(verdict.must[0]!.ids).toEqual(['LINK-1', 'LINK-4', 'FIELDS-3']);
  });
});

describe('embed_ids', () => {
  test('an array of the ids embed gives passes; anything else fails (LINK-2)', () => {
    expect(judge({ mode: 'embed_ids' }, { products: PLAIN.map((p) => ({ ...p, shop_ids: [p['shop_id']] })) }).must).toEqual([]);
    const wrong = judge({ mode: 'embed_ids' }, { products: PLAIN.map((p) => ({ ...p, shop_ids: [99] })) });
    expect(wrong.must[0]!.ids).toEqual(['LINK-2']);
    expect(message(judge({ mode: 'embed_ids' }, { products: PLAIN.map((p) => ({ ...p, shop_ids: 'x' })) }).must[0])).toMatch(/not an array of ids/);
    expect(message(judge({ mode: 'embed_ids' }, { products: PLAIN.slice(1) }).must[0])).toBe('embed_ids=shop: 1 product(s), 2 without it');
  });
});

describe('include', () => {
  test('ids in each parent resolved by the top-level array pass; an id without its object fails (LINK-3)', () => {
    expect(judge({ mode: 'include' }, { products: PLAIN, shops: SHOPS }).must).toEqual([]);
    const verdict = judge({ mode: 'include' }, { products: PLAIN, shops: SHOPS.slice(0, 1) });
    expect(verdict.must[0]!.ids).toEqual(['LINK-3']);
    expect(message(verdict.must[0])).toMatch(/product 2 has shop_id 11, which no object of the top-level shops array has/);
  });

  test('fields[shop] trims the included objects', () => {
    expect(judge({ mode: 'include', assoc: { except: ['phone'] } }, { products: PLAIN, shops: SHOPS.map((s) => trim(s, ['id', 'name'])) }).must).toEqual([]);
    const verdict = judge({ mode: 'include', assoc: { except: ['phone'] } }, { products: PLAIN, shops: SHOPS });
    expect(verdict.must[0]!.ids).toEqual(['FIELDS-3']);
    expect(message(verdict.must[0])).toMatch(/^the included shop \(shop 10\), .*phone is still there/);
  });
});
