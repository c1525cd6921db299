import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { SchemaRegistry } from '../schemas/validator.ts';
import { versionedFieldsOf } from '../schemas/versioned-fields.ts';
import { changeHistory, changeRow, FEATURES, newestVersion } from './change-history.ts';
import { VersionScope } from './version-scope.ts';

describe('the Change history table', () => {
  test('holds every row of the spec, newest first, with its date and requirement', () => {
    const rows = changeHistory();
    expect(rows.length).toBe(29); // 3.0.1 to 3.0.23, 3.1.0 to 3.1.3, 3.2.0 and 3.2.1
    expect(rows[0]).toMatchObject({ version: '3.2.1', date: '2018-02-01', requirement: 'CHG-1' });
    expect(changeRow('3.1.2')).toMatchObject({ date: '2016-11-24', requirement: 'CHG-4', changes: 'family_id on Category' });
    expect(changeRow('3.0.7')?.requirement).toBe('CHG-23');
    expect(changeRow('3.0.0')).toBeUndefined();
    expect(newestVersion()).toBe('3.2.1');
  });

  test('each feature names words of its own row', () => {
    for (const [name, { since, phrase }] of Object.entries(FEATURES)) {
      expect(changeRow(since)?.changes, `${name} (${since})`).toContain(phrase);
    }
  });

  test("each field a schema dates (x-since) is named in that version's row", () => {
    const registry = SchemaRegistry.shared();
    // The rows name fields as the spec writes them; a few name a group ("shipping info on Shop",
    // "notification associations embedded", "sku reviews aggregation meta").
    const aliases: Record<string, string> = {
      shipping: 'shipping info',
      sku: 'associations',
      category_name: 'associations',
      user: 'associations',
      onclick_behaviour: 'onclick_behavior',
      top_positive_reasons: 'top positive reasons',
      shops: 'shop_id',
      availabilities: 'availability',
      distances: 'distance',
    };
    for (const id of registry.ids().filter((i) => i.startsWith('resources/'))) {
      for (const field of versionedFieldsOf(id)) {
        const name = field.path[field.path.length - 1]!;
        const row = changeRow(field.since);
        expect(row, `${id}: ${field.path.join('.')} ${field.since}`).toBeDefined();
        expect(row!.changes, `${id}: ${field.path.join('.')} (${field.since})`).toContain(aliases[name] ?? name);
      }
    }
  });

  test('no suite, check or judge compares version numbers of its own: they ask the table', () => {
    const root = fileURLToPath(new URL('../../', import.meta.url));
    const offenders: string[] = [];
    const walk = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) {
          const text = readFileSync(path, 'utf8');
          // A version literal handed to a comparison (versionServes(x, '3.1.0'), serves('3.2.0')).
          if (/(versionServes|serves|versionAtLeast)\(\s*[^)]*'3\.\d+\.\d+'/.test(text)) offenders.push(path.slice(root.length));
        }
      }
    };
    for (const dir of ['suites', 'src/checks', 'src/har', 'src/harness', 'src/schemas']) walk(join(root, dir));
    expect(offenders).toEqual([]);
  });
});

