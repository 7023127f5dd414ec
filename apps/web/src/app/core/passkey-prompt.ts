import {
  browserSupportsWebAuthn,
  startAuthentication,
  startRegistration,
  WebAuthnError,
} from '@simplewebauthn/browser';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@sweatpants/domain';

import { describeError, type ErrorContext } from './api-error';

/**
 * The browser's passkey prompts (SimpleWebAuthn's `startRegistration` and `startAuthentication`,
 * over `navigator.credentials`), and what their failures mean to a person. The api's options go
 * in as they came; the browser's answer goes back to the api as it is.
 */
export const passkeyPrompt = {
  /** Whether this browser can use passkeys at all (an old one, or an insecure page, cannot). */
  supported: (): boolean => browserSupportsWebAuthn(),
  create: (optionsJSON: PublicKeyCredentialCreationOptionsJSON): Promise<RegistrationResponseJSON> =>
    startRegistration({ optionsJSON }),
  get: (optionsJSON: PublicKeyCredentialRequestOptionsJSON): Promise<AuthenticationResponseJSON> =>
    startAuthentication({ optionsJSON }),
};

/**
 * A passkey step's failure in plain words: the person closing the prompt (or letting it time out)
 * changes nothing and is said so; a device that has a passkey here already is told apart; the
 * api's refusals are worded as every other error.
 */
export function describePasskeyError(error: unknown, context?: ErrorContext): string {
  if (error instanceof WebAuthnError) {
    switch (error.code) {
      case 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED':
        return 'This device already has a passkey for your account.';
      case 'ERROR_CEREMONY_ABORTED':
        return 'The passkey prompt was closed. Nothing changed.';
      default:
        break;
    }
  }
  if (error instanceof Error && (error.name === 'NotAllowedError' || error.name === 'AbortError')) {
    return 'The passkey prompt was closed or timed out. Nothing changed.';
  }
  if (error instanceof Error && error.name === 'SecurityError') {
    return 'Passkeys do not work at this address: open the site at its own address and try again.';
  }
  return describeError(error, context);
}
