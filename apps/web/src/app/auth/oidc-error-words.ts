import type { OidcError } from '@sweatpants/domain';

/**
 * Why a sign-in with the identity provider did not sign the person in, in plain words: what
 * happened and what to do, with no code or trace (the api logs those).
 */
export function oidcErrorWords(reason: OidcError, providerName = 'your identity provider'): string {
  switch (reason) {
    case 'expired':
      return 'That sign-in took too long or was already used. Try again.';
    case 'provider':
      return `${providerName} did not sign you in. Try again.`;
    case 'unverified_email':
      return `${providerName} has not confirmed your email address, so no account can be made with it. Confirm it there, then try again.`;
    case 'unverified_account':
      return `An account with your email exists here, but its email address was never confirmed, so it cannot be joined to ${providerName}. Sign in with your password and confirm your email first.`;
    case 'not_configured':
      return 'Signing in with an identity provider is not set up here.';
    case 'failed':
      return `Signing in with ${providerName} did not work. Try again in a moment.`;
  }
}
