// The reference's consent page (consent: 'page'): the HTML form, Approve and Deny, the nonce's
// rules, request validation and escaping.
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningReference } from './server.ts';
import { get, makeClock, post } from '../testing/reference/testkit.ts';
import { closeStarted, creds, start, submit } from '../testing/reference/auth-servers.ts';

afterEach(closeStarted);

/** What a browser would submit: the form's action and its hidden fields. */
function consentForm(html: string): { method: string; action: string; fields: Record<string, string>; buttons: [string, string, string][] } {
  const form = /<form method="([^"]+)" action="([^"]*)">([\s\S]*?)<\/form>/.exec(html);
  if (!form) throw new Error('no form in the page');
  const unescape = (s: string): string => s.replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)));
  const fields: Record<string, string> = {};
  for (const m of form[3]!.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) fields[m[1]!] = unescape(m[2]!);
  const buttons = [...form[3]!.matchAll(/<button type="submit" name="([^"]+)" value="([^"]+)">([^<]+)<\/button>/g)].map((m) => [m[1]!, m[2]!, m[3]!] as [string, string, string]);
  return { method: form[1]!, action: unescape(form[2]!), fields, buttons };
}

async function openConsent(ref: RunningReference, extra: Record<string, string> = {}, scope = 'public favorites'): Promise<Response> {
  const q = new URLSearchParams({ client_id: ref.client.id, redirect_uri: ref.client.redirectUri, response_type: 'code', scope, ...extra });
  return fetch(`${ref.authUrl}/oauth2/authorizations/new?${q}`, { redirect: 'manual' });
}

