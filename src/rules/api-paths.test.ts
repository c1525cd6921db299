// One vocabulary of endpoints and one path builder (issue 21, point 3).
import { describe, expect, expectTypeOf, test } from 'vitest';
import { SchemaRegistry } from '../schemas/validator.ts';
import { apiPathBelow, apiPathUnder, matchEndpoint, pathIn, pathOf, templateOf, type ApiEndpoint, type PathValues } from './api-paths.ts';

describe('pathOf', () => {
  test('fills in the parameters, URL-encoded', () => {
    expect(pathOf('GET /skus/:id/reviews', { id: 7 })).toBe('/skus/7/reviews');
    expect(pathOf('POST /skus/:sku_id/reviews/:review_id/flags', { sku_id: 3, review_id: 'a b/c' })).toBe('/skus/3/reviews/a%20b%2Fc/flags');
    expect(pathOf('GET /categories/root')).toBe('/categories/root');
    // The spec names both parameters of this one "id": they are given in order.
    expect(pathOf('GET /skus/:id/reviews/:id/edit', [3, 9])).toBe('/skus/3/reviews/9/edit');
  });

  test('a parameter missing, empty or left over is a slip of the caller: it throws', () => {
    expect(() => pathOf('GET /skus/:id/products', {} as { id: number })).toThrow(/no value for :id/);
    expect(() => pathOf('GET /skus/:id/products', { id: '' })).toThrow(/no value for :id/);
    expect(() => pathOf('GET /skus/:id/products', { id: 1, sku: 2 } as { id: number })).toThrow(/sku is no parameter/);
    // @ts-expect-error: two values, in order
    expect(() => pathOf('GET /skus/:id/reviews/:id/edit', [1])).toThrow(/no value for :id/);
    // @ts-expect-error: two values, in order
    expect(() => pathOf('GET /skus/:id/reviews/:id/edit', [1, 2, 3])).toThrow(/1 value\(s\) is no parameter/);
    // By name, a template naming two parameters alike would get the one value in both places.
    // @ts-expect-error: its values go in order only
    expect(() => pathOf('GET /skus/:id/reviews/:id/edit', { id: 1 })).toThrow(/share a name: give the values in order/);
  });

  test('the types refuse an endpoint the spec does not have and a wrong parameter', () => {
    // @ts-expect-error: no such endpoint
    expect(() => pathOf('GET /nowhere')).not.toThrow();
    // @ts-expect-error: GET /skus/:id/products takes id, not sku_id
    expect(() => pathOf('GET /skus/:id/products', { sku_id: 1 })).toThrow();
    // @ts-expect-error: the parameter is required
    expect(() => pathOf('GET /skus/:id/products')).toThrow();
  });

  test("PathValues: one value per :param, in order (pathIn's array form, typed)", () => {
    expectTypeOf<PathValues<'GET /skus/:id/reviews/:id/edit'>>().toEqualTypeOf<[string | number, string | number]>();
    expectTypeOf<PathValues<'GET /shops/:shop_id/locations/:id'>>().toEqualTypeOf<[string | number, string | number]>();
    expectTypeOf<PathValues<'GET /skus/:id/products'>>().toEqualTypeOf<[string | number]>();
    expectTypeOf<PathValues<'GET /categories/root'>>().toEqualTypeOf<[]>();
    const values: PathValues<'GET /skus/:id/reviews/:id/edit'> = [3, 9];
    expect(pathIn('GET /skus/:id/reviews/:id/edit', values)).toBe('/skus/3/reviews/9/edit');
  });

  test('every endpoint of schemas/endpoints.json: its path, filled in, matches it back', () => {
    const endpoints = Object.keys(SchemaRegistry.shared().endpointIndex().endpoints) as ApiEndpoint[];
    expect(endpoints.length).toBeGreaterThan(40);
    for (const endpoint of endpoints) {
      const params = [...templateOf(endpoint).matchAll(/:([A-Za-z_]+)/g)].map((_, i) => 10 + i);
      const path = (pathOf as (e: string, p: readonly number[]) => string)(endpoint, params);
      expect(path).not.toMatch(/:/);
      expect(matchEndpoint(endpoint.split(' ')[0]!, path), `${endpoint} -> ${path}`).toBe(endpoint);
    }
  });
});

describe('the path below the base path', () => {
  test('apiPathBelow: under the prefix, the prefix itself, elsewhere', () => {
    expect(apiPathBelow('/api/skus/1', '/api')).toBe('/skus/1');
    expect(apiPathBelow('/api/skus/1', '/api/')).toBe('/skus/1');
    expect(apiPathBelow('/api', '/api')).toBe('/');
    expect(apiPathBelow('/apix/skus', '/api')).toBeNull();
    expect(apiPathBelow('/skus', '')).toBe('/skus');
    expect(apiPathBelow('/skus', '/')).toBe('/skus');
  });

  test("apiPathUnder: the base URL's origin and path, nothing else", () => {
    expect(apiPathUnder('https://h.example/api/skus/1?x=1', 'https://h.example/api')).toBe('/skus/1');
    expect(apiPathUnder('https://other.example/api/skus/1', 'https://h.example/api')).toBeNull();
    expect(apiPathUnder('not a url', 'https://h.example/api')).toBeNull();
  });
});
