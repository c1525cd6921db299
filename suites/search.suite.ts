// Spec: Endpoints > Search (GET /search, GET /autocomplete), Resources and their fields > Search
// result meta, Autocomplete item, Category (match_count), General conventions 1-3, Endpoints >
// General rules 2 (pagination), Errors (422 InvalidSearch), Limits (search query length).
// Queries come from discovered data (a leaf category's name, a SKU's name) or are built to match
// nothing: the suite names no id, name or count of any data set. What search matches is not shown,
// so only what every reading gives is required: a SKU's exact name finds that SKU (as the strong
// match) or a category on its path; letters no catalogue holds find nothing (SRCH-8), or, where
// the search matches approximately, not what a catalogue name finds; and an autocomplete
// suggestion has q where its i points (where q starts, or where the completion after it starts).
import { describe } from 'vitest';
import { allOf, fail, inContext, isPlainObject, pass, typed } from '../src/checks/check.ts';
import { errorBodyIsWellFormed, hasErrorCode } from '../src/checks/errors.ts';
import { hasCollectionEnvelope, hasStatus } from '../src/checks/http.ts';
import { defaultPageSizeIs25, paginationClauses, paginationMetaIsWellFormed, readPagination, smallPageSize, type Pagination } from '../src/checks/pagination.ts';
import {
  appliedQueryIsTheSentOne,
  carriesMatchCount,
  findsTheSku,
  highlightIndexIsInKey,
  nonsenseAnswerDiffers,
  someSuggestionMatches,
  strongMatchesHoldAtMostOneEach,
} from '../src/checks/search.ts';
import { improbableWord } from '../src/checks/listings.ts';
import { conformanceTest, type ConformanceContext } from '../src/harness/conformance.ts';
import { discoveredQuery, mustCarryRateLimit, prefixOf, searchQuery } from '../src/harness/requests.ts';
import { pathOf } from '../src/rules/api-paths.ts';

type Json = Record<string, unknown>;

interface SearchAnswer {
  categories: Json[];
  meta: Json;
  pagination: Pagination;
}

/** A SKU of the discovered leaf category, with its name and the ids of its category's path (root first). */
async function discoveredSku(t: ConformanceContext): Promise<{ id: number; name: string; pathIds: number[] }> {
  const leafId = await t.discover('leafCategory');
  const category = await t.api.get(pathOf('GET /categories/:id', { id: leafId }));
  t.require(hasStatus(category, 200), 'CAT-16');
  const detail = t.json<{ category?: Json }>(category, 'GEN-4')?.category;
  // Adult content reached search in 3.2.0 (Change history): an adult leaf is not asked for.
  if (isPlainObject(detail) && detail['adult'] === true) t.skip(`category ${leafId} is adult content, which search shows only from 3.2.0`);
  const listing = await t.api.get(pathOf('GET /categories/:category_id/skus', { category_id: leafId }));
  t.require(hasStatus(listing, 200), 'CAT-26');
  const skus = (t.json<{ skus?: unknown }>(listing, 'GEN-4')?.skus ?? []) as unknown[];
  // An offered SKU (not future, in some shop): a search may leave the others out.
  const sku = skus
    .filter(isPlainObject)
    .find((s) => Number.isInteger(s['id']) && typeof s['name'] === 'string' && s['name'].trim().length >= 2 && s['future'] !== true && s['shop_count'] !== 0);
  if (!sku) return t.skip(`category ${leafId} lists no offered SKU with a name to search for`);
  const path =
    isPlainObject(detail) && typeof detail['path'] === 'string'
      ? detail['path']
          .split(',')
          .map((id) => Number(id.trim()))
          .filter(Number.isInteger)
      : [];
  const own = Number.isInteger(sku['category_id']) ? (sku['category_id'] as number) : leafId;
  return { id: sku['id'] as number, name: (sku['name'] as string).trim(), pathIds: [...new Set([...path, own, leafId])] };
}

