import { AuthResponseSchema } from '../auth';
import {
  AddPasskeyRequestSchema,
  PasskeyCreationOptionsSchema,
  PasskeyListSchema,
  PasskeyRequestOptionsSchema,
  PasskeySchema,
  PasskeySignInRequestSchema,
} from '../passkeys';
import { AccountEventPageSchema, AccountEventsQuerySchema, AccountSessionListSchema } from '../sessions';
import { empty, json, route } from './route';

/**
 * Beyond PROTOCOL.md: passkeys (WebAuthn) to sign in with no password, the sessions a person can
 * see and end, and the admins' audit of what happened to accounts.
 */
export const PASSKEY_AND_SESSION_ROUTES = {
  passkeyRegistrationOptions: route({
    method: 'post',
    path: '/api/auth/passkeys/options',
    tag: 'auth',
    summary: 'Start adding a passkey',
    description:
      "The options for the browser's `navigator.credentials.create` (SimpleWebAuthn's `startRegistration({optionsJSON})`): a discoverable credential, user verification preferred, for the relying party PUBLIC_URL names, the caller's passkeys excluded. Its challenge is good for one answer, within 5 minutes, on any api process. A session's caller only (403 with a personal access token).",
    access: 'user',
    status: 200,
    reply: json(PasskeyCreationOptionsSchema),
    answers: 'PublicKeyCredentialCreationOptionsJSON',
  }),
  addPasskey: route({
    method: 'post',
    path: '/api/auth/passkeys',
    tag: 'auth',
    summary: 'Add a passkey',
    description:
      "`credential` is the browser's answer to the options (`startRegistration`'s); `name` (trimmed, 1 to 100 characters) is what the person calls it. A challenge that is unknown, used, expired or another account's, another origin or relying party id, or a signature that does not verify is a 400 naming `credential`; a passkey already added is a 409. A session's caller only.",
    access: 'user',
    body: AddPasskeyRequestSchema,
    status: 201,
    reply: json(PasskeySchema),
    answers: '{id, name, createdAt, lastUsedAt}',
  }),
  listPasskeys: route({
    method: 'get',
    path: '/api/auth/passkeys',
    tag: 'auth',
    summary: "The caller's passkeys",
    description: 'Newest first, never the keys themselves.',
    access: 'user',
    status: 200,
    reply: json(PasskeyListSchema),
    answers: '{items: [{id, name, createdAt, lastUsedAt}]}',
  }),
  removePasskey: route({
    method: 'delete',
    path: '/api/auth/passkeys/:id',
    tag: 'auth',
    summary: 'Remove a passkey',
    description:
      "It signs no one in from the answer on. Removing the account's last way to sign in (no password, or passwords turned off by PASSWORD_SIGNIN=off; no other passkey; no identity provider linked) is a 409 `conflict` and changes nothing. Another person's passkey, or one already removed, is a 404. A session's caller only.",
    access: 'user',
    status: 204,
    reply: empty,
    answers: '(empty)',
  }),
  passkeySignInOptions: route({
    method: 'post',
    path: '/api/auth/passkey-sign-in/options',
    tag: 'auth',
    summary: 'Start signing in with a passkey',
    description:
      "The options for the browser's `navigator.credentials.get` (`startAuthentication({optionsJSON})`): no account named (the passkey says whose it is), user verification preferred. Its challenge is good for one answer, within 5 minutes, on any api process.",
    access: 'public',
    status: 200,
    reply: json(PasskeyRequestOptionsSchema),
    answers: 'PublicKeyCredentialRequestOptionsJSON',
  }),
  passkeySignIn: route({
    method: 'post',
    path: '/api/auth/passkey-sign-in',
    tag: 'auth',
    summary: 'Sign in with a passkey',
    description:
      "`credential` is the browser's answer to the sign-in options (`startAuthentication`'s). Answers as a password sign-in does: an access token and a session in the `sp_refresh` cookie. An unknown passkey, a challenge that is unknown, used or expired, another origin or relying party id, a bad signature or a signature counter that went back is a 401 `unauthenticated`.",
    access: 'public',
    body: PasskeySignInRequestSchema,
    status: 200,
    reply: json(AuthResponseSchema),
    answers: '{token, user} and the `sp_refresh` cookie',
  }),
  listSessions: route({
    method: 'get',
    path: '/api/auth/sessions',
    tag: 'auth',
    summary: "The caller's signed-in devices",
    description:
      'Each live session (a sign-in that has not ended): the device in plain words from its user-agent ("Chrome on Linux"), how and when it signed in, when it last renewed its access token, and `current` for the one the caller\'s token belongs to. The most recently used first. Personal access tokens are listed at `/api/auth/tokens`.',
    access: 'user',
    status: 200,
    reply: json(AccountSessionListSchema),
    answers: '{items: [{id, device, signedInWith, signedInAt, lastUsedAt, current}]}',
  }),
  revokeSession: route({
    method: 'delete',
    path: '/api/auth/sessions/:id',
    tag: 'auth',
    summary: 'Sign a device out',
    description:
      "The session ends: its refresh token and its access tokens are refused and its sockets close, on every api process, by the answer (should Redis lose the news, another process may accept its access token for up to 5 seconds). Another person's session, or one that has ended, is a 404.",
    access: 'user',
    status: 204,
    reply: empty,
    answers: '(empty)',
  }),
  adminAccountEvents: route({
    method: 'get',
    path: '/api/admin/account-events',
    tag: 'admin',
    summary: 'What happened to accounts',
    description:
      "Beyond PROTOCOL.md. Newest first: sign-ins (with a password or a passkey, and the device), passkeys added and removed, sessions revoked. `userId` narrows it to one account; `before` is the previous page's `next`.",
    access: 'admin',
    query: AccountEventsQuerySchema,
    status: 200,
    reply: json(AccountEventPageSchema),
    answers: '{items: AccountEvent[], next}',
  }),
};
