// `npm run conformance -- [options] [suite ...]`, `npm run conformance -- validate-traffic
// <file.har> ...` (see src/har/main.ts) and `npm run conformance -- compare <before> <after>`
// (src/cli/compare.ts): the process around the command (src/cli/command.ts).
// Anything that stops the run is one line on stderr and exit code 2, never a stack trace (set
// CATALOGUE_DEBUG=1 to see one), also an error nothing caught.
import { runCommand, stopLine } from './command.ts';

const io = {
  env: process.env,
  cwd: process.cwd(),
  stdout: (text: string) => void process.stdout.write(text),
  stderr: (text: string) => void process.stderr.write(text),
  interactive: Boolean(process.stdin.isTTY && process.stdout.isTTY && !process.env['CI']),
};

const crashed = (error: unknown) => process.exit(stopLine(io, `internal error: ${error instanceof Error ? error.message : String(error)}`, error));
process.on('unhandledRejection', crashed);
process.on('uncaughtException', crashed);

async function main(): Promise<number> {
  // `compare <before> <after>`: two runs' results side by side (src/cli/compare.ts).
  if (process.argv[2] === 'compare') {
    const { compareCommand } = await import('./compare.ts');
    return compareCommand(process.argv.slice(3), io);
  }
  // `validate-traffic <file.har> ...`: the passive judge of recorded traffic (src/har/main.ts).
  if (process.argv[2] === 'validate-traffic') {
    const { main: validateTraffic } = await import('../har/main.ts');
    return validateTraffic(process.argv.slice(3));
  }
  return runCommand(process.argv.slice(2), io);
}

// Keep-alive sockets and the like must not hold the process open once the reports are written.
void main().then((code) => process.exit(code), crashed);
