// Spec: Resources and their fields > General conventions 5 (embed=<name>, embed_ids=<name>,
// include=<name>), 6 (known linked names: address on locations, group on specifications, shop on
// a product; sku_review on a review vote is a write, not drawn at random: the reviews suite
// judges embed=sku_review on a vote, REV-27), 7 (sparse
// fieldsets: fields[<target>], fields_except[<target>], the exclusion after the inclusion, an
// association not named stays complete); Versioning > Change history 3.1.1 ("sparse fieldsets").
//
// Property-based (fast-check): each property draws requests and judges each answer against the
// answer to the same request without the parameter under test, so no rule needs an id, a name or
// a count of any data set (the resources come from discovery).
// 1. fields[root]=A, fields_except[root]=B, or both, on single resources and collections, with A
//    and B drawn from the fields the spec documents for the resource that the endpoint serves:
//    exactly the fields of A stay, the fields of B go, and with both A minus B stays. Every GET
//    whose answer is a resource of "Resources and their fields" is a row (41: rootRows and
//    DERIVED_ROWS; search, autocomplete and shop search ask a discovered name or a part of it,
//    single manufacturers, favorites and locations an id from their listing and a notification
//    from discovery, as the other suites ask them, so that their answers serve as well); each
//    row is asked once with both parameters before the random cases. Not rows: GET /user/avatars
//    (strings, no fields) and the edit form of a review (it needs a review of the user's own, a
//    write; its resource is the new-review form's). The user's favorites, lists, addresses, saved orders and
//    notifications may change meanwhile (other tests write them): their items are paired by id,
//    id is never drawn out, and a single one gone meanwhile is not judged. The user's own single
//    resources (the review and address forms, the personalization, a favorite, a notification)
//    are drawn from the fields the spec requires, and their answer without fieldsets is asked
//    only when the answer with them does not show exactly the fields that stay (Resource.lazy).
// 2. embed / embed_ids / include of a known linked name, with or without fields[root] and
//    fields[<name>] / fields_except[<name>]: embed gives the objects (trimmed by fields[<name>],
//    complete when no fields parameter names it), embed_ids an array of ids, include ids in each
//    parent plus a top-level array whose objects resolve every id.
// Each property first tries the combinations its rules turn on (the same field in A and B, each
// parameter alone, a root fieldset next to an embedded association, embed_ids and include alone,
// an association's fieldset with embed and with include), then a few random ones.
// What the spec leaves open passes either way:
// - the deployment's own fields (beyond the documented ones): their fate under a fieldset only
//   warns (the spec's fieldsets speak of the fields it documents; "keeps only the listed fields"
//   would remove them, so a kept one is noted), as does a field that appears only under the
//   fieldset;
// - a field the spec documents but this endpoint does not serve is never drawn (whether naming it
//   is an error is not stated);
// - the keys embed_ids and include add to a parent (<name>_ids, <name>_id, <name>, ...) and the
//   key of include's top-level array (<name>, its plural, ...) are not named: any key the
//   parameter adds is accepted, an array for embed_ids, ids or arrays of ids for include (the
//   reference uses <name>_ids, <name>_id and the plural);
// - whether fields[root] removes the keys a link parameter adds when it does not list them: both
//   readings pass (a listed or not excluded one must stay);
// - include on a single resource (the spec gives it on collections only) is not asked.
// A failure shows the fast-check seed, the path and the shrunk counterexample as the exact request
// (asked once more, so the exchange and its curl line are in the report); CATALOGUE_SEED=<seed>
// replays the same requests. The runs scale with the run's request budget.
// Before 3.1.1 there were no fieldsets: the fieldset properties skip (the link property runs
// without fieldsets), and one test asks version=3.0 with fields[root] and expects it ignored.
import fc from 'fast-check';
import { describe } from 'vitest';
import { blank, fail, inContext, isPlainObject, show, type CheckResult } from '../src/checks/check.ts';
import {
  addedKeys,
  describeFieldset,
  embedIdsIsArrayOfIds,
  byObject,
  fieldsetQuery,
  includedArrayKeys,
  includeResolves,
  keeps,
  linkedObjects,
  pairById,
  ruleOf,
  fieldsetProblems,
  missingFields,
  type Fieldset,
  type FieldsetRule,
  type Json,
} from '../src/checks/fieldsets.ts';
import { DEFAULT_MAX_REQUESTS, scaledToBudget } from '../src/budget/budget.ts';
import { PrerequisiteMissing } from '../src/harness/api.ts';
import { conformanceTest, type ConformanceContext, type DiscoveryRole } from '../src/harness/conformance.ts';
import { prefixOf, shopSearchTerm } from '../src/harness/requests.ts';
import type { HttpResponse } from '../src/http/client.ts';
import { SchemaRegistry } from '../src/schemas/validator.ts';
import { fieldSince } from '../src/schemas/versioned-fields.ts';

/**
 * Read by src/runner/passes.ts: this suite runs after the other readers. Its answers without fieldsets (one
 * per endpoint) are mostly GETs those suites made already, which the run then reuses (issue 17).
 */
export const RUNS_AFTER_THE_OTHER_READERS = true;

// ---------------------------------------------------------------------------------------------
// Seed and scale

/** Random cases of a property, given at the default budget, scaled to the run's (each case is one request). */
const runsFor = (atDefaultBudget: number, budget = DEFAULT_MAX_REQUESTS): number => scaledToBudget(atDefaultBudget, budget, 1);

/** Requests a property may spend on shrinking a failure, and the one that asks the counterexample again. */
const SHRINK_REQUESTS = 12;

/**
 * Random cases after the examples, at the default budget (a larger budget draws more). Few: the
 * examples already ask every row with both parameters and each form of each parameter once
 * (issue 17: a run spends a small part of the deployment's daily calls).
 */
const ROOT_RANDOM = 1;
const LINK_RANDOM = 2;

/** Runs reserved from the budget, at the default budget's scale (a larger budget draws on what is left). */
const ROOT_RUNS = runsFor(ROOT_RANDOM);
const ROOT_SETUP = 1; // a products listing (then one answer without fieldsets per row: ROOT_ROWS)
const LINK_RUNS = runsFor(LINK_RANDOM);
const LINK_SETUP = 25; // a products listing, up to 3 location listings, 21 answers without fieldsets

/** The seed for this test's properties: CATALOGUE_SEED, else the run's (printed with every failure, and recorded in results.json). */
function seedOf(t: ConformanceContext): { seed: number; given: boolean } {
  if (t.run.seed !== null) return { seed: t.run.seed.seed, given: true };
  return { seed: t.run.runSeed, given: false };
}

// ---------------------------------------------------------------------------------------------
// Properties over requests

const schemas = SchemaRegistry.shared();
const documentedOf = (schemaId: string): Set<string> => new Set(schemas.documentedFields(schemaId));

interface Finding {
  result: CheckResult;
  ids: string[];
}

/** What one answer of a property broke: MUST findings fail the run, WARN ones are noted. */
interface Verdict {
  must: Finding[];
  warn: Finding[];
}

const noFinding = (): Verdict => ({ must: [], warn: [] });

