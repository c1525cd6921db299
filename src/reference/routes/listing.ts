// What the listing endpoints share: finding the category or manufacturer a path names, and the
// orders (order_dir, name order, ties by id).

import type { CategoryRecord } from '../data.ts';
import { recordNotFound } from '../http.ts';
import type { ManufacturerRecord } from '../model.ts';
import type { ApiContext } from '../router.ts';
import { enumParam, parseId } from './params.ts';

export function findCategory(ctx: ApiContext, raw: string | undefined): CategoryRecord {
  const id = parseId(raw, 'Category');
  const c = ctx.data.categories.get(id);
  if (!c) throw recordNotFound('Category', id);
  return c;
}

export function findManufacturer(ctx: ApiContext, raw: string | undefined): ManufacturerRecord {
  const id = parseId(raw, 'Manufacturer');
  const m = ctx.data.manufacturers.get(id);
  if (!m) throw recordNotFound('Manufacturer', id);
  return m;
}

export type Dir = 'asc' | 'desc';

export function orderDirParam(ctx: ApiContext): Dir | undefined {
  return enumParam(ctx, 'order_dir', ['asc', 'desc'] as const);
}

/** Case-insensitive code-point order of names. */
export function compareNames(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  if (x !== y) return x < y ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A fixed locale, so that the order is the same on every machine. */
const NAME_COLLATOR = new Intl.Collator('en', { sensitivity: 'base' });

/** How a listing orders by name: the comparison and the direction of ties by id. */
export interface NameOrder {
  compare: (a: string, b: string) => number;
  ties: Dir;
}

/** Name order of the listings: the reference's code-point order, or a locale collation (variant). */
export function nameOrder(ctx: ApiContext): NameOrder {
  if (ctx.variants.has('name-order-collation')) return { compare: (a, b) => NAME_COLLATOR.compare(a, b), ties: 'desc' };
  return { compare: compareNames, ties: 'asc' };
}

/** Sorts by `compare` in direction `dir`; ties by id ascending (or `ties`) in both directions. */
export function sortBy<T extends { id: number }>(items: readonly T[], compare: (a: T, b: T) => number, dir: Dir, ties: Dir = 'asc'): T[] {
  const sign = dir === 'asc' ? 1 : -1;
  const tieSign = ties === 'asc' ? 1 : -1;
  return [...items].sort((a, b) => sign * compare(a, b) || tieSign * (a.id - b.id));
}

/** The order of manufacturer listings without order_by: name (the reference) or popularity (variant). */
export function defaultManufacturerOrder(ctx: ApiContext): 'name' | 'popularity' {
  return ctx.variants.has('manufacturers-default-popularity') ? 'popularity' : 'name';
}
