import type { IncomingMessage, ServerResponse } from 'node:http';
import { REFRESH_COOKIE, REFRESH_COOKIE_PATH } from '@sweatpants/domain';

/**
 * The browser's refresh token travels in a cookie rather than in a body the page keeps:
 *
 * - HttpOnly: no script on the page (an injected one included) can read it, so an XSS can at most
 *   use the short-lived access token while it runs, never walk off with the session.
 * - SameSite=Strict: another site cannot make the browser send it, so `POST /api/auth/refresh`
 *   and `/sign-out` need no CSRF token (and a cross-origin caller could not read the answer anyway).
 * - Path=/api/auth: only the auth routes see it; every other request carries the bearer token alone.
 * - Secure whenever the request came over https, directly or through a proxy that says so
 *   (X-Forwarded-Proto, as deploy/nginx.conf sets it). Believing the header can only make the
 *   cookie stricter, so a forged one harms no one; plain http (npm start on localhost) still works.
 */
export function readRefreshCookie(req: IncomingMessage): string | null {
  return readCookie(req, REFRESH_COOKIE);
}

/** The cookie `name`'s value as the request carries it; null when absent or empty. */
export function readCookie(req: IncomingMessage, name: string): string | null {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key !== name) continue;
    const token = value.join('=');
    return token === '' ? null : token;
  }
  return null;
}

export function setRefreshCookie(
  req: IncomingMessage,
  res: ServerResponse,
  refresh: { token: string; expiresAt: Date },
): void {
  const maxAge = Math.max(0, Math.floor((refresh.expiresAt.getTime() - Date.now()) / 1000));
  // base64url needs no encoding in a cookie value.
  res.setHeader('Set-Cookie', cookie(req, refresh.token, maxAge));
}

/** Tells the browser to forget the cookie: a session that ended should not be presented again. */
export function clearRefreshCookie(req: IncomingMessage, res: ServerResponse): void {
  res.setHeader('Set-Cookie', cookie(req, '', 0));
}

function cookie(req: IncomingMessage, value: string, maxAge: number): string {
  const secure = isHttps(req) ? '; Secure' : '';
  return `${REFRESH_COOKIE}=${value}; Path=${REFRESH_COOKIE_PATH}; Max-Age=${maxAge}; HttpOnly; SameSite=Strict${secure}`;
}

/** Whether the browser reached us over https, directly or through a proxy that says so. */
export function isHttps(req: IncomingMessage): boolean {
  if ((req.socket as { encrypted?: boolean }).encrypted) return true;
  const forwarded = req.headers['x-forwarded-proto'];
  const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim();
  return first === 'https';
}
