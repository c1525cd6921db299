// Checks of the category listings: specifications, manufacturers, filter groups and the SKU
// listing (spec: Endpoints > Categories rows 6, 7, 9, 10 and "Ordering, filters and meta of the
// category SKU listing", Resources and their fields > Specification and group, Filter group,
// Filter meta, SKU).
import { allOf, blank, fail, isPlainObject, pass, show, statedValue, typed, type CheckResult } from './check.ts';

export type Json = Record<string, unknown>;

/**
 * "cache-control max-age=300, private": the Cache-Control header carries both directives
 * (case-insensitive, in any order, other directives allowed).
 */
export function cachedPrivatelyFor300(headers: Record<string, string>): CheckResult {
  const value = headers['cache-control'];
  if (value === undefined) return fail('no Cache-Control header, expected max-age=300, private');
  const directives = value.split(',').map((d) => d.trim().toLowerCase());
  const maxAge = directives.find((d) => d.startsWith('max-age'));
  const problems: string[] = [];
  if (maxAge === undefined) problems.push('no max-age directive');
  else if (!/^max-age\s*=\s*"?300"?$/.test(maxAge)) problems.push(`${maxAge} instead of max-age=300`);
  if (!directives.includes('private')) problems.push('no private directive');
  return problems.length ? fail(`Cache-Control ${show(value)}: ${problems.join(', ')} (expected max-age=300, private)`) : pass();
}

/** "group_id (only with include=group)": no specification carries group_id without it. */
export function noGroupIdWithoutInclude(specifications: readonly unknown[]): CheckResult {
  return allOf(
    specifications.map((s) => (isPlainObject(s) && 'group_id' in s ? fail(`specification ${show(s['id'])} has group_id ${show(s['group_id'])} without include=group`) : pass())),
  );
}

/** The first place where `orders` decreases, as a message, or null when they never do. */
function firstStepDown(specifications: readonly Json[], orders: readonly number[]): string | null {
  const i = orders.findIndex((o, j) => j > 0 && o < orders[j - 1]!);
  if (i < 0) return null;
  return `specification ${show(specifications[i]!['id'])} (order ${orders[i]}) comes after specification ${show(specifications[i - 1]!['id'])} (order ${orders[i - 1]})`;
}

/**
 * "order on specifications (returned in order)" with include=group: in order overall, or group by
 * group (the spec does not say which), each group's specifications together and in order, the
 * groups in their own order (their order field in the top-level groups array, where it gives one).
 */
export function specificationsInOrderOverallOrByGroup(specifications: readonly Json[], groups: unknown): CheckResult {
  const orders = specifications.map((s) => s['order']);
  if (orders.some((o) => typeof o !== 'number')) return pass(); // the schema judges types
  const overall = firstStepDown(specifications, orders as number[]);
  if (overall === null) return pass();
  // Runs of one group_id: each group once, in order within it.
  // A specification of no group (group_id null) is a group of its own: where it stands, and its
  // order, say nothing about the others of no group (a server ordering group by group may place
  // each by its own order).
  const runs: { groupId: unknown; items: Json[] }[] = [];
  for (const s of specifications) {
    const last = runs[runs.length - 1];
    if (last && last.groupId === s['group_id'] && s['group_id'] !== null) last.items.push(s);
    else runs.push({ groupId: s['group_id'], items: [s] });
  }
  const problems: string[] = [];
  const seen = new Set<unknown>();
  for (const run of runs) {
    if (run.groupId !== null && seen.has(run.groupId)) problems.push(`the specifications of group ${show(run.groupId)} are not together`);
    seen.add(run.groupId);
    const within = firstStepDown(
      run.items,
      run.items.map((s) => s['order'] as number),
    );
    if (within !== null) problems.push(`in group ${show(run.groupId)}, ${within}`);
  }
  const groupOrder = new Map((Array.isArray(groups) ? groups.filter(isPlainObject) : []).map((g) => [g['id'], g['order']]));
  const grouped = runs.filter((r) => r.groupId !== null);
  const runOrders = grouped.map((r) => groupOrder.get(r.groupId));
  if (runOrders.every((o) => typeof o === 'number')) {
    const i = (runOrders as number[]).findIndex((o, j) => j > 0 && o < (runOrders[j - 1] as number));
    if (i > 0) problems.push(`group ${show(grouped[i]!.groupId)} (order ${runOrders[i]}) comes after group ${show(grouped[i - 1]!.groupId)} (order ${runOrders[i - 1]})`);
  }
  if (problems.length === 0) return pass();
  return fail(`specifications are in order neither overall (${overall}) nor group by group (${problems.slice(0, 3).join('; ')})`);
}