function add(list: Finding[], result: CheckResult, ids: string[]): void {
  if (!result.ok) list.push({ result, ids });
}

/** A blank finding (a null where the spec types a value, GEN-8): a warning, even among the MUST findings. */
const isBlank = (f: Finding): boolean => !f.result.ok && f.result.blank === true;

interface Request {
  path: string;
  query: Record<string, string>;
  /** The run's user token for the user's own resources; else the application token. */
  auth?: 'user';
}

/** "GET <exact URL> (readable query)" */
function describeRequest(t: ConformanceContext, request: Request): string {
  const url = t.api.url(request.path, request.query);
  const readable = Object.entries(request.query)
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  return `GET ${url}${readable ? ` (${readable})` : ''}`;
}

const messagesOf = (findings: Finding[]): string =>
  findings.map((f) => (f.result.ok ? '' : f.result.message)).filter((m) => m !== '').join('; ');
const idsOf = (findings: Finding[]): string[] => [...new Set(findings.flatMap((f) => f.ids))];

/** Stops the property without counting a failure (budget, no usable answer): rethrown after the run. */
class Aborted {
  constructor(readonly error: unknown) {}
}

/**
 * Runs a property whose every run is one GET: the examples first, then `runs` random cases from
 * the seed; a failure is shrunk within SHRINK_REQUESTS, asked once more, and recorded with the
 * seed, the path and the exact request. Warnings are recorded once each (first three).
 */
async function checkProperty<C>(
  t: ConformanceContext,
  name: string,
  arbitrary: fc.Arbitrary<C>,
  options: {
    runs: number;
    examples: C[];
    request: (c: C) => Request;
    /** May ask once more (a lazy row's answer without fieldsets). */
    judge: (c: C, response: HttpResponse) => Verdict | Promise<Verdict>;
    /** The seed, when the caller drew examples from it too. */
    seed?: { seed: number; given: boolean };
  },
): Promise<void> {
  const { seed, given } = options.seed ?? seedOf(t);
  let spent = 0;
  let aborted: Aborted | null = null;
  const warnings = new Map<string, { finding: Finding; request: Request }>();
  const limit = options.runs + options.examples.length + SHRINK_REQUESTS - 1;
  const property = fc.asyncProperty(arbitrary, async (c) => {
    if (aborted || spent >= limit) return true;
    spent++;
    const request = options.request(c);
    let verdict: Verdict;
    try {
      verdict = await options.judge(c, await t.api.get(request.path, { query: request.query, auth: request.auth ?? 'app' }));
    } catch (error) {
      aborted = new Aborted(error);
      return true;
    }
    for (const w of [...verdict.warn, ...verdict.must.filter(isBlank)]) {
      const key = `${w.ids.join(',')} ${w.result.ok ? '' : w.result.message.replace(/\d+/g, '#')}`;
      if (!warnings.has(key)) warnings.set(key, { finding: w, request });
    }
    return verdict.must.every(isBlank);
  });
  const details = await fc.check(property, { seed, numRuns: options.runs + options.examples.length, examples: options.examples.map((e) => [e] as [C]) });
  const stopped = aborted as Aborted | null;
  if (stopped) throw stopped.error;

  for (const { finding, request } of [...warnings.values()].slice(0, 3)) {
    t.warn(inContext(describeRequest(t, request), finding.result), ...finding.ids);
  }
  if (!details.failed || details.counterexample === null) return;

  // The shrunk counterexample, asked once more: its exchange is the finding's evidence.
  const counterexample = details.counterexample[0];
  const request = options.request(counterexample);
  const again = await options.judge(counterexample, await t.api.get(request.path, { query: request.query, auth: request.auth ?? 'app' }));
  const where =
    `${name}: failed after ${details.numRuns} run(s) and ${details.numShrinks} shrink(s) ` +
    `(fast-check seed ${details.seed}${given ? ', from CATALOGUE_SEED' : ''}, path ${details.counterexamplePath}; CATALOGUE_SEED=${details.seed} replays it). ` +
    `Shrunk counterexample: ${describeRequest(t, request)}`;
  const hard = again.must.filter((f) => !isBlank(f));
  if (hard.length) {
    t.must(fail(`${where}: ${messagesOf(hard)}`), ...idsOf(hard));
  } else {
    t.must(fail(`${where}: it failed during the run, but passed when asked again (the answers change between requests)`), ...(PROPERTY_IDS[name] ?? ['FIELDS-1']));
  }
}

/** The requirement ids a property stands for, when a failure cannot be reproduced. */
const PROPERTY_IDS: Record<string, string[]> = {};

// ---------------------------------------------------------------------------------------------
// Resources and their answers without fieldsets

interface Resource {
  /** The spec's endpoint, for messages. */
  endpoint: string;
  path: string;
  /** Singular key of a single resource, plural key of a collection. */
  key: string;
  single: boolean;
  /** What one item is called in messages. */
  noun: string;
  /** Schema of one item (schemas/resources/). */
  schema: string;
  /** 'user' for the user's own resources. */
  auth?: 'user';
  /** Query every request of the row carries (a search's q). */
  query?: Record<string, string>;
  /**
   * Other tests of the run may add or remove its items meanwhile (the user's favorites, lists,
   * addresses, notifications): items are paired by id only, a different number of items is not
   * judged, id is never drawn out of a fieldset, and a single resource gone meanwhile (404) is not
   * judged.
   */
  shared?: true;
  /**
   * The user's own single resources (the review and address forms, the personalization, a
   * favorite, a notification): the run's other tests write the user's data, so another test's
   * answer of them is seldom still fresh to reuse. Their fields are drawn from those the spec
   * requires, and their answer without fieldsets is asked only when an answer with fieldsets
   * does not show exactly the fields that must stay (issue 17: a request fewer each).
   */
  lazy?: true;
}

/** The items of an answer: the object under the singular key, or the array under the plural one; null when the envelope is not there. */
function itemsOf(body: unknown, r: Resource): Json[] | null {
  if (!isPlainObject(body)) return null;
  const value = body[r.key];
  if (r.single) return isPlainObject(value) ? [value] : null;
  return Array.isArray(value) && value.every(isPlainObject) ? value : null;
}

const labelOf = (r: Resource, item: Json, index: number): string =>
  r.single ? r.noun : Number.isInteger(item['id']) ? `${r.noun} ${String(item['id'])}` : `${r.noun} #${index + 1}`;

/** The body and items of an answer, or why they are not usable. */
function readAnswer(response: HttpResponse, r: Resource): { body: Json; items: Json[] } | string {
  if (response.status !== 200) return `answered ${response.status}, not 200`;
  let body: unknown;
  try {
    body = response.json();
  } catch {
    return 'answered a body that is not JSON';
  }
  const items = itemsOf(body, r);
  if (!items) return `answered no ${r.single ? 'object' : 'array'} under "${r.key}"`;
  return { body: body as Json, items };
}

