// Acceptance of issue 4: every resource table of the spec has a schema whose required properties
// equal the table's fields. The tables are data (src/schemas/spec-fields.json, extracted from the
// spec by src/schemas/spec-fields.ts); where the spec is at hand, the data is checked against it.
//
// A table field may be left out of `required` only for a reason written below (the `exceptions`
// of each mapping in MAPPINGS):
//   - optional:    the spec says the field appears only in some responses; `marker` quotes the
//                  words of the table that say so (checked against the table's text);
//   - conditional: required through if/then when the condition shows in the same object;
//   - endpoint:    required by a present rule of schemas/endpoints.json where the condition shows
//                  in the exchange (the endpoint, a query parameter, the kind of token);
//   - alternative: required through anyOf with another spelling of the field.
// Conditional, endpoint and alternative exceptions are checked against the schemas: the field must
// be required in some then/anyOf branch, or by some present rule. An exception that no longer
// applies fails too.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { extractSpecFields, loadSpecFields, specFieldsJson, specPath, SPEC_FIELDS_PATH } from './spec-fields.ts';
import { SCHEMA_BASE, SchemaRegistry } from './validator.ts';

interface Exception {
  kind: 'optional' | 'conditional' | 'endpoint' | 'alternative';
  /** Words of the table's row that make the field conditional; null when the reason is elsewhere in the spec (see `why`). */
  marker: string | null;
  why: string;
}

interface Mapping {
  resource: string;
  schema: string;
  /** Table fields that are not (unconditionally) required, and why. */
  exceptions: Record<string, Exception>;
  /** Properties the schema documents beyond the table, and why. */
  extras: Record<string, string>;
}

const optional = (marker: string, why = `the table says "${marker}"`): Exception => ({ kind: 'optional', marker, why });
/** Required where the condition the table states holds in the exchange: a present rule of schemas/endpoints.json. */
const byEndpoint = (marker: string, why = `the table says "${marker}": required by the present rules of schemas/endpoints.json where that holds`): Exception => ({
  kind: 'endpoint',
  marker,
  why,
});

/** Category's fields that only a single-category response carries (the table's Notes column). */
const SINGLE_CATEGORY = ['show_manufacturers_filter', 'adult', 'onclick_behaviour', 'show_spec_summary', 'unit_price_label', 'reviewable', 'comparable'];

const FASHION: Exception = {
  kind: 'optional',
  marker: null,
  why: 'Change history 3.0.18: "layout_mode on Category (replaces fashion and show_in_tiles)"; whether fashion stays is open (CAT-7), so the suites only warn',
};
const MATCH_COUNT = optional('only on categories returned by search', 'only on categories returned by search: resources/search-category.json requires it');
const ONCLICK_SPELLING = { onclick_behavior: 'the Change history (3.2.0) spells the field onclick_behavior (CAT-13): accepted as an alternative' };

