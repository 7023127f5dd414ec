import {
  ChangeEmailRequestSchema,
  PasswordResetAcceptedSchema,
  PasswordResetConfirmSchema,
  PasswordResetRequestSchema,
  VerifiedEmailSchema,
  VerifyEmailRequestSchema,
} from '../account-email';
import { AuthResponseSchema } from '../auth';
import { empty, json, route } from './route';

/** Beyond PROTOCOL.md's Auth: what reaches a person by mail (a new password, a proven email). */
export const ACCOUNT_EMAIL_ROUTES = {
  requestPasswordReset: route({
    method: 'post',
    path: '/api/auth/password-reset',
    tag: 'auth',
    summary: 'Mail a link to set a new password',
    description:
      'Beyond PROTOCOL.md. When an account has this email, a link to `/reset-password` on PUBLIC_URL is mailed to it; it works once, for 30 minutes. The answer is the same, in about the same time, whether or not there is such an account. Limited per email and per client address: beyond it a 429 `rate_limited` with Retry-After (and `details.retryAfterSeconds`).',
    access: 'public',
    body: PasswordResetRequestSchema,
    status: 202,
    reply: json(PasswordResetAcceptedSchema),
    answers: '{message}',
  }),
  confirmPasswordReset: route({
    method: 'post',
    path: '/api/auth/password-reset/confirm',
    tag: 'auth',
    summary: 'Set a new password with a mailed link',
    description:
      "Beyond PROTOCOL.md. The link's token and the new password: every session and token of the account so far ends, on every api process (personal access tokens stay), the mailed address counts as proven, and the answer is a fresh session. A token that expired, was used (or another of the account's reset links was), or was never sent is a 400 `invalid_request` with `details: [{field: 'token', message: 'has expired' | 'was used already' | 'is not a link this product sent'}]`.",
    access: 'public',
    body: PasswordResetConfirmSchema,
    status: 200,
    reply: json(AuthResponseSchema),
    answers: '{token, user} and the `sp_refresh` cookie',
  }),
  verifyEmail: route({
    method: 'post',
    path: '/api/auth/verify-email',
    tag: 'auth',
    summary: 'Prove the email with a mailed link',
    description:
      "Beyond PROTOCOL.md. The token of the link mailed to the account's address (at registration, on a change of address, or when asked again); it works once, for 24 hours, and only while the address is still the account's. Refused as `/api/auth/password-reset/confirm` refuses. Tokens signed before say `emailVerified: false` until the session's next refresh.",
    access: 'public',
    body: VerifyEmailRequestSchema,
    status: 200,
    reply: json(VerifiedEmailSchema),
    answers: '{email}',
  }),
  resendEmailVerification: route({
    method: 'post',
    path: '/api/auth/verify-email/resend',
    tag: 'auth',
    summary: 'Mail the link to prove the email again',
    description:
      "Beyond PROTOCOL.md. A new link to the caller's address (earlier ones keep working until they expire). An address proven already is a 409 `conflict`; a few a quarter of an hour, then a 429 `rate_limited`.",
    access: 'user',
    status: 202,
    reply: empty,
    answers: '(empty)',
  }),
  changeEmail: route({
    method: 'post',
    path: '/api/account/email',
    tag: 'account',
    summary: 'Change the email',
    description:
      'Beyond PROTOCOL.md. The password confirms it (a wrong one is a 400 naming `password`); an address another account has is a 409. The new address is unproven until the link mailed to it is opened (the old address is told of the change); every earlier session and token ends, as with a new password, and the answer carries a fresh one.',
    access: 'user',
    body: ChangeEmailRequestSchema,
    status: 200,
    reply: json(AuthResponseSchema),
    answers: '{token, user} and a new `sp_refresh` cookie',
  }),
};
