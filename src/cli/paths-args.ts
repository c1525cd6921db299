// The arguments of the commands that take paths and --help alone (compare, verify): parsed, with
// the usage on --help (exit 0) and on a wrong argument or count (exit 2, one line and the usage).
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';

export interface PathsIo {
  cwd: string;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

/** The `count` paths, resolved against the working directory; or the exit code when the command ends here. */
export function pathsOrExit(argv: readonly string[], io: PathsIo, command: string, usage: string, count: number, what: string): string[] | number {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options: { help: { type: 'boolean', short: 'h' } }, allowPositionals: true, strict: true });
  } catch (error) {
    io.stderr(`catalogue-conformance ${command}: ${(error as Error).message}\n${usage}\n`);
    return 2;
  }
  if (parsed.values.help) {
    io.stdout(`${usage}\n`);
    return 0;
  }
  if (parsed.positionals.length !== count) {
    io.stderr(`catalogue-conformance ${command}: expected ${what}, got ${parsed.positionals.length} path(s)\n${usage}\n`);
    return 2;
  }
  return parsed.positionals.map((p) => resolve(io.cwd, p));
}
