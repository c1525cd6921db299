// The root property's oracle (suites/fieldsets.suite.ts): it accepts an answer that shows exactly
// the fields a fieldset keeps and rejects one that shows more or fewer, naming the rule.
import { describe, expect, test } from 'vitest';
import type { HttpResponse } from '../http/client.ts';
import { blank, fail, pass } from './check.ts';
import type { Json } from './fieldsets.ts';
import {
  add,
  exclusionOrOrder,
  goneMeanwhile,
  idsOf,
  isBlank,
  judgeRootAnswer,
  lostFields,
  messagesOf,
  namedByBoth,
  noFinding,
  readAnswer,
  servedFields,
  showsWhatStays,
  type PropertyFinding,
  type Served,
} from './fieldsets-oracle.ts';

const answerOf = (status: number, body: unknown): HttpResponse => ({
  status,
  headers: {},
  text: typeof body === 'string' ? body : JSON.stringify(body),
  url: 'http://x/',
  exchanges: [],
  json: <T>() => JSON.parse(typeof body === 'string' ? body : JSON.stringify(body)) as T,
});

const FULL: Json[] = [
  { id: 1, name: 'Laptops', path: '1', extra: 'x' },
  { id: 2, name: 'Phones', path: '2', extra: 'y' },
];
const ROW: Served = {
  endpoint: 'GET /categories',
  path: '/categories',
  key: 'categories',
  single: false,
  noun: 'category',
  schema: 's',
  full: FULL,
  fields: ['id', 'name', 'path'],
  documented: new Set(['id', 'name', 'path']),
};
const items = (...keys: string[]) => FULL.map((i) => Object.fromEntries(keys.map((k) => [k, i[k]])));
const message = (f: PropertyFinding) => (f.result.ok ? '' : f.result.message);

describe('reading an answer', () => {
  test('the items under the key: an object for a single resource, an array for a collection', () => {
    expect(readAnswer(answerOf(200, { categories: FULL }), ROW)).toEqual({ body: { categories: FULL }, items: FULL });
    expect(readAnswer(answerOf(200, { category: FULL[0] }), { ...ROW, key: 'category', single: true })).toMatchObject({ items: [FULL[0]] });
  });

  test('why an answer is not usable', () => {
    expect(readAnswer(answerOf(500, {}), ROW)).toBe('answered 500, not 200');
    expect(readAnswer(answerOf(200, '<html>'), ROW)).toBe('answered a body that is not JSON');
    expect(readAnswer(answerOf(200, { categories: {} }), ROW)).toBe('answered no array under "categories"');
    expect(readAnswer(answerOf(200, { categories: FULL }), { ...ROW, key: 'category', single: true })).toBe('answered no object under "category"');
  });

  test('the documented fields served, in the schema order', () => {
    expect(servedFields([{ path: 1, id: 2, extra: 3 }], new Set(['id', 'name', 'path']))).toEqual(['id', 'path']);
  });
});

