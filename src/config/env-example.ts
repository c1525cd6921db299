// Renders .env.example from the key table; a test keeps the committed file equal to it.
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

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/^.*\/src\//, '/src/'))) {
  process.stdout.write(envExample());
}
