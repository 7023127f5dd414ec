import type { AuthVia, Caller } from '@sweatpants/domain';

export type { AuthVia };

/**
 * Who a verified token speaks for: PROTOCOL.md's user, its role derived from ADMIN_EMAILS, and
 * `via`, how the token was verified (a session's, or a personal access token's with its name).
 * Never sent to clients as it is: `GET /api/auth/me` answers the user alone.
 */
export type AuthUser = Caller;
