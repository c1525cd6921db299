// Renders .env.example from the key table; a test keeps the committed file equal to it.
// Regenerate with `npm run env-example` after changing src/config/keys.ts.
import { CONFIG_KEYS } from './keys.ts';

export function envExample(): string {
  const lines = [
    '# catalogue-conformance configuration. Copy to .env (never commit .env: it holds secrets).',
    '# Leave CATALOGUE_BASE_URL empty to run against the embedded reference server.',
    '# Command-line flags (npm run conformance -- --help) override these values.',
    '',
  ];
  for (const key of CONFIG_KEYS) {
    lines.push(`# ${key.description}${key.default ? ` Default: ${key.default}.` : ''}`);
    lines.push(`${key.env}=`);
    lines.push('');
  }
  return lines.join('\n');
}
