// Checks of SKU products, product cards, SKU specifications, price history, products and shops
// (spec: Endpoints > SKUs and their products, Endpoints > Shops, Resources and their fields >
// Product, Product card, Price history, Shop, Shop review, Shop location, Specification and group).
import { allOf, blank, fail, isPlainObject, pass, show, statedValue, typed, type CheckResult } from './check.ts';

export type Json = Record<string, unknown>;

/** Money is compared to the cent: prices are decimal amounts sent as JSON numbers. */
const CENT = 0.01 + 1e-9;

/** Values listed in order never go down. */
export function nonDecreasing(values: readonly number[], what: string): CheckResult {
  for (let i = 1; i < values.length; i++) {
    if (values[i]! < values[i - 1]!) return fail(`${what} not in ascending order: ${show(values[i - 1])} comes before ${show(values[i])} (position ${i + 1} of ${values.length})`);
  }
  return pass();
}

/** order_by=net_price (the default): products by price, lowest first. */
export function productsByNetPrice(products: readonly Json[]): CheckResult {
  const prices = products.map((p) => p['price']);
  const bad = prices.findIndex((x) => typeof x !== 'number' && x !== null);
  if (bad !== -1) return fail(`product ${show(products[bad]!['id'])} has price ${show(prices[bad])}, not a number`);
  // A blank price (GEN-8) cannot be placed in the order: it only warns, and the others are judged.
  const blanks = products.filter((p) => p['price'] === null).map((p) => show(p['id']));
  return allOf([
    nonDecreasing(
      prices.filter((x): x is number => x !== null),
      'products (net price order) are',
    ),
    blanks.length ? blank(`product${blanks.length > 1 ? 's' : ''} ${blanks.join(', ')} ha${blanks.length > 1 ? 've' : 's'} price null: not placed in the net price order`) : pass(),
  ]);
}

function finalPrice(product: Json): number | null | undefined {
  const blp = product['blp'];
  if (!isPlainObject(blp)) return undefined;
  const value = blp['final_price'];
  return typeof value === 'number' ? value : value === null ? null : undefined;
}

/**
 * order_by=final_price: the known final prices never go down. Where the null ones (a payment method
 * the shop does not offer) go is not stated: that is `finalPriceNullsGrouped`.
 */
export function productsByFinalPrice(products: readonly Json[]): CheckResult {
  const finals = products.map(finalPrice);
  // A blank blp (GEN-8) cannot be placed in the order: it only warns, and the others are judged.
  const bad = finals.findIndex((x, i) => x === undefined && products[i]!['blp'] !== null);
  if (bad !== -1) return fail(`product ${show(products[bad]!['id'])} has blp ${show(products[bad]!['blp'])}: no final_price number or null`);
  const blanks = products.filter((p) => p['blp'] === null).map((p) => show(p['id']));
  const blankBlp = blanks.length
    ? blank(`product${blanks.length > 1 ? 's' : ''} ${blanks.join(', ')} ha${blanks.length > 1 ? 've' : 's'} blp null: not placed in the final price order`)
    : pass();
  const known = products.filter((_, i) => typeof finals[i] === 'number');
  for (let i = 1; i < known.length; i++) {
    const a = finalPrice(known[i - 1]!)!;
    const b = finalPrice(known[i]!)!;
    if (b < a) return fail(`order_by=final_price: product ${show(known[i - 1]!['id'])} (final_price ${a}) comes before product ${show(known[i]!['id'])} (final_price ${b})`);
  }
  return blankBlp;
}

/** Null final prices all at the start or all at the end of the list, not scattered among the others. */
export function finalPriceNullsGrouped(products: readonly Json[]): CheckResult {
  // A product whose blp is null (a blank, GEN-8) has no final_price to group: left out.
  const isNull = products.filter((p) => p['blp'] !== null).map((p) => finalPrice(p) === null);
  const changes = isNull.filter((v, i) => i > 0 && v !== isNull[i - 1]).length;
  if (changes <= 1) return pass();
  return fail(`order_by=final_price: products with a null final_price are scattered among the others (${isNull.map((v) => (v ? 'null' : 'n')).join(',')})`);
}