describe('fields[root] / fields_except[root] against the answer without them', () => {
  test('exactly the requested fields: no finding', () => {
    expect(judgeRootAnswer(ROW, FULL, { only: ['id', 'name'] }, { body: {}, items: items('id', 'name') })).toEqual(noFinding());
    expect(judgeRootAnswer(ROW, FULL, { except: ['path', 'extra'] }, { body: {}, items: items('id', 'name') })).toEqual(noFinding());
    expect(judgeRootAnswer(ROW, FULL, { only: ['id', 'name', 'path'], except: ['name'] }, { body: {}, items: items('id', 'path') })).toEqual(noFinding());
  });

  test('an unrequested documented field fails, under the rule the fieldset stands for', () => {
    const verdict = judgeRootAnswer(ROW, FULL, { only: ['id'] }, { body: {}, items: items('id', 'name') });
    expect(verdict.must).toHaveLength(1);
    expect(verdict.must[0]!.ids).toEqual(['FIELDS-1']);
    expect(message(verdict.must[0]!)).toBe('category 1, category 2: name is still there (fields[root] does not list it)');
  });

  test('a field both lists name fails as FIELDS-4 (the exclusion comes after the inclusion)', () => {
    const verdict = judgeRootAnswer(ROW, FULL, { only: ['id', 'name'], except: ['name'] }, { body: {}, items: items('id', 'name') });
    expect(verdict.must.map((f) => f.ids)).toEqual([['FIELDS-4']]);
    // A field fields[root] does not list, still there as well: the inclusion's own finding.
    const both = judgeRootAnswer(ROW, FULL, { only: ['id', 'name'], except: ['name'] }, { body: {}, items: items('id', 'name', 'path') });
    expect(both.must.map((f) => f.ids)).toEqual([['FIELDS-4'], ['FIELDS-1']]);
    expect(message(verdict.must[0]!)).toMatch(/name is still there \(fields\[root\] lists it, but fields_except\[root\] lists it too/);
  });

  test('a field both name, still there, is the order (FIELDS-4) only when the exclusion alone removes it; else the exclusion is not applied (FIELDS-2)', () => {
    const set = { only: ['id', 'name'], except: ['name'] };
    expect(namedByBoth(set)).toEqual(['name']);
    expect(namedByBoth({ only: ['id'] })).toEqual([]);
    const verdict = judgeRootAnswer(ROW, FULL, set, { body: {}, items: items('id', 'name') });
    const removed = judgeRootAnswer(ROW, FULL, { except: ['name'] }, { body: {}, items: items('id', 'path', 'extra') });
    expect(exclusionOrOrder(verdict, removed, 'fields_except[root]=name')).toBe(verdict);
    const ignored = judgeRootAnswer(ROW, FULL, { except: ['name'] }, { body: {}, items: FULL });
    const again = exclusionOrOrder(verdict, ignored, 'fields_except[root]=name');
    expect(again.must.map((f) => f.ids)).toEqual([['FIELDS-2']]);
    expect(message(again.must[0]!)).toMatch(/fields_except\[root\]=name alone leaves them too: the exclusion is not applied$/);
  });

  test('a requested field missing fails; an excluded one still there fails as FIELDS-2', () => {
    expect(message(judgeRootAnswer(ROW, FULL, { only: ['id', 'name'] }, { body: {}, items: items('id') }).must[0]!)).toMatch(/name is missing \(fields\[root\] lists it\)/);
    const verdict = judgeRootAnswer(ROW, FULL, { except: ['path'] }, { body: {}, items: items('id', 'name', 'path', 'extra') });
    expect(verdict.must[0]!.ids).toEqual(['FIELDS-2']);
  });

  test("the deployment's own field only warns", () => {
    const verdict = judgeRootAnswer(ROW, FULL, { only: ['id'] }, { body: {}, items: items('id', 'extra') });
    expect(verdict.must).toEqual([]);
    expect(message(verdict.warn[0]!)).toMatch(/extra is still there .* \(a field the spec does not document\)/);
  });

  test('an answer that is not usable, or of another number of items, fails', () => {
    expect(message(judgeRootAnswer(ROW, FULL, { only: ['id'] }, 'answered 400, not 200').must[0]!)).toBe('fields[root]=id answered 400, not 200');
    expect(message(judgeRootAnswer(ROW, FULL, { only: ['id'] }, { body: {}, items: items('id').slice(1) }).must[0]!)).toBe(
      'fields[root]=id: 1 category(s), 2 without the fieldset',
    );
  });

  test('a shared row pairs items by id: one added or gone meanwhile is not judged', () => {
    const shared: Served = { ...ROW, shared: true };
    expect(judgeRootAnswer(shared, FULL, { only: ['id'] }, { body: {}, items: [{ id: 2 }, { id: 9, name: 'new' }] })).toEqual(noFinding());
    expect(judgeRootAnswer(shared, FULL, { only: ['id'] }, { body: {}, items: [{ id: 2, name: 'Phones' }] }).must).toHaveLength(1);
  });

  test("a lazy row's answer showing exactly what stays needs no answer without fieldsets", () => {
    expect(showsWhatStays(ROW, { except: ['path'] }, { body: {}, items: items('id', 'name') })).toBe(true);
    expect(showsWhatStays(ROW, { except: ['path'] }, { body: {}, items: items('id', 'name', 'extra') })).toBe(false);
    expect(showsWhatStays(ROW, { except: ['path'] }, 'answered 404, not 200')).toBe(false);
  });

  test('a single shared resource answered 404 is gone meanwhile; another is not', () => {
    expect(goneMeanwhile({ ...ROW, single: true, shared: true }, answerOf(404, {}))).toBe(true);
    expect(goneMeanwhile({ ...ROW, single: true }, answerOf(404, {}))).toBe(false);
    expect(goneMeanwhile({ ...ROW, shared: true }, answerOf(404, {}))).toBe(false);
  });

  test('the fields an item lost under a fieldset that must be ignored', () => {
    expect(lostFields(ROW, items('id', 'name', 'path', 'extra'), FULL).every((e) => e.problems.length === 0)).toBe(true);
    expect(lostFields(ROW, items('id', 'name'), FULL)[0]).toEqual({ label: 'category 1', problems: ['lacks path, extra, which it has without fieldsets'] });
  });
});

describe('findings of a verdict', () => {
  test('only failures are added; blanks are told apart; messages and ids are joined', () => {
    const verdict = noFinding();
    add(verdict.must, pass(), ['FIELDS-1']);
    add(verdict.must, fail('a'), ['FIELDS-1']);
    add(verdict.must, blank('b'), ['FIELDS-2', 'FIELDS-1']);
    expect(verdict.must.map(isBlank)).toEqual([false, true]);
    expect(messagesOf(verdict.must)).toBe('a; b');
    expect(idsOf(verdict.must)).toEqual(['FIELDS-1', 'FIELDS-2']);
  });
});
