// The committed docs/faults-and-variants.md is the registries' page (npm run registry-doc).
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { FAULT_NAMES } from './faults.ts';
import { REGISTRY_DOC, registryDoc } from './registry-doc.ts';
import { VARIANT_NAMES } from './variants.ts';

test('docs/faults-and-variants.md lists every fault and variant of the registries, as written from them', () => {
  const page = registryDoc();
  for (const name of [...FAULT_NAMES, ...VARIANT_NAMES]) expect(page).toContain(`| \`${name}\` |`);
  expect(readFileSync(REGISTRY_DOC, 'utf8'), 'regenerate with: npm run registry-doc').toBe(page);
});
