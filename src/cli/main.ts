// `npm run conformance -- [options] [suite ...]`, and `npm run conformance -- validate-traffic
// <file.har> ...` (see src/har/main.ts). Anything that stops the run is one line on
// stderr and exit code 2, never a stack trace (set CATALOGUE_DEBUG=1 to see one).
import { ConfigError, dotenvValues, helpText, loadConfig, parseCommandLine } from '../config/config.ts';
import { secrets } from '../http/redact.ts';
import { EXIT, RunError, runConformance, SUITES_DIR } from '../run.ts';

const PREFIX = 'catalogue-conformance:';

function stop(message: string, error?: unknown): never {
  process.stderr.write(`${PREFIX} ${secrets.scrub(message)}\n`);
  if (process.env['CATALOGUE_DEBUG'] && error instanceof Error && error.stack) process.stderr.write(`${secrets.scrub(error.stack)}\n`);
  process.exit(EXIT.ERROR);
}

process.on('unhandledRejection', (error) => stop(`internal error: ${error instanceof Error ? error.message : String(error)}`, error));
process.on('uncaughtException', (error) => stop(`internal error: ${error.message}`, error));

async function main(): Promise<void> {
  const cwd = process.cwd();
  // `validate-traffic <file.har> ...`: the passive judge of recorded traffic (src/har/main.ts).
  if (process.argv[2] === 'validate-traffic') {
    const { main: validateTraffic } = await import('../har/main.ts');
    process.exit(validateTraffic(process.argv.slice(3)));
  }
  let exitCode: number;
  try {
    const command = parseCommandLine(process.argv.slice(2));
    if (command.help) {
      process.stdout.write(`${helpText()}\n`);
      process.exit(EXIT.PASS);
    }
    const config = loadConfig({ flags: command.values, env: process.env, dotenv: dotenvValues(command, process.env, cwd), cwd });
    if (command.list) {
      const { listText } = await import('./list.ts');
      process.stdout.write(`${await listText(config.suitesDir ?? SUITES_DIR, command.filters)}
`);
      process.exit(EXIT.PASS);
    }
    const outcome = await runConformance({
      config,
      filters: command.filters,
      print: (text) => process.stdout.write(`${text}\n`),
      interactive: Boolean(process.stdin.isTTY && process.stdout.isTTY && !process.env['CI']),
    });
    exitCode = outcome.exitCode;
  } catch (error) {
    if (error instanceof ConfigError) stop(`configuration: ${error.message}`, error);
    if (error instanceof RunError) stop(error.message, error);
    stop(`internal error: ${error instanceof Error ? error.message : String(error)} (set CATALOGUE_DEBUG=1 for details)`, error);
  }
  // Keep-alive sockets and the like must not hold the process open once the reports are written.
  process.exit(exitCode);
}

void main();
