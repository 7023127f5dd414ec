import * as z from 'zod';

/**
 * `GET /api/auth/methods`: how a person may sign in to this deployment, so the sign-in page offers
 * exactly those. `password` is false when the deployment turned password sign-in off
 * (`PASSWORD_SIGNIN=off`): the form and registration are then gone. `oidc` is the identity
 * provider's button, labelled `name` (`OIDC_NAME`), when `OIDC_ISSUER` is set.
 */
export const SignInMethodsSchema = z.object({
  password: z.boolean(),
  oidc: z.object({ name: z.string() }).nullable(),
});
export type SignInMethods = z.infer<typeof SignInMethodsSchema>;

/**
 * Why a sign-in with the identity provider did not sign the person in, as the api's redirect to
 * the sign-in page names it (`/sign-in?oidcError=<reason>`): a code rather than words, so no link
 * can make the page say what it likes. The page says each in plain words.
 */
export const OIDC_ERRORS = [
  /** no pending sign-in matches: a wrong or reused `state`, another browser, or it expired */
  'expired',
  /** the provider refused, or its answer did not hold (a replayed code, a wrong nonce) */
  'provider',
  /** the provider does not vouch for the email */
  'unverified_email',
  /** an account with the email exists and its own email is not verified: never linked */
  'unverified_account',
  /** the deployment has no identity provider */
  'not_configured',
  /** anything else (the provider out of reach): said without detail, logged in full */
  'failed',
] as const;
export const OidcErrorSchema = z.enum(OIDC_ERRORS);
export type OidcError = z.infer<typeof OidcErrorSchema>;

/** Where the OpenID Connect flow starts and where the provider returns the person. */
export const OIDC_LOGIN_PATH = '/api/auth/oidc/login';
export const OIDC_CALLBACK_PATH = '/api/auth/oidc/callback';