/** "final_price (includes shipping and payment method cost)": at least price + shipping + payment cost. */
export function finalPriceIncludesCosts(product: Json): CheckResult {
  const blp = product['blp'];
  if (!isPlainObject(blp)) return typed(blp, false, `product ${show(product['id'])} has blp ${show(blp)}`);
  const { shipping_cost: shipping, payment_method_cost: payment, final_price: final } = blp;
  if (final === null || payment === null || typeof product['price'] !== 'number') return pass();
  if (typeof final !== 'number' || typeof shipping !== 'number' || typeof payment !== 'number') return pass(); // the schema judges types
  const least = (product['price'] as number) + shipping + payment;
  return final + CENT >= least
    ? pass()
    : fail(
        `product ${show(product['id'])}: final_price ${final} is less than price ${show(product['price'])} + shipping_cost ${shipping} + payment_method_cost ${payment} = ${least.toFixed(2)}`,
      );
}

/** The numeric sizes of a product: entries are strings, numbers or objects with a value; null when none parses. */
export function numericSizes(sizes: unknown): number[] | null {
  if (!Array.isArray(sizes)) return null;
  const values = sizes
    .map((s) => (isPlainObject(s) ? s['value'] : s))
    .filter((v): v is string | number => typeof v === 'string' || typeof v === 'number')
    .map((v) => Number(String(v).replace(',', '.')))
    .filter((n) => Number.isFinite(n));
  return values.length ? values : null;
}

/** Whether a product has a size in [x, x+1): "40 matches sizes from 40 up to but excluding 41". */
export function hasSizeInRange(product: Json, x: number): boolean {
  return (numericSizes(product['sizes']) ?? []).some((n) => n >= x && n < x + 1);
}

/**
 * A size to filter by and what the filter must keep: prefers an x with a product that has size x+1
 * but nothing in [x, x+1) (the upper bound is where implementations go wrong). Null when no
 * product has a numeric size.
 */
export function chooseSizeProbe(products: readonly Json[]): { size: number; expected: number[]; boundary: number[] } | null {
  const candidates = [...new Set(products.flatMap((p) => (numericSizes(p['sizes']) ?? []).map((n) => Math.floor(n))))].sort((a, b) => a - b);
  if (!candidates.length) return null;
  const probe = (x: number) => ({
    size: x,
    expected: products.filter((p) => hasSizeInRange(p, x)).map((p) => p['id'] as number),
    boundary: products.filter((p) => !hasSizeInRange(p, x) && (numericSizes(p['sizes']) ?? []).includes(x + 1)).map((p) => p['id'] as number),
  });
  const all = candidates.map(probe);
  return all.find((c) => c.boundary.length > 0 && c.expected.length > 0) ?? all.find((c) => c.expected.length > 0) ?? null;
}

/** The size filter kept exactly the products with a size in [x, x+1). */
export function sizeFilterKeepsExactly(filtered: readonly Json[], size: number, expected: readonly number[]): CheckResult {
  const outside = filtered.filter((p) => !hasSizeInRange(p, size));
  const got = new Set(filtered.map((p) => p['id']));
  const missing = expected.filter((id) => !got.has(id));
  return allOf([
    // A product whose sizes are null (a blank, GEN-8) cannot be told to be outside the range: it only warns.
    ...outside.map((p) =>
      p['sizes'] === null
        ? blank(`size=${size} kept product ${show(p['id'])}, whose sizes are null: whether it has a size from ${size} up to but excluding ${size + 1} is not judged`)
        : fail(`size=${size} kept product ${show(p['id'])} whose sizes ${show(numericSizes(p['sizes']))} have none from ${size} up to but excluding ${size + 1}`),
    ),
    missing.length ? fail(`size=${size} left out products ${missing.join(', ')}, which have a size from ${size} up to but excluding ${size + 1}`) : pass(),
  ]);
}

/** A check's failure message prefixed with what was asked ("distance=10: ..."); a blank stays blank. */
export { inContext } from './check.ts';

/** A product list as read from one page: its products, meta.pagination.total_results, and whether that page is the whole list. */
export interface ProductList {
  products: readonly Json[];
  total: number;
  complete: boolean;
}

/**
 * `inner` keeps a part of `outer` (a filtered list of the unfiltered one, or the list of a narrower
 * filter value of a wider one): never more total_results, and, when `outer` is whole on its page,
 * no product that `outer` does not list.
 */
