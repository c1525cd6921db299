// Recorded exchanges: redacted before they are cut, replayable with curl without any secret in it.
import { execFileSync, spawnSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import { BODY_EXCERPT_CHARS, excerpt, formatExchange, recordExchange, tokenStep, toCurl, type Exchange, type RawExchange } from './exchange.ts';
import { secrets } from './redact.ts';

const TOKEN = 'tok-9f8e7d6c5b4a';

function raw(extra: Partial<RawExchange> = {}): RawExchange {
  return {
    method: 'GET',
    url: 'http://127.0.0.1:8080/api/categories/5',
    requestHeaders: { accept: 'application/vnd.service+json; version=3.2' },
    status: 200,
    responseHeaders: { 'content-type': 'application/json' },
    responseBody: '{"id":5}',
    durationMs: 12.6,
    ...extra,
  };
}

/** Runs the curl command's words through bash, with curl replaced by printf, and returns argv. */
function shellWords(command: string, accessToken: string): string[] {
  expect(command.startsWith('curl ')).toBe(true);
  const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', ACCESS_TOKEN: accessToken };
  execFileSync('bash', ['--norc', '--noprofile', '-n', '-c', command], { env, stdio: 'pipe' });
  const printed = execFileSync('bash', ['--norc', '--noprofile', '-c', `printf '%s\\0' ${command.slice('curl '.length)}`], { env, encoding: 'utf8', stdio: 'pipe' });
  return printed.split('\0').slice(0, -1);
}

describe('excerpt', () => {
  test('keeps short text, cuts long text and says how much was left out', () => {
    expect(excerpt('abc', 5)).toBe('abc');
    expect(excerpt('abcde', 5)).toBe('abcde');
    expect(excerpt('abcdefgh', 5)).toBe('abcde... [3 more characters]');
    expect(BODY_EXCERPT_CHARS).toBe(2_000);
  });
});

describe('recordExchange', () => {
  test('redacts URL, headers and bodies, rounds the duration', () => {
    const exchange = recordExchange(
      raw({
        method: 'POST',
        url: `http://127.0.0.1:8080/api/x?oauth_token=${TOKEN}&per=2`,
        requestHeaders: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/x-www-form-urlencoded' },
        requestBody: 'grant_type=client_credentials&client_secret=cs-abcdefgh',
        responseHeaders: { 'set-cookie': ['a=1', 'b=2'], location: 'https://cb.example/x?code=code-abcdefgh' },
        responseBody: '{"access_token":"new-token-abcdefgh","error":{"code":"RecordNotFound"}}',
      }),
    );
    expect(exchange).toEqual({
      method: 'POST',
      url: 'http://127.0.0.1:8080/api/x?oauth_token=[REDACTED]&per=2',
      requestHeaders: { authorization: 'Bearer [REDACTED]', 'content-type': 'application/x-www-form-urlencoded' },
      requestBody: 'grant_type=client_credentials&client_secret=[REDACTED]',
      status: 200,
      responseHeaders: { 'set-cookie': '[REDACTED]', location: 'https://cb.example/x?code=[REDACTED]' },
      responseBody: '{"access_token":"[REDACTED]","error":{"code":"RecordNotFound"}}',
      durationMs: 13,
    });
  });

  test('keeps the error and a null status of a failed hop, and sets no body that was not given', () => {
    const exchange = recordExchange(raw({ status: null, responseHeaders: {}, responseBody: undefined, error: 'connection refused' }));
    expect(exchange.status).toBeNull();
    expect(exchange.error).toBe('connection refused');
    expect('responseBody' in exchange).toBe(false);
    expect('requestBody' in exchange).toBe(false);
  });

  test('a known secret straddling the excerpt boundary never appears, not even in part', () => {
    const secret = 'Straddle-S3cr3t-value-0123456789';
    secrets.add(secret);
    const body = 'a'.repeat(1990) + secret + 'b'.repeat(3000);
    const exchange = recordExchange(raw({ responseBody: body, requestBody: body }));
    for (const recorded of [exchange.responseBody!, exchange.requestBody!]) {
      expect(recorded.startsWith('a'.repeat(1990))).toBe(true);
      expect(recorded).toMatch(/more characters\]$/);
      for (let i = 0; i + 8 <= secret.length; i++) expect(recorded).not.toContain(secret.slice(i, i + 8));
    }
  });

  test('a token field straddling the excerpt boundary is redacted before the cut', () => {
    const value = 'field-token-abcdefghijklmnopqrstuvwxyz';
    const padding = 'p'.repeat(1980 - '{"pad":"'.length - '","access_token":"'.length);
    const body = `{"pad":"${padding}","access_token":"${value}","more":"${'m'.repeat(500)}"}`;
    expect(body.indexOf(value)).toBeLessThan(2_000);
    expect(body.indexOf(value) + value.length).toBeGreaterThan(2_000);
    const recorded = recordExchange(raw({ responseBody: body })).responseBody!;
    for (let i = 0; i + 8 <= value.length; i++) expect(recorded).not.toContain(value.slice(i, i + 8));
  });
});

