// Reads the run's configuration from CLI flags, the environment and a .env file (in that order of
// precedence) and validates every value before any request is made. Every problem is a ConfigError
// whose message is one line naming the key.
import { readFileSync, existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse as parseDotenv } from 'dotenv';
import { DEFAULT_MAX_REQUESTS } from '../budget/budget.ts';
import { didYouMean } from '../util/closest.ts';
import { plainMeaning } from './key-docs.ts';
import { CONFIG_KEYS, DEFAULT_DEADLINE_S, PROFILES, type Profile } from './keys.ts';
import { changeHistory, newestVersion } from '../rules/change-history.ts';
import { SPEC_MEDIA_TYPE } from '../rules/media-type.ts';
import { requirements } from '../requirements/catalogue.ts';
import { ExpectedFailuresError, parseExpectedFailures, type ExpectedFailure } from '../report/expected.ts';

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** A fast-check seed, and the path of one counterexample when a failure printed it. */
export interface RunSeed {
  seed: number;
  path: string | null;
  /** fc.commands' replay path of a model failure's sequence (printed after "@"): with `path`, it replays that sequence alone. */
  replayPath?: string;
}

export interface KitConfig {
  /** null: run against the embedded reference server. Never ends with '/'. */
  baseUrl: string | null;
  authUrl: string | null;
  clientId: string | null;
  clientSecret: string | null;
  redirectUri: string | null;
  userToken: string | null;
  userRefreshToken: string | null;
  expiredToken: string | null;
  /** major.minor as sent in Accept. */
  apiVersion: string;
  /** CATALOGUE_IMPLEMENTS: the patch level the deployment implements, a version of the Change history. */
  implements: string;
  /** CATALOGUE_MEDIA_TYPE: the vendor media type sent in Accept (type/subtype, lower case). */
  mediaType: string;
  /** major.minor versions the deployment says it serves (CATALOGUE_VERSIONS); default [apiVersion]. */
  versions: string[];
  /** CATALOGUE_VERSIONS was given (the embedded run otherwise checks every version the reference serves). */
  versionsGiven: boolean;
  profiles: Profile[];
  /** Discovery hints from CATALOGUE_HINTS: role -> id. */
  hints: Record<string, number>;
  hintsFile: string | null;
  /** CATALOGUE_EXPECTED_FAILURES: the known deviations (src/report/expected.ts), and their file. */
  expectedFailures: ExpectedFailure[];
  expectedFailuresFile: string | null;
  maxRequests: number;
  /** CATALOGUE_DAILY_LIMIT: the deployment's daily call limit per client (the spec's 1000 unless a test deployment says otherwise). */
  dailyLimit: number;
  reportDir: string;
  /** CATALOGUE_HAR: absolute path of the HAR file the run's exchanges are written to; null: none. */
  har: string | null;
  /** Absolute; null: the kit's own suites/. */
  suitesDir: string | null;
  timeoutMs: number;
  /** CATALOGUE_JOURNAL_DIR: absolute; the run's journal of undo actions, and those of earlier runs. */
  journalDir: string;
  /** CATALOGUE_DEADLINE_S: seconds the run may take from the first suite on. */
  deadlineS: number;
  /** CATALOGUE_SEED: a seed and, optionally, fast-check's path to one counterexample; null: fresh seeds. */
  seed: RunSeed | null;
}

export interface ParsedCommandLine {
  help: boolean;
  /** --list: print the suites, their tests and requirement ids, and contact nothing. */
  list: boolean;
  /** --dotenv-file: the dotenv file to read instead of ./.env (not --env-file: Node 20 takes that flag for itself wherever it stands). */
  envFile: string | null;
  /** Suite name filters (positional arguments). */
  filters: string[];
  /** env key -> raw value given by a flag. */
  values: Record<string, string>;
  /** --quiet (nothing until the summary) or --verbose (a line per test too); null: the default (src/report/progress.ts). */
  output: 'quiet' | 'verbose' | null;
  /** --bundle: the run's report directory becomes an evidence bundle (its HAR and a manifest of hashes: src/report/bundle.ts). */
  bundle: boolean;
}