export function listWithin(inner: ProductList, innerName: string, outer: ProductList, outerName: string): CheckResult {
  const results: CheckResult[] = [inner.total <= outer.total ? pass() : fail(`${innerName} has total_results ${inner.total}, more than ${outerName} (${outer.total})`)];
  if (outer.complete) {
    const ids = new Set(outer.products.map((p) => p['id']));
    const extra = inner.products.filter((p) => !ids.has(p['id'])).map((p) => show(p['id']));
    if (extra.length)
      results.push(
        fail(
          `${innerName} lists product${extra.length > 1 ? 's' : ''} ${extra.slice(0, 10).join(', ')}${extra.length > 10 ? ', ...' : ''}, which ${outerName} (${outer.total} products) does not`,
        ),
      );
  }
  return allOf(results);
}

/**
 * The values a meta.filters map offers as numbers ("10" of {"10": "Up to 10 km"}), ascending; []
 * when it is no map or no key is a non-negative number (what the maps hold is not stated).
 */
export function offeredFilterValues(map: unknown): string[] {
  if (!isPlainObject(map)) return [];
  return Object.keys(map)
    .filter((k) => /^\d+(\.\d+)?$/.test(k))
    .sort((a, b) => Number(a) - Number(b));
}

/**
 * What zero_installments=false does is not stated. Two readings make sense: no filter (the whole
 * list), or the products zero_installments=true leaves out. Judged only when the three lists are
 * whole on their page.
 */
export function zeroInstallmentsFalseReading(falseList: ProductList, whole: ProductList, trueList: ProductList): CheckResult {
  if (!falseList.complete || !whole.complete || !trueList.complete) return pass();
  const ids = (list: ProductList) =>
    list.products
      .map((p) => p['id'])
      .map(String)
      .sort();
  const got = ids(falseList).join(',');
  const kept = new Set(ids(trueList));
  const rest = ids(whole).filter((id) => !kept.has(id));
  if (got === ids(whole).join(',') || got === rest.join(',')) return pass();
  return fail(
    `zero_installments=false lists ${falseList.products.length} products (${ids(falseList).slice(0, 10).join(', ') || 'none'}): neither the whole list (${whole.products.length}) nor the ${rest.length} that zero_installments=true leaves out`,
  );
}

/** Every product names this SKU (or shop): the list is of the resource asked for. */
export function productsHave(products: readonly Json[], field: string, value: unknown): CheckResult {
  return allOf(products.map((p) => statedValue(p[field] === value, `product ${show(p['id'])} has ${field} ${show(p[field])}, expected ${show(value)}`)));
}

/**
 * GET /shops/:shop_id/products/search by shop_uid: every product found has a shop_uid containing
 * the one searched (case aside). The endpoint is a search, and whether it matches exactly or
 * partially is not stated: a shop_uid that merely contains it is `shopUidsEqual`'s warning.
 */
export function shopUidsContain(products: readonly Json[], uid: string): CheckResult {
  return allOf(
    products.map((p) => {
      const found = p['shop_uid'];
      const message = `product ${show(p['id'])} has shop_uid ${show(found)}, which does not contain the shop_uid searched (${show(uid)})`;
      return typed(found, typeof found === 'string' && found.toLowerCase().includes(uid.toLowerCase()), message);
    }),
  );
}

/** Every product found has exactly the shop_uid searched; a partial match only warns (see shopUidsContain). */
export function shopUidsEqual(products: readonly Json[], uid: string): CheckResult {
  const partial = products.filter((p) => typeof p['shop_uid'] === 'string' && p['shop_uid'] !== uid && p['shop_uid'].toLowerCase().includes(uid.toLowerCase()));
  if (!partial.length) return pass();
  const listed = partial.slice(0, 5).map((p) => `product ${show(p['id'])} (shop_uid ${show(p['shop_uid'])})`);
  return fail(
    `shop_uid=${uid} also found ${listed.join(', ')}${partial.length > 5 ? ', ...' : ''}, whose shop_uid only contains it: a partial match, tolerated because the endpoint is a search and the spec does not say that it matches exactly`,
  );
}

/** embed=shop: the product carries its shop, the one shop_id names. */
export function embedsItsShop(product: Json): CheckResult {
  const shop = product['shop'];
  if (!isPlainObject(shop)) return typed(shop, false, `embed=shop: product ${show(product['id'])} has shop ${show(shop)}, expected the shop object`);
  const message = `embed=shop: product ${show(product['id'])} has shop_id ${show(product['shop_id'])} but embeds shop ${show(shop['id'])}`;
  if (shop['id'] === product['shop_id']) return pass();
  // A blank id on either side (GEN-8) cannot be compared: it only warns.
  return shop['id'] === null || product['shop_id'] === null ? blank(message) : fail(message);
}