describe('VersionScope: the version an answer is served', () => {
  const scope = (asked: string | null, more: { implements?: string; oldest?: string; recordedAt?: number; servedSeries?: readonly string[] | 'unknown' } = {}) =>
    new VersionScope({ asked, ...more });

  test('no version asked: the latest, the patch level the deployment implements (VER-7)', () => {
    expect(scope(null)).toMatchObject({ served: '3.2.1', rule: 'VER-7', atMost: null });
    expect(scope(null, { implements: '3.1.1' })).toMatchObject({ served: '3.1.1', rule: 'VER-7' });
  });

  test('a minor: its latest fixes the deployment implements, else the previous version (VER-9, VER-10, VER-5)', () => {
    expect(scope('3.1')).toMatchObject({ served: '3.1.3', rule: 'VER-9', atMost: '3.1' });
    expect(scope('3.0')).toMatchObject({ served: '3.0.23', rule: 'VER-9' });
    expect(scope('3.1', { implements: '3.1.1' })).toMatchObject({ served: '3.1.1', rule: 'VER-9' });
    expect(scope('3.2', { implements: '3.1.1' })).toMatchObject({ served: '3.1.1', rule: 'VER-10', atMost: '3.1' });
    expect(scope('3.2', { implements: '3.2.0' })).toMatchObject({ served: '3.2.0', rule: 'VER-9' });
    expect(scope('3.9')).toMatchObject({ served: '3.2.1', rule: 'VER-10' });
    expect(scope('3.1.7')).toMatchObject({ served: '3.1.3' });
    expect(scope('3.1.7').citedRule()).toBe('VER-5');
  });

  test('the series known served (found or listed): a minor gets the latest of them not after it (VER-9, VER-10.d)', () => {
    const served = { servedSeries: ['3.0', '3.2'] };
    expect(scope('3.1', served)).toMatchObject({ served: '3.0.23', rule: 'VER-10', atMost: '3.0' });
    expect(scope('3.2', served)).toMatchObject({ served: '3.2.1', rule: 'VER-9', atMost: '3.2' });
    expect(scope('3.1', served).presence('3.1.2', true)).toBe('absent');
    // Below every series served (VER-10.c, open): nothing of the Change history is required, nothing forbidden.
    expect(scope('3.0', { servedSeries: ['3.1', '3.2'] })).toMatchObject({ served: '3.0.0', atMost: null });
  });

  test("series served 'unknown' (recorded traffic): a minor before the patch level's own series requires only what 3.0 has", () => {
    const unknown = { servedSeries: 'unknown' as const };
    expect(scope('3.1', unknown)).toMatchObject({ served: '3.0.23', atMost: '3.1', uncertain: true });
    expect(scope('3.1', unknown).presence('3.1.2', true)).toBe('either');
    expect(scope('3.1', unknown).presence('3.2.0', true)).toBe('absent');
    expect(scope('3.1', unknown).describe()).toMatch(/whether the deployment serves 3.1 is not known/);
    // The patch level's own series is the latest, always served (rule 3).
    expect(scope('3.2', unknown)).toMatchObject({ served: '3.2.1', uncertain: false });
    expect(scope('3.1', { ...unknown, implements: '3.1.3' })).toMatchObject({ served: '3.1.3', uncertain: false });
  });

  test('a major alone: the oldest served, bounded by the oldest series known to be served (VER-8)', () => {
    expect(scope('3')).toMatchObject({ served: '3.0.0', rule: 'VER-8', atMost: null });
    expect(scope('3', { oldest: '3.0' }).presence('3.1.0', true)).toBe('absent');
    expect(scope('3', { oldest: '3.0' }).presence('3.0.7', true)).toBe('either');
    expect(scope('3', { oldest: '3.2' }).presence('3.2.0', true)).toBe('either');
  });

  test('serves, has and presence', () => {
    expect(scope('3.2', { implements: '3.2.0' }).serves('3.2.1')).toBe(false);
    expect(scope('3.2', { implements: '3.2.0' }).has('review-writes')).toBe(true);
    expect(scope('3.2', { implements: '3.2.0' }).has('product-filters')).toBe(false);
    expect(scope('3.1').presence('3.1.2', true)).toBe('present');
    expect(scope('3.1').presence('3.2.0', true)).toBe('absent');
    expect(scope('3.2').presence('3.2.1', false)).toBe('either');
    expect(scope('3.2', { implements: '3.1.1' }).presence('3.1.2', true)).toBe('either');
  });

  test('a recording: a change dated after it is not required', () => {
    const mid2017 = Date.parse('2017-06-01T00:00:00Z');
    const recorded = scope(null, { recordedAt: mid2017 });
    expect(recorded.served).toBe('3.2.1');
    expect(recorded.serves('3.1.3')).toBe(true);
    expect(recorded.serves('3.2.0')).toBe(false);
    expect(recorded.has('sparse-fieldsets')).toBe(true);
    expect(recorded.has('review-writes')).toBe(false);
    expect(recorded.missing('review-writes', 'Review writes')).toMatch(/after the recording/);
    // Two scopes that judge every version alike share a cache key.
    expect(scope(null, { recordedAt: mid2017 }).key).toBe(recorded.key);
    expect(scope(null).key).not.toBe(recorded.key);
  });

  test('describes itself for skip reasons', () => {
    expect(scope('3.2', { implements: '3.1.1' }).missing('review-writes', 'Review writes')).toBe(
      'Review writes came with 3.2.0 (Change history); version=3.2, 3.1.1 served; the deployment implements 3.1.1',
    );
  });
});
