import { existsSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { ensureDir } from './fs.ts';

test('creates every missing level, and accepts a directory that exists', () => {
  const base = mkdtempSync(join(tmpdir(), 'cc-fs-'));
  const deep = join(base, 'a', 'b', 'c');
  ensureDir(deep);
  expect(statSync(deep).isDirectory()).toBe(true);
  ensureDir(deep);
  expect(existsSync(deep)).toBe(true);
});

test('fails at once, with the code, where a directory cannot be made (no hang under /proc)', () => {
  expect(() => ensureDir('/proc/cc-never/reports')).toThrow(expect.objectContaining({ code: 'ENOENT' }));
  expect(() => ensureDir('/etc/hostname/reports')).toThrow(expect.objectContaining({ code: 'ENOTDIR' }));
});
