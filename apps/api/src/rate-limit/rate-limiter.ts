/** What a limiter says about one more request. */
export interface RateDecision {
  allowed: boolean;
  /** when refused: seconds until the window resets */
  retryAfterSeconds: number;
}

/**
 * Counts requests per key in fixed one-minute windows (or `windowMs` long ones). Per user (or per
 * address before sign-in), so one user's flood does not starve another.
 */
export interface RateLimiter {
  hit(key: string, limitPerWindow: number, windowMs?: number): Promise<RateDecision>;
}

export const RATE_WINDOW_MS = 60_000;

/** Injection token of the RateLimiter the HTTP guard and the gateway share. */
export const RATE_LIMITER = Symbol('RateLimiter');

/** The window a moment falls in, and how long until it ends. */
export function windowOf(now: number, windowMs = RATE_WINDOW_MS): { index: number; remainingMs: number } {
  const index = Math.floor(now / windowMs);
  return { index, remainingMs: (index + 1) * windowMs - now };
}

/** One process's counts: right when there is one process (REDIS_URL unset). */
export class MemoryRateLimiter implements RateLimiter {
  /** per window length: the window counted in, and its counts */
  private readonly windows = new Map<number, { index: number; counts: Map<string, number> }>();

  async hit(key: string, limitPerWindow: number, windowMs = RATE_WINDOW_MS): Promise<RateDecision> {
    const { index, remainingMs } = windowOf(Date.now(), windowMs);
    let window = this.windows.get(windowMs);
    // A new window forgets the old one whole, so a map never outgrows one window's keys.
    if (window?.index !== index) {
      window = { index, counts: new Map() };
      this.windows.set(windowMs, window);
    }
    const count = (window.counts.get(key) ?? 0) + 1;
    window.counts.set(key, count);
    return { allowed: count <= limitPerWindow, retryAfterSeconds: Math.ceil(remainingMs / 1000) };
  }
}
