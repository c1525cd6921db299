// Faults of OAuth flows, token placement and permissions (see ../faults.ts). Faults of this area
// defined before this file are in ./protocol.ts and ./core.ts.

import type { FaultInfo } from './types.ts';

export const OAUTH_FAULTS = {
  'client-secret-optional': {
    requirement: 'AUTH-6',
    clause: 'AUTH-6#1',
    description: 'The token endpoint compares the client secret only when one is sent: a client-credentials request without client_secret gets a token.',
  },
  'client-credentials-repeat-invalid': {
    requirement: 'AUTH-10',
    clause: 'AUTH-10#1',
    description: 'A client that already holds an application token gets, on a repeated client-credentials request, a new token that is never stored: every request with it is 401.',
  },
  'code-exchange-redirect-uri-not-compared': {
    requirement: 'AUTH-18',
    clause: 'AUTH-18#3',
    description: 'The code exchange issues tokens whatever redirect_uri it is sent, instead of requiring the one of the authorization request.',
  },
  'refresh-grant-unsupported': {
    requirement: 'AUTH-23',
    clause: 'AUTH-23#1',
    description: 'The token endpoint answers grant_type=refresh_token with unsupported_grant_type, so a user token cannot be renewed.',
  },
  'missing-token-answered-403': {
    requirement: 'ERR-6',
    clause: 'ERR-6#1',
    description: 'A request without any access token is answered 403 instead of 401.',
  },
  'token-expiry-not-checked': {
    requirement: 'AUTH-21',
    clause: 'AUTH-21#1',
    // The 401 row of the errors table (ERR-6: an expired token), and the expiry of either kind of token (AUTH-1 application, AUTH-2 user): none is checked.
    consequences: ['ERR-6', 'AUTH-1', 'AUTH-2'],
    description: 'An access token past its lifetime is still accepted instead of getting 401.',
  },
  'notification-read-without-permission': {
    requirement: 'NOTIF-7',
    clause: 'NOTIF-7#1',
    // The permissions table's row of the same rule (SCOPE-4.a: any token without notifications is refused).
    consequences: ['SCOPE-4'],
    description: 'GET /notifications/:id does not check the notifications permission: a user token without it reads notifications.',
  },
} satisfies Record<string, FaultInfo>;