/** GET without fieldsets; null (with the reason in `notes`) when the answer is not usable: the endpoint's own suite judges that. */
async function baseline(t: ConformanceContext, r: Resource, extra: Record<string, string>, notes: string[]): Promise<{ body: Json; items: Json[] } | null> {
  const query = { ...r.query, ...extra };
  let response: HttpResponse;
  try {
    response = await t.api.get(r.path, { query, auth: r.auth ?? 'app' });
  } catch (error) {
    // No user token: the user's resources are left out, the others still judged.
    if (r.auth === 'user' && error instanceof PrerequisiteMissing) {
      notes.push(`${r.endpoint} left out: ${error.message}`);
      return null;
    }
    throw error;
  }
  const answer = readAnswer(response, r);
  if (typeof answer === 'string') {
    notes.push(`${describeRequest(t, { path: r.path, query })} ${answer}`);
    return null;
  }
  return answer;
}

/** Documented fields the items serve, in the schema's order (what the properties draw from). */
function servedFields(items: readonly Json[], documented: ReadonlySet<string>): string[] {
  const served = new Set(items.flatMap((i) => Object.keys(i)));
  return [...documented].filter((f) => served.has(f));
}

/** The fields the spec requires of a resource in the version the run asks for: served whatever the data. */
function requiredFields(t: ConformanceContext, schemaId: string): string[] {
  const required = (schemas.doc(schemaId)['required'] as string[] | undefined) ?? [];
  return required.filter((f) => {
    const since = fieldSince(schemaId, f);
    return since === null || t.version.serves(since);
  });
}

/** Whether every item has exactly these keys. */
const showsExactly = (items: readonly Json[], fields: readonly string[]): boolean =>
  items.length > 0 && items.every((item) => Object.keys(item).length === fields.length && fields.every((f) => f in item));

const idOf = (value: unknown): number | null => (Number.isInteger(value) ? (value as number) : null);

/** A SKU with offers and its first products (discovery: a bad answer skips). */
async function productsOfASku(t: ConformanceContext): Promise<{ skuId: number; products: Json[] }> {
  const skuId = await t.discover('skuWithProducts');
  const response = await t.api.get(`/skus/${skuId}/products`);
  if (response.status !== 200) return t.skip(`discovery: GET /skus/${skuId}/products answered ${response.status}`);
  const body = response.json<unknown>();
  const products = isPlainObject(body) && Array.isArray(body['products']) ? body['products'].filter(isPlainObject) : [];
  if (!products.length) return t.skip(`discovery: SKU ${skuId} lists no product`);
  return { skuId, products };
}

const fieldsetIds = (rule: FieldsetRule): string[] => (rule === 'inclusion' ? ['FIELDS-1'] : rule === 'exclusion' ? ['FIELDS-2'] : ['FIELDS-4', 'FIELDS-1', 'FIELDS-2']);

/** The fieldset's own ids, first the one its rule stands for (FIELDS-4 when both parameters apply). */
const idsForSet = (set: Fieldset, extra: string[] = []): string[] => [...fieldsetIds(ruleOf(set) ?? 'inclusion'), ...extra];

/** A fieldset drawn from `fields`: fields[t], fields_except[t], or both; `kept` (when served) always stays. */
function fieldsetArbitrary(fields: readonly string[], kept: string | null = null): fc.Arbitrary<Fieldset> {
  if (kept !== null && fields.includes(kept)) {
    const others = fields.filter((f) => f !== kept);
    const only = fc.subarray(others).map((a) => [kept, ...a]);
    if (!others.length) return fc.record({ only });
    const except = fc.subarray(others, { minLength: 1 });
    return fc.oneof(fc.record({ only }), fc.record({ except }), fc.record({ only, except }));
  }
  const some = fc.subarray([...fields], { minLength: 1 });
  return fc.oneof(
    fc.record({ only: some }),
    fc.record({ except: some }),
    fc.record({ only: some, except: some }),
  );
}

/**
 * Both parameters, the exclusion naming some of the included fields: what stays shows the
 * inclusion, the exclusion and their order at once (`kept`, when served, is included and never excluded).
 */
function bothArbitrary(fields: readonly string[], kept: string | null = null): fc.Arbitrary<Fieldset> {
  const keep = kept !== null && fields.includes(kept) ? [kept] : [];
  const others = fields.filter((f) => !keep.includes(f));
  if (!others.length) return fc.constant({ only: keep });
  return fc.subarray(others, { minLength: 1 }).chain((a) => fc.subarray(a, { minLength: 1 }).map((b) => ({ only: [...keep, ...a], except: b })));
}

/** Judges the items of an answer under a fieldset against the items without it. */
function judgeFieldset(
  verdict: Verdict,
  r: Resource,
  got: readonly Json[],
  full: readonly Json[],
  target: string,
  set: Fieldset,
  documented: ReadonlySet<string>,
  ids: string[],
  ignore: ReadonlySet<string> = new Set(),
): void {
  if (!r.shared && got.length !== full.length) {
    add(verdict.must, fail(`${describeFieldset(target, set)}: ${got.length} ${r.noun}(s), ${full.length} without the fieldset`), ids);
    return;
  }
  // Items of a shared row may come and go meanwhile: only those of the same id in both answers are compared.
  const pairs: [Json, Json | undefined][] = r.shared ? got.map((g) => [g, 'id' in g ? full.find((f) => f['id'] === g['id']) : undefined]) : pairById(got, full);
  const entries = pairs.flatMap(([g, f], i) => (f ? [{ label: labelOf(r, g, i), problems: fieldsetProblems(g, f, target, set, documented, ignore) }] : []));
  add(verdict.must, byObject(entries.map((e) => ({ label: e.label, problems: e.problems.broken }))), ids);
  add(verdict.warn, byObject(entries.map((e) => ({ label: e.label, problems: e.problems.noted }))), ids);
}

// ---------------------------------------------------------------------------------------------
// 1. fields[root] and fields_except[root]

interface Served extends Resource {
  /** The items without fieldsets; null for a lazy row until they are needed. */
  full: Json[] | null;
  fields: string[];
  documented: Set<string>;
}

interface RootCase {
  r: number;
  set: Fieldset;
}

const firstId = (items: readonly Json[]): number | null => items.map((i) => idOf(i['id'])).find((id) => id !== null) ?? null;

/**
 * The rows of the root property: every GET whose answer is a resource of the spec's "Resources
 * and their fields" (where the general conventions put sparse fieldsets), asked with ids from
 * discovery. A role the deployment cannot fill leaves its rows out.
 */
