// Redaction by position (headers, URL parameters, body fields) and by value (the secret registry).
import { describe, expect, test } from 'vitest';
import { REDACTED, redactBodyText, redactHeaders, redactJson, redactUrl, SecretRegistry } from './redact.ts';

// A fresh registry per test: the process-wide one is shared with other modules.
const fresh = () => new SecretRegistry();

describe('redactHeaders', () => {
  test('Authorization keeps its scheme and loses its credentials', () => {
    const out = redactHeaders({ Authorization: 'Bearer abc.def.ghi', 'proxy-authorization': 'Basic dXNlcjpwYXNz' }, fresh());
    expect(out).toEqual({ Authorization: 'Bearer [REDACTED]', 'proxy-authorization': REDACTED });
  });

  test('an Authorization without a scheme is blanked whole', () => {
    expect(redactHeaders({ authorization: 'rawtokenvalue' }, fresh())).toEqual({ authorization: REDACTED });
  });

  test('Cookie and Set-Cookie are blanked, repeated values too', () => {
    const out = redactHeaders({ cookie: 'session=abc; other=def', 'Set-Cookie': ['a=1; Path=/', 'b=2; HttpOnly'] }, fresh());
    expect(out).toEqual({ cookie: REDACTED, 'Set-Cookie': REDACTED });
  });

  test('an absolute Location carrying ?code= is redacted, other parameters kept', () => {
    const out = redactHeaders({ location: 'https://client.example/cb?code=SplxlOBeZQQYbYS6WxSbIA&state=xyz' }, fresh());
    expect(out['location']).toBe('https://client.example/cb?code=[REDACTED]&state=xyz');
  });

  test('a relative Location carrying ?code= is redacted too', () => {
    const out = redactHeaders({ location: '/cb?code=SplxlOBeZQQYbYS6WxSbIA&state=xyz' }, fresh());
    expect(out['location']).toBe('/cb?code=[REDACTED]&state=xyz');
    expect(redactHeaders({ 'content-location': '/x?access_token=abcdefgh' }, fresh())['content-location']).toBe('/x?access_token=[REDACTED]');
  });

  test('Link URLs lose their token parameters, the rest of the header stays', () => {
    const link = '<https://h/api/categories?page=2&oauth_token=tok123456>; rel="next", <https://h/api/categories?page=9>; rel="last"';
    expect(redactHeaders({ link }, fresh())['link']).toBe('<https://h/api/categories?page=2&oauth_token=[REDACTED]>; rel="next", <https://h/api/categories?page=9>; rel="last"');
  });

  test('relative Link references lose their token parameters, and known secrets are scrubbed', () => {
    const registry = fresh();
    registry.add('echoed-token-77');
    const link = '</api/categories?page=2&oauth_token=abcdefgh>; rel="next", </api/x?t=echoed-token-77>; rel="last"';
    expect(redactHeaders({ link }, registry)['link']).toBe('</api/categories?page=2&oauth_token=[REDACTED]>; rel="next", </api/x?t=[REDACTED]>; rel="last"');
  });

  test('other headers are kept, except known secrets by value; undefined values dropped', () => {
    const registry = fresh();
    registry.add('echoed-secret-42');
    const out = redactHeaders({ 'content-type': 'application/json', 'x-debug': 'token=echoed-secret-42', 'x-none': undefined }, registry);
    expect(out).toEqual({ 'content-type': 'application/json', 'x-debug': 'token=[REDACTED]' });
  });
});

describe('redactUrl', () => {
  test.each(['oauth_token', 'code', 'access_token', 'refresh_token', 'client_secret'])('%s is redacted, other parameters kept', (param) => {
    const out = redactUrl(`https://h/api/x?per=2&${param}=s3cr3tvalue&ids%5B%5D=1`, fresh());
    expect(out).toBe(`https://h/api/x?per=2&${param}=[REDACTED]&ids%5B%5D=1`);
    expect(out).not.toContain('s3cr3tvalue');
  });

  test('parameter names match case-insensitively and repeated ones are all blanked', () => {
    const out = redactUrl('https://h/x?OAuth_Token=aaaaaaaa&oauth_token=bbbbbbbb', fresh());
    expect(out).not.toContain('aaaaaaaa');
    expect(out).not.toContain('bbbbbbbb');
  });

  test('a URL without secrets comes back unchanged (no re-encoding)', () => {
    const url = 'https://h/api/categories?q=a%20b&ids%5B%5D=1';
    expect(redactUrl(url, fresh())).toBe(url);
  });

  test('a password in the URL is redacted', () => {
    expect(redactUrl('https://user:hunter2pass@h/x', fresh())).toBe('https://user:[REDACTED]@h/x');
  });

  test('a relative URL is redacted as form text', () => {
    expect(redactUrl('/cb?code=abcdefgh&state=1', fresh())).toBe('/cb?code=[REDACTED]&state=1');
  });

  test('a known secret elsewhere in the URL (e.g. the path) is scrubbed', () => {
    const registry = fresh();
    registry.add('pathsecret99');
    expect(redactUrl('https://h/tokens/pathsecret99/info', registry)).toBe('https://h/tokens/[REDACTED]/info');
  });
});