/** GET /search; stops the test unless it is 200 {categories, meta.pagination}. */
async function search(t: ConformanceContext, query: Record<string, string | number>, ...requirements: string[]): Promise<SearchAnswer> {
  const response = await t.api.get(pathOf('GET /search'), { query });
  t.require(hasStatus(response, 200), ...requirements);
  const body = t.json<Json>(response, 'GEN-4');
  t.require(hasCollectionEnvelope(body, 'categories'), 'GEN-7', 'SRCH-7');
  t.require(typed(body['meta'], isPlainObject(body['meta']), `meta is ${JSON.stringify(body['meta'])}, expected {q, alternatives, strong_matches, pagination}`), 'SRCH-7');
  t.require(paginationMetaIsWellFormed(body), 'PAG-1', 'SRCH-7');
  return { categories: body['categories'] as Json[], meta: body['meta'] as Json, pagination: readPagination(body)! };
}

/** Everything the spec states of one search answer, whatever it found. */
function checkSearchAnswer(t: ConformanceContext, answer: SearchAnswer, q: string, requested: { page?: number; per?: number } = {}): void {
  const { categories, meta, pagination } = answer;
  t.schema('responses/search.json', { categories, meta }, 'SRCH-7', 'SRCH-2', 'SRCH-3', 'SRCH-5', 'CAT-4');
  t.must(allOf(categories.map((c) => carriesMatchCount(c))), 'CAT-14', 'CAT-4');
  t.must(strongMatchesHoldAtMostOneEach(meta['strong_matches']), 'SRCH-5', 'SRCH-1');
  for (const [check, id] of paginationClauses(pagination, categories.length, requested)) t.must(check, id);
  // "the applied query": a service may correct or normalise it, so a difference is only noted.
  if (typeof meta['q'] === 'string') t.warn(appliedQueryIsTheSentOne(q, meta['q']), 'SRCH-2');
  t.undocumentedFields('resources/search-meta.json', meta, 'search meta', 'SRCH-7');
  t.undocumentedFields('resources/strong-matches.json', meta['strong_matches'], 'meta.strong_matches', 'SRCH-5');
  if (isPlainObject(meta['strong_matches'])) {
    t.undocumentedFields('resources/manufacturer.json', meta['strong_matches']['manufacturer'], 'strong_matches.manufacturer', 'SRCH-5');
  }
}

