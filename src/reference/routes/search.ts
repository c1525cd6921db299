// GET /search, GET /autocomplete (spec "Endpoints > Search", "Search result meta",
// "Autocomplete item").
//
// Matching: q is split into words (case- and accent-insensitive); a word of q matches a word
// of a name when it begins it ("lap" matches "Laptops"). A SKU matches when every word of q
// matches a word of its name, display_name, manufacturer name or of a category name on its
// path. A q without any letter or digit matches nothing.
//
// Choices where the spec is silent:
// - q is trimmed and inner runs of whitespace become one space; the result is meta.q (variant
//   search-q-as-sent: meta.q is q as sent) and its length (in characters) must be at least 2.
//   A missing q is the same 422 InvalidSearch as a short one.
// - categories: the categories whose own name matches q, and the leaf categories holding a
//   matching SKU; match_count is the number of matching SKUs in the category and below it.
//   Ordered by match_count descending, then id. Categories carry the list fields plus
//   match_count; family_id is only on meta.strong_matches.category (the "some search
//   responses"), from 3.1.2 (variant family-id-in-search: on every category of the answer;
//   family-id-not-in-search: on none).
// - Before 3.2.0 ("adult content shown in Category and Search") categories flagged adult (the
//   flag itself, not inherited by descendants) and the SKUs directly in them are left out of
//   search (categories, match_count, strong matches, alternatives) and autocomplete.
// - strong_matches: category: the category whose name equals q word for word (lowest id);
//   manufacturer: the manufacturer whose whole name appears in q word for word (longest name,
//   then lowest id); sku: the matching SKU whose name or display_name equals q word for word,
//   else the only matching SKU when exactly one matches. A kind without a match is absent, so
//   strong_matches may be {} (variant strong-matches-null: all three keys, null where nothing
//   matches). The category carries match_count; the sku has no favorited (variant
//   favorited-everywhere: it has).
// - alternatives, only when q finds nothing: a spelling alternative replaces each word that
//   begins no known word with the nearest known word (edit distance with transpositions, at
//   most 1 for words of up to 4 letters, 2 for longer ones, none for words under 3 letters):
//   {term, important: true, count}. When there is none (or it finds nothing too) and q has
//   several words, the words that find nothing alone are dropped: {term, important: false,
//   count, drop: [{token, dropped}] for every word}. count is the number of categories the
//   term finds (its meta.pagination.total_results). Terms are lower-case; a repeated word
//   counts once; a q of more than 8 distinct words gets no alternatives (a cost bound).
//   Variant alternatives-always: when categories are found, related terms are alternatives too,
//   {term, important: false, count}: the names of the categories found, then of their parents
//   (not the root), other than q, the first three. Variant
//   alternatives-without-count: no alternative carries count.
// - A q that matches nothing finds no category (variant search-fuzzy-fallback: the three
//   categories whose name words are nearest to the words of q, by edit distance, match_count 0).
// - Autocomplete: a missing or blank q gives an empty list. Suggestions are category names
//   (all but the root; d = that category), manufacturer names (no d) and SKU display names
//   (d = the SKU's category) in which q begins a word; i is that word's index in k (variant
//   autocomplete-i-after-typed: the index just after q there, where the completion starts).
//   Categories first, then manufacturers, then SKUs, each by i, then name, then id; duplicates of k (ignoring
//   case) are dropped; at most 10 items (variant autocomplete-five: 5, and d null rather than
//   absent). Not paginated.
// - Variants of variants/catalog-readings.ts: search-q-case-folded, search-alternatives-null,
//   alternative-drop-null, strong-matches-none-null (blanks as null), search-applies-important-alternative
//   (nothing found: the important alternative is searched and named in meta.q),
//   autocomplete-with-search-results (categories and strong_matches beside the suggestions),
//   autocomplete-fuzzy-i-null / -minus-one (a mistyped word gets corrected names, i null or -1).

import type { CategoryRecord } from '../data.ts';
import { ApiError, type ApiResult } from '../http.ts';
import type { SkuRecord } from '../model.ts';
import type { ApiContext, RouteModule } from '../router.ts';
import { categoryFamilyId, serializeCategory } from '../serializers.ts';
import { serializeManufacturer } from '../serializers/manufacturer.ts';
import { serializeSku } from '../serializers/sku.ts';
import { respondMany } from '../shape.ts';
import { applyVersion, versionAtLeast } from '../versioning.ts';
import { catalogIndex, matchesAll, words, type CatalogIndex } from './catalog-index.ts';
import { compareNames } from './listing.ts';

