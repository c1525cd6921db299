// Configuration: flags > environment > .env, defaults, one-line errors naming the key and its flag,
// and the committed .env.example kept equal to the key table.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { ConfigError, DAILY_LIMIT, helpText, loadConfig, parseCommandLine, readDotenv, type ConfigSources } from './config.ts';
import { envExample, plainMeaning, plainText, readmeKeyTable, readmeWithKeyTable } from './key-docs.ts';
import { CONFIG_KEYS } from './keys.ts';

const dir = mkdtempSync(join(tmpdir(), 'catalogue-config-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const REMOTE = { CATALOGUE_BASE_URL: 'https://api.example.com/api', CATALOGUE_CLIENT_ID: 'app', CATALOGUE_CLIENT_SECRET: 'secret' };

function sources(parts: Partial<ConfigSources> = {}): ConfigSources {
  return { flags: {}, env: {}, dotenv: {}, cwd: dir, ...parts };
}

function configError(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('parseCommandLine', () => {
  test('--flag value and --flag=value both set the env key', () => {
    expect(parseCommandLine(['--base-url', 'https://a/api', '--max-requests=50', '--client-id=x=y'])).toEqual({
      help: false,
      list: false,
      envFile: null,
      filters: [],
      values: { CATALOGUE_BASE_URL: 'https://a/api', CATALOGUE_MAX_REQUESTS: '50', CATALOGUE_CLIENT_ID: 'x=y' },
      output: null,
      bundle: false,
    });
  });

  test('positional arguments are suite filters; --help and -h set help', () => {
    expect(parseCommandLine(['categories', '--timeout-ms', '500', 'errors'])).toEqual({
      help: false,
      list: false,
      envFile: null,
      filters: ['categories', 'errors'],
      values: { CATALOGUE_TIMEOUT_MS: '500' },
      output: null,
      bundle: false,
    });
    expect(parseCommandLine(['-q', 'categories']).output).toBe('quiet');
    expect(parseCommandLine(['--verbose']).output).toBe('verbose');
    expect(parseCommandLine(['--bundle', 'categories'])).toMatchObject({ bundle: true, filters: ['categories'] });
    // A value may begin with a dash: the reason this parser is not util.parseArgs.
    expect(parseCommandLine(['--seed', '-42']).values).toEqual({ CATALOGUE_SEED: '-42' });
    expect(parseCommandLine(['--dotenv-file', 'ci.env']).envFile).toBe('ci.env');
    expect(parseCommandLine(['--help']).help).toBe(true);
    expect(parseCommandLine(['-h']).help).toBe(true);
    expect(parseCommandLine(['--list', 'favorites'])).toMatchObject({ list: true, filters: ['favorites'] });
  });

  test('an unknown option is a ConfigError naming it', () => {
    const error = configError(() => parseCommandLine(['--base-ur', 'x']));
    expect(error.message).toContain('--base-ur');
    expect(error.message).toMatch(/unknown option/);
    expect(configError(() => parseCommandLine(['--bogus=1'])).message).toContain('--bogus');
    // A slip names the option meant; another word does not guess.
    expect(error.message).toContain('did you mean --base-url?');
    expect(configError(() => parseCommandLine(['--bogus=1'])).message).not.toContain('did you mean');
  });

  test('a key or flag of an earlier release is named with its new name', () => {
    expect(configError(() => parseCommandLine(['--fixtures', 'f.json'])).message).toBe('--fixtures was renamed --hints (see --help)');
    expect(configError(() => loadConfig(sources({ env: { CATALOGUE_FIXTURES: 'f.json' } }))).message).toBe('CATALOGUE_FIXTURES (in the environment) was renamed CATALOGUE_HINTS');
  });

  test('a missing value is a ConfigError naming the flag and the env key', () => {
    for (const argv of [['--base-url'], ['--base-url', '--client-id', 'x']]) {
      const error = configError(() => parseCommandLine(argv));
      expect(error.message).toContain('--base-url');
      expect(error.message).toContain('CATALOGUE_BASE_URL');
      expect(error.message).toMatch(/needs a value/);
    }
  });

  test('every key of the table has its flag', () => {
    for (const key of CONFIG_KEYS) expect(parseCommandLine([`${key.flag}=v`]).values).toEqual({ [key.env]: 'v' });
  });
});

describe('loadConfig', () => {
  test('defaults: the embedded reference server', () => {
    expect(loadConfig(sources())).toEqual({
      baseUrl: null,
      authUrl: null,
      clientId: null,
      clientSecret: null,
      redirectUri: null,
      userToken: null,
      userRefreshToken: null,
      expiredToken: null,
      apiVersion: '3.2',
      implements: '3.2.1',
      mediaType: 'application/vnd.service+json',
      versions: ['3.2'],
      versionsGiven: false,
      seed: null,
      profiles: ['read', 'write'],
      hints: {},
      hintsFile: null,
      expectedFailures: [],
      expectedFailuresFile: null,
      maxRequests: 900,
      dailyLimit: 1000,
      reportDir: resolve(dir, 'reports'),
      journalDir: resolve(dir, 'reports/.journal'),
      har: null,
      suitesDir: null,
      timeoutMs: 15_000,
      deadlineS: 1800,
    });
  });

  test('HAR file: resolved under cwd; a directory is a ConfigError naming the key', () => {
    expect(loadConfig(sources({ flags: { CATALOGUE_HAR: 'out/run.har' } })).har).toBe(join(dir, 'out/run.har'));
    expect(loadConfig(sources({ env: { CATALOGUE_HAR: '/tmp/x/run.har' } })).har).toBe('/tmp/x/run.har');
    const error = configError(() => loadConfig(sources({ env: { CATALOGUE_HAR: '.' } })));
    expect(error.message).toBe(`CATALOGUE_HAR (--har): ${dir} is a directory; name the HAR file to write`);
  });

  test('an unknown CATALOGUE_* key, in the environment or the dotenv file, is refused with the key meant', () => {
    const inEnv = configError(() => loadConfig(sources({ env: { CATALOGUE_PROFILE: 'read' } })));
    expect(inEnv.message).toBe('CATALOGUE_PROFILE (in the environment) is not a key; did you mean CATALOGUE_PROFILES? (see --help)');
    expect(configError(() => loadConfig(sources({ dotenv: { CATALOGUE_BASEURL: 'https://x' } }))).message).toMatch(
      /^CATALOGUE_BASEURL \(in the dotenv file\) is not a key; did you mean CATALOGUE_BASE_URL\?/,
    );
    expect(configError(() => loadConfig(sources({ env: { CATALOGUE_SOMETHING_ELSE: '1' } }))).message).not.toContain('did you mean');
    // Other names are not the kit's; the kit's own non-configuration names are known.
    expect(() => loadConfig(sources({ env: { HOME: '/x', CATALOG_X: '1', CATALOGUE_DEBUG: '1', CATALOGUE_DOTENV_FILE: 'a.env', CATALOGUE_GONE: undefined } }))).not.toThrow();
  });

  test('flag wins over environment, which wins over .env', () => {
    const key = 'CATALOGUE_MAX_REQUESTS';
    expect(loadConfig(sources({ flags: { [key]: '10' }, env: { [key]: '20' }, dotenv: { [key]: '30' } })).maxRequests).toBe(10);
    expect(loadConfig(sources({ env: { [key]: '20' }, dotenv: { [key]: '30' } })).maxRequests).toBe(20);
    expect(loadConfig(sources({ env: { [key]: undefined }, dotenv: { [key]: '30' } })).maxRequests).toBe(30);
  });

  test('a remote deployment: authUrl defaults to the base URL, path prefix kept, trailing slash dropped', () => {
    const config = loadConfig(sources({ env: { ...REMOTE, CATALOGUE_BASE_URL: 'https://api.example.com/api/v3/' } }));
    expect(config.baseUrl).toBe('https://api.example.com/api/v3');
    expect(config.authUrl).toBe('https://api.example.com/api/v3');
    expect(config.clientId).toBe('app');
    expect(config.clientSecret).toBe('secret');
    const separate = loadConfig(sources({ env: { ...REMOTE, CATALOGUE_AUTH_URL: 'https://auth.example.com/' } }));
    expect(separate.baseUrl).toBe('https://api.example.com/api');
    expect(separate.authUrl).toBe('https://auth.example.com');
  });

  test('values are trimmed and an empty value counts as unset', () => {
    const config = loadConfig(sources({ env: { CATALOGUE_API_VERSION: '  3.1 ', CATALOGUE_PROFILES: '', CATALOGUE_USER_TOKEN: '  ' } }));
    expect(config.apiVersion).toBe('3.1');
    expect(config.profiles).toEqual(['read', 'write']);
    expect(config.userToken).toBeNull();
  });

  test('report dir and hints are resolved under cwd; other values are taken as given', () => {
    writeFileSync(join(dir, 'hints.json'), JSON.stringify({ leafCategory: 17, root: 1 }));
    const config = loadConfig(
      sources({
        env: {
          CATALOGUE_REPORT_DIR: 'out/r',
          CATALOGUE_HINTS: 'hints.json',
          CATALOGUE_PROFILES: 'write, read,write,destructive',
          CATALOGUE_TIMEOUT_MS: '100',
          CATALOGUE_MAX_REQUESTS: String(DAILY_LIMIT),
          CATALOGUE_USER_TOKEN: 'ut',
          CATALOGUE_USER_REFRESH_TOKEN: 'urt',
          CATALOGUE_EXPIRED_TOKEN: 'et',
          CATALOGUE_REDIRECT_URI: 'http://127.0.0.1:8765/cb',
        },
      }),
    );
    expect(config.reportDir).toBe(join(dir, 'out/r'));
    expect(config.journalDir).toBe(join(dir, 'out/r/.journal'));
    expect(config.hintsFile).toBe(join(dir, 'hints.json'));
    expect(config.hints).toEqual({ leafCategory: 17, root: 1 });
    expect(config.profiles).toEqual(['write', 'read', 'destructive']);
    expect(config.timeoutMs).toBe(100);
    expect(config.maxRequests).toBe(1000);
    expect([config.userToken, config.userRefreshToken, config.expiredToken]).toEqual(['ut', 'urt', 'et']);
    expect(config.redirectUri).toBe('http://127.0.0.1:8765/cb');
  });

  test('version: a patch is dropped, a bare major stays', () => {
    expect(loadConfig(sources({ env: { CATALOGUE_API_VERSION: '3.1.7' } })).apiVersion).toBe('3.1');
    expect(loadConfig(sources({ env: { CATALOGUE_API_VERSION: '3' } })).apiVersion).toBe('3');
    expect(loadConfig(sources({ env: { CATALOGUE_API_VERSION: '3.0' } })).apiVersion).toBe('3.0');
  });

  test('seed: a seed, or a seed with the path of a counterexample', () => {
    expect(loadConfig(sources({ env: { CATALOGUE_SEED: '-42' } })).seed).toEqual({ seed: -42, path: null });
    expect(loadConfig(sources({ env: { CATALOGUE_SEED: '7919:0:1:3' } })).seed).toEqual({ seed: 7919, path: '0:1:3' });
    // A model sequence's replay: fc.commands' replay path after "@".
    expect(loadConfig(sources({ env: { CATALOGUE_SEED: '7919:0:1:3@CEB:AI+/' } })).seed).toEqual({ seed: 7919, path: '0:1:3', replayPath: 'CEB:AI+/' });
  });

  test('versions: the API version unless CATALOGUE_VERSIONS lists them (duplicates dropped)', () => {
    expect(loadConfig(sources({ env: { CATALOGUE_API_VERSION: '3.1' } })).versions).toEqual(['3.1']);
    expect(loadConfig(sources({ env: { CATALOGUE_VERSIONS: '3.0, 3.1,3.2,3.1' } })).versions).toEqual(['3.0', '3.1', '3.2']);
    // Whether the user chose: the embedded run otherwise checks every version the reference serves.
    expect(loadConfig(sources()).versionsGiven).toBe(false);
    expect(loadConfig(sources({ env: { CATALOGUE_VERSIONS: '3.2' } })).versionsGiven).toBe(true);
  });

  test("patch level and media type: the newest of the Change history and the spec's by default", () => {
    expect(loadConfig(sources())).toMatchObject({ implements: '3.2.1', mediaType: 'application/vnd.service+json' });
    expect(loadConfig(sources({ env: { CATALOGUE_IMPLEMENTS: '3.1.1', CATALOGUE_MEDIA_TYPE: 'Application/Vnd.Acme+JSON' } }))).toMatchObject({
      implements: '3.1.1',
      mediaType: 'application/vnd.acme+json',
    });
  });

  // Every malformed value: a ConfigError, one line, naming the env key and the flag.
  const malformed: [string, Record<string, string>, string, RegExp][] = [
    ['base URL not a URL', { ...REMOTE, CATALOGUE_BASE_URL: 'api.example.com' }, 'CATALOGUE_BASE_URL (--base-url)', /not a URL/],
    ['base URL ftp:', { ...REMOTE, CATALOGUE_BASE_URL: 'ftp://api.example.com' }, 'CATALOGUE_BASE_URL (--base-url)', /http or https/],
    ['base URL with query', { ...REMOTE, CATALOGUE_BASE_URL: 'https://h/api?x=1' }, 'CATALOGUE_BASE_URL (--base-url)', /query/],
    ['base URL with fragment', { ...REMOTE, CATALOGUE_BASE_URL: 'https://h/api#x' }, 'CATALOGUE_BASE_URL (--base-url)', /fragment/],
    ['base URL with credentials', { ...REMOTE, CATALOGUE_BASE_URL: 'https://user:pass@h/api' }, 'CATALOGUE_BASE_URL (--base-url)', /credentials/],
    ['auth URL not a URL', { ...REMOTE, CATALOGUE_AUTH_URL: 'nope' }, 'CATALOGUE_AUTH_URL (--auth-url)', /not a URL/],
    ['redirect URI ftp:', { CATALOGUE_REDIRECT_URI: 'ftp://h/cb' }, 'CATALOGUE_REDIRECT_URI (--redirect-uri)', /http or https/],
    ['client id missing', { CATALOGUE_BASE_URL: 'https://h/api', CATALOGUE_CLIENT_SECRET: 's' }, 'CATALOGUE_CLIENT_ID (--client-id)', /required when CATALOGUE_BASE_URL/],
    ['client secret missing', { CATALOGUE_BASE_URL: 'https://h/api', CATALOGUE_CLIENT_ID: 'c' }, 'CATALOGUE_CLIENT_SECRET (--client-secret)', /required/],
    ['client id without base URL', { CATALOGUE_CLIENT_ID: 'c' }, 'CATALOGUE_CLIENT_ID (--client-id)', /CATALOGUE_BASE_URL \(--base-url\) is not/],
    ['client secret without base URL', { CATALOGUE_CLIENT_SECRET: 's' }, 'CATALOGUE_CLIENT_SECRET (--client-secret)', /is not/],
    ['auth URL without base URL', { CATALOGUE_AUTH_URL: 'https://auth/' }, 'CATALOGUE_AUTH_URL (--auth-url)', /is not/],
    ['version x', { CATALOGUE_API_VERSION: 'x' }, 'CATALOGUE_API_VERSION (--api-version)', /major\[\.minor\]/],
    ['version 4.0', { CATALOGUE_API_VERSION: '4.0' }, 'CATALOGUE_API_VERSION (--api-version)', /version 3/],
    ['version 3.1.2.9', { CATALOGUE_API_VERSION: '3.1.2.9' }, 'CATALOGUE_API_VERSION (--api-version)', /major\[\.minor\]/],
    ['profiles read,bogus', { CATALOGUE_PROFILES: 'read,bogus' }, 'CATALOGUE_PROFILES (--profiles)', /unknown profile "bogus"/],
    ['versions with a patch', { CATALOGUE_VERSIONS: '3.1,3.2.1' }, 'CATALOGUE_VERSIONS (--versions)', /versions 3.<minor>.*"3.2.1"/],
    ['seed not an integer', { CATALOGUE_SEED: '12ab' }, 'CATALOGUE_SEED (--seed)', /a seed as a failure prints it/],
    ['seed too large', { CATALOGUE_SEED: '99999999999' }, 'CATALOGUE_SEED (--seed)', /a seed as a failure prints it/],
    ['seed with a bad path', { CATALOGUE_SEED: '7919:0:x' }, 'CATALOGUE_SEED (--seed)', /a seed as a failure prints it/],
    ['seed with a replay path but no path', { CATALOGUE_SEED: '7919@CEB' }, 'CATALOGUE_SEED (--seed)', /a seed as a failure prints it/],
    ['versions only commas', { CATALOGUE_VERSIONS: ',' }, 'CATALOGUE_VERSIONS (--versions)', /names no version/],
    ['implements a minor only', { CATALOGUE_IMPLEMENTS: '3.1' }, 'CATALOGUE_IMPLEMENTS (--implements)', /Change history.*"3.1"/],
    ['implements a version the history lacks', { CATALOGUE_IMPLEMENTS: '3.1.9' }, 'CATALOGUE_IMPLEMENTS (--implements)', /Change history/],
    ['media type with a parameter', { CATALOGUE_MEDIA_TYPE: 'application/vnd.acme+json; version=3.1' }, 'CATALOGUE_MEDIA_TYPE (--media-type)', /no parameters/],
    ['media type not JSON', { CATALOGUE_MEDIA_TYPE: 'text/html' }, 'CATALOGUE_MEDIA_TYPE (--media-type)', /JSON media type/],
    ['profiles only commas', { CATALOGUE_PROFILES: ' , ,' }, 'CATALOGUE_PROFILES (--profiles)', /names no profile/],
    ['max requests abc', { CATALOGUE_MAX_REQUESTS: 'abc' }, 'CATALOGUE_MAX_REQUESTS (--max-requests)', /whole number/],
    ['max requests 0', { CATALOGUE_MAX_REQUESTS: '0' }, 'CATALOGUE_MAX_REQUESTS (--max-requests)', /between 1 and 1000, got 0/],
    ['max requests 1001', { CATALOGUE_MAX_REQUESTS: '1001' }, 'CATALOGUE_MAX_REQUESTS (--max-requests)', /between 1 and 1000, got 1001/],
    ['max requests -5', { CATALOGUE_MAX_REQUESTS: '-5' }, 'CATALOGUE_MAX_REQUESTS (--max-requests)', /whole number/],
    ['max requests 1.5', { CATALOGUE_MAX_REQUESTS: '1.5' }, 'CATALOGUE_MAX_REQUESTS (--max-requests)', /whole number/],
    ['timeout 99', { CATALOGUE_TIMEOUT_MS: '99' }, 'CATALOGUE_TIMEOUT_MS (--timeout-ms)', /between 100 and 600000/],
    ['hints file missing', { CATALOGUE_HINTS: 'no-such-file.json' }, 'CATALOGUE_HINTS (--hints)', /cannot read .*no-such-file\.json \(ENOENT\)/],
  ];

  test.each(malformed)('%s', (_label, env, keyAndFlag, reason) => {
    const error = configError(() => loadConfig(sources({ env })));
    expect(error.name).toBe('ConfigError');
    expect(error.message).toContain(keyAndFlag);
    expect(error.message).toMatch(reason);
    expect(error.message).not.toContain('\n');
  });

  test.each([
    ['not JSON', '{"leafCategory": 17,', /is not JSON/],
    ['an array', '[17, 18]', /must hold a JSON object of role -> id/],
    ['a non-integer id', '{"leafCategory": 1.5}', /role "leafCategory" .* must map to an integer id, got 1.5/],
    ['a string id', '{"leafCategory": "17"}', /must map to an integer id, got "17"/],
    ['null', 'null', /must hold a JSON object/],
  ])('a hints file holding %s is a ConfigError', (_label, content, reason) => {
    const file = join(dir, `hints-${_label.replace(/\W+/g, '-')}.json`);
    writeFileSync(file, content);
    const error = configError(() => loadConfig(sources({ flags: { CATALOGUE_HINTS: file } })));
    expect(error.message).toContain('CATALOGUE_HINTS (--hints)');
    expect(error.message).toMatch(reason);
    expect(error.message).not.toContain('\n');
  });

  test('a flag value is validated like any other', () => {
    const error = configError(() => loadConfig(sources({ flags: { CATALOGUE_MAX_REQUESTS: '5000' }, env: { CATALOGUE_MAX_REQUESTS: '10' } })));
    expect(error.message).toContain('CATALOGUE_MAX_REQUESTS (--max-requests)');
    expect(error.message).toContain('5000');
  });
});

describe('readDotenv', () => {
  test('a missing file is {}', () => {
    expect(readDotenv(join(dir, 'no-such.env'))).toEqual({});
  });

  test('a file is parsed without touching process.env', () => {
    const file = join(dir, 'test.env');
    writeFileSync(file, '# comment\nCATALOGUE_TEST_ONLY_KEY=abc\nCATALOGUE_BASE_URL=\nQUOTED="a b"\n');
    expect(readDotenv(file)).toEqual({ CATALOGUE_TEST_ONLY_KEY: 'abc', CATALOGUE_BASE_URL: '', QUOTED: 'a b' });
    expect(process.env['CATALOGUE_TEST_ONLY_KEY']).toBeUndefined();
  });
});

describe('helpText and .env.example', () => {
  test('helpText names every key by env name and flag, with its default', () => {
    const text = helpText();
    for (const key of CONFIG_KEYS) {
      expect(text).toContain(key.env);
      expect(text).toContain(key.flag);
      expect(text).toContain(plainMeaning(key));
    }
    expect(text).toContain('--help');
  });

  test('envExample lists every key once, empty', () => {
    const text = envExample();
    for (const key of CONFIG_KEYS) expect(text.split('\n').filter((line) => line === `${key.env}=`)).toHaveLength(1);
  });

  test("README's key table is the key table's: one row per key, written between its markers", () => {
    const readme = readFileSync(fileURLToPath(new URL('../../README.md', import.meta.url)), 'utf8');
    expect(readme, 'regenerate with: npm run key-docs').toBe(readmeWithKeyTable(readme));
    const table = readmeKeyTable();
    for (const key of CONFIG_KEYS) expect(table.split('\n').filter((row) => row.startsWith(`| \`${key.env}\` (\`${key.flag}\`) |`))).toHaveLength(1);
    expect(() => readmeWithKeyTable('# no markers')).toThrow(/markers/);
  });

  test('--help and .env.example show the Markdown of a description as plain text', () => {
    expect(plainText('Where `/oauth2/token` lives (see [the journal](#journal)).')).toBe('Where /oauth2/token lives (see the journal).');
    for (const text of [helpText(), envExample()]) expect(text).not.toMatch(/`|\]\(#/);
  });

  test('the committed .env.example equals envExample() exactly', () => {
    const committed = readFileSync(fileURLToPath(new URL('../../.env.example', import.meta.url)), 'utf8');
    expect(committed, 'regenerate with: npm run key-docs').toBe(envExample());
  });
});
