import { describe, expect, test } from 'vitest';
import { servedMinors, showsSome, showsWhole, type MinorAnswer } from './served-versions.ts';
import type { JudgedObjects, VersionedField } from './versioning.ts';

// Two resources as the probe judges them: a category (family_id 3.1.2, reviewable 3.2.0) and a
// SKU listing (comparable 3.1.1, description 3.2.1). Each version's answer is written by hand.
const CATEGORY: VersionedField[] = [
  { path: ['family_id'], since: '3.1.2', required: true },
  { path: ['reviewable'], since: '3.2.0', required: true },
];
const SKU: VersionedField[] = [
  { path: ['comparable'], since: '3.1.1', required: true },
  { path: ['favorited'], since: '3.1.0', required: false },
  { path: ['description'], since: '3.2.1', required: true },
];
const V30 = { category: { id: 1 }, sku: { id: 2 } };
const V31 = { category: { id: 1, family_id: 9 }, sku: { id: 2, comparable: true } };
const V32 = { category: { id: 1, family_id: 9, reviewable: true }, sku: { id: 2, comparable: true, description: 'd' } };

const judged = (answer: { category: object; sku: object }): JudgedObjects[] => [
  { objects: [{ where: 'category', value: answer.category }], fields: CATEGORY },
  { objects: [{ where: 'skus[0]', value: answer.sku }], fields: SKU },
];
const answers = (...byMinor: { category: object; sku: object }[]): MinorAnswer[] => byMinor.map((a, i) => ({ minor: `3.${i}`, judged: judged(a) }));

describe('showsWhole and showsSome', () => {
  test('a series shows whole when every field it added, up to the patch level, is on every object', () => {
    expect(showsWhole(judged(V31), '3.1', '3.2.1')).toBe(true);
    expect(showsWhole(judged({ ...V31, category: { id: 1 } }), '3.1', '3.2.1')).toBe(false);
    // At 3.1.1, family_id (3.1.2) is not part of the series yet.
    expect(showsWhole(judged({ ...V31, category: { id: 1 } }), '3.1', '3.1.1')).toBe(true);
    expect(showsWhole(judged(V30), '3.0', '3.2.1')).toBe(false);
  });
  test('some: one field of the series on one object', () => {
    expect(showsSome(judged({ ...V30, sku: { id: 2, comparable: false } }), '3.1')).toBe(true);
    expect(showsSome(judged(V30), '3.1')).toBe(false);
  });
});

describe('servedMinors: the minors a deployment serves, from its answers to each', () => {
  test('every minor answered as itself: all served', () => {
    expect(servedMinors(answers(V30, V31, V32), '3.2.1')).toEqual({ served: ['3.0', '3.1', '3.2'], notFound: [] });
  });
  test('SERVED.a: the oldest retired and answered with the next: not found, the next is', () => {
    const found = servedMinors(answers(V31, V31, V32), '3.2.1');
    expect(found.served).toEqual(['3.1', '3.2']);
    expect(found.notFound[0]).toMatch(/version=3.0: .*every field of 3.1/);
  });
  test('SERVED.d: a middle minor answered as the previous one: not found (rule 5)', () => {
    const found = servedMinors(answers(V30, V30, V32), '3.2.1');
    expect(found.served).toEqual(['3.0', '3.2']);
    expect(found.notFound[0]).toMatch(/version=3.1: answered as version=3.0/);
  });
  test('SERVED.d: an addition of 3.1 backported to 3.0 (legal), 3.1 not served: 3.1 not found, so not judged', () => {
    const backported = { ...V30, sku: { id: 2, comparable: true } };
    expect(servedMinors(answers(backported, backported, V32), '3.2.1').served).toEqual(['3.0', '3.2']);
  });
  test('SERVED.b: a minor missing a field of its own series, where the one before shows none of it: served (its tests fail it)', () => {
    const noFamily = { ...V31, category: { id: 1 } };
    expect(servedMinors(answers(V30, noFamily, V32), '3.2.1').served).toEqual(['3.0', '3.1', '3.2']);
  });
  test('SERVED.c: only the latest served, older minors answered with it: only the latest found', () => {
    expect(servedMinors(answers(V32, V32, V32), '3.2.1').served).toEqual(['3.2']);
  });
  test('SERVED.c: a later series after a served minor: counted served, so that its test fails the answer', () => {
    expect(servedMinors(answers(V30, V32, V32), '3.2.1').served).toEqual(['3.0', '3.1', '3.2']);
  });
  test('an older patch level: 3.2 answered as 3.1.1 (no family_id yet) is not served', () => {
    const v311 = { category: { id: 1 }, sku: { id: 2, comparable: true } };
    expect(servedMinors(answers(V30, v311, v311), '3.1.1').served).toEqual(['3.0', '3.1']);
  });
  test('SERVED.e: an answer that could not be had is not found, with its reason', () => {
    const found = servedMinors([{ minor: '3.0', problem: 'GET /categories/1 answered 406' }, ...answers(V30, V31, V32).slice(1)], '3.2.1');
    expect(found.served).toEqual(['3.1', '3.2']);
    expect(found.notFound).toEqual(['version=3.0: GET /categories/1 answered 406']);
  });
});
