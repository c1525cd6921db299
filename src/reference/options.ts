// The server options that say how a deployment is laid out (base path, the OAuth endpoints'
// origin) and which of two correct behaviours it chooses (consent, the review-actions scope,
// logout), with their modes. A leaf module: the legal variants, some of which stand for these
// options (variants/types.ts), and auth.ts read it without importing the server back.

export type ConsentMode = 'auto' | 'deny' | 'page';
export const CONSENT_MODES: readonly ConsentMode[] = ['auto', 'deny', 'page'];

/**
 * What DELETE /user/logout ends: the access token it was sent with ('token'), or every access and
 * refresh token of the user ('all-user-tokens'). The spec does not show the effect (Authentication
 * > Gaps); the kit must pass either.
 */
export type LogoutEnds = 'token' | 'all-user-tokens';
export const LOGOUT_ENDS_MODES: readonly LogoutEnds[] = ['token', 'all-user-tokens'];

/**
 * Whether the authorization step grants publish_sku_review_actions ('granted') or refuses it
 * with invalid_scope, keeping to the three scopes of the spec's step-1 table ('refused'). Both
 * are correct readings; the kit must pass either.
 */
export type ReviewActionsScope = 'granted' | 'refused';
export const REVIEW_ACTIONS_SCOPE_MODES: readonly ReviewActionsScope[] = ['granted', 'refused'];

/** The options of startReference (ReferenceOptions, server.ts) that a legal variant may stand for, and consent. */
export interface DeploymentOptions {
  /** API path prefix such as '/api'; default ''. Requests outside it get 404 with the errors body. */
  basePath?: string;
  /** 'same' (default): /oauth2/* on the API server; 'separate': on a second server (another origin). */
  authOrigin?: 'same' | 'separate';
  /** Default ''; the token endpoint is authUrl + '/oauth2/token'. */
  authBasePath?: string;
  /**
   * The consent step of GET {auth}/oauth2/authorizations/new. 'auto' (default): redirects at
   * once with a code; 'deny': at once with error=access_denied; 'page': shows an HTML consent
   * page whose Approve and Deny buttons POST to {auth}/oauth2/authorizations (for a person at a
   * browser; `npm run reference` uses it).
   */
  consent?: ConsentMode;
  /**
   * 'granted' (default): the authorization step grants publish_sku_review_actions; 'refused': it
   * answers invalid_scope, keeping to the three scopes of the spec's step-1 table.
   */
  reviewActionsScope?: ReviewActionsScope;
  /**
   * What DELETE /user/logout ends: 'token' (default), the access token it was sent with;
   * 'all-user-tokens', every access and refresh token of the user.
   */
  logoutEnds?: LogoutEnds;
}
