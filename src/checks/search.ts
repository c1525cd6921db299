// Checks of search, autocomplete and the manufacturer listings (Endpoints > Search, Resources and
// their fields > Search result meta, Autocomplete item, Manufacturer; Endpoints > Manufacturers).
import { allOf, blank, fail, following, isPlainObject, pass, show, typed, type CheckResult } from './check.ts';

/** Category.match_count: "integer | only on categories returned by search" — so present there. */
export function carriesMatchCount(category: unknown): CheckResult {
  if (!isPlainObject(category)) return fail(`search category is ${show(category)}, expected an object`);
  const value = category['match_count'];
  if (!('match_count' in category)) return fail(`search category ${show(category['id'])} has no match_count`);
  return typed(value, Number.isInteger(value) && (value as number) >= 0, `search category ${show(category['id'])} has match_count ${show(value)}, expected a non-negative integer`);
}

const STRONG_KINDS = ['category', 'manufacturer', 'sku'] as const;

/**
 * "strong_matches: object with at most one each of category (Category), manufacturer (id, name,
 * image_url) and sku (SKU)": an object whose kinds, when present, hold one object each (never an
 * array of several). A kind without a match may be absent or null (blank fields are null).
 */
export function strongMatchesHoldAtMostOneEach(strongMatches: unknown): CheckResult {
  if (!isPlainObject(strongMatches)) return typed(strongMatches, false, `meta.strong_matches is ${show(strongMatches)}, expected an object`);
  const results: CheckResult[] = [];
  for (const kind of STRONG_KINDS) {
    if (!(kind in strongMatches)) continue;
    const value = strongMatches[kind];
    if (value === null) continue;
    if (Array.isArray(value)) results.push(fail(`strong_matches.${kind} is an array of ${value.length}, expected at most one ${kind} (an object)`));
    else if (!isPlainObject(value)) results.push(fail(`strong_matches.${kind} is ${show(value)}, expected one ${kind} object`));
    else results.push(typed(value['id'], Number.isInteger(value['id']), `strong_matches.${kind} has id ${show(value['id'])}, expected an integer`));
  }
  return allOf(results);
}

/** Whitespace runs made one, ends trimmed, case folded: what "the applied query" may normalise. */
function normaliseQuery(q: string): string {
  return q.trim().replace(/\s+/g, ' ').toLowerCase();
}

/** meta.q "the applied query": the sent query, up to whitespace and case. */
export function appliedQueryIsTheSentOne(sent: string, applied: unknown): CheckResult {
  if (typeof applied !== 'string') return typed(applied, false, `meta.q is ${show(applied)}, expected a string`);
  return normaliseQuery(applied) === normaliseQuery(sent) ? pass() : fail(`meta.q is ${show(applied)}, but q=${show(sent)} was sent`);
}

/**
 * Autocomplete item: "i (integer index usable as the highlight start)": an index into k, its end
 * included. Where i points is not shown: the start of the typed text in k, or just after it where
 * the completion starts (k's end when k is the typed text); in UTF-16 units or in code points,
 * which are never more than the units.
 */
export function highlightIndexIsInKey(item: unknown): CheckResult {
  if (!isPlainObject(item)) return fail(`autocomplete item is ${show(item)}, expected an object`);
  const { k, i } = item;
  if (typeof k !== 'string') return typed(k, false, `autocomplete item has k ${show(k)}, expected a string`);
  if (!Number.isInteger(i)) return typed(i, false, `autocomplete item ${show(k)} has i ${show(i)}, expected an integer`);
  const index = i as number;
  // -1: q does not occur in k (a corrected suggestion), as indexOf says it: nothing to highlight, no fault.
  if (index === -1) return pass();
  // In UTF-8 bytes (a server that indexes bytes, as Go's strings do) an index may pass k.length.
  const bytes = Buffer.byteLength(k, 'utf8');
  return index >= 0 && index <= Math.max(k.length, bytes)
    ? pass()
    : fail(`autocomplete item ${show(k)} has i ${index}, outside the keyphrase (length ${k.length}, ${bytes} bytes in UTF-8, its end included)`);
}

