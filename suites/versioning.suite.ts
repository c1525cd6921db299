// Spec: Versioning (the Accept header's version parameter; rules 1-5), Versioning > Change history
// (the fields each version added, as a version -> fields matrix), Endpoints > General rules 1 (media
// type), Resources and their fields (Category, SKU, Product, Shop, Shop review, Shop location,
// Specification, SKU review, Filter group, User, Notification).
//
// From outside, the served version shows only in the fields of an answer: the spec gives no header
// or meta field naming it. Every test sends its own Accept value and compares the versioned fields
// of the answer with those of the version it must be. Which field came with which version is the
// schemas' `x-since` (schemas/, from the Change history); the Change history row of each field is
// read from the requirement catalogue. Nothing here names an id or a count of any data set: the
// resources come from the discovered leaf category, its SKUs, their products and shops.
//
// What the spec leaves open is not required: the answer to a version it does not define (another
// major, a malformed value), which patch a major alone gives (the oldest served), and the latest
// version's number (VER-13): the latest must show at least the fields of the patch level the
// deployment implements (CATALOGUE_IMPLEMENTS). Which version each request is served comes from
// VersionScope (src/rules/version-scope.ts), which also knows the oldest series the deployment is
// known to serve (CATALOGUE_VERSIONS, else found from its answers before the suites,
// src/harness/served-versions.ts): a major alone gets nothing of a later series than that.
import { hasStatus } from '../src/checks/http.ts';
import { fail, isPlainObject } from '../src/checks/check.ts';
import {
  fieldsMatchVersion,
  laterVersion,
  objectsAt,
  seriesOf,
  seriesShownWhole,
  sinceVersions,
  type JudgedObjects,
  type Located,
  type VersionExpectation,
} from '../src/checks/versioning.ts';
import type { HttpResponse } from '../src/http/client.ts';
import { conformanceTest, type ConformanceContext } from '../src/harness/conformance.ts';
import { notServedReason } from '../src/harness/served-versions.ts';
import type { Auth } from '../src/harness/api.ts';
import { pathOf } from '../src/rules/api-paths.ts';
import { changeRow } from '../src/rules/change-history.ts';
import { versionedFieldsOf } from '../src/schemas/versioned-fields.ts';

type Json = Record<string, unknown>;

/**
 * Judges answers against the version, one finding per Change history row, so each failure names
 * the row of the field as well as the rule (`ids`). A field of the version served missing fails; a
 * field of a later series present fails only when the answers show that whole series (the wrong
 * version was served), else it warns: an addition may reach an earlier version (Versioning 1).
 */
class VersionJudgement {
  readonly #judged: (JudgedObjects & { schemaId: string })[] = [];

  constructor(
    private readonly t: ConformanceContext,
    private readonly expectation: VersionExpectation,
    private readonly ids: string[],
  ) {}

  add(objects: readonly Located[], schemaId: string): void {
    const fields = versionedFieldsOf(schemaId);
    this.#judged.push({ objects, fields, schemaId });
    for (const since of sinceVersions(fields)) {
      const row = changeRow(since)?.requirement;
      this.t.must(
        fieldsMatchVersion(
          objects,
          fields.filter((f) => f.since === since),
          this.expectation,
          'present',
        ),
        ...this.ids,
        ...(row ? [row] : []),
      );
    }
  }

