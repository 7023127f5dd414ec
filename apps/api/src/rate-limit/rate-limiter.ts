/** What a limiter says about one more request. */
export interface RateDecision {
  allowed: boolean;
  /** when refused: seconds until the window resets */
  retryAfterSeconds: number;
}

/**
 * Counts requests per key in fixed one-minute windows. Per user (or per address before sign-in),
 * so one user's flood does not starve another.
 */
export interface RateLimiter {
  hit(key: string, limitPerMinute: number): Promise<RateDecision>;
}

export const RATE_WINDOW_MS = 60_000;

/** Injection token of the RateLimiter the HTTP guard and the gateway share. */
export const RATE_LIMITER = Symbol('RateLimiter');

/** The window a moment falls in, and how long until it ends. */
export function windowOf(now: number): { index: number; remainingMs: number } {
  const index = Math.floor(now / RATE_WINDOW_MS);
  return { index, remainingMs: (index + 1) * RATE_WINDOW_MS - now };
}

/** One process's counts: right when there is one process (REDIS_URL unset). */
export class MemoryRateLimiter implements RateLimiter {
  private window = -1;
  private counts = new Map<string, number>();

  async hit(key: string, limitPerMinute: number): Promise<RateDecision> {
    const { index, remainingMs } = windowOf(Date.now());
    // A new window forgets the old one whole, so the map never outgrows a minute's keys.
    if (index !== this.window) {
      this.window = index;
      this.counts = new Map();
    }
    const count = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, count);
    return { allowed: count <= limitPerMinute, retryAfterSeconds: Math.ceil(remainingMs / 1000) };
  }
}