describe('GET /search', () => {
  conformanceTest(
    'a query from the catalogue answers 200 {categories, meta: {q, alternatives, strong_matches, pagination}}, match_count on each category',
    {
      id: 'search-envelope',
      clauses: ['CAT-14#1-2', 'PAG-1#1-5', 'PAG-2#1', 'SRCH-2#1', 'SRCH-3#1', 'SRCH-5#1-3', 'SRCH-7#1-3'],
      requirements: ['SRCH-7', 'SRCH-2', 'SRCH-3', 'SRCH-5', 'CAT-14', 'PAG-1', 'PAG-2'],
      readings: ['SRCH-7.a-h', 'SRCH-2.a-e', 'SRCH-3.a-g', 'SRCH-5.a-f', 'CAT-14.a-e', 'PAG-1.a-e', 'PAG-2.a-e'],
      requests: 2,
    },
    async (t) => {
      const q = await discoveredQuery(t);
      const answer = await search(t, { q }, 'SRCH-7', 'SRCH-12');
      checkSearchAnswer(t, answer, q);
      t.must(defaultPageSizeIs25(answer.pagination), 'PAG-2');
      if (answer.categories[0]) t.undocumentedFields('resources/search-category.json', answer.categories[0], 'a search category', 'CAT-4');
    },
  );

  conformanceTest(
    "a SKU's exact name finds it: the SKU as the strong match, or a category on its path among those listed",
    {
      id: 'exact-sku-name-found',
      clauses: ['SRCH-1#1', 'SRCH-5#1-2', 'SRCH-5#5', 'SRCH-7#1-3'],
      requirements: ['SRCH-1', 'SRCH-7', 'SRCH-5'],
      readings: ['SRCH-1.a-g', 'SRCH-7.a-h', 'SRCH-5.a-f'],
      requests: 3,
    },
    async (t) => {
      const sku = await discoveredSku(t);
      const answer = await search(t, { q: sku.name }, 'SRCH-7', 'SRCH-12');
      checkSearchAnswer(t, answer, sku.name);
      const { result, onLaterPage } = findsTheSku(answer.categories, answer.meta['strong_matches'], sku, answer.pagination.total_pages > 1);
      if (onLaterPage) t.warn(inContext('(the first page only; later pages were not read)', result), 'SRCH-1');
      // What search finds (SRCH-1); SRCH-8 is what a query that matches nothing gets, judged by no-match-empty.
      else t.must(result, 'SRCH-1');
    },
  );

  conformanceTest(
    'page and per select a page of the results: meta.pagination echoes them',
    {
      id: 'page-and-per',
      clauses: ['PAG-1#1-5', 'PAG-3#1', 'PAG-3#3', 'PAG-4#1', 'SRCH-7#1-4'],
      requirements: ['SRCH-7', 'PAG-3', 'PAG-4', 'PAG-1'],
      readings: ['SRCH-7.a-h', 'PAG-3.a-g', 'PAG-4.a-h', 'PAG-1.a-e'],
      requests: 4,
    },
    async (t) => {
      // The first letters of a discovered name: a broad query, likely to find more than one page.
      // The per that splits it in two or three pages, as the pagination suite chooses it for the
      // same query (searchQuery): the run asks these pages once for both (issue 17).
      const q = await searchQuery(t);
      const all = await search(t, { q }, 'SRCH-7');
      const per = smallPageSize(all.pagination.total_results) ?? t.skip(`q=${q} finds ${all.pagination.total_results} categories: no second page`);
      const first = await search(t, { q, per }, 'SRCH-7', 'PAG-4');
      checkSearchAnswer(t, first, q, { page: 1, per });
      if (first.pagination.total_pages < 2) t.skip(`q=${q} finds ${first.pagination.total_results} categories: no second page at per=${per}`);
      const second = await search(t, { q, per, page: 2 }, 'SRCH-7', 'PAG-3');
      checkSearchAnswer(t, second, q, { page: 2, per });
      const firstIds = new Set(first.categories.map((c) => c['id']));
      const shared = second.categories.filter((c) => firstIds.has(c['id'])).map((c) => String(c['id']));
      t.must(shared.length === 0 ? pass() : fail(`pages 1 and 2 of q=${q} both list categories ${shared.join(', ')}`), 'PAG-3');
    },
  );

  conformanceTest(
    'a query that matches nothing answers 200 with an empty categories array and the meta',
    {
      id: 'no-match-empty',
      clauses: ['PAG-1#1-5', 'SRCH-7#1-2', 'SRCH-8#1'],
      requirements: ['SRCH-8', 'SRCH-7', 'PAG-1'],
      readings: ['SRCH-8.a-c', 'SRCH-7.a-h', 'PAG-1.a-e'],
      requests: 3,
    },
    async (t) => {
      const q = improbableWord();
      const answer = await search(t, { q }, 'SRCH-8');
      checkSearchAnswer(t, answer, q);
      if (answer.categories.length > 0) {
        // Letters in no language's order: an exact search finds nothing, a fuzzy one may still
        // match them. Only a search that ignores q gives them what it gives a catalogue name.
        const name = await discoveredQuery(t);
        const named = await search(t, { q: name }, 'SRCH-7');
        const ids = (found: SearchAnswer) => found.categories.map((c) => c['id']);
        // q is not applied: a query that matches nothing finds what a name finds (SRCH-8), which finds its own matches all the same.
        t.must(
          nonsenseAnswerDiffers({ q, ids: ids(answer), total: answer.pagination.total_results }, { q: name, ids: ids(named), total: named.pagination.total_results }),
          'SRCH-8',
        );
        return t.skip(
          `q=${q}, letters no catalogue holds, found ${answer.pagination.total_results} categories: the search matches approximately (the spec does not say how q matches), so a query that matches nothing cannot be made`,
        );
      }
      t.must(answer.pagination.total_results === 0 ? pass() : fail(`no category matches q=${q}, yet total_results is ${answer.pagination.total_results}`), 'SRCH-8', 'PAG-1');
    },
  );

  conformanceTest(
    'a query of 2 characters is long enough: 200, not 422',
    { id: 'two-char-query-ok', clauses: ['SRCH-7#1-3', 'SRCH-12#2'], requirements: ['SRCH-12', 'SRCH-7'], readings: ['SRCH-12.a-f', 'SRCH-7.a-h'], requests: 1 },
    async (t) => {
      // The query the search and pagination suites page through, when it is 2 characters (the run has its answer).
      const shared = await searchQuery(t);
      // Two letters of the Basic Multilingual Plane are 2 characters however they are counted (UTF-16
      // units, code points, graphemes); an astral letter or a combining mark is not.
      const q = /^\p{L}{2}$/u.test(shared) && shared.length === 2 ? shared : 'zq';
      const answer = await search(t, { q }, 'SRCH-12', 'SRCH-7');
      checkSearchAnswer(t, answer, q);
    },
  );

  conformanceTest(
    'a query of 1 character answers 422 with the error body and code InvalidSearch, with the rate-limit headers',
    {
      id: 'one-char-query-422',
      clauses: ['RATE-4#1', 'RATE-5#1-2', 'RATE-6#1-2', 'RATE-7#1-2', 'ERR-2#1-3', 'ERR-15#1-2', 'SRCH-9#1', 'SRCH-12#1'],
      requirements: ['SRCH-9', 'SRCH-12', 'ERR-15', 'ERR-2', 'RATE-4', 'RATE-5', 'RATE-6', 'RATE-7'],
      readings: ['SRCH-9.a-g', 'SRCH-12.a-f', 'ERR-15.a-h', 'ERR-2.a-h', 'RATE-4.a-d', 'RATE-5.a-c', 'RATE-6.a-d', 'RATE-7.a-d'],
      requests: 1,
    },
    async (t) => {
      const response = await t.api.get(pathOf('GET /search'), { query: { q: 'e' } });
      mustCarryRateLimit(t, response.headers, `the ${response.status} to GET /search?q=e`);
      t.require(hasStatus(response, 422), 'SRCH-9', 'SRCH-12', 'ERR-15');
      if (!t.has('normalized-errors')) return; // the error format (and its codes) before 3.1.0 is not shown
      const body = t.json(response, 'GEN-4');
      t.must(errorBodyIsWellFormed(body), 'ERR-2');
      t.must(hasErrorCode(body, 'InvalidSearch'), 'ERR-15');
    },
  );
});

