// The commands of `catalogue-conformance <command>` (src/cli/main.ts runs them): one list, which
// the help, the CI examples' test and the dispatcher read.
export const COMMAND_NAMES = ['run', 'list', 'compare', 'verify', 'validate-traffic', 'reference'] as const;
export type CommandName = (typeof COMMAND_NAMES)[number];

/** The executable's name (package.json's bin). */
export const EXECUTABLE = 'catalogue-conformance';