/** The spec's daily call limit per client: a run may never plan to exceed it. */
export const DAILY_LIMIT = 1000;

/**
 * The run's command line. Hand-written, not util.parseArgs: a value may begin with a dash
 * (`--seed -42`, a seed as a failure prints it), which parseArgs refuses as ambiguous.
 */
export function parseCommandLine(argv: readonly string[]): ParsedCommandLine {
  const byFlag = new Map(CONFIG_KEYS.map((k) => [k.flag, k]));
  const out: ParsedCommandLine = { help: false, list: false, envFile: null, filters: [], values: {}, output: null, bundle: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--help' || arg === '-h') {
      out.help = true;
      continue;
    }
    if (arg === '--list') {
      out.list = true;
      continue;
    }
    if (arg === '--bundle') {
      out.bundle = true;
      continue;
    }
    if (arg === '--quiet' || arg === '-q' || arg === '--verbose' || arg === '-v') {
      const output = arg === '--quiet' || arg === '-q' ? 'quiet' : 'verbose';
      if (out.output !== null && out.output !== output) throw new ConfigError('--quiet and --verbose cannot both be given');
      out.output = output;
      continue;
    }
    if (!arg.startsWith('-')) {
      out.filters.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const flag = eq >= 0 ? arg.slice(0, eq) : arg;
    const key = byFlag.get(flag);
    if (!key && flag !== DOTENV_FILE_FLAG) {
      if (RENAMED_FLAGS[flag]) throw new ConfigError(`${flag} was renamed ${RENAMED_FLAGS[flag]} (see --help)`);
      throw new ConfigError(`unknown option ${flag}${didYouMean(flag, [...byFlag.keys(), DOTENV_FILE_FLAG, '--help', '--list', '--quiet', '--verbose', '--bundle'])} (see --help)`);
    }
    let value: string | undefined;
    if (eq >= 0) value = arg.slice(eq + 1);
    else {
      value = argv[i + 1];
      i++;
    }
    if (value === undefined || (eq < 0 && value.startsWith('--'))) {
      throw new ConfigError(`${flag} (${key?.env ?? DOTENV_FILE_ENV}) needs a value`);
    }
    if (key) out.values[key.env] = value;
    else out.envFile = value;
  }
  return out;
}

export const DOTENV_FILE_FLAG = '--dotenv-file';
export const DOTENV_FILE_ENV = 'CATALOGUE_DOTENV_FILE';

/**
 * The dotenv values: from --dotenv-file or CATALOGUE_DOTENV_FILE, which must exist, else from ./.env
 * when there is one. Never touches process.env.
 */
export function dotenvValues(command: ParsedCommandLine, env: Record<string, string | undefined>, cwd: string): Record<string, string> {
  const named = command.envFile ?? env[DOTENV_FILE_ENV];
  if (named === undefined || named === '') return readDotenv(resolve(cwd, '.env'));
  const path = resolve(cwd, named);
  if (!existsSync(path)) throw new ConfigError(`${DOTENV_FILE_ENV} (${DOTENV_FILE_FLAG}): ${path} does not exist`);
  return readDotenv(path);
}

/** Reads a dotenv file without touching process.env; a missing file is no error. */
export function readDotenv(path: string): Record<string, string> {
  if (!existsSync(path)) return {};
  try {
    return parseDotenv(readFileSync(path));
  } catch (error) {
    throw new ConfigError(`cannot read ${path}: ${(error as Error).message}`);
  }
}

export interface ConfigSources {
  flags: Record<string, string>;
  env: Record<string, string | undefined>;
  dotenv: Record<string, string>;
  cwd: string;
}

/** CATALOGUE_* names the kit reads that are not keys of a run's configuration. */
const OTHER_KIT_ENV = [DOTENV_FILE_ENV, 'CATALOGUE_DEBUG', 'CATALOGUE_SPEC'];

