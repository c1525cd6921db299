// What the key table (./keys.ts) writes for people: `.env.example` and README's key table, both
// kept equal to it by a test (src/config/config.test.ts). Regenerate both with `npm run key-docs`
// after changing the table; `--help` reads the table itself (./config.ts).
import { CONFIG_KEYS, type ConfigKey } from './keys.ts';

/** Markdown of a description as plain text: backticks dropped, `[text](#anchor)` as text. */
export function plainText(markdown: string): string {
  return markdown.replace(/\[([^\]]+)\]\([^)]+\)/g, '$1').replace(/`/g, '');
}

/** A key's description and default, as one sentence run (Markdown). */
function meaning(key: ConfigKey): string {
  return `${key.description}${key.default ? ` Default: ${key.default}.` : ''}`;
}

/** The key's description and default as `--help` and `.env.example` show them. */
export const plainMeaning = (key: ConfigKey): string => plainText(meaning(key));

export function envExample(): string {
  const lines = [
    '# catalogue-conformance configuration. Copy to .env (never commit .env: it holds secrets).',
    '# Leave CATALOGUE_BASE_URL empty to run against the embedded reference server.',
    '# Command-line flags (npm run conformance -- --help) override these values.',
    '',
  ];
  for (const key of CONFIG_KEYS) lines.push(`# ${plainMeaning(key)}`, `${key.env}=`, '');
  return lines.join('\n');
}

/** The markers around README's key table: what lies between them is written by `npm run key-docs`. */
export const README_KEYS_BEGIN = '<!-- key table: generated from src/config/keys.ts by `npm run key-docs`; edit the table there -->';
export const README_KEYS_END = '<!-- end of key table -->';

/** README's key table, one row per key. */
export function readmeKeyTable(): string {
  const rows = CONFIG_KEYS.map((key) => `| \`${key.env}\` (\`${key.flag}\`) | ${meaning(key).replace(/\|/g, '\\|')} |`);
  return ['| Key (flag) | Meaning |', '|---|---|', ...rows].join('\n');
}

/** README with its key table (between the markers) replaced by the table's; throws when the markers are missing. */
export function readmeWithKeyTable(readme: string): string {
  const begin = readme.indexOf(README_KEYS_BEGIN);
  const end = readme.indexOf(README_KEYS_END);
  if (begin < 0 || end < begin) throw new Error(`README.md lacks the key table's markers (${README_KEYS_BEGIN} ... ${README_KEYS_END})`);
  return `${readme.slice(0, begin + README_KEYS_BEGIN.length)}\n${readmeKeyTable()}\n${readme.slice(end)}`;
}