type Json = Record<string, unknown>;

const MIN_QUERY_LENGTH = 2;
const AUTOCOMPLETE_LIMIT = 10;
/** Variant autocomplete-five. */
const AUTOCOMPLETE_LIMIT_SHORT = 5;
/** Variant alternatives-always: alternatives drawn from the categories found. */
const FOUND_ALTERNATIVES = 3;

interface Hit {
  category: CategoryRecord;
  count: number;
}

interface Outcome {
  hits: Hit[];
  skus: SkuRecord[];
}

/** Before 3.2.0 adult categories (and their SKUs) are left out. */
function visibility(ctx: ApiContext): (categoryId: number) => boolean {
  if (versionAtLeast(ctx.version, '3.2.0')) return () => true;
  return (id) => ctx.data.categories.get(id)?.adult !== true;
}

function runSearch(ctx: ApiContext, tokens: readonly string[]): Outcome {
  if (tokens.length === 0) return { hits: [], skus: [] };
  const index = catalogIndex(ctx.data);
  const visible = visibility(ctx);
  const counts = new Map<number, number>();
  const skus: SkuRecord[] = [];
  for (const s of [...ctx.data.skus.values()].sort((a, b) => a.id - b.id)) {
    if (!visible(s.category_id) || !matchesAll(index.skuWords.get(s.id) ?? [], tokens)) continue;
    skus.push(s);
    for (const id of ctx.data.categories.get(s.category_id)?.pathIds ?? [s.category_id]) counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  const hits = ctx.data.categoryList
    .filter((c) => visible(c.id))
    .filter((c) => matchesAll(index.categoryWords.get(c.id) ?? [], tokens) || (c.childIds.length === 0 && (counts.get(c.id) ?? 0) > 0))
    .map((c) => ({ category: c, count: counts.get(c.id) ?? 0 }))
    .sort((a, b) => b.count - a.count || a.category.id - b.category.id);
  return { hits, skus };
}

/** Optimal string alignment distance (Levenshtein plus adjacent transpositions). */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}

function correction(index: CatalogIndex, token: string): string | null {
  if (token.length < 3) return null;
  const max = token.length <= 4 ? 1 : 2;
  let best: string | null = null;
  let bestDistance = max + 1;
  for (const w of index.vocabulary) {
    if (Math.abs(w.length - token.length) >= bestDistance) continue;
    const d = editDistance(token, w);
    if (d < bestDistance) {
      best = w;
      bestDistance = d;
    }
  }
  return best;
}

/** Alternatives are worked out for queries of up to this many distinct words (cost bound). */
const MAX_ALTERNATIVE_WORDS = 8;

/** meta.alternatives: for nothing found, and (variant) for categories found; count dropped under a variant. */
function alternatives(ctx: ApiContext, tokens: readonly string[], hits: readonly Hit[]): Json[] {
  const related = ctx.variants.has('alternatives-always') && hits.length > 0;
  const found = related ? foundAlternatives(ctx, tokens, hits) : noMatchAlternatives(ctx, tokens, hits.length);
  // The optional count and drop present with value null where an alternative has none (GEN-8).
  if (ctx.variants.has('alternative-drop-null')) return found.map((alt) => ({ ...alt, count: alt['count'] ?? null, drop: alt['drop'] ?? null }));
  if (!ctx.variants.has('alternatives-without-count')) return found;
  return found.map(({ count: _count, ...rest }) => rest);
}

/** Related searches the client may offer: names of the categories found, then of their parents, other than q. */
function foundAlternatives(ctx: ApiContext, tokens: readonly string[], hits: readonly Hit[]): Json[] {
  const index = catalogIndex(ctx.data);
  const parents = hits.map((h) => h.category.parentId).filter((id) => id !== ctx.data.rootId && ctx.data.categories.has(id));
  const terms = new Set<string>();
  for (const id of [...hits.map((h) => h.category.id), ...parents]) {
    if (terms.size === FOUND_ALTERNATIVES) break;
    const term = (index.categoryWords.get(id) ?? []).join(' ');
    if (term !== '' && term !== tokens.join(' ')) terms.add(term);
  }
  return [...terms].map((term) => ({ term, important: false, count: runSearch(ctx, [...new Set(words(term))]).hits.length })).filter((alt) => alt.count > 0);
}

