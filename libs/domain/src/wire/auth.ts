import * as z from 'zod';

export const ROLES = ['user', 'admin'] as const;
export const RoleSchema = z.enum(ROLES);
export type Role = z.infer<typeof RoleSchema>;

/** `GET /api/auth/me`, and the `user` of register and login. */
export const UserSchema = z.object({
  id: z.string(),
  email: z.string(),
  displayName: z.string(),
  role: RoleSchema,
  /**
   * Whether the email was proven (a link mailed to it was opened). Until it is, the account works
   * but the client says so, and the address makes no one an admin.
   */
  emailVerified: z.boolean(),
});
export type User = z.infer<typeof UserSchema>;

/**
 * How a caller's bearer token was verified: a session's access token (a sign-in), or one of their
 * personal access tokens, named as they named it (for what is written on their behalf: "via MCP,
 * token 'laptop'").
 */
export const AuthViaSchema = z.discriminatedUnion('kind', [
  // `sessionId`: the sign-in (refresh-token family) the access token was given to; tokens signed
  // before sessions were named have none.
  z.object({ kind: z.literal('session'), sessionId: z.string().optional() }),
  z.object({ kind: z.literal('token'), tokenId: z.string(), name: z.string() }),
]);
export type AuthVia = z.infer<typeof AuthViaSchema>;

/**
 * A verified caller as the api knows them: the user, how their token was verified, and `edge`
 * when they came through a standard protocol rather than the product's own clients (an MCP
 * client). It travels between api processes with their commands and is never sent to a client
 * (`GET /api/auth/me` answers the User).
 */
export const CallerSchema = UserSchema.extend({
  via: AuthViaSchema,
  edge: z.literal('mcp').optional(),
});
export type Caller = z.infer<typeof CallerSchema>;

/**
 * How a caller acted, as the reflog keeps it beside their moves: "via MCP, token 'laptop'",
 * "with token 'ci'", "via MCP"; nothing for a person in the product's own clients.
 *
 * @example
 * callerNote({ ...user, via: { kind: 'token', tokenId, name: 'laptop' }, edge: 'mcp' });
 * // "via MCP, token 'laptop'"
 */
export function callerNote(caller: Pick<Caller, 'via' | 'edge'>): string | undefined {
  const token = caller.via.kind === 'token' ? `token '${caller.via.name}'` : undefined;
  if (caller.edge === 'mcp') return token ? `via MCP, ${token}` : 'via MCP';
  return token ? `with ${token}` : undefined;
}

/** A callerNote at the end of a reflog message, in the parentheses the store puts it in. */
const NOTED = /\((via MCP(?:, token '.*')?|with token '.*')\)$/;

/**
 * The callerNote a reflog entry's message ends with, if any: how its actor acted, for a history
 * that tells it ("You said 'the lamp' via MCP, token 'laptop'").
 *
 * @example
 * noteOfReflogMessage(`append: user "the lamp" (via MCP, token 'laptop')`); // "via MCP, token 'laptop'"
 */
export function noteOfReflogMessage(message: string): string | undefined {
  return NOTED.exec(message)?.[1];
}

/** A new password: the same rule at sign-up and at a change. */
export const NewPasswordSchema = z.string().min(8, 'at least 8 characters').max(256);

export const RegisterRequestSchema = z.object({
  email: z.email().max(254),
  password: NewPasswordSchema,
  displayName: z.string().trim().min(1).max(80),
});
export type RegisterRequest = z.infer<typeof RegisterRequestSchema>;

export const LoginRequestSchema = z.object({
  email: z.string().min(1).max(254),
  password: z.string().min(1).max(256),
});
export type LoginRequest = z.infer<typeof LoginRequestSchema>;

/**
 * What register, login and refresh answer: a signed, short-lived bearer token and who it is for.
 * The token is a JWT whose `exp` claim says when it stops working, so a client may refresh it a
 * little before (the api checks it; a client only reads it to schedule that).
 */
export const AuthResponseSchema = z.object({ token: z.string(), user: UserSchema });
export type AuthResponse = z.infer<typeof AuthResponseSchema>;

/**
 * `POST /api/account/password`: a new password, the current one confirming it is the account's
 * holder. Every token issued before stops working; the answer carries a fresh one.
 */
export const ChangePasswordRequestSchema = z.object({
  currentPassword: z.string().min(1).max(256),
  newPassword: NewPasswordSchema,
});
export type ChangePasswordRequest = z.infer<typeof ChangePasswordRequestSchema>;

/**
 * The cookie that carries a browser's refresh token (`POST /api/auth/refresh`, `POST
 * /api/auth/sign-out`): httpOnly, so no script of the page can read it; SameSite=Strict, so no
 * other site can make the browser send it; scoped to `/api/auth`, so no other request carries it.
 */
export const REFRESH_COOKIE = 'sp_refresh';
/** The path the refresh cookie is sent to. */
export const REFRESH_COOKIE_PATH = '/api/auth';