/** Which schema stands for each field list of "Resources and their fields". */
const MAPPINGS: Mapping[] = [
  {
    // The single-category response carries every field of the table.
    resource: 'Category',
    schema: 'resources/category-detail.json',
    exceptions: {
      fashion: FASHION,
      onclick_behaviour: { kind: 'alternative', marker: null, why: 'required through anyOf with onclick_behavior, the Change history spelling (CAT-13)' },
      match_count: MATCH_COUNT,
    },
    extras: ONCLICK_SPELLING,
  },
  {
    // Categories in collections: the single-category fields are not there.
    resource: 'Category',
    schema: 'resources/category.json',
    exceptions: {
      fashion: FASHION,
      family_id: optional('present on single-category and some search responses'),
      ...Object.fromEntries(SINGLE_CATEGORY.map((field) => [field, optional('single-category response')])),
      match_count: MATCH_COUNT,
    },
    extras: ONCLICK_SPELLING,
  },
  { resource: 'SKU', schema: 'resources/sku.json', exceptions: { favorited: byEndpoint('user-authenticated requests; category SKU listing') }, extras: {} },
  {
    resource: 'Product',
    schema: 'resources/product.json',
    exceptions: { color: byEndpoint('in product cards'), shop: byEndpoint('when embedded') },
    extras: {},
  },
  { resource: 'Shop', schema: 'resources/shop.json', exceptions: {}, extras: {} },
  { resource: 'Shop review', schema: 'resources/shop-review.json', exceptions: {}, extras: {} },
  { resource: 'Shop location', schema: 'resources/location.json', exceptions: { address: byEndpoint('(embedded)') }, extras: {} },
  { resource: 'Manufacturer', schema: 'resources/manufacturer.json', exceptions: {}, extras: {} },
  {
    resource: 'SKU review',
    schema: 'resources/sku-review.json',
    exceptions: {
      voted: byEndpoint('authorized user only'),
      flagged: byEndpoint('authorized user only'),
      helpful: byEndpoint('authorized user only'),
      own_review: byEndpoint('for logged-on users'),
    },
    extras: {},
  },
  { resource: 'SKU review vote', schema: 'resources/sku-review-vote.json', exceptions: { sku_review: byEndpoint('only with embed=sku_review') }, extras: {} },
  { resource: 'Favorite list', schema: 'resources/favorite-list.json', exceptions: { type: byEndpoint('in the create response') }, extras: {} },
  { resource: 'Favorite', schema: 'resources/favorite.json', exceptions: { favorite_list_id: byEndpoint('accepted on update') }, extras: {} },
  { resource: 'User', schema: 'resources/user.json', exceptions: {}, extras: {} },
  { resource: 'User address', schema: 'resources/address.json', exceptions: {}, extras: {} },
  { resource: 'Saved order', schema: 'resources/saved-order.json', exceptions: {}, extras: {} },
  {
    resource: 'Notification',
    schema: 'resources/notification.json',
    exceptions: {
      sku: {
        kind: 'conditional',
        marker: 'embedded object',
        why: 'embedded for price_up, price_drop, sku_review, availability_true, availability_false (Events): required by etype',
      },
      category_name: { kind: 'conditional', marker: 'for price notifications', why: 'for price_up and price_drop (Events): required by etype' },
      review_rating: { kind: 'conditional', marker: 'present when etype is sku_review', why: 'required when etype is sku_review' },
      review_text: { kind: 'conditional', marker: 'present on non-aggregated sku_review notifications', why: 'required when etype is sku_review and aggregated is false' },
      user: { kind: 'conditional', marker: 'embedded for sku_review', why: 'required when etype is sku_review (Events)' },
    },
    extras: {},
  },
  { resource: 'Filter group', schema: 'resources/filter-group.json', exceptions: {}, extras: {} },
  { resource: 'Autocomplete item', schema: 'resources/autocomplete-item.json', exceptions: { d: optional('optional object') }, extras: {} },
];

type Doc = Record<string, unknown>;

const registry = SchemaRegistry.load();
const ids = new Set(registry.ids());
const idOf = (ref: string, from: string) => new URL(ref, SCHEMA_BASE + from).toString().slice(SCHEMA_BASE.length);
const allOfParts = (doc: Doc) => (doc['allOf'] as Doc[] | undefined) ?? [];

/** Required at the latest version: the schema's own list and those of its allOf parts ($ref or plain), not if/then. */
function requiredOf(id: string): Set<string> {
  const doc = registry.doc(id);
  const own = (doc['required'] as string[] | undefined) ?? [];
  const inherited = allOfParts(doc).flatMap((part) =>
    typeof part['$ref'] === 'string' ? [...requiredOf(idOf(part['$ref'], id))] : 'if' in part ? [] : ((part['required'] as string[] | undefined) ?? []),
  );
  return new Set([...own, ...inherited]);
}

/** Properties, following allOf ($ref or plain parts). */
function propertiesOf(id: string): Set<string> {
  const doc = registry.doc(id);
  const own = Object.keys((doc['properties'] as Doc | undefined) ?? {});
  const inherited = allOfParts(doc).flatMap((part) =>
    typeof part['$ref'] === 'string' ? [...propertiesOf(idOf(part['$ref'], id))] : Object.keys((part['properties'] as Doc | undefined) ?? {}),
  );
  return new Set([...own, ...inherited]);
}