/**
 * A CATALOGUE_* name in the environment or the dotenv file that the kit does not know is a slip
 * (CATALOGUE_PROFILE for CATALOGUE_PROFILES): refused, so that a run never goes ahead with the
 * defaults the user meant to change.
 */
/** Keys and flags of earlier releases: named with their new name rather than refused as unknown. */
const RENAMED_KEYS: Record<string, string> = { CATALOGUE_FIXTURES: 'CATALOGUE_HINTS' };
const RENAMED_FLAGS: Record<string, string> = { '--fixtures': '--hints' };

function refuseUnknownKeys(sources: ConfigSources): void {
  const known = [...CONFIG_KEYS.map((k) => k.env), ...OTHER_KIT_ENV];
  const places: [string, Record<string, string | undefined>][] = [
    ['the environment', sources.env],
    ['the dotenv file', sources.dotenv],
  ];
  for (const [where, values] of places) {
    for (const [key, value] of Object.entries(values)) {
      if (value === undefined || !key.startsWith('CATALOGUE_') || known.includes(key)) continue;
      if (RENAMED_KEYS[key]) throw new ConfigError(`${key} (in ${where}) was renamed ${RENAMED_KEYS[key]}`);
      throw new ConfigError(`${key} (in ${where}) is not a key${didYouMean(key, known)} (see --help)`);
    }
  }
}

/** Reads and checks the keys' values: a flag over the environment over .env, blank as unset; each malformed value a ConfigError naming its key. */
class KeyReader {
  constructor(private readonly sources: ConfigSources) {}

  raw(key: string): string | undefined {
    const value = this.sources.flags[key] ?? this.sources.env[key] ?? this.sources.dotenv[key];
    if (value === undefined) return undefined;
    const trimmed = value.trim();
    return trimmed === '' ? undefined : trimmed;
  }

  /** The key as messages name it: "CATALOGUE_X (--x)". */
  name(env: string): string {
    return `${env} (${CONFIG_KEYS.find((k) => k.env === env)!.flag})`;
  }

  text(env: string): string | null {
    return this.raw(env) ?? null;
  }

  /** A file or directory named relative to the working directory. */
  path(env: string): string | null {
    const value = this.raw(env);
    return value === undefined ? null : resolve(this.sources.cwd, value);
  }

  url(env: string): string | null {
    const value = this.raw(env);
    if (value === undefined) return null;
    let parsed: URL;
    try {
      parsed = new URL(value);
    } catch {
      throw new ConfigError(`${this.name(env)} is not a URL: ${JSON.stringify(value)}`);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      throw new ConfigError(`${this.name(env)} must be an http or https URL, got ${parsed.protocol}`);
    }
    if (parsed.search || parsed.hash) {
      throw new ConfigError(`${this.name(env)} must not carry a query or fragment: ${JSON.stringify(value)}`);
    }
    if (parsed.username || parsed.password) {
      throw new ConfigError(`${this.name(env)} must not carry credentials; use the client id and secret keys`);
    }
    return value.replace(/\/+$/, '');
  }

  count(env: string, fallback: number, min: number, max: number): number {
    const value = this.raw(env);
    if (value === undefined) return fallback;
    if (!/^\d+$/.test(value)) throw new ConfigError(`${this.name(env)} must be a whole number, got ${JSON.stringify(value)}`);
    const n = Number(value);
    if (n < min || n > max) throw new ConfigError(`${this.name(env)} must be between ${min} and ${max}, got ${n}`);
    return n;
  }

  seed(): RunSeed | null {
    const value = this.raw('CATALOGUE_SEED');
    if (value === undefined) return null;
    // fast-check seeds are 32-bit integers; a failure prints "<seed>", "<seed>:<path>", or for a
    // sequence of the model "<seed>:<path>@<replay path>" (fc.commands' base64 letters and ':').
    const m = /^(-?\d+)(?::(\d+(?::\d+)*)(?:@([A-Za-z0-9+/:]+))?)?$/.exec(value);
    if (!m || Math.abs(Number(m[1])) > 0x7fffffff) {
      throw new ConfigError(
        `${this.name('CATALOGUE_SEED')} must be a seed as a failure prints it (e.g. 226322074, 7919:0:1:3, or 7919:0:1:3@CEB:AI), got ${JSON.stringify(value)}`,
      );
    }
    return { seed: Number(m[1]) | 0, path: m[2] ?? null, ...(m[3] ? { replayPath: m[3] } : {}) };
  }

