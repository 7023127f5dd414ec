import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/browser';
import * as z from 'zod';

// The WebAuthn JSON shapes are W3C's (WebAuthn level 3, "JSON serialization"), as SimpleWebAuthn
// types them; only their types are imported, so nothing of the browser library reaches the server.
export type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isBase64Url = (value: unknown): value is string =>
  typeof value === 'string' && value.length > 0 && value.length <= 16_384 && /^[A-Za-z0-9_-]+$/.test(value);

/**
 * A credential as the browser's `navigator.credentials` answers it, serialized: its id, type and
 * the authenticator's response, each part base64url. What it says is checked by the server's
 * WebAuthn library; this only refuses what is not even that shape, with PROTOCOL.md's 400.
 */
function credentialShape(responseFields: readonly string[]) {
  return (value: unknown): boolean =>
    isRecord(value) &&
    isBase64Url(value['id']) &&
    isBase64Url(value['rawId']) &&
    value['type'] === 'public-key' &&
    isRecord(value['clientExtensionResults']) &&
    isRecord(value['response']) &&
    responseFields.every((field) => isBase64Url((value['response'] as Record<string, unknown>)[field]));
}

/** A new passkey as `startRegistration` answers: `response.clientDataJSON` and `attestationObject`. */
export const RegistrationCredentialSchema = z.custom<RegistrationResponseJSON>(
  credentialShape(['clientDataJSON', 'attestationObject']),
  { message: 'must be a WebAuthn registration response (startRegistration’s answer)' },
);

/** A passkey's signature as `startAuthentication` answers: clientDataJSON, authenticatorData, signature. */
export const AuthenticationCredentialSchema = z.custom<AuthenticationResponseJSON>(
  credentialShape(['clientDataJSON', 'authenticatorData', 'signature']),
  { message: 'must be a WebAuthn authentication response (startAuthentication’s answer)' },
);

/** What `navigator.credentials.create` is asked, serialized (`startRegistration({optionsJSON})`). */
export const PasskeyCreationOptionsSchema = z.custom<PublicKeyCredentialCreationOptionsJSON>(
  (value) => isRecord(value) && typeof value['challenge'] === 'string',
);
/** What `navigator.credentials.get` is asked, serialized (`startAuthentication({optionsJSON})`). */
export const PasskeyRequestOptionsSchema = z.custom<PublicKeyCredentialRequestOptionsJSON>(
  (value) => isRecord(value) && typeof value['challenge'] === 'string',
);

/** What a person calls a passkey: where it lives ("this laptop", "my phone"). */
const PasskeyNameSchema = z.string().trim().min(1, 'at least 1 character').max(100, 'at most 100 characters');

/** `POST /api/auth/passkeys`: the new passkey's name and the browser's answer to the options. */
export const AddPasskeyRequestSchema = z.object({
  name: PasskeyNameSchema,
  credential: RegistrationCredentialSchema,
});
export type AddPasskeyRequest = z.infer<typeof AddPasskeyRequestSchema>;

/** `POST /api/auth/passkey-sign-in`: the browser's answer to the sign-in options. */
export const PasskeySignInRequestSchema = z.object({ credential: AuthenticationCredentialSchema });
export type PasskeySignInRequest = z.infer<typeof PasskeySignInRequestSchema>;

/** A passkey as listed: never its key. */
export const PasskeySchema = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  /** when it last signed its holder in; null if never */
  lastUsedAt: z.string().nullable(),
});
export type Passkey = z.infer<typeof PasskeySchema>;

/** `GET /api/auth/passkeys`: the caller's passkeys, newest first. */
export const PasskeyListSchema = z.object({ items: z.array(PasskeySchema) });
export type PasskeyList = z.infer<typeof PasskeyListSchema>;
