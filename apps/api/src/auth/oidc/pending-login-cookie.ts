import type { IncomingMessage, ServerResponse } from 'node:http';
import { isHttps, readCookie } from '../refresh-cookie';
import { PENDING_LOGIN_TTL_MS } from './pending-logins.repository';

const COOKIE = 'sp_oidc';
const PATH = '/api/auth/oidc';

/**
 * The browser's half of a pending sign-in: a random secret whose hash the pending row keeps, so
 * only the browser that began a sign-in can finish it (no login CSRF). httpOnly; SameSite=Lax, as
 * the provider's return is a top-level navigation from another site, which Strict would leave
 * without it; only the OIDC routes see it, and it lives as long as the pending sign-in.
 */
export function setPendingLoginCookie(req: IncomingMessage, res: ServerResponse, secret: string): void {
  res.setHeader('Set-Cookie', cookie(req, secret, Math.floor(PENDING_LOGIN_TTL_MS / 1000)));
}

export function readPendingLoginCookie(req: IncomingMessage): string | null {
  return readCookie(req, COOKIE);
}

/** The pending sign-in is over either way: the cookie goes (set beside the session's own cookie). */
export function pendingLoginCookieCleared(req: IncomingMessage): string {
  return cookie(req, '', 0);
}

function cookie(req: IncomingMessage, value: string, maxAge: number): string {
  const secure = isHttps(req) ? '; Secure' : '';
  return `${COOKIE}=${value}; Path=${PATH}; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure}`;
}
