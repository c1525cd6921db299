#!/usr/bin/env node
// `catalogue-conformance <command>` (npx, a global install, another project's CI): the kit is
// TypeScript run as it is, through tsx's loader; src/cli/main.ts reads the command.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