describe('toCurl', () => {
  const exchange = (): Exchange =>
    recordExchange(
      raw({
        url: `http://127.0.0.1:8080/api/x?per=2&oauth_token=${TOKEN}`,
        requestHeaders: { accept: 'application/vnd.service+json; version=3.2', authorization: `Bearer ${TOKEN}`, host: 'h' },
      }),
    );

  test('holds no secret and puts "$ACCESS_TOKEN" where the token was (header and query)', () => {
    const curl = toCurl(exchange());
    expect(curl).not.toContain(TOKEN);
    expect(curl).not.toContain('[REDACTED]');
    expect(curl).toBe(
      `curl -i 'http://127.0.0.1:8080/api/x?per=2&oauth_token='"$ACCESS_TOKEN" ` +
        `-H 'accept: application/vnd.service+json; version=3.2' -H 'authorization: Bearer '"$ACCESS_TOKEN"`,
    );
  });

  test('is a valid shell word sequence that expands to the request', () => {
    expect(shellWords(toCurl(exchange()), 'real-token')).toEqual([
      '-i',
      'http://127.0.0.1:8080/api/x?per=2&oauth_token=real-token',
      '-H',
      'accept: application/vnd.service+json; version=3.2',
      '-H',
      'authorization: Bearer real-token',
    ]);
  });

  test('quotes awkward bodies safely and names a non-GET method', () => {
    const body = `{"name":"it's $HOME \`x\`","a":"b\\nc"}\nline2`;
    const curl = toCurl(recordExchange(raw({ method: 'PATCH', requestHeaders: { 'content-type': 'application/json' }, requestBody: body })));
    expect(shellWords(curl, 't')).toEqual(['-i', '-X', 'PATCH', 'http://127.0.0.1:8080/api/categories/5', '-H', 'content-type: application/json', '--data-raw', body]);
  });

  test('an empty body is still passed as an (empty) argument', () => {
    const curl = toCurl(recordExchange(raw({ method: 'POST', requestHeaders: {}, requestBody: '' })));
    expect(shellWords(curl, 't')).toEqual(['-i', '-X', 'POST', 'http://127.0.0.1:8080/api/categories/5', '--data-raw', '']);
  });
});