/** Fields required in some branch: then/else of if (at the root or in allOf), or anyOf/oneOf. */
function branchRequired(id: string, kind: 'conditional' | 'alternative'): Set<string> {
  const doc = registry.doc(id);
  const req = (node: unknown) => ((node as Doc | undefined)?.['required'] as string[] | undefined) ?? [];
  const nodes = [doc, ...allOfParts(doc)];
  const found =
    kind === 'conditional'
      ? nodes.flatMap((n) => [...req(n['then']), ...req(n['else'])])
      : nodes.flatMap((n) => [...((n['anyOf'] as Doc[] | undefined) ?? []), ...((n['oneOf'] as Doc[] | undefined) ?? [])].flatMap(req));
  return new Set(found);
}

const resources = loadSpecFields();

/** Every field some present rule of schemas/endpoints.json requires where its condition holds. */
const PRESENT_FIELDS = new Set(
  Object.values(registry.endpointIndex().endpoints).flatMap((statuses) => Object.values(statuses).flatMap((e) => (e.present ?? []).flatMap((rule) => rule.fields))),
);

describe('spec resource fields (src/schemas/spec-fields.json)', () => {
  const spec = specPath();
  test('the committed data is what the spec holds', (ctx) => {
    if (!existsSync(spec)) ctx.skip(`spec not found at ${spec} (set CATALOGUE_SPEC to compare the extracted tables with it)`);
    expect(specFieldsJson(extractSpecFields(readFileSync(spec, 'utf8'))), `${SPEC_FIELDS_PATH} is stale: run npm run spec-fields`).toBe(readFileSync(SPEC_FIELDS_PATH, 'utf8'));
  });

  test('every field list of the spec is mapped to a schema', () => {
    const mapped = new Set(MAPPINGS.map((m) => m.resource));
    expect(resources.map((r) => r.resource).filter((r) => !mapped.has(r))).toEqual([]);
    expect(
      [...mapped].filter((r) => !resources.some((x) => x.resource === r)),
      'mapped resources the spec data does not hold',
    ).toEqual([]);
  });

  test.each(MAPPINGS.map((m) => [`${m.resource} -> ${m.schema}`, m] as const))('%s: required properties equal the fields', (_title, mapping) => {
    expect(ids.has(mapping.schema), `schemas/${mapping.schema} does not exist (yet)`).toBe(true);
    const table = resources.find((r) => r.resource === mapping.resource)!;
    const fields = table.fields.map((f) => f.name);
    const properties = propertiesOf(mapping.schema);
    const required = requiredOf(mapping.schema);
    const problems: string[] = [];

    for (const field of fields) {
      if (!properties.has(field)) problems.push(`${field}: in the table, not in the schema's properties`);
      const exception = mapping.exceptions[field];
      if (!exception && !required.has(field)) problems.push(`${field}: in the table, not required (add it to required, or to the mapping's exceptions with the table's reason)`);
      if (exception && required.has(field)) problems.push(`${field}: required, yet listed as an exception (${exception.kind}): drop the exception`);
    }
    for (const [field, exception] of Object.entries(mapping.exceptions)) {
      const row = table.fields.find((f) => f.name === field);
      if (!row) {
        problems.push(`${field}: an exception for a field the table does not have`);
        continue;
      }
      if (exception.marker !== null && !row.text.includes(exception.marker)) problems.push(`${field}: the table no longer says "${exception.marker}" (it says "${row.text}")`);
      if (exception.kind === 'endpoint') {
        if (!PRESENT_FIELDS.has(field)) problems.push(`${field}: listed as required by an endpoint, but no present rule of schemas/endpoints.json names it`);
      } else if (exception.kind !== 'optional' && !branchRequired(mapping.schema, exception.kind).has(field)) {
        problems.push(`${field}: listed as ${exception.kind}, but no ${exception.kind === 'conditional' ? 'then' : 'anyOf/oneOf'} branch of the schema requires it`);
      }
    }
    for (const property of properties) {
      if (!fields.includes(property) && !(property in mapping.extras)) problems.push(`${property}: a property the table does not list (list it in extras with the reason)`);
      if (!fields.includes(property) && required.has(property)) problems.push(`${property}: required, but the table does not list it`);
    }
    for (const extra of Object.keys(mapping.extras)) {
      if (!properties.has(extra)) problems.push(`${extra}: listed in extras, not a property of the schema`);
    }
    expect(problems).toEqual([]);
  });
});
