// The validator's messages: one readable line per violation, "<endpoint>: <pointer>: expected
// <what>, got <what>", and validateExchange's choice of schema by endpoint and status.
import { describe, expect, test } from 'vitest';
import { formatViolation, jsonType, SCHEMA_BASE, SchemaRegistry, sinceApplies } from './validator.ts';

const reviews = {
  $id: `${SCHEMA_BASE}test/reviews.json`,
  type: 'object',
  'x-since': { sentiments: '3.1.3' },
  properties: {
    reviews: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          rating: { type: 'integer', minimum: 1 },
          review: { type: 'string' },
          'a/b': { type: 'string' },
          kind: { enum: ['plain', 'rich'] },
          created_at: { type: 'string', pattern: '^[0-9]{4}-' },
          shop_reply: { type: ['string', 'null'] },
          tags: { type: 'array', minItems: 1, items: { type: 'string' } },
        },
        required: ['rating', 'review', 'a/b'],
      },
    },
    sentiments: { type: 'object' },
  },
  required: ['reviews', 'sentiments'],
};

const registry = new SchemaRegistry([reviews]);
const lines = (data: unknown, version = '3.2', endpoint = 'GET /skus/12/reviews') => registry.validate('test/reviews.json', data, version).map((v) => formatViolation(v, endpoint));
const review = { rating: 4, review: 'fine', 'a/b': 'x' };

describe('violation messages', () => {
  test('a wrong type names the endpoint, the JSON pointer, the type expected and the value with its type', () => {
    expect(lines({ reviews: [review, review, review, { ...review, rating: '4' }], sentiments: {} })).toEqual([
      'GET /skus/12/reviews: /reviews/3/rating: expected integer, got "4" (string)',
    ]);
    expect(lines({ reviews: [{ ...review, rating: 4.5 }], sentiments: {} })).toEqual(['GET /skus/12/reviews: /reviews/0/rating: expected integer, got 4.5 (number)']);
    expect(lines({ reviews: [{ ...review, shop_reply: 7 }], sentiments: {} })).toEqual(['GET /skus/12/reviews: /reviews/0/shop_reply: expected string or null, got 7 (integer)']);
    expect(lines({ reviews: {}, sentiments: {} })).toEqual(['GET /skus/12/reviews: /reviews: expected array, got {} (object)']);
  });

  test('null is marked, so the harness can only warn about it (GEN-8)', () => {
    const [violation] = registry.validate('test/reviews.json', { reviews: [{ ...review, review: null }], sentiments: {} }, '3.2');
    expect(violation).toMatchObject({ pointer: '/reviews/0/review', nullValue: true, absent: false });
    expect(formatViolation(violation!)).toBe('/reviews/0/review: expected string, got null');
    // A null where the schema lists the values (an enum: layout_mode, format) is a blank too.
    const [inEnum] = registry.validate('test/reviews.json', { reviews: [{ ...review, kind: null }], sentiments: {} }, '3.2');
    expect(inEnum).toMatchObject({ pointer: '/reviews/0/kind', nullValue: true });
    const [outOfEnum] = registry.validate('test/reviews.json', { reviews: [{ ...review, kind: 'odd' }], sentiments: {} }, '3.2');
    expect(outOfEnum).toMatchObject({ pointer: '/reviews/0/kind', nullValue: false });
  });

  test('an absent field points at the field itself, escaped as JSON pointers are', () => {
    const { 'a/b': _, ...withoutSlash } = review;
    const [violation] = registry.validate('test/reviews.json', { reviews: [withoutSlash], sentiments: {} }, '3.2');
    expect(violation).toMatchObject({ pointer: '/reviews/0/a~1b', absent: true });
    expect(formatViolation(violation!, 'GET /skus/12/reviews')).toBe(
      'GET /skus/12/reviews: /reviews/0/a~1b: expected the field present (blank fields are null, never omitted), got field absent',
    );
  });

  test('values, patterns, bounds and sizes say what was allowed', () => {
    expect(lines({ reviews: [{ ...review, kind: 'odd', created_at: '10/03/2024', rating: 0, tags: [] }], sentiments: {} }).sort()).toEqual([
      'GET /skus/12/reviews: /reviews/0/created_at: expected a string matching ^[0-9]{4}-, got "10/03/2024"',
      'GET /skus/12/reviews: /reviews/0/kind: expected one of "plain", "rich", got "odd"',
      'GET /skus/12/reviews: /reviews/0/rating: expected a number >= 1, got 0',
      'GET /skus/12/reviews: /reviews/0/tags: expected at least 1 items, got 0 items',
    ]);
  });

  test('a body that is not even an object says so at the root', () => {
    expect(lines('oops')).toEqual(['GET /skus/12/reviews: /: expected object, got "oops" (string)']);
  });

  test('fields a later version added are required from that version on (x-since)', () => {
    expect(lines({ reviews: [] }, '3.0')).toEqual([]);
    expect(lines({ reviews: [] }, '3.2')).toEqual(['GET /skus/12/reviews: /sentiments: expected the key "sentiments" of the answer\'s envelope (keys: reviews), got key absent']);
    expect(sinceApplies('3.1.3', '3.1')).toBe(true);
    expect(sinceApplies('3.1.3', '3')).toBe(false);
  });

  test('every violation is listed (allErrors), in one line each', () => {
    const found = lines({ reviews: [{ rating: 'x' }, { rating: 'y' }], sentiments: 1 });
    expect(found.length).toBe(7);
    for (const line of found) expect(line).toMatch(/^GET \/skus\/12\/reviews: \/\S*: expected .+, got .+$/);
  });

  test('jsonType names JSON types as schemas do', () => {
    expect([null, [], {}, 1, 1.5, 's', true].map(jsonType)).toEqual(['null', 'array', 'object', 'integer', 'number', 'string', 'boolean']);
  });
});

