import * as z from 'zod';

/**
 * How a session began: a password, a passkey, or a way added later (an identity provider's name).
 * An open string, so a new way of signing in needs no new version of every client.
 */
export const SignInMethodSchema = z.string();

/** One of the caller's signed-in devices (a refresh-token family), as the account page lists it. */
export const AccountSessionSchema = z.object({
  id: z.string(),
  /** the browser and system in plain words ("Chrome on Linux"), from its user-agent */
  device: z.string(),
  /** how it signed in: `password`, `passkey`, … */
  signedInWith: SignInMethodSchema,
  signedInAt: z.string(),
  /** when it last renewed its access token, or signed in (to within the access token's lifetime) */
  lastUsedAt: z.string(),
  /** the session the caller's own token belongs to: "this device" */
  current: z.boolean(),
});
export type AccountSession = z.infer<typeof AccountSessionSchema>;

/** `GET /api/auth/sessions`: the caller's live sessions, the most recently used first. */
export const AccountSessionListSchema = z.object({ items: z.array(AccountSessionSchema) });
export type AccountSessionList = z.infer<typeof AccountSessionListSchema>;

export const ACCOUNT_EVENT_KINDS = [
  'signed-in',
  'passkey-added',
  'passkey-removed',
  'session-revoked',
] as const;
export const AccountEventKindSchema = z.enum(ACCOUNT_EVENT_KINDS);
export type AccountEventKind = z.infer<typeof AccountEventKindSchema>;

/**
 * One entry of the admins' audit of accounts: who, what and when, with what it concerned in words
 * (`detail`: "passkey on Chrome on Linux", the passkey's name, the revoked session's device).
 */
export const AccountEventSchema = z.object({
  id: z.string(),
  userId: z.string(),
  email: z.string(),
  kind: AccountEventKindSchema,
  detail: z.string(),
  at: z.string(),
});
export type AccountEvent = z.infer<typeof AccountEventSchema>;

/** `GET /api/admin/account-events`: newest first; `before` is the previous page's `next`. */
export const AccountEventsQuerySchema = z.object({
  userId: z.string().min(1).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  before: z.string().min(1).max(200).optional(),
});
export type AccountEventsQuery = z.infer<typeof AccountEventsQuerySchema>;

export const AccountEventPageSchema = z.object({
  items: z.array(AccountEventSchema),
  /** the `before` of the next page; null on the last */
  next: z.string().nullable(),
});
export type AccountEventPage = z.infer<typeof AccountEventPageSchema>;