describe('formatExchange', () => {
  test('shows method, URL, headers, status, body and the replay line', () => {
    const text = formatExchange(recordExchange(raw({ url: `http://127.0.0.1:8080/api/x?oauth_token=${TOKEN}`, requestHeaders: { authorization: `Bearer ${TOKEN}` } })));
    expect(text.split('\n')).toEqual([
      '> GET http://127.0.0.1:8080/api/x?oauth_token=[REDACTED]',
      '> authorization: Bearer [REDACTED]',
      '< 200',
      '< content-type: application/json',
      '< {"id":5}',
      `  replay: curl -i 'http://127.0.0.1:8080/api/x?oauth_token='"$ACCESS_TOKEN" -H 'authorization: Bearer '"$ACCESS_TOKEN"`,
    ]);
    expect(text).not.toContain(TOKEN);
  });

  test('a hop without a response shows why', () => {
    const text = formatExchange(recordExchange(raw({ status: null, responseHeaders: {}, responseBody: undefined, error: 'timed out' })));
    expect(text).toContain('< (no response: timed out)');
    expect(text).toMatch(/\n {2}replay: curl -i 'http:\/\/127\.0\.0\.1:8080\/api\/categories\/5'/);
  });

  test('a response with status and error shows both', () => {
    const text = formatExchange(recordExchange(raw({ status: 200, error: 'body exceeds 1000 bytes', responseBody: undefined })));
    expect(text).toContain('< 200 (body exceeds 1000 bytes)');
  });
});

describe('the replay says how to get its token, never what it is', () => {
  const withToken = (token?: Exchange['token']): Exchange => {
    secrets.add(TOKEN);
    return { ...recordExchange(raw({ requestHeaders: { authorization: `Bearer ${TOKEN}` } })), ...(token ? { token } : {}) };
  };

  /** Runs a token step in bash with curl a function that prints a token answer; returns ACCESS_TOKEN and curl's arguments. */
  function runStep(step: string): { token: string; curlArgs: string[] } {
    const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', CATALOGUE_CLIENT_ID: 'my-client', CATALOGUE_CLIENT_SECRET: 's3cr3t value', CATALOGUE_USER_TOKEN: 'user-tok' };
    const script = `curl() { printf '%s\\0' "$@" >&2; printf '{"access_token": "app-tok-1", "token_type": "bearer", "expires_in": 3600}'; }\n${step}\nprintf '%s' "$ACCESS_TOKEN"`;
    const result = spawnSync('bash', ['--norc', '--noprofile', '-c', script], { env, encoding: 'utf8' });
    expect(result.status, result.stderr).toBe(0);
    return { token: result.stdout, curlArgs: result.stderr.split('\0').slice(0, -1) };
  }

  test('an application token: a client-credentials request from CATALOGUE_CLIENT_ID and _SECRET, whose access_token becomes ACCESS_TOKEN', () => {
    const step = tokenStep(withToken('app'), 'https://auth.example.com/')!;
    expect(step).not.toContain(TOKEN);
    expect(step).toContain("'https://auth.example.com/oauth2/token'");
    const { token, curlArgs } = runStep(step);
    expect(token).toBe('app-tok-1');
    expect(curlArgs).toEqual([
      '-s',
      '-X',
      'POST',
      'https://auth.example.com/oauth2/token',
      '--data-urlencode',
      'grant_type=client_credentials',
      '--data-urlencode',
      'scope=public',
      '--data-urlencode',
      'client_id=my-client',
      '--data-urlencode',
      'client_secret=s3cr3t value',
    ]);
    // Where the kind is not known, the same, saying how a user's request gets its token.
    expect(tokenStep(withToken(), 'https://auth.example.com')).toMatch(/an application token; for a user's request: export ACCESS_TOKEN="\$CATALOGUE_USER_TOKEN"$/);
  });

  test("a user's token: CATALOGUE_USER_TOKEN; a test's own: said, with no command that would send another kind", () => {
    expect(runStep(tokenStep(withToken('user'), 'https://a')!).token).toBe('user-tok');
    expect(tokenStep(withToken('own'), 'https://a')).toMatch(/^export ACCESS_TOKEN=\.\.\. {3}# the test sent a token of its own/);
  });

  test('a request without a secret needs no step; formatExchange puts the step before the replay', () => {
    expect(tokenStep(recordExchange(raw()), 'https://a')).toBeNull();
    const text = formatExchange(withToken('app'), 'https://a');
    expect(text).toMatch(/\n {2}token: {2}export ACCESS_TOKEN=.*\n {2}replay: curl /);
    expect(text).not.toContain(TOKEN);
    expect(formatExchange(withToken('app'))).not.toContain('token:');
  });
});
