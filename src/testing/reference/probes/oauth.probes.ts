// Probes of the faults in src/reference/faults/oauth.ts: each resolves true when the server shows the bug (test-only code).

import { appToken, authorize, get, post, userTokens } from '../testkit.ts';
import type { ProbeTable } from './probe.ts';

export const OAUTH_PROBES: ProbeTable = {
  'client-secret-optional': async (ref) =>
    (await post(`${ref.authUrl}/oauth2/token`, { grant_type: 'client_credentials', client_id: ref.client.id, scope: 'public' })).status === 200,

  'client-credentials-repeat-invalid': async (ref) => {
    // The probes' own application token is held already: this is a repeated request.
    const again = await appToken(ref);
    return (await get(ref, '/categories/root', { token: again })).status === 401;
  },

  'code-exchange-redirect-uri-not-compared': async (ref) => {
    const { code } = await authorize(ref, 'public');
    const r = await post(`${ref.authUrl}/oauth2/token`, {
      grant_type: 'authorization_code',
      client_id: ref.client.id,
      client_secret: ref.client.secret,
      redirect_uri: new URL('/another-callback', ref.client.redirectUri).toString(),
      code,
    });
    return r.status === 200;
  },

  'refresh-grant-unsupported': async (ref) => {
    const { refresh } = await userTokens(ref, 'public');
    const r = await post(`${ref.authUrl}/oauth2/token`, {
      grant_type: 'refresh_token',
      client_id: ref.client.id,
      client_secret: ref.client.secret,
      refresh_token: refresh,
    });
    return r.status !== 200;
  },

  'missing-token-answered-403': async (ref) => (await get(ref, '/categories/root')).status === 403,

  'token-expiry-not-checked': async (ref) => (await get(ref, '/categories/root', { token: ref.expiredToken() })).status === 200,

  'notification-read-without-permission': async (ref, { user }) => {
    const listed = await get(ref, '/notifications?per=1', { token: user });
    const id = listed.body?.notifications?.[0]?.id as number | undefined;
    if (id === undefined) throw new Error('the dataset has no notification');
    const { access } = await userTokens(ref, 'public');
    return (await get(ref, `/notifications/${id}`, { token: access })).status === 200;
  },
};