describe('consent page', () => {
  it('shows an HTML form naming the client and the scopes, with Approve and Deny posting to /oauth2/authorizations', async () => {
    const ref = await start({ consent: 'page' });
    const res = await openConsent(ref, { state: 'xyz' }, 'public favorites notifications publish_sku_review_actions');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(res.headers.get('location')).toBeNull();
    const html = await res.text();
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html).toContain(ref.client.id);
    for (const s of ['public', 'favorites', 'notifications', 'publish_sku_review_actions']) expect(html).toContain(`<code>${s}</code>`);
    const form = consentForm(html);
    expect(form.method).toBe('post');
    expect(form.action).toBe('/oauth2/authorizations');
    expect(form.buttons).toEqual([
      ['decision', 'approve', 'Approve'],
      ['decision', 'deny', 'Deny'],
    ]);
    expect(form.fields).toEqual({
      client_id: ref.client.id,
      redirect_uri: ref.client.redirectUri,
      response_type: 'code',
      scope: 'public favorites notifications publish_sku_review_actions',
      state: 'xyz',
      nonce: expect.stringMatching(/^[A-Za-z0-9_-]{40,}$/),
    });
    // HEAD works too (and shows nothing).
    const head = await fetch(
      `${ref.authUrl}/oauth2/authorizations/new?${new URLSearchParams({ client_id: ref.client.id, redirect_uri: ref.client.redirectUri, response_type: 'code', scope: 'public' })}`,
      { method: 'HEAD' },
    );
    expect([head.status, await head.text()]).toEqual([200, '']);
  });

  it('Approve redirects with a URL-encoded code (and state) that yields a user token with the scopes', async () => {
    const ref = await start({ consent: 'page' });
    const form = consentForm(await (await openConsent(ref, { state: 'a b&c' })).text());
    const res = await submit(ref, form.action, { ...form.fields, decision: 'approve' });
    expect(res.status).toBe(302);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const location = res.headers.get('location')!;
    expect(location.startsWith(`${ref.client.redirectUri}?code=`)).toBe(true);
    expect(location).toMatch(/code=[^&]*%2B/);
    const loc = new URL(location);
    expect(loc.searchParams.get('state')).toBe('a b&c');
    const tokens = await post(`${ref.authUrl}/oauth2/token`, {
      ...creds(ref),
      grant_type: 'authorization_code',
      redirect_uri: ref.client.redirectUri,
      code: loc.searchParams.get('code')!,
    });
    expect([tokens.status, tokens.body.scope]).toEqual([200, 'public favorites']);
    expect((await get(ref, '/categories/root', { token: tokens.body.access_token })).status).toBe(200);
  });

  it('Deny redirects with error=access_denied (and state), no code', async () => {
    const ref = await start({ consent: 'page' });
    const form = consentForm(await (await openConsent(ref, { state: 's' })).text());
    const res = await submit(ref, form.action, { ...form.fields, decision: 'deny' });
    expect(res.status).toBe(302);
    const loc = new URL(res.headers.get('location')!);
    expect(`${loc.origin}${loc.pathname}`).toBe(ref.client.redirectUri);
    expect([...loc.searchParams.keys()]).toEqual(['error', 'state']);
    expect(loc.searchParams.get('error')).toBe('access_denied');
  });

  it('the nonce works once, for 10 minutes, and only with the fields it was issued for', async () => {
    const clock = makeClock();
    const ref = await start({ consent: 'page', now: clock.now });
    const fresh = async () => consentForm(await (await openConsent(ref)).text());
    const expectRefused = async (fields: Record<string, string>, what: string) => {
      const r = await submit(ref, '/oauth2/authorizations', fields);
      expect(r.status, what).toBe(400);
      expect(r.headers.get('location'), what).toBeNull();
      expect(((await r.json()) as { error: string }).error, what).toBe('invalid_request');
    };
    const a = await fresh();
    expect((await submit(ref, a.action, { ...a.fields, decision: 'approve' })).status).toBe(302);
    await expectRefused({ ...a.fields, decision: 'approve' }, 'reused nonce');
    await expectRefused({ ...a.fields, decision: 'deny' }, 'reused nonce, deny');

    const b = await fresh();
    await expectRefused({ ...b.fields, scope: 'public favorites notifications', decision: 'approve' }, 'widened scope');
    // A failed attempt uses the nonce up too.
    await expectRefused({ ...b.fields, decision: 'approve' }, 'after a failed attempt');

    const c = await fresh();
    await expectRefused({ ...c.fields, redirect_uri: 'http://evil.example/cb', decision: 'approve' }, 'other redirect_uri');
    const d = await fresh();
    await expectRefused({ ...d.fields, state: 'added', decision: 'approve' }, 'added state');
    const e = await fresh();
    await expectRefused({ ...e.fields, decision: 'maybe' }, 'unknown decision');
    const f = await fresh();
    const { nonce: _n, ...withoutNonce } = f.fields;
    await expectRefused({ ...withoutNonce, decision: 'approve' }, 'no nonce');
    await expectRefused({ ...f.fields, nonce: 'forged', decision: 'approve' }, 'forged nonce');

    const g = await fresh();
    clock.advance(10 * 60 * 1000 - 1000);
    expect((await submit(ref, g.action, { ...g.fields, decision: 'approve' })).status).toBe(302);
    const h = await fresh();
    clock.advance(10 * 60 * 1000);
    await expectRefused({ ...h.fields, decision: 'approve' }, 'expired nonce');
  });

  it('validates the request before showing a page, and takes only GET/HEAD and POST on its two paths', async () => {
    const ref = await start({ consent: 'page' });
    const bad = await openConsent(ref, { redirect_uri: 'http://evil.example/cb' });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const post1 = await fetch(`${ref.authUrl}/oauth2/authorizations/new`, { method: 'POST', body: 'x=1' });
    expect([post1.status, post1.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
    const get1 = await fetch(`${ref.authUrl}/oauth2/authorizations`);
    expect([get1.status, get1.headers.get('allow')]).toEqual([405, 'POST']);
    const junk = await fetch(`${ref.authUrl}/oauth2/authorizations`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{' });
    expect(junk.status).toBe(400);
  });

  it('escapes what it echoes into the page', async () => {
    const ref = await start({ consent: 'page' });
    const html = await (await openConsent(ref, { state: '"><script>alert(1)</script>&amp;' })).text();
    expect(html).not.toContain('<script>');
    expect(consentForm(html).fields['state']).toBe('"><script>alert(1)</script>&amp;');
  });

  it('works on a separate auth origin under an auth base path', async () => {
    const ref = await start({ consent: 'page', authOrigin: 'separate', basePath: '/api', authBasePath: '/auth' });
    const form = consentForm(await (await openConsent(ref)).text());
    expect(form.action).toBe('/auth/oauth2/authorizations');
    const res = await submit(ref, form.action, { ...form.fields, decision: 'approve' });
    expect(res.status).toBe(302);
    expect(new URL(res.headers.get('location')!).searchParams.get('code')).toEqual(expect.any(String));
  });

  it('in auto and deny modes POST /oauth2/authorizations has no nonce to accept', async () => {
    const ref = await start();
    const r = await submit(ref, '/oauth2/authorizations', { client_id: ref.client.id, nonce: 'x', decision: 'approve' });
    expect(r.status).toBe(400);
  });
});
