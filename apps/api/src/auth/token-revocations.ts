import { Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { ClusterRedis } from '../cluster/cluster-redis';
import { closeRedis } from '../redis/close-redis';
import { TokenGenerations } from './token-generations';

/** How long start-up waits for the revocation channel before going on without it. */
const SUBSCRIBE_WAIT_MS = 2_000;

interface Announcement {
  userId: string;
  /** the process that revoked: it has acted already, and skips its own announcement */
  from: string;
}

/**
 * Told when an account's tokens are revoked (a password change, sign-out everywhere, a deleted
 * account), on this api process or any other. Each process then forgets the token generation it
 * had cached for the account, so its next check reads the new one from the database, and its
 * listeners (the gateway, which closes the account's sockets here) are told. Between processes the
 * news travels on a Redis channel; without Redis there is one process. Should Redis lose the news,
 * TokenGenerations' cache period still bounds how long another process trusts an old token.
 */
@Injectable()
export class TokenRevocations implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('Auth');
  private readonly listeners = new Set<(userId: string) => void>();
  private subscriber: Redis | undefined;

  constructor(
    private readonly cluster: ClusterRedis,
    private readonly generations: TokenGenerations,
  ) {}

  async onModuleInit(): Promise<void> {
    if (!this.cluster.client) return;
    const subscriber = this.cluster.duplicate();
    this.subscriber = subscriber;
    subscriber.on('message', (channel: string, message: string) => {
      if (channel === this.channel()) this.heard(message);
    });
    // With Redis away the api still starts: ioredis subscribes once it connects (and again after
    // each reconnect); meanwhile other processes' revocations reach this one through the cache period.
    const away = new Promise<'away'>((resolve) => {
      setTimeout(resolve, SUBSCRIBE_WAIT_MS, 'away').unref();
      subscriber.once('error', () => resolve('away'));
    });
    const subscribed = subscriber.subscribe(this.channel()).then(
      () => 'subscribed' as const,
      (error: unknown) => {
        this.logger.warn(`subscribing to token revocations: ${String(error)}`);
        return 'failed' as const;
      },
    );
    if ((await Promise.race([subscribed, away])) === 'away') {
      this.logger.warn('Redis is not answering: revocations from other processes arrive when it does');
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await closeRedis(this.subscriber);
  }

  onRevoked(listener: (userId: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * The account's tokens were revoked here (the database says so already): this process's
   * listeners hear it now, and the other processes once Redis has the announcement, which this
   * waits for, so an answer sent after it finds every process told. Never throws: the revocation
   * itself is done, and a lost announcement is bounded by the cache period.
   */
  async revokedEverywhere(userId: string): Promise<void> {
    this.tell(userId);
    const client = this.cluster.client;
    if (!client) return;
    const announcement: Announcement = { userId, from: this.cluster.processId };
    await client.publish(this.channel(), JSON.stringify(announcement)).then(
      () => undefined,
      (error: unknown) => this.logger.warn(`announcing a token revocation: ${String(error)}`),
    );
  }

  /** As revokedEverywhere, for a caller with nothing to wait for. */
  revoked(userId: string): void {
    void this.revokedEverywhere(userId);
  }

  private heard(message: string): void {
    let announcement: Announcement;
    try {
      announcement = JSON.parse(message) as Announcement;
    } catch {
      return;
    }
    if (announcement.from === this.cluster.processId || typeof announcement.userId !== 'string') return;
    this.generations.forget(announcement.userId);
    this.tell(announcement.userId);
  }

  private tell(userId: string): void {
    for (const listener of this.listeners) listener(userId);
  }

  private channel(): string {
    return this.cluster.key('tokens', 'revoked');
  }
}
