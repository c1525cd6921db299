// Standalone reference server:
//   npx tsx src/reference/main.ts --port 8080 --base-path /api --fault NAME --dataset alt --auth-origin separate
// Prints the connection details, runs until SIGINT/SIGTERM, then closes and exits 0.
// Unknown flag or bad value: one line on stderr, exit 2.

import { parseArgs, USAGE } from './args.ts';
import { startReference, type RunningReference } from './server.ts';

async function main(): Promise<void> {
  const parsed = parseArgs(process.argv.slice(2));
  if (!parsed.ok) {
    process.stderr.write(`reference: ${parsed.error} (see --help)\n`);
    process.exit(2);
  }
  if (parsed.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  let ref: RunningReference;
  try {
    ref = await startReference(parsed.options);
  } catch (err) {
    process.stderr.write(`reference: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(2);
  }
  process.stdout.write(
    [
      `base_url=${ref.baseUrl}`,
      `auth_url=${ref.authUrl}`,
      `client_id=${ref.client.id}`,
      `client_secret=${ref.client.secret}`,
      `redirect_uri=${ref.client.redirectUri}`,
      ...(parsed.options.fault ? [`fault=${parsed.options.fault}`] : []),
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

void main();
