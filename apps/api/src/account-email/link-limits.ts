import { createHash } from 'node:crypto';
import { ApiError } from '../errors/api-error';
import type { RateLimiter } from '../rate-limit/rate-limiter';

/** The window mailed-link requests are counted in: a quarter of an hour. */
export const LINK_WINDOW_MS = 15 * 60_000;
/** Reset mails one address may be sent a window: enough for a lost mail, too few to flood an inbox. */
export const RESETS_PER_EMAIL = 3;
/** Reset requests one client address may make a window, whatever emails they name. */
export const RESETS_PER_ADDRESS = 10;
/** Verification mails a person may ask for again a window. */
export const RESENDS_PER_ACCOUNT = 3;

/**
 * Counts one request under each key (every key counts, so a refused request still counts
 * against the others) and refuses with PROTOCOL.md's 429 when any is past its limit; `res` gets
 * Retry-After as the HTTP guard's refusals do.
 */
export async function withinLinkLimits(
  limiter: RateLimiter,
  limits: readonly { key: string; limit: number }[],
  res: { setHeader(name: string, value: string): void },
): Promise<void> {
  const decisions = await Promise.all(
    limits.map(({ key, limit }) => limiter.hit(key, limit, LINK_WINDOW_MS)),
  );
  const refused = decisions.filter((d) => !d.allowed);
  if (refused.length === 0) return;
  const retryAfterSeconds = Math.max(...refused.map((d) => d.retryAfterSeconds));
  res.setHeader('Retry-After', String(retryAfterSeconds));
  throw new ApiError(
    'rate_limited',
    `too many mails asked for: try again in ${Math.ceil(retryAfterSeconds / 60)} min`,
    { retryAfterSeconds },
  );
}

/** A client-address or email key for the rate limiter that keeps neither in Redis as it is. */
export const limitKey = (kind: string, value: string): string =>
  `mail-link:${kind}:${createHash('sha256').update(value.trim().toLowerCase()).digest('base64url')}`;