async function rootRows(t: ConformanceContext): Promise<Resource[]> {
  const leaf = await t.discover('leafCategory');
  const root = await t.discover('rootCategory');
  const manufacturer = await t.discover('manufacturerWithSkus');
  const { skuId, products } = await productsOfASku(t);
  const product = products[0]!;
  const productId = idOf(product['id']);
  const shopId = idOf(product['shop_id']);
  const optional = async (role: DiscoveryRole): Promise<number | null> => t.discover(role).catch(() => null);
  const reviewed = await optional('skuWithReviews');
  const shopReviewed = await optional('shopWithReviews');
  const favoriteList = await optional('favoriteList');
  const favoritesCategory = await optional('favoritesCategory');
  // Discovery's notification (the first listed, as the oauth suite's probes use it): found now,
  // from the listing the readers got, it costs no request, here or later.
  const notification = await optional('notification');

  const rows: (Resource | null)[] = [
    // Categories
    { endpoint: 'GET /categories', path: '/categories', key: 'categories', single: false, noun: 'category', schema: 'resources/category.json' },
    { endpoint: 'GET /categories/:id', path: `/categories/${leaf}`, key: 'category', single: true, noun: 'category', schema: 'resources/category-detail.json' },
    { endpoint: 'GET /categories/root', path: '/categories/root', key: 'category', single: true, noun: 'category', schema: 'resources/category-detail.json' },
    { endpoint: 'GET /categories/:id/parent', path: `/categories/${leaf}/parent`, key: 'category', single: true, noun: 'category', schema: 'resources/category-detail.json' },
    { endpoint: 'GET /categories/:id/children', path: `/categories/${root}/children`, key: 'categories', single: false, noun: 'category', schema: 'resources/category.json' },
    { endpoint: 'GET /categories/:id/specifications', path: `/categories/${leaf}/specifications`, key: 'specifications', single: false, noun: 'specification', schema: 'resources/specification.json' },
    { endpoint: 'GET /categories/:id/manufacturers', path: `/categories/${leaf}/manufacturers`, key: 'manufacturers', single: false, noun: 'manufacturer', schema: 'resources/manufacturer.json' },
    { endpoint: 'GET /categories/:category_id/filter_groups', path: `/categories/${leaf}/filter_groups`, key: 'filter_groups', single: false, noun: 'filter group', schema: 'resources/filter-group.json' },
    { endpoint: 'GET /categories/:category_id/skus', path: `/categories/${leaf}/skus`, key: 'skus', single: false, noun: 'SKU', schema: 'resources/sku.json' },
    // SKUs, products, reviews
    { endpoint: 'GET /skus/:id/products', path: `/skus/${skuId}/products`, key: 'products', single: false, noun: 'product', schema: 'resources/product.json' },
    { endpoint: 'GET /skus/:id/product_cards', path: `/skus/${skuId}/product_cards`, key: 'product_cards', single: false, noun: 'product card entry', schema: 'resources/product-card.json' },
    { endpoint: 'GET /skus/:id/specifications', path: `/skus/${skuId}/specifications`, key: 'specifications', single: false, noun: 'specification', schema: 'resources/specification.json' },
    { endpoint: 'GET /skus/:id/price_history', path: `/skus/${skuId}/price_history`, key: 'history', single: true, noun: 'price history', schema: 'resources/price-history.json' },
    productId === null ? null : { endpoint: 'GET /products/:id', path: `/products/${productId}`, key: 'product', single: true, noun: 'product', schema: 'resources/product.json' },
    shopId === null || (typeof product['shop_uid'] !== 'string' && typeof product['shop_uid'] !== 'number')
      ? null
      : { endpoint: 'GET /shops/:shop_id/products/search', path: `/shops/${shopId}/products/search`, query: { shop_uid: String(product['shop_uid']) }, key: 'products', single: false, noun: 'product', schema: 'resources/product.json' },
    reviewed === null ? null : { endpoint: 'GET /skus/:id/reviews', path: `/skus/${reviewed}/reviews`, key: 'reviews', single: false, noun: 'review', schema: 'resources/sku-review.json' },
    { endpoint: 'GET /skus/:id/reviews/new', path: `/skus/${skuId}/reviews/new`, key: 'review_form', single: true, noun: 'review form', schema: 'resources/review-form.json', auth: 'user', lazy: true },
    { endpoint: 'GET /flags', path: '/flags', key: 'flags', single: false, noun: 'flag reason', schema: 'resources/flag-reason.json' },
    // Manufacturers and shops
    { endpoint: 'GET /manufacturers', path: '/manufacturers', key: 'manufacturers', single: false, noun: 'manufacturer', schema: 'resources/manufacturer.json' },
    { endpoint: 'GET /manufacturers/:id/categories', path: `/manufacturers/${manufacturer}/categories`, key: 'categories', single: false, noun: 'category', schema: 'resources/category.json' },
    { endpoint: 'GET /manufacturers/:id/skus', path: `/manufacturers/${manufacturer}/skus`, key: 'skus', single: false, noun: 'SKU', schema: 'resources/sku.json' },
    shopId === null ? null : { endpoint: 'GET /shops/:id', path: `/shops/${shopId}`, key: 'shop', single: true, noun: 'shop', schema: 'resources/shop.json' },
    shopId === null ? null : { endpoint: 'GET /shops/:shop_id/locations', path: `/shops/${shopId}/locations`, key: 'locations', single: false, noun: 'location', schema: 'resources/location.json' },
    shopReviewed === null ? null : { endpoint: 'GET /shops/:id/reviews', path: `/shops/${shopReviewed}/reviews`, key: 'reviews', single: false, noun: 'shop review', schema: 'resources/shop-review.json' },
    // The user's own resources, with the run's user token (left out without one).
    { endpoint: 'GET /user', path: '/user', key: 'user', single: true, noun: 'user', schema: 'resources/user.json', auth: 'user' },
    { endpoint: 'GET /user/addresses', path: '/user/addresses', key: 'addresses', single: false, noun: 'address', schema: 'resources/address.json', auth: 'user', shared: true },
    { endpoint: 'GET /user/addresses/new', path: '/user/addresses/new', key: 'address_form', single: true, noun: 'address form', schema: 'resources/address-form.json', auth: 'user', lazy: true },
    { endpoint: 'GET /user/saved_orders', path: '/user/saved_orders', key: 'saved_orders', single: false, noun: 'saved order', schema: 'resources/saved-order.json', auth: 'user', shared: true },
    { endpoint: 'GET /personalization', path: '/personalization', key: 'personalization', single: true, noun: 'personalization', schema: 'resources/personalization.json', auth: 'user', lazy: true },
    { endpoint: 'GET /favorite_lists', path: '/favorite_lists', key: 'favorite_lists', single: false, noun: 'favorite list', schema: 'resources/favorite-list.json', auth: 'user', shared: true },
    favoriteList === null
      ? null
      : { endpoint: 'GET /favorite_lists/:id/favorites', path: `/favorite_lists/${favoriteList}/favorites`, key: 'favorites', single: false, noun: 'favorite', schema: 'resources/favorite.json', auth: 'user', shared: true },
    { endpoint: 'GET /favorites', path: '/favorites', key: 'favorites', single: false, noun: 'favorite', schema: 'resources/favorite.json', auth: 'user', shared: true },
    favoritesCategory === null
      ? null
      : { endpoint: 'GET /categories/:id/favorites', path: `/categories/${favoritesCategory}/favorites`, key: 'favorites', single: false, noun: 'favorite', schema: 'resources/favorite.json', auth: 'user', shared: true },
    { endpoint: 'GET /notifications', path: '/notifications', key: 'notifications', single: false, noun: 'notification', schema: 'resources/notification.json', auth: 'user', shared: true },
    notification === null
      ? null
      : { endpoint: 'GET /notifications/:id', path: `/notifications/${notification}`, key: 'notification', single: true, noun: 'notification', schema: 'resources/notification.json', auth: 'user', shared: true, lazy: true },
  ];
  return rows.filter((r): r is Resource => r !== null);
}

