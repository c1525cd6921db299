// The CLI's command, apart from the process it runs in: parses the arguments, loads the
// configuration and runs (or lists, or prints help), writing what a user reads to `io` and
// returning the exit code. src/cli/main.ts is the process around it; the self-tests call it
// in-process for the runs that stop before any suite starts. Anything that stops the run is one
// line, `catalogue-conformance: <what happened>`, and exit code 2, never a stack trace (set
// CATALOGUE_DEBUG=1 to see one).
import { ConfigError, dotenvValues, helpText, loadConfig, parseCommandLine } from '../config/config.ts';
import { secrets } from '../http/redact.ts';
import { EXIT, RunError, runConformance, SUITES_DIR } from '../run.ts';

export const PREFIX = 'catalogue-conformance:';

export interface CommandIo {
  env: NodeJS.ProcessEnv;
  cwd: string;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Whether a person is at a terminal (may be asked to consent in a browser). */
  interactive: boolean;
}

/** The line that stops the run (and the stack with CATALOGUE_DEBUG), redacted: exit code 2. */
export function stopLine(io: Pick<CommandIo, 'env' | 'stderr'>, message: string, error?: unknown): number {
  io.stderr(`${PREFIX} ${secrets.scrub(message)}\n`);
  if (io.env['CATALOGUE_DEBUG'] && error instanceof Error && error.stack) io.stderr(`${secrets.scrub(error.stack)}\n`);
  return EXIT.ERROR;
}

/** `catalogue-conformance [options] [suite ...]`: the exit code of the run, the help or the list. */
export async function runCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  try {
    const command = parseCommandLine([...argv]);
    if (command.help) {
      io.stdout(`${helpText()}\n`);
      return EXIT.PASS;
    }
    const config = loadConfig({ flags: command.values, env: io.env, dotenv: dotenvValues(command, io.env, io.cwd), cwd: io.cwd });
    if (command.list) {
      const { listText } = await import('./list.ts');
      io.stdout(`${await listText(config.suitesDir ?? SUITES_DIR, command.filters)}\n`);
      return EXIT.PASS;
    }
    // A live line on a terminal, a line per suite elsewhere (CI, a log), unless --quiet or --verbose.
    const progress = command.output ?? (io.interactive ? 'live' : 'lines');
    const outcome = await runConformance({
      config,
      filters: command.filters,
      print: (text) => io.stdout(`${text}\n`),
      interactive: io.interactive,
      progress: { mode: progress, write: io.stdout },
      bundle: command.bundle,
    });
    return outcome.exitCode;
  } catch (error) {
    if (error instanceof ConfigError) return stopLine(io, `configuration: ${error.message}`, error);
    if (error instanceof RunError) return stopLine(io, error.message, error);
    return stopLine(io, `internal error: ${error instanceof Error ? error.message : String(error)} (set CATALOGUE_DEBUG=1 for details)`, error);
  }
}