/** Specifications are returned in the order of their order field ("order on specifications (returned in order)"). */
export function specificationsInOrder(specifications: readonly Json[]): CheckResult {
  const orders = specifications.map((s) => s['order']);
  if (orders.some((o) => typeof o !== 'number')) return pass(); // the schema judges types
  for (let i = 1; i < orders.length; i++) {
    if ((orders[i] as number) < (orders[i - 1] as number)) {
      return fail(
        `specification ${show(specifications[i]!['id'])} (order ${show(orders[i])}) comes after specification ${show(specifications[i - 1]!['id'])} (order ${show(orders[i - 1])})`,
      );
    }
  }
  return pass();
}

/** SKU-14: SKU specifications are not paginated: no meta.pagination. */
export function specificationsNotPaginated(body: unknown): CheckResult {
  const meta = isPlainObject(body) ? body['meta'] : undefined;
  return isPlainObject(meta) && 'pagination' in meta ? fail(`meta has pagination ${show(meta['pagination'])}: the endpoint has no pagination`) : pass();
}

/** include=group: a top-level groups array, and a group_id on each specification naming one of them. */
export function groupsIncluded(body: unknown): CheckResult {
  if (!isPlainObject(body)) return fail(`body is ${show(body)}`);
  const groups = body['groups'];
  if (!Array.isArray(groups)) return typed(groups, false, `include=group: no top-level groups array (groups is ${show(groups)})`);
  const ids = new Set(groups.map((g) => (isPlainObject(g) ? g['id'] : undefined)));
  const specs = Array.isArray(body['specifications']) ? (body['specifications'] as unknown[]) : [];
  return allOf(
    specs.map((s) => {
      if (!isPlainObject(s) || !('group_id' in s)) return fail(`include=group: specification ${show(isPlainObject(s) ? s['id'] : s)} has no group_id`);
      if (s['group_id'] === null || ids.has(s['group_id'])) return pass();
      return fail(`include=group: specification ${show(s['id'])} has group_id ${show(s['group_id'])}, which is not in the groups array`);
    }),
  );
}

const DAY_MS = 86_400_000;

/** Dates of price history are YYYY-MM-DD calendar dates. */
export function historyDatesAreDays(average: readonly Json[]): CheckResult {
  return allOf(
    average.map((point) => {
      const date = point['date'];
      if (typeof date !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(date)) return typed(date, false, `price history date ${show(date)} is not YYYY-MM-DD`);
      const parsed = new Date(`${date}T00:00:00Z`);
      return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === date ? pass() : fail(`price history date ${date} is not a calendar date`);
    }),
  );
}

/**
 * The longest "last 6 months" back from today, in days: six calendar months clamped to the
 * month's end (Rails' 6.months.ago, dateutil: 31 August back to 28 February) reach 184 days back
 * at most, and a fixed half year is counted as 180 to 184 days.
 */
export const SIX_MONTHS_MAX_DAYS = 184;

/**
 * "Data covers up to the last 6 months": no point older than the longest reading of 6 months
 * before today (SIX_MONTHS_MAX_DAYS), none after today (a day of slack each way for the server's
 * time zone).
 */
export function historyWithinSixMonths(average: readonly Json[], now: Date): CheckResult {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const oldest = today - (SIX_MONTHS_MAX_DAYS + 1) * DAY_MS;
  const newest = today + DAY_MS;
  const limit = new Date(oldest).toISOString().slice(0, 10);
  return allOf(
    average.map((point) => {
      const date = point['date'];
      if (typeof date !== 'string') return pass();
      const t = Date.parse(`${date}T00:00:00Z`);
      if (Number.isNaN(t)) return pass();
      if (t < oldest) return fail(`price history has a point on ${date}, older than the last 6 months (${SIX_MONTHS_MAX_DAYS} days at most, and a day of slack: before ${limit})`);
      if (t > newest) return fail(`price history has a point on ${date}, after today (${now.toISOString().slice(0, 10)})`);
      return pass();
    }),
  );
}

