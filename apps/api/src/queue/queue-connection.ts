import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { Redis } from 'ioredis';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { closeRedis } from '../redis/close-redis';

/**
 * Where jobs run: through Redis at REDIS_URL, or in this process when it is unset. Redis carries
 * queues and fan-out only (DESIGN.md), so this is the one connection the api itself holds.
 */
@Injectable()
export class QueueConnection implements OnApplicationShutdown {
  private readonly logger = new Logger('Queue');
  /** null: jobs run in-process */
  readonly redis: Redis | null;
  private reachable = true;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    if (config.redisUrl === undefined) {
      this.redis = null;
      this.logger.log('REDIS_URL unset: jobs run in-process');
      return;
    }
    // lazyConnect: nothing connects until the first command, so a Redis that is down does not
    // stop the api from starting; health reports it instead. One retry per command keeps a
    // health check from waiting out a long reconnect loop.
    this.redis = new Redis(config.redisUrl, {
      lazyConnect: true,
      maxRetriesPerRequest: 1,
      connectTimeout: 2_000,
      // ioredis waits this long for a dead socket to close at disconnect; its 2s default holds
      // the process open after shutdown when Redis was down.
      disconnectTimeout: 500,
    });
    // Without a listener ioredis prints every failed reconnect; say it once per outage instead.
    this.redis.on('error', (error: Error) => {
      if (this.reachable) this.logger.warn(`Redis unreachable: ${error.message}`);
      this.reachable = false;
    });
    this.redis.on('ready', () => {
      if (!this.reachable) this.logger.log('Redis reachable again');
      this.reachable = true;
    });
    this.logger.log('jobs run through Redis');
  }

  get mode(): 'redis' | 'in-process' {
    return this.redis ? 'redis' : 'in-process';
  }

  /** Resolves when Redis answers PING (at once in-process); rejects when it does not. */
  async ping(): Promise<void> {
    if (this.redis) await this.redis.ping();
  }

  async onApplicationShutdown(): Promise<void> {
    if (!this.redis) return;
    await closeRedis(this.redis);
    this.logger.log('Redis connection closed');
  }
}