/**
 * Rows asked with what an answer of the first rows gives: a name to search for, an id to ask
 * alone. Keyed by the endpoint of the row whose items they come from.
 */
const DERIVED_ROWS: Record<string, (items: readonly Json[], from: Resource) => Resource[]> = {
  // The discovered category's name for search, and its first 3 letters for autocomplete, as the
  // search suite asks them (whether they match it is not judged here): the run asks them once.
  'GET /categories/:id': (items) => {
    const name = items[0]?.['name'];
    if (typeof name !== 'string' || name.trim().length < 2) return [];
    return [
      { endpoint: 'GET /search', path: '/search', query: { q: name.trim() }, key: 'categories', single: false, noun: 'category', schema: 'resources/search-category.json' },
      { endpoint: 'GET /autocomplete', path: '/autocomplete', query: { q: prefixOf(name.trim(), 3) }, key: 'autocomplete', single: false, noun: 'suggestion', schema: 'resources/autocomplete-item.json' },
    ];
  },
  // The first listed manufacturer, as the manufacturers suite asks it.
  'GET /manufacturers': (items) => {
    const id = firstId(items);
    return id === null ? [] : [{ endpoint: 'GET /manufacturers/:id', path: `/manufacturers/${id}`, key: 'manufacturer', single: true, noun: 'manufacturer', schema: 'resources/manufacturer.json' }];
  },
  'GET /shops/:id': (items) => {
    const name = items[0]?.['name'];
    const q = typeof name === 'string' ? shopSearchTerm(name) : '';
    return q === '' ? [] : [{ endpoint: 'GET /shops/search', path: '/shops/search', query: { q }, key: 'shops', single: false, noun: 'shop', schema: 'resources/shop.json' }];
  },
  // The second listed when there is one, as the shops suite asks (a location that is not the shop's first).
  'GET /shops/:shop_id/locations': (items, from) => {
    const id = idOf(items[1]?.['id']) ?? firstId(items);
    return id === null ? [] : [{ ...from, endpoint: 'GET /shops/:shop_id/locations/:id', path: `${from.path}/${id}`, key: 'location', single: true }];
  },
  'GET /favorites': (items, from) => {
    const id = firstId(items);
    return id === null ? [] : [{ ...from, endpoint: 'GET /favorites/:id', path: `/favorites/${id}`, key: 'favorite', single: true, lazy: true }];
  },
};

/** Most rows rootRows and DERIVED_ROWS give (each costs one answer without fieldsets, and one example). */
const ROOT_ROWS = 41;

async function rootFieldsets(t: ConformanceContext): Promise<void> {
  if (!t.has('sparse-fieldsets')) {
    return t.skip(`sparse fieldsets arrived in 3.1.1 (Change history); the run asks for version ${t.run.apiVersion} (the version=3.0 test judges that they are ignored)`);
  }
  const notes: string[] = [];
  const served: Served[] = [];
  const pending = await rootRows(t);
  const lazy: Resource[] = [];
  for (let r = pending.shift(); r !== undefined; r = pending.shift()) {
    if (r.lazy) {
      lazy.push(r);
      continue;
    }
    const answer = await baseline(t, r, {}, notes);
    if (!answer || answer.items.length === 0) continue;
    pending.push(...(DERIVED_ROWS[r.endpoint]?.(answer.items, r) ?? []));
    const documented = documentedOf(r.schema);
    const fields = servedFields(answer.items, documented);
    if (fields.length >= 1) served.push({ ...r, full: answer.items, fields, documented });
  }
  // Lazy rows once a user row answered (the run has a user token that works); else asked as the others.
  const userAnswered = served.some((s) => s.auth === 'user');
  for (const r of lazy) {
    const documented = documentedOf(r.schema);
    if (userAnswered) {
      const fields = requiredFields(t, r.schema).filter((f) => documented.has(f));
      if (fields.length >= 1) served.push({ ...r, full: null, fields, documented });
      continue;
    }
    const answer = await baseline(t, r, {}, notes);
    if (!answer || answer.items.length === 0) continue;
    const fields = servedFields(answer.items, documented);
    if (fields.length >= 1) served.push({ ...r, full: answer.items, fields, documented });
  }
  if (served.length === 0) return t.skip(`no resource to draw fields from: ${notes.join('; ') || 'every answer was empty'}`);

  const seed = seedOf(t);
  const setsOf = (s: Served): fc.Arbitrary<Fieldset> => fieldsetArbitrary(s.fields, s.shared ? 'id' : null);
  const arbitrary = fc.oneof(...served.map((s, r) => fc.record({ r: fc.constant(r), set: setsOf(s) })));
  // The same field in both parameters, on a single resource and on a collection; fields[root]
  // alone on a single resource and fields_except[root] alone on a collection; then one case of
  // both parameters on every row (drawn from the seed), so every endpoint is judged on inclusion
  // and exclusion before the random cases.
  const examples: RootCase[] = [];
  for (const single of [true, false]) {
    const r = served.findIndex((s) => s.single === single && !s.shared && s.fields.length >= 2);
    if (r < 0) continue;
    const [a, b, c] = served[r]!.fields;
    examples.push({ r, set: { only: [a!, b!, ...(c ? [c] : [])], except: [b!] } });
    examples.push({ r, set: single ? { only: [a!] } : { except: [b!] } });
  }
  served.forEach((s, r) => {
    if (!examples.some((e) => e.r === r)) examples.push({ r, set: fc.sample(bothArbitrary(s.fields, s.shared ? 'id' : null), { seed: seed.seed + r, numRuns: 1 })[0]! });
  });

  /** Lazy rows whose answer without fieldsets turned out not usable: not judged. */
  const unusable = new Set<Served>();
  const name = 'fields[root] / fields_except[root]';
  PROPERTY_IDS[name] = ['FIELDS-1', 'FIELDS-2', 'FIELDS-4'];
  await checkProperty(t, name, arbitrary, {
    runs: runsFor(ROOT_RANDOM, t.run.maxRequests),
    examples,
    seed,
    request: (c) => {
      const s = served[c.r]!;
      return { path: s.path, query: { ...s.query, ...fieldsetQuery('root', c.set) }, ...(s.auth ? { auth: s.auth } : {}) };
    },
    judge: async (c, response) => {
      const s = served[c.r]!;
      const verdict = noFinding();
      // Gone meanwhile: another test of the run deleted it.
      if (s.shared && s.single && response.status === 404) return verdict;
      const ids = idsForSet(c.set);
      const answer = readAnswer(response, s);
      if (unusable.has(s)) return verdict;
      if (s.full === null) {
        // Exactly the fields that must stay (all required, so served): nothing the answer without fieldsets could add.
        if (typeof answer !== 'string' && showsExactly(answer.items, s.fields.filter((f) => keeps(c.set, f)))) return verdict;
        const full = await baseline(t, s, {}, notes);
        if (!full || full.items.length === 0) {
          // Not usable without fieldsets either (not served to this version, say): the endpoint's own suite judges that.
          unusable.add(s);
          return verdict;
        }
        s.full = full.items;
      }
      if (typeof answer === 'string') {
        add(verdict.must, fail(`${describeFieldset('root', c.set)} ${answer}`), ids);
        return verdict;
      }
      judgeFieldset(verdict, s, answer.items, s.full, 'root', c.set, s.documented, ids);
      return verdict;
    },
  });
}