/** Lower-cased, accent-free text (what a search may ignore). */
const folded = (text: string): string => text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();

/** The kinds of meta.strong_matches that hold an object. */
function strongMatchesFound(strongMatches: unknown): string[] {
  return isPlainObject(strongMatches) ? STRONG_KINDS.filter((kind) => isPlainObject(strongMatches[kind])) : [];
}

/**
 * A search for the exact name of a SKU of the catalogue finds it (SRCH-1: search returns
 * categories plus strong matches, a SKU among them): the SKU as the strong match, or a category
 * on the path of the SKU's category (the leaf or one above it, whichever a deployment lists).
 * `morePages`: the answer has later pages, where the category may be (then only noted).
 */
export function findsTheSku(
  categories: readonly unknown[],
  strongMatches: unknown,
  sku: { id: number; name: string; pathIds: readonly number[] },
  morePages: boolean,
): { result: CheckResult; onLaterPage: boolean } {
  const strong = isPlainObject(strongMatches) ? strongMatches : {};
  const strongSku = isPlainObject(strong['sku']) ? strong['sku']['id'] : undefined;
  const strongCategory = isPlainObject(strong['category']) ? strong['category']['id'] : undefined;
  const onPath = (id: unknown): boolean => Number.isInteger(id) && sku.pathIds.includes(id as number);
  if (strongSku === sku.id || onPath(strongCategory) || categories.some((c) => isPlainObject(c) && onPath(c['id']))) return { result: pass(), onLaterPage: false };
  const found = `${categories.length} categories (ids ${categories
    .slice(0, 8)
    .map((c) => (isPlainObject(c) ? show(c['id']) : '?'))
    .join(', ')}${categories.length > 8 ? ', ...' : ''})`;
  const strongFound = strongMatchesFound(strongMatches);
  const message =
    `q=${show(sku.name)}, the name of SKU ${sku.id}, found ${categories.length === 0 && strongFound.length === 0 ? 'nothing' : found}` +
    `${strongFound.length ? ` and strong matches ${strongFound.join(', ')}` : ''}: neither the SKU (strong_matches.sku) nor a category on its path (${sku.pathIds.join(', ')})`;
  return { result: fail(message), onLaterPage: morePages };
}

/** The offsets in k (UTF-16 units) an index i may stand for: i units, or i code points. */
function offsetsInKey(k: string, i: number): number[] {
  const points = [...k];
  const byCodePoint = i <= points.length ? [points.slice(0, i).join('').length] : [];
  // i counted in UTF-8 bytes: the UTF-16 offset of the character that starts at that byte.
  const byByte: number[] = [];
  let bytes = 0;
  let offset = 0;
  for (const point of [...points, '']) {
    if (bytes === i) byByte.push(offset);
    if (bytes >= i || point === '') break;
    bytes += Buffer.byteLength(point, 'utf8');
    offset += point.length;
  }
  return [...new Set([i, ...byCodePoint, ...byByte])].filter((offset) => offset >= 0 && offset <= k.length);
}

/**
 * Autocomplete items suggest what begins with q: at least one item has q (ignoring case and
 * accents) where its i points. The spec says only "index usable as the highlight start", so i may
 * count characters of k (UTF-16 units, code points or UTF-8 bytes) and mark where q starts or where the
 * completion after q starts, or count words of k. An empty list is not judged.
 */
