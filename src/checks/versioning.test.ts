import { describe, expect, test } from 'vitest';
import { changeRow } from '../rules/change-history.ts';
import { VersionScope } from '../rules/version-scope.ts';
import { SCHEMA_BASE, SchemaRegistry } from '../schemas/validator.ts';
import {
  earlierVersion,
  fieldsMatchVersion,
  seriesOf,
  seriesShownWhole,
  laterVersion,
  objectsAt,
  sinceVersions,
  versionedFields,
  type SchemaDocument,
  type VersionedField,
} from './versioning.ts';

const registry = SchemaRegistry.shared();
const lookup = (fullId: string) => registry.doc(fullId.slice(SCHEMA_BASE.length)) as unknown as SchemaDocument;
const fieldsOf = (id: string) => versionedFields(SCHEMA_BASE + id, lookup);
const byName = (fields: VersionedField[]) => Object.fromEntries(fields.map((f) => [f.path.join('.'), f]));

describe('versionedFields (from the schemas x-since)', () => {
  test('category detail: its own fields and those of Category (allOf)', () => {
    const f = byName(fieldsOf('resources/category-detail.json'));
    expect(f['family_id']).toEqual({ path: ['family_id'], since: '3.1.2', required: true });
    expect(f['reviewable']).toMatchObject({ since: '3.2.0', required: true });
    expect(f['layout_mode']).toMatchObject({ since: '3.0.18', required: true });
    // Both spellings are accepted, so neither is required.
    expect(f['onclick_behaviour']).toMatchObject({ since: '3.2.0', required: false });
  });
  test('nested objects are followed (Shop -> shipping)', () => {
    const f = byName(fieldsOf('resources/shop.json'));
    expect(f['shipping.shipping_cost_enabled']).toEqual({ path: ['shipping', 'shipping_cost_enabled'], since: '3.1.1', required: true });
    expect(f['shipping']).toMatchObject({ since: '3.0.13' });
  });
  test('fields the spec shows only in some answers are not required', () => {
    expect(byName(fieldsOf('resources/sku.json'))['favorited']).toMatchObject({ since: '3.1.0', required: false });
    expect(byName(fieldsOf('resources/user.json'))['is_staff']).toMatchObject({ since: '3.2.1', required: true });
  });
});

test('laterVersion and earlierVersion', () => {
  expect(laterVersion('3.1', '3.2')).toBe('3.2');
  expect(laterVersion('3.10', '3.2')).toBe('3.10');
  expect(laterVersion('3', '3.0')).toBe('3.0');
  expect(earlierVersion('3.1', '3.2')).toBe('3.1');
  expect(earlierVersion('3.2', '3.0')).toBe('3.0');
});

