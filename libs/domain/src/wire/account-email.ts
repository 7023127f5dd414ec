import * as z from 'zod';
import { NewPasswordSchema } from './auth';

/** How long each mailed link works. */
export const PASSWORD_RESET_LINK_MINUTES = 30;
export const VERIFY_EMAIL_LINK_HOURS = 24;

/** A token from a mailed link, as the link carries it (base64url). */
const LinkTokenSchema = z.string().trim().min(1).max(200);

/** `POST /api/auth/password-reset`: the address a link to set a new password should go to. */
export const PasswordResetRequestSchema = z.object({ email: z.string().trim().min(1).max(254) });
export type PasswordResetRequest = z.infer<typeof PasswordResetRequestSchema>;

/**
 * `POST /api/auth/password-reset` → 202: the same answer whether or not an account has the
 * address, so the form cannot be used to learn who has an account.
 */
export const PasswordResetAcceptedSchema = z.object({ message: z.string() });
export type PasswordResetAccepted = z.infer<typeof PasswordResetAcceptedSchema>;
export const PASSWORD_RESET_ACCEPTED: PasswordResetAccepted = {
  message: `If an account has this email, a link to set a new password is on its way. It works for ${PASSWORD_RESET_LINK_MINUTES} minutes.`,
};

/** `POST /api/auth/password-reset/confirm`: the link's token and the new password. */
export const PasswordResetConfirmSchema = z.object({ token: LinkTokenSchema, password: NewPasswordSchema });
export type PasswordResetConfirm = z.infer<typeof PasswordResetConfirmSchema>;

/** `POST /api/auth/verify-email`: the token of the link mailed to the address. */
export const VerifyEmailRequestSchema = z.object({ token: LinkTokenSchema });
export type VerifyEmailRequest = z.infer<typeof VerifyEmailRequestSchema>;

/** `POST /api/auth/verify-email` → 200: the address now proven. */
export const VerifiedEmailSchema = z.object({ email: z.string() });
export type VerifiedEmail = z.infer<typeof VerifiedEmailSchema>;

/** `POST /api/account/email`: a new address, the password confirming it is the account's holder. */
export const ChangeEmailRequestSchema = z.object({
  email: z.email().max(254),
  password: z.string().min(1).max(256),
});
export type ChangeEmailRequest = z.infer<typeof ChangeEmailRequestSchema>;

/**
 * Why a mailed link is refused (a 400 `invalid_request` whose `details` is
 * `[{field: 'token', message: <one of these>}]`): the client says it in its own words.
 */
export const LINK_REFUSALS = {
  expired: 'has expired',
  used: 'was used already',
  unknown: 'is not a link this product sent',
} as const;
export type LinkRefusal = keyof typeof LINK_REFUSALS;