export function someSuggestionMatches(items: readonly unknown[], q: string): CheckResult {
  const keys = items.filter(isPlainObject).filter((item) => typeof item['k'] === 'string' && Number.isInteger(item['i']));
  if (keys.length === 0) return pass();
  const wanted = folded(q.trim());
  const matches = (item: Record<string, unknown>): boolean => {
    const k = item['k'] as string;
    const i = item['i'] as number;
    const byCharacter = offsetsInKey(k, i).some((offset) => folded(k.slice(offset)).startsWith(wanted) || folded(k.slice(0, offset)).endsWith(wanted));
    const word = folded(k)
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => w !== '')[i];
    return byCharacter || (word !== undefined && word.startsWith(wanted.split(/\s+/)[0]!));
  };
  if (keys.some(matches)) return pass();
  return fail(
    `none of the ${keys.length} suggestions for q=${show(q)} has q where its i points (q starting or ending there, counted in characters, code points or UTF-8 bytes, or as a word index): ${keys
      .slice(0, 5)
      .map((item) => `${show(item['k'], 40)} (i ${show(item['i'])})`)
      .join(', ')}`,
  );
}

/** What one search answered: its query, the ids of the categories of its first page and total_results. */
export interface SearchShown {
  q: string;
  ids: readonly unknown[];
  total: number;
}

/**
 * Letters no catalogue holds found categories. A fuzzy engine may match them (then no match
 * cannot be asked for), but a search that applies q does not give them the very answer it gives
 * to a name of the catalogue: the same categories in the same order, and the same total_results.
 */
export function nonsenseAnswerDiffers(nonsense: SearchShown, named: SearchShown): CheckResult {
  const same = nonsense.total === named.total && nonsense.ids.length === named.ids.length && nonsense.ids.every((id, i) => id === named.ids[i]);
  if (!same) return pass();
  return fail(
    `q=${show(nonsense.q)}, letters no catalogue holds, and q=${show(named.q)}, a name of the catalogue, both find the same ${nonsense.total} categories (ids ${nonsense.ids
      .slice(0, 8)
      .map((id) => show(id))
      .join(', ')}): q is not applied`,
  );
}

export type Direction = 'asc' | 'desc';

/**
 * Orders names may follow: the spec names none, so a list passes when any usual collation orders
 * it (code point, case-insensitive, locale).
 */
