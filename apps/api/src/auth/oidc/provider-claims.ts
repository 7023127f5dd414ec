import type { IDToken, UserInfoResponse } from './openid-client';

/** What an account is made from, or checked against, as the provider said it. */
export interface ProviderPerson {
  subject: string;
  email: string | null;
  /** the provider vouches that the person owns `email` (`email_verified: true`) */
  emailVerified: boolean;
  displayName: string;
  /** the admin claim (OIDC_ADMIN_CLAIM) held OIDC_ADMIN_VALUE */
  admin: boolean;
}

const text = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : null;

/**
 * The person in the ID token's claims and the userinfo answer (which many providers keep the
 * email, name and groups in): userinfo's say wins where both have a claim, and openid-client has
 * already checked that both are about the same subject.
 */
export function providerPerson(
  idToken: IDToken,
  userInfo: UserInfoResponse | null,
  admin: { claim: string; value: string } | null,
): ProviderPerson {
  const claims: Record<string, unknown> = { ...idToken, ...(userInfo ?? {}) };
  const email = text(claims['email']);
  const name =
    text(claims['name']) ??
    ([text(claims['given_name']), text(claims['family_name'])].filter(Boolean).join(' ') || null) ??
    text(claims['preferred_username']) ??
    email?.split('@')[0] ??
    'New person';
  return {
    subject: idToken.sub,
    email,
    emailVerified: claims['email_verified'] === true,
    displayName: name.slice(0, 80),
    admin: admin !== null && claimHolds(claims, admin.claim, admin.value),
  };
}

/**
 * Whether the claim at `path` holds `value`: equal to it, or, for an array claim such as `groups`
 * or `roles`, among its entries. A dotted path reaches into an object claim (Keycloak's
 * `realm_access.roles`).
 */
export function claimHolds(claims: Record<string, unknown>, path: string, value: string): boolean {
  let found: unknown = claims;
  for (const key of path.split('.')) {
    if (typeof found !== 'object' || found === null || Array.isArray(found)) return false;
    found = (found as Record<string, unknown>)[key];
  }
  return Array.isArray(found)
    ? found.some((entry) => String(entry) === value)
    : found !== undefined && String(found) === value;
}