describe('redactBodyText', () => {
  test('JSON token fields are redacted, also nested and in arrays', () => {
    const body = JSON.stringify({
      access_token: 'at-123456',
      refresh_token: 'rt-123456',
      token_type: 'bearer',
      nested: { client_secret: 'cs-123456', keep: 'visible' },
      list: [{ access_token: 'at-in-array' }, 'plain'],
    });
    const out = redactBodyText(body, fresh());
    expect(JSON.parse(out)).toEqual({
      access_token: REDACTED,
      refresh_token: REDACTED,
      token_type: 'bearer',
      nested: { client_secret: REDACTED, keep: 'visible' },
      list: [{ access_token: REDACTED }, 'plain'],
    });
    for (const secret of ['at-123456', 'rt-123456', 'cs-123456', 'at-in-array']) expect(out).not.toContain(secret);
  });

  test('an error body keeps its "code"', () => {
    const body = '{"error":{"code":"RecordNotFound","message":"Category 99 does not exist"}}';
    expect(JSON.parse(redactBodyText(body, fresh()))).toEqual({
      error: { code: 'RecordNotFound', message: 'Category 99 does not exist' },
    });
  });

  test('a null token field stays null (it carries nothing)', () => {
    expect(JSON.parse(redactBodyText('{"refresh_token":null}', fresh()))).toEqual({ refresh_token: null });
  });

  test('a form-encoded body has client_secret and code redacted', () => {
    const body = 'grant_type=authorization_code&code=Splx%2BlOB&client_id=app1&client_secret=abc%2Fdef%3D&redirect_uri=http%3A%2F%2Flocalhost%2Fcb';
    expect(redactBodyText(body, fresh())).toBe('grant_type=authorization_code&code=[REDACTED]&client_id=app1&client_secret=[REDACTED]&redirect_uri=http%3A%2F%2Flocalhost%2Fcb');
  });

  test('a truncated JSON text is still redacted', () => {
    const truncated = '{"token_type":"bearer","access_token":"abcdefghijklmn';
    const out = redactBodyText(truncated, fresh());
    expect(out).not.toContain('abcdefghijklmn');
    expect(out).toBe('{"token_type":"bearer","access_token":"[REDACTED]');
    const closed = '{"refresh_token": "rt-abcdefgh", "x": [1, 2';
    expect(redactBodyText(closed, fresh())).toBe('{"refresh_token":"[REDACTED]", "x": [1, 2');
  });

  test('plain text is left alone except for known secrets', () => {
    const registry = fresh();
    registry.add('supersecret');
    expect(redactBodyText('hello world', registry)).toBe('hello world');
    expect(redactBodyText('your token is supersecret.', registry)).toBe('your token is [REDACTED].');
  });

  test('redactJson does not touch non-secret values', () => {
    expect(redactJson([1, 'a', null, { code: 7, password: 'pw' }])).toEqual([1, 'a', null, { code: 7, password: REDACTED }]);
  });
});

describe('SecretRegistry', () => {
  test('scrub replaces a known secret anywhere, every occurrence', () => {
    const registry = fresh();
    registry.add('Zq8xK2mN');
    expect(registry.scrub('a Zq8xK2mN b Zq8xK2mN')).toBe('a [REDACTED] b [REDACTED]');
    expect(registry.scrub('abcZq8xK2mNdef')).toBe('abc[REDACTED]def');
  });

  test('the URL-encoded and form-encoded forms of a secret with + / = are scrubbed too', () => {
    const registry = fresh();
    const secret = 'ab+cd/ef=gh ij';
    registry.add(secret);
    expect(registry.scrub(`raw ${secret}`)).toBe('raw [REDACTED]');
    expect(registry.scrub(`uri ${encodeURIComponent(secret)}`)).toBe('uri [REDACTED]');
    expect(registry.scrub(`form code=${new URLSearchParams({ v: secret }).toString().slice(2)}&x=1`)).toBe('form code=[REDACTED]&x=1');
    expect(encodeURIComponent(secret)).toBe('ab%2Bcd%2Fef%3Dgh%20ij');
    expect(registry.scrub('ab%2Bcd%2Fef%3Dgh+ij')).toBe('[REDACTED]');
  });

  test('values shorter than 6 characters, null and empty are ignored', () => {
    const registry = fresh();
    registry.add('abcde');
    registry.add(null);
    registry.add(undefined);
    registry.add('');
    expect(registry.values()).toEqual([]);
    expect(registry.scrub('abcde')).toBe('abcde');
    registry.add('abcdef');
    expect(registry.scrub('xabcdefx')).toBe('x[REDACTED]x');
  });

  test('the longest secret is replaced first, so a secret containing another goes whole', () => {
    const registry = fresh();
    registry.add('secret');
    registry.add('secret-and-more');
    expect(registry.values()).toEqual(['secret-and-more', 'secret']);
    expect(registry.scrub('x secret-and-more y secret')).toBe('x [REDACTED] y [REDACTED]');
  });
});

describe('SecretRegistry.scrub with many secrets (recorded traffic of many users)', () => {
  const tokens = Array.from({ length: 500 }, (_, i) => `tok${String(i).padStart(4, '0')}-${'x'.repeat(i % 7)}secret`);

  test('every secret is replaced, the longest first, and the rest of the text kept', () => {
    const registry = new SecretRegistry();
    for (const t of tokens) registry.add(t);
    registry.add('tok0001-xsecret-and-more');
    const text = `a ${tokens[0]} b ${tokens[499]}${tokens[250]} tok0001-xsecret-and-more c tok0001 tail`;
    expect(registry.scrub(text)).toBe('a [REDACTED] b [REDACTED][REDACTED] [REDACTED] c tok0001 tail');
    // The same answer as one search per secret would give.
    const few = new SecretRegistry();
    few.add(tokens[0]);
    expect(few.scrub(text).startsWith('a [REDACTED] b ')).toBe(true);
  });

  test('with 20,000 secrets (the one-pass scan), a secret at the end of 2 MB of text is found', () => {
    const registry = new SecretRegistry();
    for (let i = 0; i < 20_000; i++) registry.add(`token-${i}-${i * 7919}`);
    const text = `${'{"k":"value"} '.repeat(150_000)}token-19999-${19999 * 7919}`;
    expect(registry.scrub(text).endsWith('[REDACTED]')).toBe(true);
  });
});