describe('GET /autocomplete', () => {
  conformanceTest(
    'answers 200 {autocomplete: [item]}, each item {k, i, d?} with i an index into k',
    {
      id: 'autocomplete',
      clauses: ['SRCH-6#1-5', 'SRCH-10#1-2', 'CHG-7#2'],
      requirements: ['SRCH-10', 'SRCH-6', 'CHG-7', 'GEN-7'],
      readings: ['SRCH-10.a-i', 'SRCH-6.a-h', 'CHG-7.a-h', 'GEN-7.a-e'],
      requests: 2,
    },
    async (t) => {
      // A prefix of the discovered name's first word: what a user types before choosing.
      const q = prefixOf(await discoveredQuery(t), 3);
      const response = await t.api.get(pathOf('GET /autocomplete'), { query: { q } });
      t.require(hasStatus(response, 200), 'SRCH-10');
      const body = t.json<Json>(response, 'GEN-4');
      t.require(hasCollectionEnvelope(body, 'autocomplete'), 'GEN-7', 'SRCH-10');
      const items = body['autocomplete'] as unknown[];
      t.schema('responses/autocomplete.json', body, 'SRCH-10', 'SRCH-6', 'CHG-7');
      // i arrived in 3.0.23 (CHG-7): whether an item must carry it is the schema's call, by version.
      // An index into k, its end included (just after the typed text, when k is what was typed).
      t.must(allOf(items.filter((item) => isPlainObject(item) && 'i' in item).map((item) => highlightIndexIsInKey(item))), 'SRCH-6');
      // Suggestions for what the user typed: one at least has it where its i points (starting or
      // ending there: "usable as the highlight start" says neither).
      t.must(someSuggestionMatches(items, q), 'SRCH-6', 'SRCH-10');
      if (items[0]) t.undocumentedFields('resources/autocomplete-item.json', items[0], 'an autocomplete item', 'SRCH-6');
    },
  );
});