function noMatchAlternatives(ctx: ApiContext, tokens: readonly string[], found: number): Json[] {
  if (found > 0 || tokens.length === 0 || tokens.length > MAX_ALTERNATIVE_WORDS) return [];
  const index = catalogIndex(ctx.data);
  let base = [...tokens];
  const known = (t: string): boolean => index.vocabulary.some((w) => w.startsWith(t));
  const corrected = tokens.map((t) => (known(t) ? t : (correction(index, t) ?? t)));
  if (corrected.some((t, i) => t !== tokens[i])) {
    const count = runSearch(ctx, corrected).hits.length;
    if (count > 0) return [{ term: corrected.join(' '), important: true, count }];
    base = corrected;
  }
  if (base.length < 2) return [];
  const kept = base.filter((t) => runSearch(ctx, [t]).hits.length > 0);
  if (kept.length === 0 || kept.length === base.length) return [];
  const count = runSearch(ctx, kept).hits.length;
  if (count === 0) return [];
  return [{ term: kept.join(' '), important: false, count, drop: base.map((t) => ({ token: t, dropped: !kept.includes(t) })) }];
}

/** Variant search-fuzzy-fallback: categories listed when nothing matches. */
const FUZZY_FALLBACK_HITS = 3;

/** The categories (not the root) whose name words are nearest to a word of q, by edit distance, then id; match_count 0. */
function nearestCategories(ctx: ApiContext, tokens: readonly string[]): Hit[] {
  if (tokens.length === 0) return [];
  const index = catalogIndex(ctx.data);
  const visible = visibility(ctx);
  const distance = (c: CategoryRecord): number => Math.min(...(index.categoryWords.get(c.id) ?? []).flatMap((w) => tokens.map((t) => editDistance(t, w))), Number.MAX_SAFE_INTEGER);
  return ctx.data.categoryList
    .filter((c) => c.id !== ctx.data.rootId && visible(c.id))
    .map((c) => ({ category: c, count: 0, distance: distance(c) }))
    .sort((a, b) => a.distance - b.distance || a.category.id - b.category.id)
    .slice(0, FUZZY_FALLBACK_HITS)
    .map(({ category, count }) => ({ category, count }));
}

function containsRun(haystack: readonly string[], needle: readonly string[]): boolean {
  if (needle.length === 0 || needle.length > haystack.length) return false;
  for (let i = 0; i + needle.length <= haystack.length; i++) {
    if (needle.every((w, j) => haystack[i + j] === w)) return true;
  }
  return false;
}

/** family_id on a search category: on the strong match only, or (variants) on all or none. */
function familyIdShown(ctx: ApiContext, strong: boolean): boolean {
  if (ctx.variants.has('family-id-in-search') || ctx.variants.has('category-listings-full')) return true;
  if (ctx.variants.has('family-id-not-in-search')) return false;
  return strong;
}

function searchCategory(ctx: ApiContext, c: CategoryRecord, count: number, strong: boolean): Json {
  const out = serializeCategory(c, { view: 'list', version: ctx.version, fault: ctx.fault, variants: ctx.variants });
  if (familyIdShown(ctx, strong)) out['family_id'] = categoryFamilyId(c, ctx.variants);
  if (ctx.fault !== 'search-match-count-missing') out['match_count'] = ctx.fault === 'match-count-as-string' ? String(count) : count;
  else delete out['match_count'];
  return applyVersion('category', out, ctx.version);
}

function strongMatches(ctx: ApiContext, tokens: readonly string[], outcome: Outcome): Json {
  const index = catalogIndex(ctx.data);
  const visible = visibility(ctx);
  const key = tokens.join(' ');
  // Variant strong-matches-null: every kind present, null until a match fills it.
  const out: Json = ctx.variants.has('strong-matches-null') ? { category: null, manufacturer: null, sku: null } : {};
  const category = ctx.data.categoryList.find((c) => visible(c.id) && (index.categoryWords.get(c.id) ?? []).join(' ') === key);
  if (category) {
    const count = outcome.hits.find((h) => h.category.id === category.id)?.count ?? 0;
    out['category'] = searchCategory(ctx, category, count, true);
  }
  let manufacturer: { id: number; size: number } | null = null;
  for (const m of ctx.data.manufacturers.values()) {
    const mw = index.manufacturerWords.get(m.id) ?? [];
    if (!containsRun(tokens, mw)) continue;
    if (!manufacturer || mw.length > manufacturer.size || (mw.length === manufacturer.size && m.id < manufacturer.id)) {
      manufacturer = { id: m.id, size: mw.length };
    }
  }
  if (manufacturer) out['manufacturer'] = serializeManufacturer(ctx.data.manufacturers.get(manufacturer.id)!);
  const sku = outcome.skus.find((s) => words(s.name).join(' ') === key || words(s.display_name).join(' ') === key) ?? (outcome.skus.length === 1 ? outcome.skus[0] : undefined);
  if (sku) out['sku'] = serializeSku(sku, ctx);
  return out;
}

