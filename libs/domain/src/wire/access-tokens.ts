import * as z from 'zod';

/**
 * What every personal access token begins with, so a leaked one is recognised as ours (by a
 * person, a secret scanner, or the api telling it from a session token) before anything is looked up.
 */
export const ACCESS_TOKEN_PREFIX = 'spat_';

/** `POST /api/auth/tokens`: what the person calls the token (where it is used: "laptop", "CI"). */
export const CreateAccessTokenRequestSchema = z.object({
  name: z.string().trim().min(1, 'at least 1 character').max(100, 'at most 100 characters'),
});
export type CreateAccessTokenRequest = z.infer<typeof CreateAccessTokenRequestSchema>;

/** A personal access token as listed: never the token itself, which is shown once, at creation. */
export const AccessTokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  /** when a request last came with it (to the minute: uses in between are not each written); null if never */
  lastUsedAt: z.string().nullable(),
});
export type AccessToken = z.infer<typeof AccessTokenSchema>;

/** `POST /api/auth/tokens` → 201: the token, this once; only its hash is kept. */
export const CreatedAccessTokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  token: z.string(),
  createdAt: z.string(),
});
export type CreatedAccessToken = z.infer<typeof CreatedAccessTokenSchema>;

/** `GET /api/auth/tokens`: the caller's own tokens, newest first. */
export const AccessTokenListSchema = z.object({ items: z.array(AccessTokenSchema) });
export type AccessTokenList = z.infer<typeof AccessTokenListSchema>;
