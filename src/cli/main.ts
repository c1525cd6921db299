// The kit's command line, as `catalogue-conformance <command>` (bin/catalogue-conformance.mjs) and
// `npm run conformance -- ...`:
//   run [options] [suite ...]          the conformance run (src/cli/command.ts); also with no command
//   list [suite ...]                   the suites, tests and requirement ids; contacts nothing
//   compare <before> <after>           two runs' results side by side (src/cli/compare.ts)
//   verify <bundle>                    checks an evidence bundle a run made with --bundle (src/cli/verify.ts)
//   validate-traffic <file.har> ...    the passive judge of recorded traffic (src/har/main.ts)
//   reference [flags]                  the reference server, standalone (src/reference/main.ts)
// Anything that stops the run is one line on stderr and exit code 2, never a stack trace (set
// CATALOGUE_DEBUG=1 to see one), also an error nothing caught.
import { runCommand, stopLine } from './command.ts';
import { COMMAND_NAMES, type CommandName } from './commands.ts';

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

/** The commands by name; the exit code of each (the reference server's: when it is stopped). */
const COMMANDS: Record<CommandName, (args: string[]) => Promise<number>> = {
  run: (args) => runCommand(args, io),
  list: (args) => runCommand(['--list', ...args], io),
  compare: async (args) => (await import('./compare.ts')).compareCommand(args, io),
  verify: async (args) => (await import('./verify.ts')).verifyCommand(args, io),
  'validate-traffic': async (args) => (await import('../har/main.ts')).main(args),
  reference: async (args) => {
    await (await import('../reference/main.ts')).main(args);
    // It serves until SIGINT or SIGTERM, and exits then.
    return new Promise<number>(() => undefined);
  },
};

async function main(): Promise<number> {
  const [first, ...rest] = process.argv.slice(2);
  const command = first !== undefined && (COMMAND_NAMES as readonly string[]).includes(first) ? COMMANDS[first as CommandName] : null;
  // No command (options or suite names first): a run, as `npm run conformance -- [options] [suite ...]` always was.
  return command ? command(rest) : runCommand(process.argv.slice(2), io);
}

// Keep-alive sockets and the like must not hold the process open once the reports are written.
void main().then((code) => process.exit(code), crashed);