function search(ctx: ApiContext): ApiResult {
  const q = (ctx.query.get('q') ?? '').trim().replace(/\s+/g, ' ');
  // The bug: the length check lets one character through.
  const min = ctx.fault === 'search-short-query-accepted' ? 1 : MIN_QUERY_LENGTH;
  if ([...q].length < min) {
    // The bug: the refusal is sent as a bad request.
    const status = ctx.fault === 'short-query-answered-400' ? 400 : 422;
    throw new ApiError(status, 'InvalidSearch', [`The search query must have at least ${MIN_QUERY_LENGTH} characters, got ${[...q].length}`]);
  }
  const queryWords = words(q);
  const tokens = [...new Set(queryWords)];
  // The bugs: an empty index finds nothing; a query builder that drops q (every word begins with '') finds everything.
  // ... or drops q past the first page (a filter lost on page 2).
  const dropsQ = ctx.fault === 'search-matches-everything' || (ctx.fault === 'search-q-dropped-past-page-1' && Number(ctx.query.get('page') ?? 1) > 1);
  const asked = ctx.fault === 'search-finds-nothing' ? { hits: [], skus: [] } : runSearch(ctx, dropsQ ? [''] : tokens);
  // Variant search-applies-important-alternative: nothing found, the service searches the important alternative itself.
  const applied = asked.hits.length === 0 && ctx.variants.has('search-applies-important-alternative') ? importantAlternative(ctx, tokens) : null;
  const appliedWords = applied === null ? queryWords : words(applied);
  const found = applied === null ? asked : runSearch(ctx, [...new Set(appliedWords)]);
  const outcome = found.hits.length === 0 && ctx.variants.has('search-fuzzy-fallback') ? { hits: nearestCategories(ctx, tokens), skus: [] } : found;
  if (ctx.fault === 'search-no-match-404' && outcome.hits.length === 0) {
    throw new ApiError(404, 'RecordNotFound', [`No category matches "${q.slice(0, 64)}"`]);
  }
  const offered = applied === null ? alternatives(ctx, tokens, outcome.hits) : [];
  const strong = strongMatches(ctx, appliedWords, outcome);
  const shownQ = ctx.variants.has('search-q-as-sent') ? (ctx.query.get('q') ?? '') : ctx.variants.has('search-q-case-folded') ? q.toLowerCase() : q;
  const meta: Json = {
    q: applied ?? shownQ,
    // Blanks (GEN-8): no alternative, no strong match, as null rather than empty (variants).
    alternatives: offered.length === 0 && ctx.variants.has('search-alternatives-null') ? null : offered,
    strong_matches: Object.keys(strong).length === 0 && ctx.variants.has('strong-matches-none-null') ? null : strong,
  };
  return respondMany(ctx, 'categories', outcome.hits, (h) => searchCategory(ctx, h.category, h.count, false), { meta });
}

/** The term of the important alternative of a q that finds nothing, or null. */
function importantAlternative(ctx: ApiContext, tokens: readonly string[]): string | null {
  const important = noMatchAlternatives(ctx, tokens, 0).find((alt) => alt['important'] === true);
  return important ? String(important['term']) : null;
}

// ---------------------------------------------------------------------------------------------
// Autocomplete

interface Suggestion {
  k: string;
  /** null (or -1) for a suggestion that does not hold the typed text (variants autocomplete-fuzzy-*). */
  i: number | null;
  d: { n: string; id: number } | null;
  id: number;
}

/** Index in `phrase` where `q` (lower case) begins a word, or -1. */
function wordStart(phrase: string, q: string): number {
  const lower = phrase.toLowerCase();
  for (let i = lower.indexOf(q); i >= 0; i = lower.indexOf(q, i + 1)) {
    if (i === 0 || !/[\p{L}\p{N}]/u.test(lower[i - 1]!)) return i;
  }
  return -1;
}