describe('errors that only echo others are dropped', () => {
  const conditional = new SchemaRegistry([
    {
      $id: `${SCHEMA_BASE}test/event.json`,
      type: 'object',
      properties: {
        kind: { type: 'string' },
        name: { anyOf: [{ type: 'string' }, { type: 'null' }] },
        zip: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
      },
      if: { properties: { kind: { const: 'drop' } } },
      then: { properties: { name: { type: 'string' } }, required: ['name'] },
    },
  ]);
  const check = (data: unknown) => conditional.validate('test/event.json', data, '3.2');

  test('a null where a then-branch wants a value is only a null (a GEN-8 warning), not also a failed if', () => {
    const found = check({ kind: 'drop', name: null });
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((v) => v.nullValue)).toBe(true);
  });

  test('a null in an anyOf of non-null types is only a null', () => {
    const found = check({ kind: 'other', zip: null });
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((v) => v.nullValue)).toBe(true);
  });

  test('a wrong non-null value still fails', () => {
    expect(check({ kind: 'other', zip: true }).some((v) => !v.nullValue)).toBe(true);
    expect(check({ kind: 'drop', name: 5 }).some((v) => !v.nullValue)).toBe(true);
  });
});

describe('of a failed choice, only the alternative the value meant speaks', () => {
  const record = { type: 'object', properties: { id: { type: 'integer' }, reason: { enum: ['spam'], 'x-requirements': ['REV-10'] } }, required: ['id', 'reason'] };
  const choices = new SchemaRegistry([
    { $id: `${SCHEMA_BASE}test/record.json`, 'x-requirements': ['REV-11'], ...record },
    {
      $id: `${SCHEMA_BASE}test/created.json`,
      'x-requirements': ['REV-11'],
      anyOf: [{ type: 'object', properties: { flag: { $ref: 'record.json' } }, required: ['flag'] }, { $ref: 'record.json' }],
    },
    { $id: `${SCHEMA_BASE}test/nullable.json`, type: 'object', properties: { user: { anyOf: [{ $ref: 'record.json' }, { type: 'null' }] } } },
  ]);
  const found = (id: string, data: unknown) => choices.validate(id, data, '3.2').map((v) => `${v.pointer} ${v.requirements?.join(',') ?? ''}`);

  test("the closest alternative's errors alone: not the other's absent fields, nor the failed choice", () => {
    expect(found('test/created.json', { flag: { id: 1, reason: 'other' } })).toEqual(['/flag/reason REV-10']);
    expect(found('test/nullable.json', { user: { id: 'x', reason: 'spam' } })).toEqual(['/user/id REV-11']);
  });

  test('no alternative stands out (a tie, a wrong type): every error stays', () => {
    expect(found('test/created.json', { id: 1, reason: 'other' })).toEqual(['/flag REV-11', '/reason REV-10', '/ REV-11']);
    expect(found('test/nullable.json', { user: 5 }).length).toBeGreaterThan(0);
  });
});

