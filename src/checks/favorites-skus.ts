// Which SKUs the favorites suite may favorite (suites/favorites.suite.ts, through
// src/engines/favorites.ts): pure readings of a category SKU listing, of GET /categories and of GET /favorites.
import { isPlainObject } from './check.ts';

/** A SKU of a category listing: its id and its category. */
export interface Sku {
  id: number;
  category_id: number;
}

/**
 * The SKUs of a category SKU listing's body the user has not favorited: favorited false on the
 * listing (3.1.0 on), or, given `favorited` (the user's favorited SKU ids, before 3.1.0), not among them.
 */
export function unfavoritedSkus(body: { skus?: unknown } | null | undefined, favorited: ReadonlySet<number> | null): Sku[] {
  const skus = Array.isArray(body?.skus) ? (body.skus as Record<string, unknown>[]) : [];
  return skus
    .filter((s) => Number.isInteger(s['id']) && Number.isInteger(s['category_id']))
    .filter((s) => (favorited ? !favorited.has(s['id'] as number) : s['favorited'] === false))
    .map((s) => ({ id: s['id'] as number, category_id: s['category_id'] as number }));
}

/** The SKU ids of the favorites in GET /favorites bodies (a body without a favorites array adds none). */
export function heldSkuIds(bodies: readonly unknown[]): Set<number> {
  const ids = new Set<number>();
  for (const body of bodies) {
    const favorites: unknown[] = isPlainObject(body) && Array.isArray(body['favorites']) ? body['favorites'] : [];
    for (const f of favorites) if (isPlainObject(f) && Number.isInteger(f['sku_id'])) ids.add(f['sku_id'] as number);
  }
  return ids;
}

/** The leaf categories of GET /categories but `leafId`, in their order, those in `avoid` last. */
export function otherLeaves(listed: readonly { id?: unknown; children_count?: unknown }[], leafId: number, avoid: ReadonlySet<unknown>): number[] {
  const leaves = listed.filter((c) => c.children_count === 0 && Number.isInteger(c.id) && c.id !== leafId).map((c) => c.id as number);
  return [...leaves.filter((id) => !avoid.has(id)), ...leaves.filter((id) => avoid.has(id))];
}

/** `sku`, taken out of `skus` (the free SKUs kept for later tests): a SKU is handed out once. */
export function takeFreeSku<T>(skus: T[], sku: T): T {
  skus.splice(skus.indexOf(sku), 1);
  return sku;
}
