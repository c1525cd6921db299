// Helpers for the reference's SKU product tests (src/reference/skus*.test.ts): the Product fields,
// the reference's blp distance surcharge, and the product lists of every SKU, loaded once per file.
import { expect } from 'vitest';
import type { RunningReference } from '../../reference/server.ts';
import { allSkus, get, startWithToken } from './testkit.ts';

type Json = Record<string, any>;

/** A Product's fields, sorted. */
export const PRODUCT_FIELDS = [
  'id',
  'name',
  'sku_id',
  'shop_id',
  'category_id',
  'availability',
  'click_url',
  'shop_uid',
  'expenses',
  'web_uri',
  'sizes',
  'price',
  'immediate_pickup',
  'blp',
].sort();

export const cents = (n: number): number => Math.round(n * 100);
export const ascending = (xs: readonly number[]): boolean => xs.every((x, i) => i === 0 || xs[i - 1]! <= x);

/** Great-circle distance in km. */
export function haversineKm(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const r = Math.PI / 180;
  const a = Math.sin(((lat2 - lat1) * r) / 2) ** 2 + Math.cos(lat1 * r) * Math.cos(lat2 * r) * Math.sin(((lng2 - lng1) * r) / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.sqrt(a));
}

/**
 * The reference's blp distance surcharge (docs/reference-choices.md), in cents, for a shop with
 * `locations` seen from `here`: by the nearest location, up to 25 km 0, up to 75 km 1.00, up to
 * 150 km 2.00, up to 250 km 3.50, farther 5.00; no location: 0.
 */
export function surchargeCents(here: Json, locations: readonly Json[]): number {
  if (locations.length === 0) return 0;
  const km = Math.min(...locations.map((l) => haversineKm(Number(here.lat), Number(here.lng), Number(l.lat), Number(l.lng))));
  return km <= 25 ? 0 : km <= 75 ? 100 : km <= 150 ? 200 : km <= 250 ? 350 : 500;
}

/** meta.personalization's shape: a location and a payment method. */
export function expectPersonalization(p: Json): void {
  expect(Object.keys(p).sort()).toEqual(['location', 'payment_method']);
  expect(Object.keys(p.location).sort()).toEqual(['address_id', 'country_code', 'label', 'lat', 'lng', 'type']);
  expect(['address', 'quick_address']).toContain(p.location.type);
  expect(p.location.lat).toEqual(expect.any(String));
  expect(p.payment_method).toEqual({ type: expect.any(String) });
}

export interface ProductLists {
  ref: RunningReference;
  token: string;
  skus: Json[];
  /** The products of each SKU (the first 100), by SKU id. */
  products: Map<number, Json[]>;
}

/** A server with `dataset` under /api, an application token, every SKU and the product list of each. */
export async function loadProductLists(dataset: 'default' | 'alt'): Promise<ProductLists> {
  const { ref, token } = await startWithToken({ dataset, basePath: '/api' });
  try {
    const skus = await allSkus(ref, token);
    const products = new Map<number, Json[]>();
    await Promise.all(
      skus.map(async (s) => {
        products.set(s.id, (await get(ref, `/skus/${s.id}/products?per=100`, { token })).body.products);
      }),
    );
    return { ref, token, skus, products };
  } catch (err) {
    await ref.close();
    throw err;
  }
}

/** The SKUs that have products. */
export const withProductsOf = (skus: readonly Json[], products: ReadonlyMap<number, Json[]>): Json[] => skus.filter((s) => products.get(s.id)!.length > 0);

/** Every 4th SKU with products, and the one with the most: enough variety, fewer requests. */
export function sampleOf(skus: readonly Json[], products: ReadonlyMap<number, Json[]>): Json[] {
  const all = withProductsOf(skus, products);
  const biggest = all.reduce((a, b) => (products.get(b.id)!.length > products.get(a.id)!.length ? b : a));
  return [biggest, ...all.filter((x, i) => i % 4 === 0 && x !== biggest)];
}