function autocomplete(ctx: ApiContext): ApiResult {
  const q = (ctx.query.get('q') ?? '').trim().replace(/\s+/g, ' ').toLowerCase();
  const items: Suggestion[] = [];
  const short = ctx.variants.has('autocomplete-five');
  const limit = short ? AUTOCOMPLETE_LIMIT_SHORT : AUTOCOMPLETE_LIMIT;
  if (q !== '') {
    const visible = visibility(ctx);
    const group = (list: Suggestion[]): Suggestion[] => list.sort((a, b) => (a.i ?? 0) - (b.i ?? 0) || compareNames(a.k, b.k) || a.id - b.id);
    const suggest = (k: string, id: number, d: Suggestion['d']): Suggestion[] => {
      // The bug: q is not applied; every name is suggested from its start.
      const i = ctx.fault === 'autocomplete-ignores-q' ? 0 : wordStart(k, q);
      if (i < 0) return [];
      // Where the completion starts, just after the typed text.
      return [{ k, i: ctx.variants.has('autocomplete-i-after-typed') ? i + q.length : i, d, id }];
    };
    const categories = ctx.data.categoryList.filter((c) => c.id !== ctx.data.rootId && visible(c.id)).flatMap((c) => suggest(c.name, c.id, { n: c.name, id: c.id }));
    const manufacturers = [...ctx.data.manufacturers.values()].flatMap((m) => suggest(m.name, m.id, null));
    const skus = [...ctx.data.skus.values()]
      .filter((s) => visible(s.category_id))
      .flatMap((s) => {
        const c = ctx.data.categories.get(s.category_id);
        return suggest(s.display_name, s.id, c ? { n: c.name, id: c.id } : null);
      });
    const seen = new Set<string>();
    for (const s of [...group(categories), ...group(manufacturers), ...group(skus)]) {
      const k = s.k.toLowerCase();
      if (seen.has(k)) continue;
      seen.add(k);
      items.push(s);
      if (items.length === limit) break;
    }
    if (items.length === 0) items.push(...fuzzySuggestions(ctx, q).slice(0, limit));
  }
  // Variant autocomplete-i-utf8-bytes: i counts the UTF-8 bytes of k before that place.
  const bytes = ctx.variants.has('autocomplete-i-utf8-bytes');
  const indexOf = (s: Suggestion): number | null => (bytes && s.i !== null && s.i > 0 ? Buffer.byteLength(s.k.slice(0, s.i), 'utf8') : s.i);
  const serialize = (s: Suggestion): Json => applyVersion('autocomplete', { k: s.k, i: indexOf(s), ...(s.d ? { d: s.d } : short ? { d: null } : {}) }, ctx.version);
  const result = respondMany(ctx, 'autocomplete', items, serialize, { paginate: false });
  if (ctx.variants.has('autocomplete-with-search-results')) Object.assign(result.body as Json, searchResults(ctx, q));
  return result;
}

/**
 * Variants autocomplete-fuzzy-i-null and autocomplete-fuzzy-i-minus-one: for a mistyped q (one
 * word that begins no known word), the category names holding the nearest known word; i, an index
 * of the typed text in k, is null (or -1) there.
 */
function fuzzySuggestions(ctx: ApiContext, q: string): Suggestion[] {
  const i = ctx.variants.has('autocomplete-fuzzy-i-null') ? null : ctx.variants.has('autocomplete-fuzzy-i-minus-one') ? -1 : undefined;
  const index = catalogIndex(ctx.data);
  if (i === undefined || /\s/.test(q) || index.vocabulary.some((w) => w.startsWith(q))) return [];
  const near = correction(index, q);
  if (near === null) return [];
  const visible = visibility(ctx);
  return ctx.data.categoryList
    .filter((c) => c.id !== ctx.data.rootId && visible(c.id) && wordStart(c.name, near) >= 0)
    .map((c) => ({ k: c.name, i, d: { n: c.name, id: c.id }, id: c.id }));
}

/** Variant autocomplete-with-search-results: the categories and strong matches /search gives for q, beside the suggestions. */
function searchResults(ctx: ApiContext, q: string): Json {
  const queryWords = words(q);
  const outcome = queryWords.length === 0 ? { hits: [], skus: [] } : runSearch(ctx, [...new Set(queryWords)]);
  return {
    categories: outcome.hits.slice(0, AUTOCOMPLETE_LIMIT).map((h) => searchCategory(ctx, h.category, h.count, false)),
    strong_matches: strongMatches(ctx, queryWords, outcome),
  };
}

export const searchRoutes: RouteModule = (router) => {
  router.get('/search', search);
  router.get('/autocomplete', autocomplete);
};
