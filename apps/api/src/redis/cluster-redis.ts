import { randomBytes } from 'node:crypto';
import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { Redis } from 'ioredis';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { closeRedis } from './close-redis';
import { CLUSTER_CONFIG, type ClusterConfig } from '../config/cluster-config';

/**
 * This process's place among the api processes: its id, and (with REDIS_URL) a Redis connection
 * for leases and claims plus subscriber connections on demand. Without Redis there is one process
 * and everything here answers as its only member.
 */
@Injectable()
export class ClusterRedis implements OnApplicationShutdown {
  private readonly logger = new Logger('Cluster');
  /** unique per process start: a restarted process never mistakes an old lease for its own */
  readonly processId = `${process.pid}-${randomBytes(6).toString('hex')}`;
  readonly client: Redis | null;
  private readonly extra: Redis[] = [];

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLUSTER_CONFIG) readonly settings: ClusterConfig,
  ) {
    this.client = config.redisUrl === undefined ? null : this.connect();
  }

  /** A Redis key under REDIS_PREFIX. */
  key(...parts: string[]): string {
    return [this.settings.keyPrefix, ...parts].join(':');
  }

  /** Another connection (a subscriber cannot send commands); closed with this service. */
  duplicate(): Redis {
    const connection = this.connect();
    this.extra.push(connection);
    return connection;
  }

  /**
   * True for exactly one caller across processes within `ttlMs` (SET NX PX): e.g. the one process
   * that announces a job every process heard of. Always true without Redis.
   */
  async claimOnce(name: string, ttlMs: number): Promise<boolean> {
    if (!this.client) return true;
    return (await this.client.set(this.key('once', name), this.processId, 'PX', ttlMs, 'NX')) === 'OK';
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all([...this.extra, ...(this.client ? [this.client] : [])].map((c) => closeRedis(c)));
  }

  private connect(): Redis {
    const connection = new Redis(this.config.redisUrl as string, { maxRetriesPerRequest: null });
    connection.on('error', (error: Error) => this.logger.warn(`Redis: ${error.message}`));
    return connection;
  }
}