  /** The embedded reference brings its own URLs and credentials; a deployment needs its client's. */
  checkTarget(baseUrl: string | null, clientId: string | null, clientSecret: string | null): void {
    if (baseUrl === null) {
      // Mixing in some of a real deployment's would silently test something else than the user meant.
      for (const env of ['CATALOGUE_AUTH_URL', 'CATALOGUE_CLIENT_ID', 'CATALOGUE_CLIENT_SECRET']) {
        if (this.raw(env) !== undefined) throw new ConfigError(`${this.name(env)} is set but CATALOGUE_BASE_URL (--base-url) is not: name the deployment it belongs to`);
      }
      return;
    }
    if (clientId === null) throw new ConfigError(`${this.name('CATALOGUE_CLIENT_ID')} is required when CATALOGUE_BASE_URL is set`);
    if (clientSecret === null) throw new ConfigError(`${this.name('CATALOGUE_CLIENT_SECRET')} is required when CATALOGUE_BASE_URL is set`);
  }

  apiVersion(): string {
    const versionRaw = this.raw('CATALOGUE_API_VERSION') ?? '3.2';
    const version = /^(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(versionRaw);
    if (!version) throw new ConfigError(`${this.name('CATALOGUE_API_VERSION')} must be major[.minor], e.g. 3.1, got ${JSON.stringify(versionRaw)}`);
    if (version[1] !== '3') throw new ConfigError(`${this.name('CATALOGUE_API_VERSION')} must be a version 3 (this kit certifies API v3), got ${versionRaw}`);
    // Patch numbers are ignored by the service (Versioning rule 2), so the kit does not send one.
    return version[2] === undefined ? version[1] : `${version[1]}.${version[2]}`;
  }

  implementsVersion(): string {
    const implementsRaw = this.raw('CATALOGUE_IMPLEMENTS') ?? newestVersion();
    const known = ['3.0.0', ...changeHistory().map((r) => r.version)];
    if (!known.includes(implementsRaw)) {
      throw new ConfigError(
        `${this.name('CATALOGUE_IMPLEMENTS')} must be a version of the spec's Change history (major.minor.patch, e.g. 3.1.1; newest ${newestVersion()}), got ${JSON.stringify(implementsRaw)}`,
      );
    }
    return implementsRaw;
  }

  mediaType(): string {
    const mediaType = (this.raw('CATALOGUE_MEDIA_TYPE') ?? SPEC_MEDIA_TYPE).trim().toLowerCase();
    if (!/^application\/[a-z0-9][a-z0-9!#$&^_.+-]*$/.test(mediaType) || !/\+json$|\/json$/.test(mediaType)) {
      throw new ConfigError(
        `${this.name('CATALOGUE_MEDIA_TYPE')} must be a JSON media type such as application/vnd.example+json (no parameters: the kit adds version=...), got ${JSON.stringify(this.raw('CATALOGUE_MEDIA_TYPE'))}`,
      );
    }
    return mediaType;
  }

  versions(apiVersion: string): string[] {
    const versions: string[] = this.raw('CATALOGUE_VERSIONS') === undefined ? [apiVersion] : [];
    for (const part of (this.raw('CATALOGUE_VERSIONS') ?? '')
      .split(',')
      .map((v) => v.trim())
      .filter(Boolean)) {
      if (!/^3\.(\d+)$/.test(part)) throw new ConfigError(`${this.name('CATALOGUE_VERSIONS')} must list versions 3.<minor> (e.g. 3.0,3.1,3.2), got ${JSON.stringify(part)}`);
      if (!versions.includes(part)) versions.push(part);
    }
    if (versions.length === 0) throw new ConfigError(`${this.name('CATALOGUE_VERSIONS')} names no version`);
    return versions;
  }

  profiles(): Profile[] {
    const profiles: Profile[] = [];
    for (const part of (this.raw('CATALOGUE_PROFILES') ?? 'read,write')
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean)) {
      if (!(PROFILES as readonly string[]).includes(part)) {
        throw new ConfigError(`${this.name('CATALOGUE_PROFILES')} has unknown profile ${JSON.stringify(part)} (known: ${PROFILES.join(', ')})`);
      }
      if (!profiles.includes(part as Profile)) profiles.push(part as Profile);
    }
    if (profiles.length === 0) throw new ConfigError(`${this.name('CATALOGUE_PROFILES')} names no profile`);
    return profiles;
  }
}

export function loadConfig(sources: ConfigSources): KitConfig {
  refuseUnknownKeys(sources);
  const keys = new KeyReader(sources);
  const baseUrl = keys.url('CATALOGUE_BASE_URL');
  const authUrl = keys.url('CATALOGUE_AUTH_URL');
  const clientId = keys.text('CATALOGUE_CLIENT_ID');
  const clientSecret = keys.text('CATALOGUE_CLIENT_SECRET');
  const redirectUri = keys.url('CATALOGUE_REDIRECT_URI');
  keys.checkTarget(baseUrl, clientId, clientSecret);
  const apiVersion = keys.apiVersion();
  const implementsVersion = keys.implementsVersion();
  const mediaType = keys.mediaType();
  const versions = keys.versions(apiVersion);
  const profiles = keys.profiles();
  const hintsFile = keys.path('CATALOGUE_HINTS');
  const hints = hintsFile ? readHints(hintsFile, keys.name('CATALOGUE_HINTS')) : {};
  const expectedFailuresFile = keys.path('CATALOGUE_EXPECTED_FAILURES');
  const expectedFailures = expectedFailuresFile ? readExpectedFailures(expectedFailuresFile, keys.name('CATALOGUE_EXPECTED_FAILURES')) : [];
  const reportDir = keys.raw('CATALOGUE_REPORT_DIR') ?? 'reports';
  return {
    baseUrl,
    authUrl: authUrl ?? baseUrl,
    clientId,
    clientSecret,
    redirectUri,
    userToken: keys.text('CATALOGUE_USER_TOKEN'),
    userRefreshToken: keys.text('CATALOGUE_USER_REFRESH_TOKEN'),
    expiredToken: keys.text('CATALOGUE_EXPIRED_TOKEN'),
    apiVersion,
    implements: implementsVersion,
    mediaType,
    versions,
    versionsGiven: keys.raw('CATALOGUE_VERSIONS') !== undefined,
    profiles,
    hints,
    hintsFile,
    expectedFailures,
    expectedFailuresFile,
    maxRequests: keys.count('CATALOGUE_MAX_REQUESTS', DEFAULT_MAX_REQUESTS, 1, DAILY_LIMIT),
    dailyLimit: keys.count('CATALOGUE_DAILY_LIMIT', DAILY_LIMIT, 1, 1_000_000),
    reportDir: resolve(sources.cwd, reportDir),
    journalDir: resolve(sources.cwd, keys.raw('CATALOGUE_JOURNAL_DIR') ?? join(reportDir, '.journal')),
    har: harFile(keys.raw('CATALOGUE_HAR'), sources.cwd, keys.name('CATALOGUE_HAR')),
    suitesDir: suitesDir(keys.raw('CATALOGUE_SUITES_DIR'), sources.cwd, keys.name('CATALOGUE_SUITES_DIR')),
    timeoutMs: keys.count('CATALOGUE_TIMEOUT_MS', 15_000, 100, 600_000),
    deadlineS: keys.count('CATALOGUE_DEADLINE_S', DEFAULT_DEADLINE_S, 1, 7 * 24 * 3600),
    seed: keys.seed(),
  };
}

function suitesDir(value: string | undefined, cwd: string, keyName: string): string | null {
  if (value === undefined) return null;
  const dir = resolve(cwd, value);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new ConfigError(`${keyName}: ${dir} is not a directory`);
  return dir;
}

/** Whether the file can really be written is found out before the run's first request (run.ts); a directory is a mistake now. */
function harFile(value: string | undefined, cwd: string, keyName: string): string | null {
  if (value === undefined) return null;
  const path = resolve(cwd, value);
  if (existsSync(path) && statSync(path).isDirectory()) throw new ConfigError(`${keyName}: ${path} is a directory; name the HAR file to write`);
  return path;
}

/** The known deviations' file, checked entry by entry: a requirement id must be one of the catalogue's. */
function readExpectedFailures(path: string, keyName: string): ExpectedFailure[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(`${keyName}: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  const ids = [...requirements().keys()];
  const known = new Set(ids);
  try {
    return parseExpectedFailures(text, path, (id) => (known.has(id) ? null : `"${id}" is not a requirement id of the catalogue${didYouMean(id, ids)}`));
  } catch (error) {
    if (error instanceof ExpectedFailuresError) throw new ConfigError(`${keyName}: ${error.message}`);
    throw error;
  }
}

function readHints(path: string, keyName: string): Record<string, number> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(`${keyName}: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`${keyName}: ${path} is not JSON: ${(error as Error).message}`);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new ConfigError(`${keyName}: ${path} must hold a JSON object of role -> id`);
  }
  const out: Record<string, number> = {};
  for (const [role, id] of Object.entries(data)) {
    if (typeof id !== 'number' || !Number.isInteger(id)) {
      throw new ConfigError(`${keyName}: role ${JSON.stringify(role)} in ${path} must map to an integer id, got ${JSON.stringify(id)}`);
    }
    out[role] = id;
  }
  return out;
}

