// The registry of legal variants: well-formed definitions, bundles that cover every variant once
// without a conflict, and a guard for each variant somewhere in the reference (a switch that
// changes nothing would prove nothing).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { requirements } from '../requirements/catalogue.ts';
import { startReference } from './server.ts';
import { conflict, mutationBundle, resolveVariants, VARIANT_NAMES, VARIANTS, variantBundles, type VariantInfo } from './variants.ts';

const REFERENCE_DIR = fileURLToPath(new URL('.', import.meta.url));

function sources(dir: string): string {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return entry.name === 'variants' ? [] : [sources(path)];
      return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [readFileSync(path, 'utf8')] : [];
    })
    .join('\n');
}

describe('legal variants', () => {
  test('are named in kebab-case, described in one sentence, and cite known requirements', () => {
    const known = requirements();
    for (const name of VARIANT_NAMES) {
      const info = VARIANTS[name] as VariantInfo;
      expect(name).toMatch(/^[a-z0-9]+(?:[-.][a-z0-9]+)*$/);
      expect(info.description, name).toMatch(/^[A-Za-z0-9].*\.$/);
      expect(info.choice.length, name).toBeGreaterThan(10);
      expect(info.requirements.length, name).toBeGreaterThan(0);
      for (const id of info.requirements) expect(known.has(id), `${name} cites unknown requirement ${id}`).toBe(true);
      for (const other of info.conflicts ?? []) expect(VARIANT_NAMES as readonly string[], `${name} conflicts with unknown ${other}`).toContain(other);
    }
  });

  test('each is guarded somewhere in the reference, or stands for a server option', () => {
    const code = sources(REFERENCE_DIR);
    const unguarded = VARIANT_NAMES.filter(
      (name) => !(VARIANTS[name] as VariantInfo).options && !new RegExp(`variants\\W{0,4}has\\('${name.replace(/\./g, '\\.')}'\\)`).test(code),
    );
    expect(unguarded, 'variants with no `variants.has(...)` guard in src/reference').toEqual([]);
  });

  test('bundles hold every variant once, none with a conflicting pair; the mutation bundle narrows nothing', () => {
    const bundles = variantBundles();
    expect(bundles.flat().sort()).toEqual([...VARIANT_NAMES].sort());
    for (const bundle of bundles) for (const a of bundle) for (const b of bundle) if (a !== b) expect(conflict(a, b), `${a} and ${b} in one bundle`).toBe(false);
    expect(mutationBundle().some((name) => (VARIANTS[name] as VariantInfo).narrows)).toBe(false);
    // Each patch level is a bundle of its own (they conflict): 3.2.0, 3.1.1, 3.0.22 and 3.0.0.
    expect(bundles.length).toBeLessThanOrEqual(7);
  });

  test('an unknown name or a conflicting pair is refused with the reason', async () => {
    expect(() => resolveVariants(['no-such-variant'])).toThrow(/Unknown variant "no-such-variant"/);
    const [a, b] = VARIANT_NAMES.flatMap((x) => VARIANT_NAMES.filter((y) => conflict(x, y)).map((y) => [x, y] as const))[0] ?? [];
    if (a && b) expect(() => resolveVariants([a, b])).toThrow(/answer the same point/);
    await expect(startReference({ variants: ['no-such-variant'] })).rejects.toThrow(/Unknown variant/);
  });

  test('a variant standing for a server option sets it, unless the option is given', async () => {
    const moved = await startReference({ variants: ['base-path'] });
    const given = await startReference({ variants: ['base-path'], basePath: '/v3' });
    try {
      expect(new URL(moved.baseUrl).pathname).toBe('/api');
      expect(new URL(given.baseUrl).pathname).toBe('/v3');
      expect(moved.variants).toEqual(['base-path']);
    } finally {
      await Promise.all([moved.close(), given.close()]);
    }
  });
});
