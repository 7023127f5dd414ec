import type * as OpenIdClient from 'openid-client' with { 'resolution-mode': 'import' };

/**
 * openid-client ships only as an ES module, loaded through Node's require as jose is (see
 * ../jose.ts for why the typed require).
 */
export const oidc = require('openid-client') as typeof OpenIdClient;
export type { Configuration, IDToken, UserInfoResponse } from 'openid-client' with {
  'resolution-mode': 'import',
};