describe('validateExchange: the schema by endpoint and status (schemas/endpoints.json)', () => {
  const real = SchemaRegistry.load();
  const check = (endpoint: string, status: number, body: string) => real.validateExchange(endpoint, status, body, '3.2');
  const page = { total_results: 0, total_pages: 0, page: 1, per: 25 };

  test("the endpoint's own status picks its schema", () => {
    const ok = check('GET /categories', 200, JSON.stringify({ categories: [], meta: { pagination: page } }));
    expect(ok).toMatchObject({ schema: 'responses/categories.json', expectation: { body: 'json' }, violations: [] });
    const bad = check('GET /categories', 200, JSON.stringify({ categories: [] }));
    expect(bad.violations.map((v) => formatViolation(v, 'GET /categories'))).toEqual([
      'GET /categories: /meta: expected the key "meta" of the answer\'s envelope (keys: categories), got key absent',
    ]);
  });

  test('the defaults answer 304, 403 and the other 4xx and 5xx', () => {
    expect(check('GET /categories/:id', 304, '')).toMatchObject({ expectation: { body: 'empty' }, schema: null, violations: [] });
    expect(check('GET /categories/:id', 403, '{"message":"Rate limit exceeded"}')).toMatchObject({ schema: 'common/forbidden.json', violations: [] });
    // A refused permission: 401 or 403, the spec names neither; its 403 carries the errors format.
    expect(check('POST /favorites', 403, '{"errors":[{"code":"Forbidden","messages":["needs favorites"]}]}')).toMatchObject({ schema: 'common/forbidden.json', violations: [] });
    const neither = check('GET /categories/:id', 403, '{"error":"forbidden"}');
    expect(neither.violations.length).toBeGreaterThan(0);
    expect(neither.requirements).toEqual(['ERR-7', 'ERR-2']);
    expect(check('GET /categories/:id', 404, '{"errors":[{"code":"RecordNotFound","messages":["no category 9"]}]}')).toMatchObject({ schema: 'common/error.json', violations: [] });
    expect(check('GET /categories/:id', 500, '{"errors":[]}').violations.map((v) => formatViolation(v))).toEqual(['/errors: expected at least 1 items, got 0 items']);
    expect(check('GET /search', 422, '{"errors":[{"code":"InvalidSearch","messages":["too short"]}]}')).toMatchObject({ schema: 'common/error.json', violations: [] });
  });

  test('empty, json-or-empty and any bodies', () => {
    expect(check('DELETE /favorites/:id', 204, '').violations).toEqual([]);
    expect(check('DELETE /favorites/:id', 204, '{}').violations.map((v) => formatViolation(v))).toEqual(['/: expected an empty body (status 204), got "{}"']);
    expect(check('POST /skus/:sku_id/reviews/:review_id/flags', 201, '')).toMatchObject({ schema: null, violations: [] });
    expect(check('POST /skus/:sku_id/reviews/:review_id/flags', 201, 'not json').violations.map((v) => v.expected)).toEqual(['a JSON body or none']);
    expect(check('GET {auth_url}/oauth2/authorizations/new', 302, '<html>')).toMatchObject({ expectation: { body: 'any' }, violations: [] });
  });

  test('a body that is not JSON, and a status the index does not document, are violations', () => {
    expect(check('GET /categories', 200, '<html>').violations.map((v) => formatViolation(v, 'GET /categories'))).toEqual([
      'GET /categories: /: expected a JSON body, got "<html>"',
    ]);
    const undocumented = check('GET /categories', 201, '{}');
    expect(undocumented.expectation).toBeNull();
    expect(formatViolation(undocumented.violations[0]!, 'GET /categories')).toBe(
      'GET /categories: (status): expected a status documented for GET /categories (200, 304, 403, 4xx, 5xx), got status 201',
    );
    // The OAuth endpoints document their own statuses (the token endpoint's "4xx": any body, RFC
    // 6749's errors); the API's defaults do not apply to them.
    expect(check('POST {auth_url}/oauth2/token', 400, '{}')).toMatchObject({ expectation: { body: 'any' }, violations: [] });
    expect(check('POST {auth_url}/oauth2/token', 500, '{}').expectation).toBeNull();
  });

  test('an endpoint written otherwise than in the spec is an error in the caller', () => {
    expect(() => check('GET /categories/12', 200, '{}')).toThrow(/not an endpoint of schemas\/endpoints.json/);
  });
});

