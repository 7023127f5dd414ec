import * as z from 'zod';
import { OIDC_CALLBACK_PATH, OIDC_LOGIN_PATH, SignInMethodsSchema } from '../sign-in-methods';
import { empty, json, route } from './route';

/** How a person signs in beyond the password: the methods on offer, and OpenID Connect's two legs. */
export const SIGN_IN_ROUTES = {
  signInMethods: route({
    method: 'get',
    path: '/api/auth/methods',
    tag: 'auth',
    summary: 'How one may sign in here',
    description:
      'Beyond PROTOCOL.md. Whether password sign-in and registration are on (`PASSWORD_SIGNIN`), and the identity provider to offer (`OIDC_NAME`) when OpenID Connect is configured, else `null`.',
    access: 'public',
    status: 200,
    reply: json(SignInMethodsSchema),
    answers: '{password, oidc: {name} | null}',
  }),
  oidcLogin: route({
    method: 'get',
    path: OIDC_LOGIN_PATH,
    tag: 'auth',
    summary: 'Sign in with the identity provider',
    description:
      "A browser navigation, not a call: 302 to the provider's authorization endpoint (code flow with PKCE, `state` and `nonce`), with a short-lived httpOnly cookie binding the pending sign-in to this browser. `returnUrl`, a path of the web client, is where the person lands afterwards. Without a provider: 302 to `/sign-in?oidcError=not_configured`.",
    access: 'public',
    query: z.object({ returnUrl: z.string().max(2000).optional() }),
    status: 302,
    reply: empty,
    answers: 'a redirect to the identity provider',
  }),
  oidcCallback: route({
    method: 'get',
    path: OIDC_CALLBACK_PATH,
    tag: 'auth',
    summary: 'Where the identity provider returns the person',
    description:
      "A browser navigation. Checks `state` against the pending sign-in (each is used once, within 10 minutes, in the browser that began it), trades the code (with the PKCE verifier) for the ID token, checks its `nonce`, and signs the person in: 302 to `/sign-in?via=oidc` with the session's `sp_refresh` cookie set, where the web client trades it for an access token. The account is the one linked to the provider's issuer and subject; else a new one made from the provider's verified email and name; an existing account with that email is linked only when both the provider and the account have it verified. Any failure: 302 to `/sign-in?oidcError=<reason>` (`expired`, `provider`, `unverified_email`, `unverified_account`, `not_configured`, `failed`).",
    access: 'public',
    query: z.object({
      code: z.string().max(4096).optional(),
      state: z.string().max(512).optional(),
      error: z.string().max(512).optional(),
      error_description: z.string().max(2000).optional(),
      iss: z.string().max(2000).optional(),
      session_state: z.string().max(2000).optional(),
    }),
    status: 302,
    reply: empty,
    answers: 'a redirect to the web client',
  }),
};