/** A SKU's history of only a few days: perhaps a too-new SKU, which should return none. */
export function historyNotOfAFewDays(average: readonly Json[], days = 7): CheckResult {
  if (average.length === 0) return pass();
  const dates = average.map((p) => Date.parse(`${String(p['date'])}T00:00:00Z`)).filter((t) => !Number.isNaN(t));
  if (!dates.length) return pass();
  const span = Math.round((Math.max(...dates) - Math.min(...dates)) / DAY_MS) + 1;
  return span > days ? pass() : fail(`price history spans only ${span} day(s) (${average.length} points): a SKU that new may be "too new", which returns no data`);
}

/** "review_score | number, rounded to 1 decimal". */
export function reviewScoreRounded(shop: Json): CheckResult {
  const score = shop['review_score'];
  if (typeof score !== 'number') return pass(); // the schema judges types
  return Math.abs(score * 10 - Math.round(score * 10)) < 1e-6 ? pass() : fail(`shop ${show(shop['id'])} has review_score ${score}, not rounded to 1 decimal`);
}

/**
 * meta.shop_rating_breakdown: one entry per impression at most, and each percentage is its count's
 * share of all counted reviews (rounded either way: within 1 point).
 */
export function ratingBreakdownConsistent(breakdown: unknown): CheckResult {
  if (!Array.isArray(breakdown)) return typed(breakdown, false, `shop_rating_breakdown is ${show(breakdown)}, expected an array`);
  const items = breakdown.filter(isPlainObject);
  const impressions = items.map((i) => i['impression']);
  // Blank impressions (GEN-8) name no impression: two of them are not one listed twice.
  const repeated = impressions.filter((x, i) => x !== null && impressions.indexOf(x) !== i);
  if (repeated.length) return fail(`shop_rating_breakdown lists impression ${show(repeated[0])} more than once`);
  if (items.some((i) => typeof i['count'] !== 'number' || typeof i['percentage'] !== 'number')) return pass(); // the schema judges types
  const total = items.reduce((sum, i) => sum + (i['count'] as number), 0);
  if (total === 0) {
    return items.every((i) => i['percentage'] === 0) ? pass() : fail(`shop_rating_breakdown counts no review but gives percentages ${show(items.map((i) => i['percentage']))}`);
  }
  return allOf(
    items.map((i) => {
      const share = (100 * (i['count'] as number)) / total;
      return Math.abs((i['percentage'] as number) - share) < 1 + 1e-9
        ? pass()
        : fail(
            `shop_rating_breakdown: ${show(i['impression'])} has percentage ${show(i['percentage'])} but ${show(i['count'])} of ${total} counted reviews is ${share.toFixed(1)}%`,
          );
    }),
  );
}

/** Counts of the breakdown add up to the reviews listed (each review is positive or negative). */
export function breakdownCountsAllReviews(breakdown: unknown, totalReviews: number): CheckResult {
  if (!Array.isArray(breakdown)) return pass();
  const items = breakdown.filter(isPlainObject);
  const total = items.reduce((sum, i) => sum + (typeof i['count'] === 'number' ? i['count'] : 0), 0);
  if (total === totalReviews) return pass();
  const message = `shop_rating_breakdown counts ${total} reviews, the listing has total_results ${totalReviews}`;
  // A blank count (GEN-8) is not a count of none: the sum is not judged.
  return items.some((i) => i['count'] === null) ? blank(`${message} (a count is null)`) : fail(message);
}

export const ADDRESS_PARTS = ['street_number', 'street', 'postcode', 'city', 'region', 'country'] as const;

/** An unstructured location's embedded address: every part null ("fields are null when format is unstructured"). */
export function unstructuredAddressIsNull(location: Json): CheckResult {
  if (location['format'] !== 'unstructured') return pass();
  const address = location['address'];
  if (address === null) return pass(); // no address at all: nothing that is not null
  if (!isPlainObject(address)) return fail(`location ${show(location['id'])} (unstructured) has address ${show(address)}`);
  const filled = ADDRESS_PARTS.filter((k) => address[k] !== null);
  return filled.length === 0
    ? pass()
    : fail(
        `location ${show(location['id'])} is unstructured but its address has ${filled.map((k) => `${k} ${show(address[k])}`).join(', ')} (fields are null when format is unstructured)`,
      );
}

/** embed=address: each location carries an address object (or null when it has none). */
export function locationEmbedsAddress(location: Json): CheckResult {
  const address = location['address'];
  return isPlainObject(address) || (address === null && location['format'] === 'unstructured')
    ? pass()
    : typed(address, false, `embed=address: location ${show(location['id'])} has address ${show(address)}, expected the address object`);
}