/** The `--help` text, generated from the key table. */
export function helpText(): string {
  const lines = [
    'Usage: npm run conformance -- [options] [suite ...]',
    '',
    'Runs the conformance suites against a deployment of the Catalogue API v3, or against the',
    'embedded reference server when no base URL is configured. Each option can also be set in the',
    'environment or in a .env file under the name shown; a flag wins over the environment, which',
    'wins over .env. Suite names (e.g. categories), test ids (as list names them) and requirement ids',
    '(e.g. FAV-29) restrict the run to those tests.',
    '',
    'Options:',
  ];
  for (const key of CONFIG_KEYS) {
    lines.push(`  ${key.flag.padEnd(22)} ${key.env}`);
    lines.push(`  ${''.padEnd(22)} ${plainMeaning(key)}`);
  }
  lines.push(`  ${DOTENV_FILE_FLAG.padEnd(22)} ${DOTENV_FILE_ENV}`);
  lines.push(`  ${''.padEnd(22)} The dotenv file to read. Default: .env in the working directory, if there is one.`);
  lines.push(`  ${'--list'.padEnd(22)} Lists the suites (those the suite names pick), their tests and requirement ids; contacts nothing.`);
  lines.push(
    `  ${'--bundle'.padEnd(22)} Makes the run's report directory an evidence bundle: its HAR (traffic.har) and manifest.json, the SHA-256 of every file; anyone with the kit checks it with: catalogue-conformance verify <dir>.`,
  );
  lines.push(`  ${'--quiet, -q'.padEnd(22)} No progress while the run goes: the summary alone.`);
  lines.push(`  ${'--verbose, -v'.padEnd(22)} Progress with a line per test (default: a live line on a terminal, a line per suite elsewhere).`);
  lines.push(`  ${'--help'.padEnd(22)} This text.`);
  lines.push('', 'Exit codes: 0 nothing failed, 1 a MUST requirement failed, 2 the run could not be carried out, 130 interrupted.');
  lines.push(
    '',
    'Other commands:',
    '  validate-traffic <file.har> ...   judges recorded traffic by the same rules (validate-traffic --help)',
    "  compare <before> <after>          two runs' results side by side; exit 1 on a regression (compare --help)",
    '  verify <bundle>                   checks a bundle made with --bundle, offline (verify --help)',
  );
  return lines.join('\n');
}