// ---------------------------------------------------------------------------------------------
// 2. embed, embed_ids, include, with fields[root] and fields[<name>]

type LinkMode = 'embed' | 'embed_ids' | 'include';

interface LinkedResource extends Resource {
  /** The linked name (General conventions 6). */
  link: string;
  /** Schema of the linked object. */
  linkSchema: string;
}

interface LinkServed extends LinkedResource {
  /** Answers without link parameter, with embed=<name>, with include=<name> (collections). */
  plain: { body: Json; items: Json[] };
  embedded: { body: Json; items: Json[] };
  included: { body: Json; items: Json[] } | null;
  /** Keys embed / include add to the parents. */
  embedKeys: Set<string>;
  includeKeys: Set<string>;
  rootFields: string[];
  linkFields: string[];
  documented: Set<string>;
  linkDocumented: Set<string>;
}

interface LinkCase {
  r: number;
  mode: LinkMode;
  root: Fieldset | null;
  assoc: Fieldset | null;
}

const LINK_IDS: Record<LinkMode, string> = { embed: 'LINK-1', embed_ids: 'LINK-2', include: 'LINK-3' };

function keysAdded(withLink: readonly Json[], without: readonly Json[]): Set<string> {
  return new Set(pairById(withLink, without).flatMap(([w, o]) => (o ? addedKeys(w, o) : [])));
}

/** The objects embed=<name> put in the items, over every item. */
const embeddedObjects = (items: readonly Json[], link: string): Json[] => items.flatMap((i) => linkedObjects(i[link]) ?? []);

/** Whether any parent links an object with an id (else there is nothing to embed, list or include). */
const linksSomething = (items: readonly Json[], link: string): boolean => embeddedObjects(items, link).some((o) => idOf(o['id']) !== null);

/** The parameters of a case: the fieldsets are sent only with embed and include (FIELDS-3: "an association name used in embed/include"). */
function effective(c: LinkCase): { root: Fieldset | null; assoc: Fieldset | null } {
  return c.mode === 'embed_ids' ? { root: null, assoc: null } : { root: c.root, assoc: c.assoc };
}

function linkRequest(s: LinkServed, c: LinkCase): Request {
  const { root, assoc } = effective(c);
  return { path: s.path, query: { ...s.query, [c.mode]: s.link, ...(root ? fieldsetQuery('root', root) : {}), ...(assoc ? fieldsetQuery(s.link, assoc) : {}) } };
}

