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
// The rows and the properties are src/engines/fieldsets.ts; the generator and the oracle are
// src/checks/fieldsets-arbitraries.ts, fieldsets-oracle.ts and fieldsets-links.ts.
import { describe } from 'vitest';
import { fail } from '../src/checks/check.ts';
import { byObject, describeFieldset, fieldsetQuery, type Fieldset } from '../src/checks/fieldsets.ts';
import { lostFields, readAnswer, servedFields, type Resource } from '../src/checks/fieldsets-oracle.ts';
import { documentedOf, LINK_PROPERTY_REQUESTS, linkProperty, ROOT_PROPERTY_REQUESTS, rootFieldsetProperty, servedLinks, servedRootRows } from '../src/engines/fieldsets.ts';
import { describeRequest } from '../src/engines/fieldsets-property.ts';
import { conformanceTest, type ConformanceContext } from '../src/harness/conformance.ts';
import { notServedReason } from '../src/harness/served-versions.ts';
import { pathOf } from '../src/rules/api-paths.ts';

/**
 * Read by src/runner/passes.ts: this suite runs after the other readers. Its answers without fieldsets (one
 * per endpoint) are mostly GETs those suites made already, which the run then reuses (issue 17).
 */
export const RUNS_AFTER_THE_OTHER_READERS = true;

// ---------------------------------------------------------------------------------------------
// 1. fields[root] and fields_except[root]

async function rootFieldsets(t: ConformanceContext): Promise<void> {
  if (!t.has('sparse-fieldsets')) {
    return t.skip(`sparse fieldsets arrived in 3.1.1 (Change history); the run asks for version ${t.run.apiVersion} (the version=3.0 test judges that they are ignored)`);
  }
  const notes: string[] = [];
  const served = await servedRootRows(t, notes);
  if (served.length === 0) return t.skip(`no resource to draw fields from: ${notes.join('; ') || 'every answer was empty'}`);
  await rootFieldsetProperty(t, served, notes);
}

// ---------------------------------------------------------------------------------------------
// 2. embed, embed_ids, include, with fields[root] and fields[<name>]

async function linkedResources(t: ConformanceContext): Promise<void> {
  const fieldsets = t.has('sparse-fieldsets');
  const notes: string[] = [];
  const served = await servedLinks(t, notes);
  if (served.length === 0) return t.skip(`no linked resource to ask for: ${notes.join('; ')}`);
  await linkProperty(t, served, fieldsets);
  if (!fieldsets) t.skip(`links judged without fieldsets: sparse fieldsets arrived in 3.1.1 (Change history), the run asks for version ${t.run.apiVersion}`);
}

// ---------------------------------------------------------------------------------------------
// 3. Before 3.1.1: no fieldsets. Only a warning: minor versions are for incompatible changes
// (Versioning 1), so a deployment may serve what a later version added to an earlier one too.

async function ignoredIn30(t: ConformanceContext): Promise<void> {
  if (!t.run.versions.includes('3.0')) return t.skip(notServedReason(t.run, '3.0'));
  const V30 = `${t.run.mediaType}; version=3.0`;
  const leaf = await t.discover('leafCategory');
  const endpoint = 'GET /categories/:category_id/skus';
  const r: Resource = { endpoint, path: pathOf(endpoint, { category_id: leaf }), key: 'skus', single: false, noun: 'SKU', schema: 'resources/sku.json' };
  const plainResponse = await t.api.get(r.path, { accept: V30 });
  const plain = readAnswer(plainResponse, r);
  if (typeof plain === 'string') return t.skip(`GET ${r.path} with version=3.0 ${plain}: the deployment does not serve 3.0 here`);
  if (plain.items.length === 0) return t.skip(`GET ${r.path} with version=3.0 lists no SKU`);
  // comparable on SKU came with sparse fieldsets (3.1.1): an answer that has it is not 3.0.
  if (plain.items.some((s) => 'comparable' in s)) {
    return t.skip(
      `GET ${r.path} with version=3.0 answers SKUs with comparable (3.1.1): the deployment serves a later version for 3.0, so whether fieldsets apply cannot be judged`,
    );
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
  t.warn(
    byObject(
      lostFields(r, answer.items, plain.items),
      `${describeRequest(t, { path: r.path, query })} with version=3.0: sparse fieldsets arrived in 3.1.1 (Change history), so a 3.0 request would get complete objects, but `,
    ),
    'CHG-5',
  );
}

// ---------------------------------------------------------------------------------------------

describe('Sparse fieldsets and linked resources (properties)', () => {
  conformanceTest(
    'fields[root]=A keeps exactly the fields of A, fields_except[root]=B removes those of B, both keep A minus B (random A and B on single resources and collections)',
    {
      id: 'fields-root-property',
      clauses: ['FIELDS-1#1', 'FIELDS-2#1', 'FIELDS-3#1', 'FIELDS-4#1'],
      requirements: ['FIELDS-1', 'FIELDS-2', 'FIELDS-3', 'FIELDS-4'],
      readings: ['FIELDS-1.a-h', 'FIELDS-2.a-g', 'FIELDS-3.a-e', 'FIELDS-4.a-c'],
      requests: ROOT_PROPERTY_REQUESTS,
    },
    rootFieldsets,
  );

  conformanceTest(
    'embed gives the objects, embed_ids an array of ids, include ids plus a top-level array resolving them; fields[<name>] trims the linked objects, an association not named stays complete',
    {
      id: 'linked-resources-property',
      clauses: ['LINK-2#1-2', 'LINK-3#1-2', 'LINK-3#4', 'LINK-4#2-3', 'FIELDS-1#1', 'FIELDS-2#1', 'FIELDS-3#1-2', 'FIELDS-4#1', 'FIELDS-5#1'],
      requirements: ['LINK-1', 'LINK-2', 'LINK-3', 'LINK-4', 'FIELDS-1', 'FIELDS-2', 'FIELDS-3', 'FIELDS-4', 'FIELDS-5'],
      readings: ['LINK-1.a-f', 'LINK-2.a-e', 'LINK-3.a-h', 'LINK-4.a-e', 'FIELDS-1.a-h', 'FIELDS-2.a-g', 'FIELDS-3.a-e', 'FIELDS-4.a-c', 'FIELDS-5.a-d'],
      requests: LINK_PROPERTY_REQUESTS,
    },
    linkedResources,
  );

  conformanceTest(
    'version=3.0 (before 3.1.1, which brought sparse fieldsets): fields[root] is ignored, every object stays complete (open: a later feature may be served earlier)',
    { id: 'fields-ignored-in-3-0', requirements: ['CHG-5'], readings: ['CHG-5.a-e'], severity: 'WARN', requests: 2 },
    ignoredIn30,
  );
});
