import { Module } from '@nestjs/common';
import { QueueModule } from '../queue/queue.module';
import { QueueConnection } from '../queue/queue-connection';
import { MemoryRateLimiter, RATE_LIMITER, type RateLimiter } from './rate-limiter';
import { RedisRateLimiter } from './redis-rate-limiter';

/** Counts in Redis when REDIS_URL is set (shared by every process), in memory otherwise. */
@Module({
  imports: [QueueModule],
  providers: [
    {
      provide: RATE_LIMITER,
      inject: [QueueConnection],
      useFactory: (queue: QueueConnection): RateLimiter =>
        queue.redis ? new RedisRateLimiter(queue.redis) : new MemoryRateLimiter(),
    },
  ],
  exports: [RATE_LIMITER],
})
export class RateLimitModule {}