function judgeLink(s: LinkServed, c: LinkCase, response: HttpResponse): Verdict {
  const verdict = noFinding();
  const { root, assoc } = effective(c);
  const linkId = LINK_IDS[c.mode];
  const params = describeRequestQuery(linkRequest(s, c).query);
  const answer = readAnswer(response, s);
  if (typeof answer === 'string') {
    add(verdict.must, fail(`${params} ${answer}`), [linkId, 'LINK-4', ...(root || assoc ? ['FIELDS-3'] : [])]);
    return verdict;
  }
  const { body, items } = answer;

  if (c.mode === 'embed_ids') {
    if (items.length !== s.plain.items.length) {
      add(verdict.must, fail(`${params}: ${items.length} ${s.noun}(s), ${s.plain.items.length} without it`), [linkId]);
      return verdict;
    }
    const embeddedById = pairById(items, s.embedded.items);
    pairById(items, s.plain.items).forEach(([item, plain], i) => {
      if (!plain) return;
      const withEmbed = embeddedById[i]![1];
      const objects = withEmbed ? linkedObjects(withEmbed[s.link]) : null;
      const expected = withEmbed === undefined ? null : (objects ?? []).map((o) => idOf(o['id']));
      add(verdict.must, embedIdsIsArrayOfIds(item, plain, s.link, expected, labelOf(s, item, i)), [linkId]);
    });
    return verdict;
  }

  const full = c.mode === 'embed' ? s.embedded : s.included!;
  const linkKeys = c.mode === 'embed' ? new Set([...s.embedKeys, s.link]) : s.includeKeys;
  if (items.length !== full.items.length) {
    add(verdict.must, fail(`${params}: ${items.length} ${s.noun}(s), ${full.items.length} without fieldsets`), [...(root ? idsForSet(root) : []), linkId]);
    return verdict;
  }
  const pairs = pairById(items, full.items);

  // The root fieldset: the root's own fields; a key the link parameter added stays when the fieldset lists it or does not exclude it.
  if (root) {
    judgeFieldset(verdict, s, items, full.items, 'root', root, s.documented, idsForSet(root), linkKeys);
    pairs.forEach(([item, f], i) => {
      if (!f) return;
      const lost = [...linkKeys].filter((k) => k in f && !(k in item) && keeps(root, k));
      if (lost.length) {
        add(verdict.must, fail(`${params}: ${labelOf(s, item, i)} lacks ${lost.join(', ')}, which ${c.mode}=${s.link} adds, although ${describeFieldset('root', root)} does not remove it`), [linkId, ...idsForSet(root)]);
      }
    });
  }

  // The linked objects: trimmed by fields[<name>], complete when no fields parameter names the association.
  const judgeObjects = (pairs: readonly { o: Json; f: Json; label: string }[]) => {
    if (assoc) {
      const entries = pairs.map(({ o, f, label }) => ({ label, problems: fieldsetProblems(o, f, s.link, assoc, s.linkDocumented) }));
      add(verdict.must, byObject(entries.map((e) => ({ label: e.label, problems: e.problems.broken }))), idsForSet(assoc, ['FIELDS-3']));
      add(verdict.warn, byObject(entries.map((e) => ({ label: e.label, problems: e.problems.noted }))), idsForSet(assoc, ['FIELDS-3']));
    } else {
      const why = root ? `no fields parameter names ${s.link} (only ${describeFieldset('root', root)})` : `no fields parameter names ${s.link}`;
      const entries = pairs.map(({ o, f, label }) => {
        const missing = missingFields(o, f);
        return { label, problems: missing.length ? [`lacks ${missing.join(', ')}, which it has without fieldsets, although ${why}`] : [] };
      });
      add(verdict.must, byObject(entries), root ? ['FIELDS-5'] : [linkId]);
    }
  };
  /** Linked objects paired with the same objects answered without fieldsets, labelled for messages. */
  const paired = (got: readonly Json[], whole: readonly Json[], where: string) =>
    pairById(got, whole).flatMap(([o, f], j) => {
      if (!f) return [];
      const id = idOf(o['id']);
      return [{ o, f, label: `${where}${id !== null ? ` (${s.link} ${id})` : got.length > 1 ? ` (#${j + 1})` : ''}` }];
    });

  if (c.mode === 'embed') {
    const objects = pairs.flatMap(([item, f], i) => {
      if (!f || !(s.link in item)) return []; // a missing key: judged above, or a reading of fields[root]
      const whole = linkedObjects(f[s.link]);
      if (!whole) return [];
      const got = linkedObjects(item[s.link]);
      if (!got) {
        const message = `${labelOf(s, item, i)} has ${s.link}: ${show(item[s.link])}; without fieldsets it embeds ${show(f[s.link], 60)}`;
        add(verdict.must, item[s.link] === null ? blank(message) : fail(message), [linkId]);
        return [];
      }
      return paired(got, whole, `the ${s.link} embedded in ${labelOf(s, item, i)}`);
    });
    judgeObjects(objects);
    return verdict;
  }

  // include: ids in each parent (those the fieldsets keep), every id resolved by the top-level array.
  // (A root fieldset that removes every key include adds leaves no id to judge: a reading of fields[root].)
  const parentKeys = [...s.includeKeys].filter((k) => !root || keeps(root, k));
  const parents = s.includeKeys.size > 0 && parentKeys.length === 0 ? [] : items;
  const resolveById = !assoc || keeps(assoc, 'id');
  add(
    verdict.must,
    includeResolves(body, s.plain.body, parents, parentKeys, s.link, resolveById, (i) => labelOf(s, items[i]!, i)),
    [linkId],
  );
  const members = includedArrayKeys(body, s.plain.body).flatMap((k) => (body[k] as unknown[]).filter(isPlainObject));
  const wholeMembers = includedArrayKeys(full.body, s.plain.body).flatMap((k) => (full.body[k] as unknown[]).filter(isPlainObject));
  if (members.length) judgeObjects(paired(members, wholeMembers, `the included ${s.link}`));
  return verdict;
}

const describeRequestQuery = (query: Record<string, string>): string =>
  Object.entries(query)
    .map(([k, v]) => `${k}=${v}`)
    .join('&');

async function linkedResources(t: ConformanceContext): Promise<void> {
  const fieldsets = t.has('sparse-fieldsets');
  const { skuId, products } = await productsOfASku(t);
  const notes: string[] = [];
  const candidates: LinkedResource[] = [];
  const productId = idOf(products[0]!['id']);
  if (productId !== null) {
    candidates.push({ endpoint: 'GET /products/:id', path: `/products/${productId}`, key: 'product', single: true, noun: 'product', schema: 'resources/product.json', link: 'shop', linkSchema: 'resources/shop.json' });
  }
  const product = products[0]!;
  const shopId = idOf(product['shop_id']);
  const shopUid = typeof product['shop_uid'] === 'string' || typeof product['shop_uid'] === 'number' ? String(product['shop_uid']) : null;
  candidates.push(
    { endpoint: 'GET /skus/:id/products', path: `/skus/${skuId}/products`, key: 'products', single: false, noun: 'product', schema: 'resources/product.json', link: 'shop', linkSchema: 'resources/shop.json' },
    { endpoint: 'GET /skus/:id/specifications', path: `/skus/${skuId}/specifications`, key: 'specifications', single: false, noun: 'specification', schema: 'resources/specification.json', link: 'group', linkSchema: 'resources/group.json' },
  );
  // Endpoints of later versions (Change history) are asked only when the run's version has them.
  if (t.has('sparse-fieldsets')) {
    candidates.push({ endpoint: 'GET /categories/:id/specifications', path: `/categories/${await t.discover('leafCategory')}/specifications`, key: 'specifications', single: false, noun: 'specification', schema: 'resources/specification.json', link: 'group', linkSchema: 'resources/group.json' });
  }
  if (shopId !== null && shopUid !== null && t.has('shop-product-search')) {
    candidates.push({ endpoint: 'GET /shops/:shop_id/products/search', path: `/shops/${shopId}/products/search`, query: { shop_uid: shopUid }, key: 'products', single: false, noun: 'product', schema: 'resources/product.json', link: 'shop', linkSchema: 'resources/shop.json' });
  }

  // Locations: the first shop of the SKU's offers with a location that has an address.
  const locationsOf = (shopId: number): LinkedResource => ({
    endpoint: 'GET /shops/:shop_id/locations',
    path: `/shops/${shopId}/locations`,
    key: 'locations',
    single: false,
    noun: 'location',
    schema: 'resources/location.json',
    link: 'address',
    linkSchema: 'resources/location-address.json',
  });
  const shopIds = [...new Set(products.map((p) => idOf(p['shop_id'])).filter((id): id is number => id !== null))].slice(0, 3);
  const prefetched = new Map<string, { body: Json; items: Json[] }>();
  for (const shopId of shopIds) {
    const r = locationsOf(shopId);
    const answer = await baseline(t, r, { embed: 'address' }, notes);
    if (!answer) continue;
    if (!linksSomething(answer.items, 'address')) continue;
    prefetched.set(r.path, answer);
    candidates.push(r);
    // The second location when it links an address (the one the shops suite asks with embed=address), else the first that does.
    const linking = answer.items.filter((l) => linksSomething([l], 'address') && idOf(l['id']) !== null);
    const located = (linking.includes(answer.items[1]!) ? answer.items[1] : linking[0])!;
    candidates.push({ ...r, endpoint: 'GET /shops/:shop_id/locations/:id', path: `${r.path}/${String(located['id'])}`, key: 'location', single: true });
    break;
  }
  if (!prefetched.size) notes.push(`none of ${shopIds.length} shop(s) of SKU ${skuId}'s offers has a location with an address`);

  const served: LinkServed[] = [];
  for (const r of candidates) {
    const embedded = prefetched.get(r.path) ?? (await baseline(t, r, { embed: r.link }, notes));
    if (!embedded) {
      t.must(fail(`${describeRequest(t, { path: r.path, query: { embed: r.link } })}: ${notes[notes.length - 1] ?? 'no answer'}`), 'LINK-4', 'LINK-1');
      continue;
    }
    if (!linksSomething(embedded.items, r.link)) {
      notes.push(`${r.endpoint} (${r.path}) links no ${r.link} here`);
      continue;
    }
    const plain = await baseline(t, r, {}, notes);
    if (!plain) continue;
    let included: { body: Json; items: Json[] } | null = null;
    if (!r.single) {
      included = await baseline(t, r, { include: r.link }, notes);
      if (!included) t.must(fail(`${notes[notes.length - 1]}`), 'LINK-4', 'LINK-3');
    }
    const documented = documentedOf(r.schema);
    const linkDocumented = documentedOf(r.linkSchema);
    const linked = [...embeddedObjects(embedded.items, r.link), ...(included ? includedArrayKeys(included.body, plain.body).flatMap((k) => (included!.body[k] as unknown[]).filter(isPlainObject)) : [])];
    served.push({
      ...r,
      plain,
      embedded,
      included,
      embedKeys: keysAdded(embedded.items, plain.items),
      // A parent that already names the linked id (shop_id on a product) carries it without include adding a key.
      includeKeys: included ? new Set([...keysAdded(included.items, plain.items), ...[`${r.link}_id`, `${r.link}_ids`].filter((k) => included!.items.some((i) => k in i))]) : new Set(),
      rootFields: servedFields([...plain.items, ...embedded.items, ...(included?.items ?? [])], documented),
      linkFields: servedFields(linked, linkDocumented),
      documented,
      linkDocumented,
    });
  }
  if (served.length === 0) return t.skip(`no linked resource to ask for: ${notes.join('; ')}`);

  const none = fc.constant<Fieldset | null>(null);
  const arbitrary = fc.oneof(
    ...served.map((s, r) =>
      fc.record({
        r: fc.constant(r),
        mode: fc.constantFrom<LinkMode>(...(s.included ? (['embed', 'embed_ids', 'include'] as const) : (['embed', 'embed_ids'] as const))),
        root: fieldsets && s.rootFields.length ? fc.option(fieldsetArbitrary(s.rootFields), { nil: null }) : none,
        assoc: fieldsets && s.linkFields.length ? fc.option(fieldsetArbitrary(s.linkFields), { nil: null }) : none,
      }),
    ),
  );
  // embed_ids alone; a root fieldset next to an embedded association it does not name; include
  // alone; fields[<name>] with include and fields_except[<name>] with embed.
  const examples: LinkCase[] = [];
  const single = served.findIndex((s) => s.single);
  const collection = served.findIndex((s) => s.included);
  const first = single >= 0 ? single : 0;
  examples.push({ r: first, mode: 'embed_ids', root: null, assoc: null });
  if (fieldsets) {
    const s = served[first]!;
    const rootOnly = s.rootFields.filter((f, i) => f === s.link || i === s.rootFields.findIndex((g) => g !== s.link));
    examples.push({ r: first, mode: 'embed', root: { only: rootOnly }, assoc: null });
  }
  if (collection >= 0) {
    examples.push({ r: collection, mode: 'include', root: null, assoc: null });
    const s = served[collection]!;
    if (fieldsets && s.linkFields.length >= 2) {
      examples.push({ r: collection, mode: 'include', root: null, assoc: { only: s.linkFields.slice(0, 2) } });
      examples.push({ r: collection, mode: 'embed', root: null, assoc: { except: s.linkFields.slice(1, 2) } });
    }
  }

  const name = fieldsets ? 'embed / embed_ids / include with fields[root] and fields[<name>]' : 'embed / embed_ids / include';
  PROPERTY_IDS[name] = ['LINK-1', 'LINK-2', 'LINK-3'];
  await checkProperty(t, name, arbitrary, {
    runs: runsFor(LINK_RANDOM, t.run.maxRequests),
    examples,
    request: (c) => linkRequest(served[c.r]!, c),
    judge: (c, response) => judgeLink(served[c.r]!, c, response),
  });
  if (!fieldsets) t.skip(`links judged without fieldsets: sparse fieldsets arrived in 3.1.1 (Change history), the run asks for version ${t.run.apiVersion}`);
}

// ---------------------------------------------------------------------------------------------
// 3. Before 3.1.1: no fieldsets. Only a warning: minor versions are for incompatible changes
// (Versioning 1), so a deployment may serve what a later version added to an earlier one too.

async function ignoredIn30(t: ConformanceContext): Promise<void> {
  if (!t.run.versions.includes('3.0')) return t.skip(`version 3.0 is not among the versions the deployment serves (CATALOGUE_VERSIONS=${t.run.versions.join(',')})`);
  const V30 = `${t.run.mediaType}; version=3.0`;
  const leaf = await t.discover('leafCategory');
  const r: Resource = { endpoint: 'GET /categories/:category_id/skus', path: `/categories/${leaf}/skus`, key: 'skus', single: false, noun: 'SKU', schema: 'resources/sku.json' };
  const plainResponse = await t.api.get(r.path, { accept: V30 });
  const plain = readAnswer(plainResponse, r);
  if (typeof plain === 'string') return t.skip(`GET ${r.path} with version=3.0 ${plain}: the deployment does not serve 3.0 here`);
  if (plain.items.length === 0) return t.skip(`GET ${r.path} with version=3.0 lists no SKU`);
  // comparable on SKU came with sparse fieldsets (3.1.1): an answer that has it is not 3.0.
  if (plain.items.some((s) => 'comparable' in s)) {
    return t.skip(`GET ${r.path} with version=3.0 answers SKUs with comparable (3.1.1): the deployment serves a later version for 3.0, so whether fieldsets apply cannot be judged`);
  }
  const fields = servedFields(plain.items, documentedOf(r.schema));
  if (fields.length < 2) return t.skip(`GET ${r.path} with version=3.0 answers SKUs with ${fields.length} documented field(s): no fieldset leaves out a field`);
  const set: Fieldset = { only: fields.slice(0, 2) };
  const query = fieldsetQuery('root', set);
  const response = await t.api.get(r.path, { query, accept: V30 });
  const answer = readAnswer(response, r);
  if (typeof answer === 'string') {
    // 3.0 has no fieldsets: refusing the unknown parameter is a reading too.
    t.warn(fail(`${describeRequest(t, { path: r.path, query })} with version=3.0 ${answer}; without ${describeFieldset('root', set)} it answers 200`), 'CHG-5');
    return;
  }
  const entries = pairById(answer.items, plain.items).map(([g, f], i) => {
    const missing = f ? missingFields(g, f) : [];
    return { label: labelOf(r, g, i), problems: missing.length ? [`lacks ${missing.join(', ')}, which it has without fieldsets`] : [] };
  });
  t.warn(
    byObject(entries, `${describeRequest(t, { path: r.path, query })} with version=3.0: sparse fieldsets arrived in 3.1.1 (Change history), so a 3.0 request would get complete objects, but `),
    'CHG-5',
  );
}

// ---------------------------------------------------------------------------------------------

describe('Sparse fieldsets and linked resources (properties)', () => {
  conformanceTest(
    'fields[root]=A keeps exactly the fields of A, fields_except[root]=B removes those of B, both keep A minus B (random A and B on single resources and collections)',
    { id: 'fields-root-property', requirements: ['FIELDS-1', 'FIELDS-2', 'FIELDS-3', 'FIELDS-4'], requests: ROOT_SETUP + 2 * ROOT_ROWS + 4 + ROOT_RUNS + SHRINK_REQUESTS },
    rootFieldsets,
  );

  conformanceTest(
    'embed gives the objects, embed_ids an array of ids, include ids plus a top-level array resolving them; fields[<name>] trims the linked objects, an association not named stays complete',
    { id: 'linked-resources-property', requirements: ['LINK-1', 'LINK-2', 'LINK-3', 'LINK-4', 'FIELDS-1', 'FIELDS-2', 'FIELDS-3', 'FIELDS-4', 'FIELDS-5'], requests: LINK_SETUP + LINK_RUNS + 5 + SHRINK_REQUESTS },
    linkedResources,
  );

  conformanceTest(
    'version=3.0 (before 3.1.1, which brought sparse fieldsets): fields[root] is ignored, every object stays complete (open: a later feature may be served earlier)',
    { id: 'fields-ignored-in-3-0', requirements: ['CHG-5'], severity: 'WARN', requests: 2 },
    ignoredIn30,
  );
});
