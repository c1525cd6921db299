// The readings of SKU specifications, product cards, product meta and price history that every
// layer accepts: the rules of one exchange (live observer and validate-traffic alike) pass what
// the suites pass, and still fail what no reading allows.
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import type { Exchange } from '../http/exchange.ts';
import { exchangeRule, viewOf, type ExchangeView } from './exchange-rules.ts';
import type { RuleOutcome } from './exchange-rule.ts';

const BASE = 'https://api.example.com';

function view(path: string, status: number, body: unknown, version = '3.2', atMs = Date.now()): ExchangeView {
  const exchange: Exchange = {
    method: 'GET',
    url: `${BASE}${path}`,
    requestHeaders: { accept: `application/vnd.service+json; version=${version}` },
    status,
    responseHeaders: { 'content-type': 'application/json' },
    responseBody: body === undefined ? '' : JSON.stringify(body),
    durationMs: 1,
  };
  return viewOf({ exchange, baseUrl: BASE, atMs });
}

/** The severities of what a rule found ([] when it passed or skipped). */
function severities(ruleId: string, v: ExchangeView): string[] {
  const rule = exchangeRule(ruleId);
  if (!rule.applies(v)) return [];
  const outcome: RuleOutcome = rule.check(v);
  return outcome.kind === 'findings' ? outcome.findings.map((f) => f.severity) : [];
}

const documented = (v: ExchangeView) => severities('documented-body', v);
const fixture = (path: string) => (JSON.parse(readFileSync(new URL(`../../fixtures/schemas/${path}`, import.meta.url), 'utf8')) as { instance: Record<string, unknown> }).instance;
const pagination = (total_results: number, per = 25) => ({ total_results, total_pages: Math.ceil(total_results / per), page: 1, per });
const personalization = fixture('resources/personalization/valid/a-user-address-paying-cash.json');

describe('SKU specifications: meta holds only full_description, "present if available" and new in 3.2.0', () => {
  const specifications = [{ id: 1, name: 'Warranty', values: ['24'], order: 1, unit: 'months' }];
  test('no meta passes before 3.2.0 and from it; meta {} and a full description too; a meta that is no object fails', () => {
    expect(documented(view('/skus/5/specifications', 200, { specifications }, '3.1'))).toEqual([]);
    expect(documented(view('/skus/5/specifications', 200, { specifications }, '3.2'))).toEqual([]);
    expect(documented(view('/skus/5/specifications', 200, { specifications, meta: {} }))).toEqual([]);
    expect(documented(view('/skus/5/specifications', 200, { specifications, meta: { full_description: 'All of it.' } }))).toEqual([]);
    expect(documented(view('/skus/5/specifications', 200, { specifications, meta: { full_description: null } }))).toEqual(['WARN']);
    expect(documented(view('/skus/5/specifications', 200, { specifications, meta: [] }))).toContain('MUST');
  });
  test('a single-page meta.pagination still fails: the endpoint has none', () => {
    expect(severities('specifications-not-paginated', view('/skus/5/specifications', 200, { specifications, meta: { pagination: pagination(1) } }))).toEqual(['MUST']);
  });
});

describe("product cards: a card's blp is the Product's (3.2.0), and pagination may count entries, cards or products", () => {
  const withBlp = fixture('resources/product-card/valid/one-card-products-with-color-the-shop-and-the-blp.json')['cards'] as Record<string, unknown>[];
  const entries = [{ cards: withBlp.map(({ blp: _blp, ...card }) => card) }];
  test('a card without blp passes before 3.2.0 and fails from it', () => {
    const body = { product_cards: entries, meta: { pagination: pagination(1) } };
    expect(documented(view('/skus/5/product_cards', 200, body, '3.1'))).toEqual([]);
    expect(documented(view('/skus/5/product_cards', 200, body, '3.2'))).toContain('MUST');
  });
  test('pagination-arithmetic: the entries, cards or products counted pass; a count none gives fails', () => {
    const cards = [{ products: [{ id: 1 }, { id: 2 }] }, { products: [{ id: 3 }] }];
    const arithmetic = (total: number) =>
      severities('pagination-arithmetic', view('/skus/5/product_cards', 200, { product_cards: [{ cards }], meta: { pagination: pagination(total) } }));
    expect(arithmetic(1)).toEqual([]);
    expect(arithmetic(2)).toEqual([]);
    expect(arithmetic(3)).toEqual([]);
    expect(arithmetic(4)).toEqual(['MUST']);
    // A sparse fieldset that leaves the cards out hides what may be counted: not judged then.
    const sparse = (total: number) =>
      severities('pagination-arithmetic', view('/skus/5/product_cards?fields[root]=id', 200, { product_cards: [{}, {}], meta: { pagination: pagination(total) } }));
    expect(sparse(2)).toEqual([]);
    expect(sparse(5)).toEqual([]);
    expect(exchangeRule('pagination-arithmetic').check(view('/skus/5/product_cards', 200, { product_cards: [{}, {}], meta: { pagination: pagination(5) } }))).toMatchObject({
      kind: 'skipped',
    });
  });
});

describe('product meta: personalization, what blp (3.2.0) is computed from', () => {
  const listMeta = { ordered_by: 'net_price', pagination: pagination(0) };
  test('a product list without meta.personalization passes before 3.2.0, fails from it; its ordered_by is required in every version', () => {
    expect(documented(view('/skus/2/products', 200, { products: [], meta: listMeta }, '3.1'))).toEqual([]);
    expect(documented(view('/skus/2/products', 200, { products: [], meta: listMeta }, '3.2'))).toContain('MUST');
    expect(documented(view('/skus/2/products', 200, { products: [], meta: { ...listMeta, personalization } }, '3.2'))).toEqual([]);
    expect(documented(view('/shops/7/products/search?shop_uid=12', 200, { products: [], meta: { pagination: pagination(0) } }, '3.1'))).toContain('MUST');
  });
  test('a product without meta passes before 3.2.0, fails from it', () => {
    const product = fixture('responses/product/valid/a-3-1-product-without-meta.json')['product'];
    expect(documented(view('/products/9', 200, { product }, '3.1'))).toEqual([]);
    expect(documented(view('/products/9', 200, { product }, '3.2'))).toContain('MUST');
  });
});

describe('price history', () => {
  test('a too-new SKU\'s "no data": an empty series, 204 with no body, or history null (a blank); never an average left out', () => {
    expect(documented(view('/skus/5/price_history', 200, { history: { average: [] } }))).toEqual([]);
    expect(documented(view('/skus/5/price_history', 204, undefined))).toEqual([]);
    expect(documented(view('/skus/5/price_history', 200, { history: null }))).toEqual(['WARN']);
    expect(documented(view('/skus/5/price_history', 200, { history: {} }))).toContain('MUST');
  });
  test('price-history-window: six calendar months clamped to the month end, or 184 days, pass; the 240 days of the fault fail', () => {
    const window = (date: string, today: string) =>
      severities('price-history-window', view('/skus/5/price_history', 200, { history: { average: [{ date, price: 1 }] } }, '3.2', Date.parse(today)));
    expect(window('2025-02-28', '2025-08-31T10:00:00Z')).toEqual([]);
    expect(window('2025-02-25', '2025-08-27T10:00:00Z')).toEqual([]);
    expect(window('2024-12-30', '2025-08-27T10:00:00Z')).toEqual(['MUST']);
  });
});