/** Every listed SKU belongs to the category asked for ("A SKU always belongs to a leaf category"). */
export function skusInCategory(skus: readonly unknown[], categoryId: number): CheckResult {
  return allOf(
    skus.map((s) => {
      const sku = isPlainObject(s) ? s : {};
      return statedValue(sku['category_id'] === categoryId, `SKU ${show(sku['id'])} has category_id ${show(sku['category_id'])}, listed under leaf ${categoryId}`);
    }),
  );
}

/** A category with children holds no SKU itself: no listed SKU names it as its category. */
export function noSkuInInnerCategory(skus: readonly unknown[], categoryId: number): CheckResult {
  return allOf(
    skus.map((s) => {
      const sku = isPlainObject(s) ? s : {};
      return sku['category_id'] === categoryId ? fail(`SKU ${show(sku['id'])} has category_id ${categoryId}, a category with children: SKUs belong to leaf categories`) : pass();
    }),
  );
}

/**
 * "meta holds ordered_by (current method) and order_by_methods (map from method to human label)":
 * ordered_by a string, order_by_methods an object. `methodsRequired`: order_by_methods came with
 * 3.2.0 ("dynamic order_by methods in category SKUs"); before, it may be absent.
 */
export function orderMetaIsWellFormed(meta: unknown, methodsRequired: boolean): CheckResult {
  if (!isPlainObject(meta)) return typed(meta, false, `meta is ${show(meta)}, expected an object`);
  const methods = meta['order_by_methods'];
  const methodsAllowedAbsent = methods === undefined && !methodsRequired;
  if (!methodsAllowedAbsent && !isPlainObject(methods)) return typed(methods, false, `meta.order_by_methods is ${show(methods)}, expected a map from method to label`);
  const current = meta['ordered_by'];
  return typed(current, typeof current === 'string', `meta.ordered_by is ${show(current)}, expected a string`);
}

/**
 * meta.ordered_by (the current method) is one of the keys of meta.order_by_methods. The current
 * method is not tied to the map: a default order (relevance, say) need not be one a client can
 * choose, so callers only warn. Not judged without both (orderMetaIsWellFormed judges those).
 */
export function orderedByIsAMethod(meta: unknown): CheckResult {
  const methods = isPlainObject(meta) ? meta['order_by_methods'] : undefined;
  const current = isPlainObject(meta) ? meta['ordered_by'] : undefined;
  if (!isPlainObject(methods) || typeof current !== 'string' || current in methods) return pass();
  return fail(
    `meta.ordered_by ${show(current)} is not a key of meta.order_by_methods (${Object.keys(methods).join(', ')}): the spec does not say whether the current (default) method must be one a client can choose`,
  );
}

/** meta.ordered_by names the method asked for with order_by. */
export function orderedByEchoes(meta: unknown, sent: string): CheckResult {
  if (meta === null) return blank(`order_by=${sent}: meta is null`);
  const current = isPlainObject(meta) ? meta['ordered_by'] : undefined;
  return statedValue(current === sent, `order_by=${sent}: meta.ordered_by is ${show(current)}`);
}

/** A filter narrows: the filtered listing holds no more SKUs than the unfiltered one. */
export function narrows(filteredTotal: number, unfilteredTotal: number, what: string): CheckResult {
  return filteredTotal <= unfilteredTotal ? pass() : fail(`${what} gives ${filteredTotal} SKUs, more than the ${unfilteredTotal} without it`);
}

/**
 * available_filters.filters maps a filter id to the number of matching SKUs: with no other filter
 * applied, filter_ids[]=<id> lists exactly that many.
 */
export function filterCountMatches(filterId: string, count: number, filteredTotal: number): CheckResult {
  return filteredTotal === count
    ? pass()
    : fail(`meta.available_filters.filters gives ${count} matching SKUs for filter ${filterId}, but filter_ids[]=${filterId} lists ${filteredTotal}`);
}

/**
 * available_filters.shops maps a shop id to the number of matching SKUs: with no other filter
 * applied, shop_ids[]=<id> lists exactly that many.
 */
export function shopCountMatches(shopId: string, count: number, filteredTotal: number): CheckResult {
  return filteredTotal === count ? pass() : fail(`meta.available_filters.shops gives ${count} matching SKUs for shop ${shopId}, but shop_ids[]=${shopId} lists ${filteredTotal}`);
}

/** An option of available_filters.availabilities or .distances: id (integer), label, count. */
export interface FilterOption {
  id: number;
  label: unknown;
  count: unknown;
}

/**
 * An option of an availabilities or distances array worth filtering by: one whose count is
 * between 0 and the listing's total (exclusive), else one with a positive count, else the first;
 * only options with an integer id; null when there is none (or no array).
 */
export function chooseOption(options: unknown, total: number): FilterOption | null {
  if (!Array.isArray(options)) return null;
  const usable = options.filter((o): o is Json => isPlainObject(o) && Number.isInteger(o['id'])).map((o) => ({ id: o['id'] as number, label: o['label'], count: o['count'] }));
  const counted = (o: FilterOption): number => (typeof o.count === 'number' ? o.count : 0);
  return usable.find((o) => counted(o) > 0 && counted(o) < total) ?? usable.find((o) => counted(o) > 0) ?? usable[0] ?? null;
}

