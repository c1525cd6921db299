// What every part of a run shares: where the kit and its suites are, the later passes, the exit
// codes, and the error that stops a run with one line.
import { fileURLToPath } from 'node:url';
import { INTERRUPTED_EXIT } from '../harness/signals.ts';

export const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const SUITES_DIR = fileURLToPath(new URL('../../suites/', import.meta.url));
/**
 * Directories of suites (under SUITES_DIR) run in passes of their own, in this order, each after
 * everything before it has finished: last/ may end the run's user session (logout) and judges
 * the exchanges of the whole run; lockout/ ends every token of the client (the daily limit).
 */
export const LATER_PASSES = ['last', 'lockout'] as const;

export const EXIT = { PASS: 0, FAIL: 1, ERROR: 2, INTERRUPTED: INTERRUPTED_EXIT } as const;

/** The run cannot be carried out: one line for the user, exit code 2. */
export class RunError extends Error {
  override name = 'RunError';
}