describe('SchemaRegistry.shared', () => {
  test('one registry per process, whoever asks', () => {
    expect(SchemaRegistry.shared()).toBe(SchemaRegistry.shared());
  });
});

describe('the requirements a violation cites (x-requirements, x-since, endpoints.json)', () => {
  const real = SchemaRegistry.load();
  const cited = (endpoint: string, status: number, body: unknown, version = '3.2') =>
    real.validateExchange(endpoint, status, JSON.stringify(body), version).violations.map((v) => ({ pointer: v.pointer, requirements: v.requirements, since: v.since }));

  test("the innermost annotated node's ids; an absent field its property's own row", () => {
    const aggregation = {
      reviews: [],
      meta: { pagination: { total_results: 0, total_pages: 0, page: 1, per: 25 }, sku_reviews_aggregation: [{ label: 'a', score: '4', style: 's' }] },
    };
    expect(cited('GET /skus/:id/reviews', 200, aggregation)).toEqual([{ pointer: '/meta/sku_reviews_aggregation/0/score', requirements: ['REV-6'], since: undefined }]);
    const root = cited('GET /categories/root', 200, { category: { id: 1 } });
    // parent_id has its own row (CAT-6); name has none but the table's (CAT-4).
    expect(root.find((v) => v.pointer === '/category/parent_id')?.requirements).toEqual(['CAT-6']);
    expect(root.find((v) => v.pointer === '/category/name')?.requirements).toEqual(['CAT-4']);
  });

  test('an absent field a later version added names that version; absent at an older version it is no violation', () => {
    expect(cited('GET /user', 200, { user: { id: 1 } }).find((v) => v.pointer === '/user/email')?.since).toBe('3.2.0');
    expect(cited('GET /user', 200, { user: { id: 1 } }, '3.1').find((v) => v.pointer === '/user/email')).toBeUndefined();
  });

  test("a verdict carries the status's documenting requirements: the endpoint's row, the Errors rows, the rows for an undocumented status", () => {
    expect(real.validateExchange('GET /categories/root', 200, '{}', '3.2').requirements).toEqual(['CAT-18']);
    expect(real.validateExchange('GET /categories/root', 404, '{}', '3.2').requirements).toEqual(['ERR-2']);
    expect(real.validateExchange('DELETE /user/logout', 204, '', '3.2').requirements).toEqual(['USER-26']);
    expect(real.requirementsFor('POST /notifications/view', 200)).toEqual(['NOTIF-10']);
  });
});