  /** The later fields present, once everything is in: must or warn by whether their series shows whole. */
  finish(): void {
    for (const { objects, fields } of this.#judged) {
      for (const since of sinceVersions(fields)) {
        const early = fieldsMatchVersion(
          objects,
          fields.filter((f) => f.since === since),
          this.expectation,
          'absent',
        );
        if (early.ok) continue;
        const row = changeRow(since)?.requirement;
        const whole = seriesShownWhole(this.#judged, seriesOf(since));
        const ids = [...this.ids, ...(row ? [row] : [])];
        if (whole) this.t.must(fail(`${early.message}; every field of the ${seriesOf(since)} series is there: a later version was served`), ...ids);
        else this.t.warn(fail(`${early.message} (the rest of the ${seriesOf(since)} series is not: an addition of a later version, which minor versions do not forbid)`), ...ids);
      }
    }
  }
}

/** `Accept: <the vendor media type>; version=<v>`; null: the media type with no version parameter. */
const acceptFor = (t: ConformanceContext, version: string | null): string => (version === null ? t.run.mediaType : `${t.run.mediaType}; version=${version}`);

/** What a request asking `version` (null: none) must be served, and how it asked, for messages. */
const expecting = (
  t: ConformanceContext,
  version: string | null,
  asked = version === null ? `Accept: ${t.run.mediaType} (no version parameter)` : `version=${version}`,
): VersionExpectation => ({
  asked,
  scope: t.versionFor(version),
});

/** The latest version the run names: the latest the deployment serves is at least this one. */
const latestNamed = (t: ConformanceContext): string => [t.run.apiVersion, ...t.run.versions].reduce(laterVersion);
const majorOf = (version: string): string => version.split('.')[0]!;

/** GET with an Accept value of the test's own (null: no Accept header at all). */
function getAs(t: ConformanceContext, path: string, accept: string | null, query?: Record<string, string | readonly string[]>, auth: Auth = 'app'): Promise<HttpResponse> {
  return t.api.get(path, { accept, auth, ...(query ? { query } : {}) });
}

/** The body of a 200 answer, or null after recording the status as a failure of `ids`. */
function okBody(t: ConformanceContext, response: HttpResponse, ...ids: string[]): Json | null {
  if (!t.must(hasStatus(response, 200), ...ids)) return null;
  const body = t.json<unknown>(response, 'GEN-4');
  return isPlainObject(body) ? body : null;
}

/**
 * One case of the rules: the discovered leaf category (family_id 3.1.2, reviewable and others
 * 3.2.0; left out with `category: false`) and its SKUs (comparable 3.1.1, reviewable 3.2.0,
 * description and sizes 3.2.1), asked with `accept`, must show the fields of `expectation`.
 */
async function ruleCase(t: ConformanceContext, accept: string | null, expectation: VersionExpectation, ids: string[], { category: withCategory = true } = {}): Promise<void> {
  const leaf = await t.discover('leafCategory');
  const judgement = new VersionJudgement(t, expectation, ids);
  const category = withCategory ? okBody(t, await getAs(t, pathOf('GET /categories/:id', { id: leaf }), accept), ...ids) : null;
  if (category) judgement.add(objectsAt(category, ['category'], `GET /categories/${leaf}`), 'resources/category-detail.json');
  const listing = okBody(t, await getAs(t, pathOf('GET /categories/:category_id/skus', { category_id: leaf }), accept), ...ids);
  if (listing) judgement.add(objectsAt(listing, ['skus'], `GET /categories/${leaf}/skus`), 'resources/sku.json');
  judgement.finish();
}

/**
 * The SKU listing alone, for the rules whose version shows there as well (issue 17: a request
 * each): every series adds SKU fields (3.1.1 comparable, 3.2.0 reviewable, 3.2.1 description and
 * sizes), so a later series served for the oldest (rule 4) or a patch compared rather than
 * ignored (rule 2) shows there. The rules that must be served the latest (3 and 5) also ask the
 * category, whose family_id (3.1.2) tells the patches of 3.1 apart; rule 3 without an Accept
 * header, which only warns, is judged on the listing.
 */
const SKUS_ONLY = { category: false };

conformanceTest(
  'rule 3: the media type with no version parameter is served the latest version (at least the latest the run names)',
  { id: 'no-version-parameter-latest', clauses: ['VER-7#1', 'VER-2#1'], requirements: ['VER-7', 'VER-2'], readings: ['VER-7.a-c', 'VER-2.a-f'], requests: 2 },
  async (t) => {
    await ruleCase(t, acceptFor(t, null), expecting(t, null), ['VER-7']);
  },
);

conformanceTest(
  'rule 3 (open): a request with no Accept header is served the latest version',
  { id: 'no-accept-latest', requirements: ['VER-7'], readings: ['VER-7.a-c'], severity: 'WARN', requests: 1 },
  async (t) => {
    // The spec asks clients to send the media type (General rules 1): without it, the answer is open.
    await ruleCase(t, null, expecting(t, null, 'a request without an Accept header'), ['VER-7'], SKUS_ONLY);
  },
);

conformanceTest(
  'rule 4: the major version alone (version=3) is served the oldest version',
  { id: 'major-alone-oldest', clauses: ['VER-8#1', 'VER-2#1'], requirements: ['VER-8', 'VER-2'], readings: ['VER-8.a-e', 'VER-2.a-f'], requests: 1 },
  async (t) => {
    const major = majorOf(latestNamed(t));
    // The oldest version the deployment serves: nothing of a series later than the oldest it is
    // known to serve (CATALOGUE_VERSIONS). Which patch of that series it is, is not stated.
    await ruleCase(t, acceptFor(t, major), expecting(t, major), ['VER-8'], SKUS_ONLY);
  },
);

conformanceTest(
  'rule 2: a patch number is ignored: version=M.m.0 and M.m.9 are served as M.m (the latest fixes of the series)',
  { id: 'patch-ignored', clauses: ['VER-5#1', 'VER-2#1'], requirements: ['VER-5', 'VER-2'], readings: ['VER-5.a-c', 'VER-2.a-f'], requests: 2 },
  async (t) => {
    const version = latestNamed(t);
    if (!version.includes('.')) t.skip(`the run names no minor version (${version})`);
    for (const patch of ['0', '9']) {
      await ruleCase(t, acceptFor(t, `${version}.${patch}`), expecting(t, `${version}.${patch}`), ['VER-5'], SKUS_ONLY);
    }
  },
);

conformanceTest(
  'rule 5: a minor version that matches none (version=M.999) is served the previous version, the latest',
  { id: 'unknown-minor-previous', clauses: ['VER-10#1', 'VER-2#1'], requirements: ['VER-10', 'VER-2'], readings: ['VER-10.a-d', 'VER-2.a-f'], requests: 2 },
  async (t) => {
    const latest = latestNamed(t);
    const requested = `${majorOf(latest)}.999`;
    await ruleCase(t, acceptFor(t, requested), expecting(t, requested), ['VER-10']);
  },
);

/**
 * The minor versions of the Change history. One matrix test each, declared whatever the run
 * (so the catalogue of tests is the same for every run); a version the deployment does not serve
 * (CATALOGUE_VERSIONS, else found from its answers before the suites) is skipped with the reason.
 */
const VERSIONS: readonly string[] = ['3.0', '3.1', '3.2'];

function requireNamed(t: ConformanceContext, version: string): void {
  // A bare major (version=3) is the oldest of that major, 3.0 (rule 4).
  const named = t.run.versions.map((v) => (v.includes('.') ? v : `${v}.0`));
  if (!named.includes(version)) t.skip(notServedReason(t.run, version));
}

/** The public resources of the matrix, from the discovered leaf down to a shop's locations. */
async function publicResources(check: (path: string, key: readonly string[], schemaId: string) => Promise<Json | null>, leaf: number): Promise<void> {
  await check(pathOf('GET /categories/:id', { id: leaf }), ['category'], 'resources/category-detail.json');
  await check(pathOf('GET /categories/:category_id/filter_groups', { category_id: leaf }), ['filter_groups'], 'resources/filter-group.json');
  // meta.available_filters is not judged here: its x-since (shops, availabilities, distances:
  // 3.2.1) is read from the row's new filters ("SKU listing filters by shop_id, distance,
  // availability"), which names parameters, not meta fields that older versions must lack.
  const listing = await check(pathOf('GET /categories/:category_id/skus', { category_id: leaf }), ['skus'], 'resources/sku.json');
  const skus = (Array.isArray(listing?.['skus']) ? (listing['skus'] as unknown[]) : []).filter((s): s is Json => isPlainObject(s) && Number.isInteger(s['id']));
  const offered = skus.find((s) => s['future'] !== true && typeof s['shop_count'] === 'number' && s['shop_count'] > 0) ?? skus[0];
  const reviewed = skus.find((s) => typeof s['reviews_count'] === 'number' && s['reviews_count'] > 0);
  if (!offered) return; // nothing more to judge on this leaf; the fields above were
  await check(pathOf('GET /skus/:id/specifications', { id: String(offered['id']) }), ['specifications'], 'resources/specification.json');
  if (reviewed) await check(pathOf('GET /skus/:id/reviews', { id: String(reviewed['id']) }), ['reviews'], 'resources/sku-review.json');
  const products = await check(pathOf('GET /skus/:id/products', { id: String(offered['id']) }), ['products'], 'resources/product.json');
  const first = Array.isArray(products?.['products']) ? (products['products'] as unknown[])[0] : undefined;
  const shopId = isPlainObject(first) && Number.isInteger(first['shop_id']) ? (first['shop_id'] as number) : null;
  if (shopId === null) return;
  await check(pathOf('GET /shops/:id', { id: shopId }), ['shop'], 'resources/shop.json');
  await check(pathOf('GET /shops/:id/reviews', { id: shopId }), ['reviews'], 'resources/shop-review.json');
  await check(pathOf('GET /shops/:shop_id/locations', { shop_id: shopId }), ['locations'], 'resources/location.json');
}

/** The Change history clauses each version's matrix tests judge: the fields from each change that version shows. */
const CHANGE_CLAUSES: Record<string, { public: string[]; user: string[] }> = {
  '3.0': { public: ['CHG-6#1', 'CHG-7#3', 'CHG-7#5', 'CHG-7#9-10', 'CHG-7#12'], user: ['CHG-7#7', 'CHG-21#1'] },
  '3.1': { public: ['CHG-3#2', 'CHG-4#1', 'CHG-5#3-4', 'CHG-6#1', 'CHG-6#4', 'CHG-7#3', 'CHG-7#5', 'CHG-7#9-10', 'CHG-7#12'], user: ['CHG-7#7', 'CHG-21#1'] },
  '3.2': {
    public: ['CHG-1#10', 'CHG-2#7-9', 'CHG-3#2', 'CHG-4#1', 'CHG-5#3-4', 'CHG-6#1', 'CHG-6#4', 'CHG-7#3', 'CHG-7#5', 'CHG-7#9-10', 'CHG-7#12'],
    user: ['CHG-1#9', 'CHG-2#12', 'CHG-7#7', 'CHG-21#1'],
  },
};

/** Requests of the public part of the matrix, per version. */
const MATRIX_REQUESTS = 9;

for (const version of VERSIONS) {
  const ids = ['VER-9'];
  // The tests' ids name the version: 3.1 -> public-fields-3-1.
  const kebabVersion = version.replaceAll('.', '-');

  conformanceTest(
    `rule 5 and Change history, version ${version}: each field of the public resources is present from its version on; a later series shown whole fails, a stray later field warns`,
    {
      id: `public-fields-${kebabVersion}`,
      clauses: ['VER-9#1', 'VER-1#1', 'VER-2#1', ...(CHANGE_CLAUSES[version]?.public ?? [])],
      requirements: ['VER-9', 'VER-1', 'VER-2', 'CHG-1', 'CHG-2', 'CHG-3', 'CHG-4', 'CHG-5', 'CHG-6', 'CHG-7'],
      readings: ['VER-9.a-b', 'VER-1.a-e', 'VER-2.a-f', 'CHG-1.a-e', 'CHG-2.a-o', 'CHG-3.a-i', 'CHG-4.a-d', 'CHG-5.a-e', 'CHG-6.a-d', 'CHG-7.a-h'],
      requests: MATRIX_REQUESTS,
    },
    async (t) => {
      requireNamed(t, version);
      const accept = acceptFor(t, version);
      const expectation = expecting(t, version);
      const leaf = await t.discover('leafCategory');
      const judgement = new VersionJudgement(t, expectation, ids);
      const check = async (path: string, key: readonly string[], schemaId: string, query?: Record<string, string | readonly string[]>): Promise<Json | null> => {
        // Accept with version=<major.minor> is served (VER-1), then judged field by field.
        const body = okBody(t, await getAs(t, path, accept, query), ...ids, 'VER-1');
        if (body) judgement.add(objectsAt(body, key, `GET ${path}`), schemaId);
        return body;
      };
      try {
        await publicResources(check, leaf);
      } finally {
        judgement.finish();
      }
    },
  );

  conformanceTest(
    `rule 5 and Change history, version ${version}: each field of the user and the notifications is present from its version on; a later series shown whole fails, a stray later field warns`,
    {
      id: `user-fields-${kebabVersion}`,
      clauses: ['VER-9#1', 'VER-2#1', ...(CHANGE_CLAUSES[version]?.user ?? [])],
      requirements: ['VER-9', 'VER-2', 'CHG-1', 'CHG-2', 'CHG-7', 'CHG-18', 'CHG-21'],
      readings: ['VER-9.a-b', 'VER-2.a-f', 'CHG-1.a-e', 'CHG-2.a-o', 'CHG-7.a-h', 'CHG-18.a-d', 'CHG-21.a-c'],
      requests: 2,
    },
    async (t) => {
      requireNamed(t, version);
      const accept = acceptFor(t, version);
      const judgement = new VersionJudgement(t, expecting(t, version), ids);
      let judged = 0;
      // Which permissions /user needs is not shown, and a deployment may grant the kit's user token
      // fewer scopes than asked: a refusal is not this suite's to judge.
      for (const [path, key, schemaId] of [
        [pathOf('GET /user'), ['user'], 'resources/user.json'],
        [pathOf('GET /notifications'), ['notifications'], 'resources/notification.json'],
      ] as const) {
        const response = await getAs(t, path, accept, undefined, 'user');
        if (response.status === 401 || response.status === 403) continue;
        const body = okBody(t, response, ...ids);
        if (body) judgement.add(objectsAt(body, key, `GET ${path}`), schemaId);
        judged++;
      }
      judgement.finish();
      if (judged === 0) t.skip('the user token may read neither /user nor /notifications');
    },
  );
}