const NAME_ORDERS: readonly ((a: string, b: string) => number)[] = [
  (a, b) => (a < b ? -1 : a > b ? 1 : 0),
  (a, b) => {
    const [x, y] = [a.toLowerCase(), b.toLowerCase()];
    return x < y ? -1 : x > y ? 1 : 0;
  },
  (a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' }),
  (a, b) => a.localeCompare(b),
];

function orderedBy<T>(values: readonly T[], compare: (a: T, b: T) => number, dir: Direction): boolean {
  return values.every((v, i) => i === 0 || (dir === 'asc' ? compare(values[i - 1]!, v) <= 0 : compare(values[i - 1]!, v) >= 0));
}

/** order_by=name with order_dir: names in that direction, by some usual collation. */
export function namesAreOrdered(names: readonly unknown[], dir: Direction): CheckResult {
  const bad = names.findIndex((n) => typeof n !== 'string');
  // A blank name cannot be placed in an order: the order is not judged, the null only warns. A
  // name of another type is the Category table's finding (its schema), not the order's.
  if (bad >= 0)
    return names[bad] === null
      ? blank(`item ${bad} has name null: the order of the names is not judged`)
      : following('a name that is not a string (the resource table types it)', fail(`item ${bad} has name ${show(names[bad])}, expected a string: the order is not judged`));
  const strings = names as readonly string[];
  if (NAME_ORDERS.some((compare) => orderedBy(strings, compare, dir))) return pass();
  const i = strings.findIndex((n, j) => j > 0 && (dir === 'asc' ? n.localeCompare(strings[j - 1]!) < 0 : n.localeCompare(strings[j - 1]!) > 0));
  const where = i > 0 ? `: ${show(strings[i - 1])} comes before ${show(strings[i])}` : '';
  return fail(`names are not in ${dir} order by any usual collation${where} (${show(strings, 200)})`);
}

/**
 * Items in `dir` order by one of `fields` (the spec names the method, not the field it sorts by):
 * passes when any field orders them. A blank value (GEN-8) cannot be placed in an order: the items
 * with one are left out of it, and an order that holds only so is a warning.
 */
export function orderedByOneOf(items: readonly unknown[], fields: readonly string[], dir: Direction, noun = 'SKUs'): CheckResult {
  const read = (field: string) => items.map((s) => (isPlainObject(s) ? s[field] : undefined));
  const byNumber = (a: unknown, b: unknown) => (a as number) - (b as number);
  let blankOrdered: string | null = null;
  for (const field of fields) {
    const values = read(field);
    const known = values.filter((v) => v !== null);
    if (!known.every((v) => typeof v === 'number') || !orderedBy(known, byNumber, dir)) continue;
    if (known.length === values.length) return pass();
    blankOrdered ??= `${values.length - known.length} of the ${noun} have ${field} null: the others are in ${dir} order by ${field}, those are not placed`;
  }
  if (blankOrdered !== null) return blank(blankOrdered);
  return fail(`${noun} are not in ${dir} order by ${fields.map((f) => `${f} (${show(read(f), 160)})`).join(' nor by ')}`);
}

/**
 * order_by=price with order_dir: which price the spec does not say, so the list passes when it is
 * in that direction by price_min or by price_max.
 */
export function pricesAreOrdered(skus: readonly unknown[], dir: Direction): CheckResult {
  return orderedByOneOf(skus, ['price_min', 'price_max'], dir);
}

/**
 * What breaks every reading of an order_dir whose sort field the spec leaves open: by each of
 * `fields` the items run the other way (two steps against `dir` or more, none with it). A list in
 * no order by them passes here: another key may order it (the warning checks say so); so does a
 * single step against it, which an unrated or unpriced item placed last (a 0) may make.
 */
export function notInReverseOrder(items: readonly unknown[], fields: readonly string[], dir: Direction, noun = 'SKUs'): CheckResult {
  const against: Direction = dir === 'asc' ? 'desc' : 'asc';
  const byNumber = (a: number, b: number) => a - b;
  const seen: string[] = [];
  for (const field of fields) {
    const values = items.map((s) => (isPlainObject(s) ? s[field] : undefined)).filter((v): v is number => typeof v === 'number');
    const stepsAgainst = values.filter((v, i) => i > 0 && (dir === 'asc' ? v < values[i - 1]! : v > values[i - 1]!)).length;
    if (stepsAgainst < 2 || !orderedBy(values, byNumber, against)) return pass();
    seen.push(`${field} ${show(values, 120)}`);
  }
  return fail(`order_dir=${dir} lists the ${noun} in ${against === 'asc' ? 'ascending' : 'descending'} order: ${seen.join('; ')}`);
}

/** Every SKU is of the manufacturer (or one of the manufacturers) asked for: /manufacturers/:id/skus, manufacturer_ids[]. */
export function skusBelongToManufacturer(skus: readonly unknown[], manufacturerIds: number | readonly number[]): CheckResult {
  const ids: readonly number[] = typeof manufacturerIds === 'number' ? [manufacturerIds] : manufacturerIds;
  return allOf(
    skus.map((s) => {
      const sku = isPlainObject(s) ? s : {};
      return typed(
        sku['manufacturer_id'],
        ids.includes(sku['manufacturer_id'] as number),
        `SKU ${show(sku['id'])} has manufacturer_id ${show(sku['manufacturer_id'])}, listed under manufacturer ${ids.join(' or ')}`,
      );
    }),
  );
}

/** Two complete listings of one collection in other orders hold the same ids. */
export function sameMembers(what: string, a: readonly unknown[], b: readonly unknown[]): CheckResult {
  const ids = (items: readonly unknown[]) => items.map((x) => (isPlainObject(x) ? x['id'] : undefined));
  const [left, right] = [ids(a), ids(b)];
  const missing = left.filter((id) => !right.includes(id));
  const added = right.filter((id) => !left.includes(id));
  if (left.length === right.length && missing.length === 0 && added.length === 0) return pass();
  return fail(`${what}: ${left.length} vs ${right.length} items; only in the first ${show(missing)}, only in the second ${show(added)}`);
}
