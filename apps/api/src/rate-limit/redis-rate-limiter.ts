import { Logger } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { RATE_WINDOW_MS, windowOf, type RateDecision, type RateLimiter } from './rate-limiter';

/**
 * Counts shared by every api process, in Redis. Redis carries no data of record (DESIGN.md), so
 * when it is unreachable requests are let through rather than refused, and the log says so once.
 */
export class RedisRateLimiter implements RateLimiter {
  private readonly logger = new Logger('RateLimit');
  private failing = false;

  constructor(private readonly redis: Redis) {}

  async hit(key: string, limitPerWindow: number, windowMs = RATE_WINDOW_MS): Promise<RateDecision> {
    const { index, remainingMs } = windowOf(Date.now(), windowMs);
    const redisKey =
      windowMs === RATE_WINDOW_MS ? `rate:${key}:${index}` : `rate:${key}:${windowMs}:${index}`;
    try {
      const results = await this.redis.multi().incr(redisKey).pexpire(redisKey, windowMs).exec();
      const count = Number(results?.[0]?.[1] ?? 0);
      this.failing = false;
      return { allowed: count <= limitPerWindow, retryAfterSeconds: Math.ceil(remainingMs / 1000) };
    } catch (error) {
      if (!this.failing) {
        this.logger.warn(
          `Redis unreachable, not limiting: ${error instanceof Error ? error.message : error}`,
        );
      }
      this.failing = true;
      return { allowed: true, retryAfterSeconds: 0 };
    }
  }
}
