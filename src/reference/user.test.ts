// The user's own account in the reference: /user, /user/avatars and /user/logout (spec "Endpoints >
// User", resource "User"). Addresses, saved orders and the personalization: user-addresses.test.ts.
// Ids, names and counts are discovered through the API; every test runs on both datasets, the
// second under a base path.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningReference } from './server.ts';
import { call, expectError, PNG_B64, post, SETUPS, startServer, startWithToken, TIMESTAMP, userTokens, type CallOptions } from '../testing/reference/testkit.ts';

const USER_FIELDS = [
  'id',
  'username',
  'type',
  'sex',
  'avatar',
  'created_at',
  'email',
  'birthyear',
  'mobile',
  'stats',
  'email_notifications',
  'is_staff',
  'resend_verification_email',
  'loyalty_tier_level',
  'total_acquired_points',
];
const FROM_320 = ['created_at', 'email', 'birthyear', 'mobile', 'stats', 'email_notifications'];

const JPEG_B64 = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0xff, 0xd9]).toString('base64');
const GIF_B64 = Buffer.concat([Buffer.from('GIF89a', 'latin1'), Buffer.from([1, 0, 1, 0, 0, 0, 0, 0x3b])]).toString('base64');

describe.each(SETUPS)('user area (%s)', (_name, options) => {
  let ref: RunningReference;
  let app: string;
  let user: string;

  const as = (method: string, path: string, opts: CallOptions = {}) => call(ref, method, path, { token: user, ...opts });

  beforeAll(async () => {
    ({ ref, app, user } = await startServer(options, 'public'));
  });
  afterAll(async () => {
    await ref?.close();
  });

  describe('permissions', () => {
    const routes: [string, string][] = [
      ['GET', '/user'],
      ['PATCH', '/user'],
      ['GET', '/user/avatars'],
      ['GET', '/user/addresses'],
      ['GET', '/user/addresses/new'],
      ['POST', '/user/addresses'],
      ['PUT', '/user/addresses/1'],
      ['DELETE', '/user/addresses/1'],
      ['GET', '/user/saved_orders'],
      ['DELETE', '/user/logout'],
      ['GET', '/personalization'],
      ['PUT', '/personalization'],
    ];

    it('refuses application tokens and requests without a token with 401', async () => {
      for (const [method, path] of routes) {
        expectError(await call(ref, method, path, { token: app, body: {} }), 401);
        expectError(await call(ref, method, path, { body: {} }), 401);
      }
    });

    it('accepts a user token of any scope (none is required)', async () => {
      for (const scope of ['favorites', 'notifications', 'public favorites notifications']) {
        const token = (await userTokens(ref, scope)).access;
        for (const path of ['/user', '/user/avatars', '/user/addresses', '/user/addresses/new', '/user/saved_orders', '/personalization']) {
          expect((await call(ref, 'GET', path, { token })).status, `${scope} ${path}`).toBe(200);
        }
      }
    });
  });

  describe('GET /user', () => {
    it('returns {user} with every field of the User table and their types', async () => {
      const r = await as('GET', '/user');
      expect(r.status).toBe(200);
      expect(Object.keys(r.body)).toEqual(['user']);
      const u = r.body.user;
      expect(Object.keys(u).sort()).toEqual([...USER_FIELDS].sort());
      expect(u.id).toEqual(expect.any(Number));
      expect(u.username).toEqual(expect.any(String));
      expect(u.type).toEqual(expect.any(String));
      expect([null, 'male', 'female']).toContain(u.sex);
      expect(() => new URL(u.avatar)).not.toThrow();
      expect(u.created_at).toMatch(TIMESTAMP);
      expect(u.email).toMatch(/@/);
      expect(u.birthyear === null || Number.isInteger(u.birthyear)).toBe(true);
      expect(u.mobile === null || typeof u.mobile === 'string').toBe(true);
      expect(Object.keys(u.stats).sort()).toEqual(['received_votes', 'shop_review_count', 'sku_comment_count', 'sku_review_count']);
      for (const v of Object.values(u.stats)) expect(Number.isInteger(v)).toBe(true);
      expect(u.email_notifications.length).toBeGreaterThan(0);
      for (const n of u.email_notifications) {
        expect(Object.keys(n).sort()).toEqual(['description', 'enabled', 'field', 'label']);
        expect(['notifications', 'mail_events', 'sku_review_email', 'shop_review_email', 'smart_cart_email']).toContain(n.field);
        expect(typeof n.enabled).toBe('boolean');
      }
      for (const k of ['is_staff', 'resend_verification_email']) expect(typeof u[k]).toBe('boolean');
      for (const k of ['loyalty_tier_level', 'total_acquired_points']) expect(Number.isInteger(u[k])).toBe(true);
    });

    it('drops the fields the Change history adds after the requested version', async () => {
      const v30 = (await as('GET', '/user', { version: '3.0' })).body.user;
      const v31 = (await as('GET', '/user', { version: '3.1' })).body.user;
      const v32 = (await as('GET', '/user', { version: '3.2' })).body.user;
      const older = USER_FIELDS.filter((f) => !FROM_320.includes(f) && f !== 'is_staff').sort();
      expect(Object.keys(v30).sort()).toEqual(older);
      expect(Object.keys(v31).sort()).toEqual(older);
      expect(v30.type).toEqual(expect.any(String));
      expect(Object.keys(v32).sort()).toEqual([...USER_FIELDS].sort());
    });
  });

  describe('PATCH /user', () => {
    it('updates sex and birthyear (null clears them) and returns 200 {user}', async () => {
      const before = (await as('GET', '/user')).body.user;
      const r = await as('PATCH', '/user', { body: { sex: 'female', birthyear: 1984 } });
      expect(r.status, r.text).toBe(200);
      expect(Object.keys(r.body)).toEqual(['user']);
      expect(r.body.user).toEqual({ ...before, sex: 'female', birthyear: 1984 });
      expect((await as('GET', '/user')).body.user).toEqual(r.body.user);
      expect((await as('PATCH', '/user', { body: { sex: 'male' } })).body.user.sex).toBe('male');
      const cleared = (await as('PATCH', '/user', { body: { sex: null, birthyear: null } })).body.user;
      expect([cleared.sex, cleared.birthyear]).toEqual([null, null]);
      // Form bodies: strings, "" for null.
      const form = await as('PATCH', '/user', { form: { sex: 'female', birthyear: '1990' } });
      expect([form.body.user.sex, form.body.user.birthyear]).toEqual(['female', 1990]);
      expect((await as('PATCH', '/user', { form: { birthyear: '' } })).body.user.birthyear).toBeNull();
      await as('PATCH', '/user', { body: { sex: before.sex, birthyear: before.birthyear } });
    });

    it('refuses bad values with 422 and changes nothing', async () => {
      const before = (await as('GET', '/user')).body.user;
      const year = new Date().getUTCFullYear();
      for (const body of [
        { sex: 'other' },
        { sex: 1 },
        { birthyear: 1899 },
        { birthyear: year + 1 },
        { birthyear: 1990.5 },
        { birthyear: 'nineteen' },
        { sex: 'male', birthyear: 1800 },
        { avatar_preset: 'no-such-avatar.png' },
        { avatar_preset: '' },
      ]) {
        expectError(await as('PATCH', '/user', { body }), 422, 'RecordInvalid');
      }
      expect((await as('GET', '/user')).body.user).toEqual(before);
    });

    it('needs at least one updatable field (400); other fields are ignored', async () => {
      const before = (await as('GET', '/user')).body.user;
      expectError(await as('PATCH', '/user'), 400, 'ParameterMissing');
      expectError(await as('PATCH', '/user', { body: {} }), 400, 'ParameterMissing');
      expectError(await as('PATCH', '/user', { body: { user: { sex: 'male' } } }), 400, 'ParameterMissing');
      const r = await as('PATCH', '/user', { body: { email: 'someone@else.example', username: 'x', sex: before.sex } });
      expect(r.status).toBe(200);
      expect(r.body.user).toEqual(before);
    });

    it('sets the avatar to a preset named by its file name from /user/avatars', async () => {
      const r = await as('GET', '/user/avatars');
      expect(r.status).toBe(200);
      expect(Object.keys(r.body)).toEqual(['avatars']);
      const avatars = r.body.avatars as string[];
      expect(avatars.length).toBeGreaterThan(0);
      for (const uri of avatars) expect(new URL(uri).protocol).toMatch(/^https?:$/);
      for (const uri of avatars.slice(0, 3)) {
        const name = uri.split('/').pop()!;
        const p = await as('PATCH', '/user', { body: { avatar_preset: name } });
        expect(p.status, p.text).toBe(200);
        expect(p.body.user.avatar).toBe(uri);
      }
      // The whole URI is not a file name.
      expectError(await as('PATCH', '/user', { body: { avatar_preset: avatars[0] } }), 422, 'RecordInvalid');
    });

    it('takes an avatar as bare base64 of a PNG, JPEG or GIF', async () => {
      const seen = new Set<string>();
      for (const [b64, ext] of [
        [PNG_B64, 'png'],
        [JPEG_B64, 'jpg'],
        [GIF_B64, 'gif'],
      ] as const) {
        const r = await as('PATCH', '/user', { body: { avatar: b64 } });
        expect(r.status, r.text).toBe(200);
        expect(r.body.user.avatar).toMatch(new RegExp(`^https?://.+\\.${ext}$`));
        seen.add(r.body.user.avatar);
      }
      expect(seen.size).toBe(3);
      // Line breaks inside the base64 are fine.
      expect((await as('PATCH', '/user', { body: { avatar: PNG_B64.replace(/(.{20})/g, '$1\n') } })).status).toBe(200);
    });

    it('refuses a data-URI avatar, bad base64, a non-image, or avatar with avatar_preset (422)', async () => {
      const before = (await as('GET', '/user')).body.user;
      const preset = ((await as('GET', '/user/avatars')).body.avatars as string[])[0]!.split('/').pop();
      for (const body of [
        { avatar: `data:image/png;base64,${PNG_B64}` },
        { avatar: `DATA:image/png;base64,${PNG_B64}` },
        { avatar: 'not base64!' },
        { avatar: PNG_B64.slice(0, -3) },
        { avatar: Buffer.from('just some text, no image').toString('base64') },
        { avatar: '' },
        { avatar: 42 },
        { avatar: PNG_B64, avatar_preset: preset },
      ]) {
        expectError(await as('PATCH', '/user', { body }), 422, 'RecordInvalid');
      }
      expect((await as('GET', '/user')).body.user).toEqual(before);
    });

    it('is served from 3.2.0 (Change history: profile update)', async () => {
      for (const version of ['3.0', '3.1']) expectError(await as('PATCH', '/user', { version, body: { sex: 'male' } }), 404);
    });
  });

  describe('DELETE /user/logout', () => {
    it('answers 200 with an empty body and ends only the calling access token', async () => {
      const mine = (await userTokens(ref, 'public')).access;
      const other = (await userTokens(ref, 'public')).access;
      const r = await call(ref, 'DELETE', '/user/logout', { token: mine });
      expect(r.status).toBe(200);
      expect(r.text).toBe('');
      expectError(await call(ref, 'GET', '/user', { token: mine }), 401);
      expect((await call(ref, 'GET', '/user', { token: other })).status).toBe(200);
    });

    it("with logoutEnds: 'all-user-tokens', ends every access and refresh token of the user, not application tokens", async () => {
      const { ref: strict, token: app } = await startWithToken({ logoutEnds: 'all-user-tokens' });
      try {
        const mine = await userTokens(strict, 'public');
        const other = await userTokens(strict, 'public');
        expect((await call(strict, 'DELETE', '/user/logout', { token: mine.access })).status).toBe(200);
        expectError(await call(strict, 'GET', '/user', { token: other.access }), 401);
        const refreshed = await post(`${strict.authUrl}/oauth2/token`, {
          grant_type: 'refresh_token',
          client_id: strict.client.id,
          client_secret: strict.client.secret,
          refresh_token: other.refresh,
        });
        expect(refreshed.status).toBe(400);
        expect((await call(strict, 'GET', '/categories/root', { token: app })).status).toBe(200);
      } finally {
        await strict.close();
      }
    });
  });
});