/**
 * The count of a distance or availability option against the SKUs the option lists. What that
 * count counts (SKUs or offers) is not stated, so callers give this as a warning only.
 */
export function optionCountMatches(key: 'distances' | 'availabilities', param: string, option: FilterOption, filteredTotal: number): CheckResult {
  return typed(
    option.count,
    option.count === filteredTotal,
    `meta.available_filters.${key} gives count ${show(option.count)} for option ${option.id} (${show(option.label)}), but ${param}=${option.id} lists ${filteredTotal} SKUs (whether that count counts SKUs or offers is not stated)`,
  );
}

/**
 * filters, manufacturers and shops map an id to the number of matching SKUs: none exceeds the SKUs
 * of the listing. What the count of an availability or distance option counts (SKUs or offers) is
 * not stated, so those are left alone.
 */
export function availableCountsWithinTotal(available: unknown, total: number): CheckResult {
  if (!isPlainObject(available)) return typed(available, false, `meta.available_filters is ${show(available)}, expected an object`);
  const results: CheckResult[] = [];
  for (const key of ['filters', 'manufacturers', 'shops']) {
    const map = available[key];
    if (!isPlainObject(map)) continue; // presence and types are the schema's
    for (const [id, count] of Object.entries(map)) {
      if (typeof count === 'number' && count > total) results.push(fail(`meta.available_filters.${key}[${id}] is ${count}, more than the ${total} SKUs of the listing`));
    }
  }
  return allOf(results);
}

/**
 * A filter id of available_filters.filters worth filtering by: one matching some but not all
 * SKUs (so a filter that is ignored shows), else one matching some; null when none matches any.
 */
export function chooseFilter(filters: unknown, total: number): { id: string; count: number } | null {
  if (!isPlainObject(filters)) return null;
  const entries = Object.entries(filters).filter((e): e is [string, number] => typeof e[1] === 'number' && /^-?\d+$/.test(e[0]));
  const partial = entries.find(([, n]) => n > 0 && n < total) ?? entries.find(([, n]) => n > 0);
  return partial ? { id: partial[0], count: partial[1] } : null;
}

/** The manufacturer of the fewest listed SKUs (a filter by it shows best); null when none. */
export function rarestManufacturer(skus: readonly unknown[]): number | null {
  const counts = new Map<number, number>();
  for (const s of skus) {
    const id = isPlainObject(s) ? s['manufacturer_id'] : undefined;
    if (Number.isInteger(id)) counts.set(id as number, (counts.get(id as number) ?? 0) + 1);
  }
  const sorted = [...counts].sort((a, b) => a[1] - b[1] || a[0] - b[0]);
  return sorted[0]?.[0] ?? null;
}

/** The longest word (letters and digits, 3 or more characters) of a SKU name, for a keyword filter. */
/** A word no catalogue holds (letters in no language's order), new on every call: a query that must match nothing. */
export function improbableWord(): string {
  const letters = 'bcdfghjkmnpqrstvwxz';
  let tail = '';
  for (let i = 0; i < 10; i++) tail += letters[Math.floor(Math.random() * letters.length)];
  return `qxzj${tail}vqkx`;
}

export function keywordOf(name: unknown): string | null {
  if (typeof name !== 'string') return null;
  const words = name.split(/[^\p{L}\p{N}]+/u).filter((w) => w.length >= 3);
  return words.sort((a, b) => b.length - a.length)[0] ?? null;
}

/**
 * favorited on the category SKU listing (user token) tells the user's favorites: true for a SKU
 * in one of their favorite lists (`inLists`), false for one they have no favorite of
 * (`notFavorited`: only when all of the user's favorites are known). An owned favorite (have_it
 * true, no list) may be either: whether it counts is not shown. SKUs without the field are the
 * schema's to judge.
 */
export function favoritedMatchesFavorites(skus: readonly Json[], inLists: ReadonlySet<number>, notFavorited: (id: number) => boolean): CheckResult {
  const wrong: string[] = [];
  for (const s of skus) {
    const id = s['id'];
    if (!Number.isInteger(id) || !('favorited' in s)) continue;
    if (inLists.has(id as number) && s['favorited'] !== true) wrong.push(`SKU ${id} is in a favorite list of the user but has favorited ${show(s['favorited'])}`);
    else if (!inLists.has(id as number) && notFavorited(id as number) && s['favorited'] === true) wrong.push(`SKU ${id} is no favorite of the user but has favorited true`);
  }
  return wrong.length ? fail(wrong.slice(0, 5).join('; ') + (wrong.length > 5 ? `; and ${wrong.length - 5} more` : '')) : pass();
}
