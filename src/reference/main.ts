// Standalone reference server (`npm run reference -- [flags]`, see args.ts):
//   npm run reference -- --port 8080 --base-path /api --fault NAME --dataset alt --auth-origin separate
// Prints the connection details as key=value lines (base_url, auth_url, the demo client's
// credentials, an authorization URL to open in a browser), runs until SIGINT/SIGTERM, then
// closes and exits 0. Unknown flag or bad value: one line on stderr, exit 2.
//
// Unlike startReference() (whose default is 'auto', which the kit's harness relies on), the
// consent step defaults to 'page' here, so a person can click through the authorization.

import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs, USAGE } from './args.ts';
import { AUTHORIZABLE_SCOPES } from './auth-records.ts';
import { startReference, type RunningReference } from './server.ts';
import { FAULT_NAMES, FAULTS } from './faults.ts';
import { VARIANT_NAMES, VARIANTS } from './variants.ts';

/** Starts the server `argv` describes and prints how to reach it; the process then runs until SIGINT/SIGTERM. */
export async function main(argv: readonly string[]): Promise<void> {
  const parsed = parseArgs([...argv]);
  if (!parsed.ok) {
    process.stderr.write(`reference: ${parsed.error} (see --help)\n`);
    process.exit(2);
  }
  if (parsed.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  // The registries, as the docs and the mutation test read them: each fault with the requirement it breaks.
  if (parsed.options.fault === 'list') {
    process.stdout.write(`${FAULT_NAMES.map((name) => `${name} [${FAULTS[name]!.requirement}]: ${FAULTS[name]!.description}`).join('\n')}\n`);
    process.exit(0);
  }
  if (parsed.options.variants?.includes('list')) {
    process.stdout.write(`${VARIANT_NAMES.map((name) => `${name}: ${VARIANTS[name].description}`).join('\n')}\n`);
    process.exit(0);
  }
  const options = { ...parsed.options, consent: parsed.options.consent ?? 'page' };
  let ref: RunningReference;
  try {
    ref = await startReference(options);
  } catch (err) {
    process.stderr.write(`reference: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(2);
  }
  const authorizeUrl = `${ref.authUrl}/oauth2/authorizations/new?${new URLSearchParams({
    client_id: ref.client.id,
    redirect_uri: ref.client.redirectUri,
    response_type: 'code',
    scope: AUTHORIZABLE_SCOPES.join(' '),
  })}`;
  process.stdout.write(
    [
      `base_url=${ref.baseUrl}`,
      `auth_url=${ref.authUrl}`,
      `client_id=${ref.client.id}`,
      `client_secret=${ref.client.secret}`,
      `redirect_uri=${ref.client.redirectUri}`,
      `consent=${options.consent}`,
      `authorize_url=${authorizeUrl}`,
      ...(options.fault ? [`fault=${options.fault}`] : []),
      ...(ref.variants.length ? [`variants=${ref.variants.join(',')}`] : []),
      '',
      '# Application token: POST {auth_url}/oauth2/token with grant_type=client_credentials, client_id,',
      '#   client_secret and scope=public.',
      '# User token: open authorize_url in a browser and approve; nothing listens at redirect_uri, so',
      '#   copy code= from the address bar, URL-decode it, and POST it to {auth_url}/oauth2/token with',
      '#   grant_type=authorization_code, client_id, client_secret and redirect_uri.',
      '# Stop with Ctrl-C.',
      '',
    ].join('\n'),
  );
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    ref.close().then(
      () => process.exit(0),
      () => process.exit(0),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

// Run as a script (npm run reference); `catalogue-conformance reference` calls main itself.
if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) void main(process.argv.slice(2));
