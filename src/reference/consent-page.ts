// The consent page of GET {auth}/oauth2/authorizations/new with the consent option 'page' (for a
// person at a browser): the client, the scopes asked for, and Approve / Deny buttons that POST
// to {auth}/oauth2/authorizations.

import { SCOPE_DESCRIPTIONS } from './auth-records.ts';
import type { HeaderMap } from './http.ts';

/**
 * Headers of the consent page: never cached, never framed (clickjacking), no scripts or other
 * sub-resources. There is no form-action directive: browsers apply it to the redirect that
 * follows the POST, which goes to the client's redirect URI on another origin.
 */
export const CONSENT_PAGE_HEADERS: Readonly<HeaderMap> = Object.freeze({
  'Content-Type': 'text/html; charset=utf-8',
  'Cache-Control': 'no-store',
  Pragma: 'no-cache',
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
});

interface ConsentPageInput {
  clientId: string;
  redirectUri: string;
  scope: string;
  scopes: readonly string[];
  state: string | null;
  nonce: string;
  formAction: string;
}

export function consentPage(p: ConsentPageInput): string {
  const hidden = (name: string, value: string): string => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`;
  const items = p.scopes.map((s) => `<li><code>${escapeHtml(s)}</code>: ${escapeHtml(SCOPE_DESCRIPTIONS[s] ?? s)}</li>`).join('\n        ');
  return `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Authorize ${escapeHtml(p.clientId)}</title>
    <style>
      body { font-family: system-ui, sans-serif; max-width: 34rem; margin: 3rem auto; padding: 0 1rem; line-height: 1.5; }
      button { font: inherit; padding: 0.4rem 1.2rem; margin-right: 0.5rem; }
      .note { color: #555; font-size: 0.9rem; }
    </style>
  </head>
  <body>
    <main>
      <h1>Authorize an application</h1>
      <p>The application <strong id="client">${escapeHtml(p.clientId)}</strong> asks for access to your account with these permissions:</p>
      <ul id="scopes">
        ${items}
      </ul>
      <form method="post" action="${escapeHtml(p.formAction)}">
        ${hidden('client_id', p.clientId)}
        ${hidden('redirect_uri', p.redirectUri)}
        ${hidden('response_type', 'code')}
        ${hidden('scope', p.scope)}
        ${p.state !== null ? hidden('state', p.state) : ''}
        ${hidden('nonce', p.nonce)}
        <button type="submit" name="decision" value="approve">Approve</button>
        <button type="submit" name="decision" value="deny">Deny</button>
      </form>
      <p class="note">Either way you are sent back to <code>${escapeHtml(p.redirectUri)}</code>: with <code>code=</code> when you approve, with <code>error=access_denied</code> when you deny.</p>
    </main>
  </body>
</html>
`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
