// docs/faults-and-variants.md, written from the two registries (faults.ts, variants.ts) by
// `npm run registry-doc`; a test (registry-doc.test.ts) keeps the committed page equal to them.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { FAULT_NAMES, FAULTS } from './faults.ts';
import { VARIANT_NAMES, VARIANTS } from './variants.ts';

export const REGISTRY_DOC = fileURLToPath(new URL('../../docs/faults-and-variants.md', import.meta.url));

const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();

export function registryDoc(): string {
  return [
    '# Faults and legal variants of the reference server',
    '',
    'Written by `npm run registry-doc` from `src/reference/faults.ts` and `src/reference/variants.ts`:',
    'edit the registries, not this page. `npm run reference -- --fault list` and `--variant list` print the same.',
    '',
    `## Faults (${FAULT_NAMES.length})`,
    '',
    'A fault is a realistic single bug (`--fault <name>`): the mutation test runs the suites against each and',
    'requires a failure, under the requirement it breaks.',
    '',
    '| Fault | Breaks | What the server does wrong |',
    '|---|---|---|',
    ...FAULT_NAMES.map((name) => `| \`${name}\` | ${FAULTS[name]!.requirement} | ${cell(FAULTS[name]!.description)} |`),
    '',
    `## Legal variants (${VARIANT_NAMES.length})`,
    '',
    'A variant is another answer the spec allows where the reference makes a choice, or the other reading of a',
    'statement that admits two (`--variant <name>,...`): the legal-variant test requires no MUST failure under any.',
    '',
    '| Variant | Requirements | What the server does instead | The choice it stands for |',
    '|---|---|---|---|',
    ...VARIANT_NAMES.map((name) => {
      const v = VARIANTS[name];
      return `| \`${name}\` | ${v.requirements.join(', ')} | ${cell(v.description)} | ${cell(v.choice)} |`;
    }),
    '',
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const before = (() => {
    try {
      return readFileSync(REGISTRY_DOC, 'utf8');
    } catch {
      return '';
    }
  })();
  writeFileSync(REGISTRY_DOC, registryDoc());
  console.log(`${before === registryDoc() ? 'unchanged' : 'wrote'} ${REGISTRY_DOC}`);
}
