// Command-line flags of src/reference/main.ts -> ReferenceOptions.

import { parseArgs as parseNodeArgs } from 'node:util';
import type { ReferenceOptions } from './server.ts';

export const USAGE = `Usage: npm run reference -- [--host H] [--port N] [--base-path /api] [--auth-base-path /p]
       [--auth-origin same|separate] [--dataset default|alt] [--fault NAME] [--variant A,B]
       [--consent page|auto|deny] [--per-minute N] [--per-day N] [--rare-data-last]

  --host          interface to listen on (default 127.0.0.1)
  --port          API port (default 0: a free port)
  --base-path     API path prefix, e.g. /api (default none)
  --auth-origin   same: /oauth2/* on the API server (default); separate: on a second port
  --auth-base-path  prefix of /oauth2/* (default none)
  --dataset       default or alt
  --fault         switch on one named fault (the server then misbehaves on purpose; --fault list
                  names them, each with the requirement it breaks)
  --variant       switch on legal variants, comma-separated or repeated (another answer the spec
                  allows where the reference makes a choice; --variant list names them)
  --consent       page: an HTML consent page with Approve / Deny (default here);
                  auto: approve at once; deny: refuse at once
  --per-minute    requests per minute per token (default 100)
  --per-day       calls per day per client (default 1000)
  --rare-data-last  test setting: one future SKU and one unstructured location, on the last pages
                  of the last leaf and of the biggest shop (the discovery self-test)`;

export type ParsedArgs = { ok: true; options: ReferenceOptions; help: boolean } | { ok: false; error: string };

const VALUE_FLAGS = [
  '--host',
  '--port',
  '--base-path',
  '--auth-base-path',
  '--auth-origin',
  '--dataset',
  '--fault',
  '--variant',
  '--consent',
  '--per-minute',
  '--per-day',
] as const;
type ValueFlag = (typeof VALUE_FLAGS)[number];

function intValue(flag: string, raw: string, min: number, max: number): number | string {
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) return `${flag}: expected an integer ${min}-${max}, got "${raw}"`;
  return Number(raw);
}

/** The flags as util.parseArgs options: each a value, any given again (the last wins, --variant adds up). */
const OPTIONS = Object.fromEntries([
  ['help', { type: 'boolean', short: 'h' }],
  ['rare-data-last', { type: 'boolean' }],
  ...VALUE_FLAGS.map((flag) => [flag.slice(2), { type: 'string', multiple: true }]),
]) as Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }>;

/** util.parseArgs's refusal as this server's one line. */
function argumentError(error: NodeJS.ErrnoException): string {
  const named = /'(-[^' ]+)/.exec(error.message)?.[1];
  if (error.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') return `${named ?? 'an option'} needs a value`;
  const positional = /Unexpected argument '([^']*)'/.exec(error.message)?.[1];
  return `unknown argument "${named ?? positional ?? error.message.split('\n')[0]}"`;
}

/** Parses argv (without node and script). Fault and variant names are checked later by startReference. */
export function parseArgs(argv: readonly string[]): ParsedArgs {
  const options: ReferenceOptions = {};
  const limits: { perMinute?: number; perDay?: number } = {};
  let help = false;
  let tokens;
  try {
    tokens = parseNodeArgs({ args: [...argv], options: OPTIONS, strict: true, tokens: true }).tokens;
  } catch (error) {
    return { ok: false, error: argumentError(error as NodeJS.ErrnoException) };
  }
  for (const token of tokens) {
    if (token.kind !== 'option') continue;
    if (token.name === 'help') {
      help = true;
      continue;
    }
    if (token.name === 'rare-data-last') {
      options.rareDataLast = true;
      continue;
    }
    const flag = `--${token.name}` as ValueFlag;
    const value = token.value;
    if (value === undefined || value === '') return { ok: false, error: `${flag} needs a value` };
    switch (flag) {
      case '--host':
        options.host = value;
        break;
      case '--port': {
        const n = intValue(flag, value, 0, 65535);
        if (typeof n === 'string') return { ok: false, error: n };
        options.port = n;
        break;
      }
      case '--base-path':
        options.basePath = value;
        break;
      case '--auth-base-path':
        options.authBasePath = value;
        break;
      case '--auth-origin':
        if (value !== 'same' && value !== 'separate') return { ok: false, error: `--auth-origin: expected same or separate, got "${value}"` };
        options.authOrigin = value;
        break;
      case '--dataset':
        if (value !== 'default' && value !== 'alt') return { ok: false, error: `--dataset: expected default or alt, got "${value}"` };
        options.dataset = value;
        break;
      case '--fault':
        options.fault = value;
        break;
      case '--variant':
        options.variants = [
          ...(options.variants ?? []),
          ...value
            .split(',')
            .map((v) => v.trim())
            .filter((v) => v !== ''),
        ];
        break;
      case '--consent':
        if (value !== 'auto' && value !== 'deny' && value !== 'page') {
          return { ok: false, error: `--consent: expected page, auto or deny, got "${value}"` };
        }
        options.consent = value;
        break;
      case '--per-minute':
      case '--per-day': {
        const n = intValue(flag, value, 1, 1_000_000_000);
        if (typeof n === 'string') return { ok: false, error: n };
        if (flag === '--per-minute') limits.perMinute = n;
        else limits.perDay = n;
        break;
      }
    }
  }
  if (limits.perMinute !== undefined || limits.perDay !== undefined) options.limits = limits;
  return { ok: true, options, help };
}