describe('fieldsMatchVersion', () => {
  const fields = fieldsOf('resources/category-detail.json');
  const base = { id: 1, path: '1', layout_mode: 'list', comparable: true, show_manufacturers_filter: false };
  const v31 = { ...base, family_id: 4 };
  const v32 = { ...v31, reviewable: true, adult: false, show_spec_summary: true, unit_price_label: '' };
  const at = (value: unknown) => [{ where: 'GET /categories/1: category', value }];
  const asking = (asked: string | null, more: { implements?: string; oldest?: string } = {}) => ({
    asked: asked === null ? 'no version' : `version=${asked}`,
    scope: new VersionScope({ asked, ...more }),
  });

  test('passes when the fields are those of the version', () => {
    expect(fieldsMatchVersion(at(v31), fields, asking('3.1'))).toEqual({ ok: true });
    expect(fieldsMatchVersion(at(v32), fields, asking('3.2'))).toEqual({ ok: true });
    expect(fieldsMatchVersion(at(base), fields, asking('3', { oldest: '3.0' }))).toEqual({ ok: true });
    expect(fieldsMatchVersion(at(v32), fields, asking(null))).toEqual({ ok: true });
    // A deployment at 3.1.1 serves version=3.2 as 3.1.1: no family_id (3.1.2) required, nothing of 3.2.
    expect(fieldsMatchVersion(at(base), fields, asking('3.2', { implements: '3.1.1' }))).toEqual({ ok: true });
    expect(fieldsMatchVersion(at(v31), fields, asking(null, { implements: '3.1.3' }))).toEqual({ ok: true });
  });
  test('fails on a field served before its version', () => {
    const r = fieldsMatchVersion(at(v32), fields, asking('3.1'));
    expect(r.ok).toBe(false);
    expect(!r.ok && r.message).toContain('reviewable is present in the answer to version=3.1, although it came with 3.2.0');
    const oldest = fieldsMatchVersion(at(v31), fields, asking('3', { oldest: '3.0' }));
    expect(!oldest.ok && oldest.message).toContain('family_id is present');
    // Which series a major alone gets is only bounded by the oldest the deployment is known to serve.
    expect(fieldsMatchVersion(at(v32), fields, asking('3'))).toEqual({ ok: true });
    expect(fieldsMatchVersion(at(v32), fields, asking('3', { oldest: '3.2' }))).toEqual({ ok: true });
  });
  test('fails on a field absent from its version (a null value counts as present)', () => {
    const r = fieldsMatchVersion(at(v31), fields, asking('3.2'));
    expect(!r.ok && r.message).toContain('reviewable (Change history 3.2.0) is absent from the answer to version=3.2');
    expect(fieldsMatchVersion(at({ ...v32, family_id: null }), fields, asking('3.2'))).toEqual({ ok: true });
    const latest = fieldsMatchVersion(at(v31), fields, asking(null));
    expect(!latest.ok && latest.message).toContain('reviewable (Change history 3.2.0) is absent from the answer to no version');
  });
  test('a nested field is judged only when its parent object is there', () => {
    const shop = fieldsOf('resources/shop.json');
    const where = (value: unknown) => [{ where: 'shop', value }];
    expect(fieldsMatchVersion(where({ shipping: null }), shop, asking('3.0')).ok).toBe(false); // other 3.0.x fields absent
    const r = fieldsMatchVersion(
      where({ shipping: { free: true, shipping_cost_enabled: true } }),
      shop.filter((f) => f.path.length === 2),
      asking('3.0'),
    );
    expect(!r.ok && r.message).toContain('shipping.shipping_cost_enabled is present');
    expect(
      fieldsMatchVersion(
        where({ shipping: null }),
        shop.filter((f) => f.path.length === 2),
        asking('3.0'),
      ),
    ).toEqual({ ok: true });
  });
});

test('seriesShownWhole: every required field of a later series on every object, two fields or more', () => {
  const category = fieldsOf('resources/category-detail.json');
  const sku = fieldsOf('resources/sku.json');
  const at = (value: unknown) => [{ where: 'x', value }];
  // A stray family_id (3.1.2) is not the 3.1 series: the SKUs lack comparable (3.1.1).
  const stray = [
    { objects: at({ id: 1, family_id: 4 }), fields: category },
    { objects: at({ id: 2 }), fields: sku },
  ];
  expect(seriesShownWhole(stray, '3.1')).toBe(false);
  const whole = [
    { objects: at({ id: 1, family_id: 4 }), fields: category },
    { objects: at({ id: 2, comparable: true }), fields: sku },
  ];
  expect(seriesShownWhole(whole, '3.1')).toBe(true);
  // One field alone, even all of its resource's series, proves nothing.
  expect(seriesShownWhole([{ objects: at({ id: 1, family_id: 4 }), fields: category }], '3.1')).toBe(false);
  expect(seriesOf('3.1.2')).toBe('3.1');
});

test('every version a schema gives (x-since) is a row of the Change history', () => {
  for (const id of registry.ids().filter((i) => i.startsWith('resources/'))) {
    for (const since of sinceVersions(fieldsOf(id))) expect(changeRow(since), `${id}: ${since}`).toBeDefined();
  }
});

test('objectsAt and sinceVersions', () => {
  expect(objectsAt({ skus: [{ id: 1 }, { id: 2 }] }, ['skus'], 'GET /x')).toEqual([
    { where: 'GET /x: skus[0]', value: { id: 1 } },
    { where: 'GET /x: skus[1]', value: { id: 2 } },
  ]);
  expect(objectsAt({ meta: {} }, ['meta', 'available_filters'], 'GET /x')).toEqual([]);
  expect(
    sinceVersions([
      { path: ['a'], since: '3.0.10', required: true },
      { path: ['b'], since: '3.0.9', required: true },
    ]),
  ).toEqual(['3.0.9', '3.0.10']);
});
