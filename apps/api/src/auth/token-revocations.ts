import { randomUUID } from 'node:crypto';
import { Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { ClusterRedis } from '../redis/cluster-redis';
import { AppEvents } from '../events/app-events';
import { closeRedis } from '../redis/close-redis';
import { TokenGenerations } from './token-generations';

/** How long start-up waits for the revocation channel before going on without it. */
const SUBSCRIBE_WAIT_MS = 2_000;
/** How long a revocation waits for the other processes to say they heard it. */
const ACK_WAIT_MS = 1_000;

/** What of an account's was revoked, when not all of it: one personal access token, or one session. */
export type RevokedPart = { tokenId: string } | { sessionId: string };

interface Announcement {
  /** names the announcement in the acknowledgements */
  id: string;
  userId: string;
  /** one personal access token of the account's, when only it was revoked (not the sessions) */
  tokenId?: string;
  /** one session of the account's (a signed-in device), when only it was revoked */
  sessionId?: string;
  /** the process that revoked: it has acted already, and skips its own announcement */
  from: string;
}

/**
 * Told when an account's tokens are revoked (a password change, sign-out everywhere, a deleted
 * account), on this api process or any other. Each process then forgets the token generation it
 * had cached for the account, so its next check reads the new one from the database, and it
 * says so in-process (`token.revoked`: the gateway closes the account's sockets here). A revoked
 * personal access token travels the same way, as `access-token.revoked` (PersonalAccessTokens
 * forgets it, the gateway closes the sockets it opened), and so does one ended session, as
 * `session.revoked` (SessionEndings forgets what it knew of it, the gateway closes its sockets). Between processes the
 * news travels on a Redis channel; without Redis there is one process. Should Redis lose the news,
 * TokenGenerations' cache period still bounds how long another process trusts an old token.
 */
@Injectable()
export class TokenRevocations implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('Auth');
  private subscriber: Redis | undefined;
  /** announcements of this process still waiting for acknowledgements, by id */
  private readonly unheard = new Map<string, { acks: number; expected: number | null; heard: () => void }>();

  constructor(
    private readonly cluster: ClusterRedis,
    private readonly generations: TokenGenerations,
    private readonly events: AppEvents,
  ) {}

  async onModuleInit(): Promise<void> {
    if (!this.cluster.client) return;
    const subscriber = this.cluster.duplicate();
    this.subscriber = subscriber;
    subscriber.on('message', (channel: string, message: string) => {
      if (channel === this.channel()) this.heard(message);
      else if (channel === this.ackChannel()) this.acknowledged(message);
    });
    // With Redis away the api still starts: ioredis subscribes once it connects (and again after
    // each reconnect); meanwhile other processes' revocations reach this one through the cache period.
    const away = new Promise<'away'>((resolve) => {
      setTimeout(resolve, SUBSCRIBE_WAIT_MS, 'away').unref();
      subscriber.once('error', () => resolve('away'));
    });
    const subscribed = subscriber.subscribe(this.channel(), this.ackChannel()).then(
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

  /**
   * The account's tokens were revoked here (the database says so already), or with `only` just
   * one personal access token or one session of theirs: this process's
   * handlers hear it now (`token.revoked`), and the other processes from Redis, each acknowledging once it has
   * forgotten the old generation. This waits for those acknowledgements (Redis says how many
   * processes it delivered the announcement to), so an answer sent after it finds every process
   * told, not merely Redis. Never throws: the revocation itself is done, and a lost announcement
   * or acknowledgement is bounded by ACK_WAIT_MS here and by the cache period there.
   */
  async revokedEverywhere(userId: string, only?: RevokedPart): Promise<void> {
    this.tell(userId, only);
    const client = this.cluster.client;
    if (!client) return;
    const announcement: Announcement = { id: randomUUID(), userId, ...only, from: this.cluster.processId };
    let heard = (): void => undefined;
    const allHeard = new Promise<void>((resolve) => (heard = resolve));
    // Registered before publishing: an acknowledgement can arrive before PUBLISH's answer does.
    const waiting = { acks: 0, expected: null as number | null, heard };
    this.unheard.set(announcement.id, waiting);
    try {
      const receivers = await client.publish(this.channel(), JSON.stringify(announcement));
      // Redis delivered it to every subscribed process, this one's own subscriber included.
      waiting.expected = receivers - (this.subscriber ? 1 : 0);
      if (waiting.acks >= waiting.expected) return;
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, ACK_WAIT_MS)));
      await Promise.race([allHeard, late]);
      clearTimeout(timer);
    } catch (error) {
      this.logger.warn(`announcing a token revocation: ${String(error)}`);
    } finally {
      this.unheard.delete(announcement.id);
    }
  }

  private heard(message: string): void {
    let announcement: Announcement;
    try {
      announcement = JSON.parse(message) as Announcement;
    } catch {
      return;
    }
    if (announcement.from === this.cluster.processId || typeof announcement.userId !== 'string') return;
    const only: RevokedPart | undefined =
      typeof announcement.tokenId === 'string'
        ? { tokenId: announcement.tokenId }
        : typeof announcement.sessionId === 'string'
          ? { sessionId: announcement.sessionId }
          : undefined;
    // One access token or one session revoked leaves the account's generation as it was.
    if (only === undefined) this.generations.forget(announcement.userId);
    this.tell(announcement.userId, only);
    void this.cluster.client
      ?.publish(this.ackChannel(), JSON.stringify({ id: announcement.id }))
      .catch((error: unknown) => this.logger.warn(`acknowledging a token revocation: ${String(error)}`));
  }

  private acknowledged(message: string): void {
    let id: unknown;
    try {
      id = (JSON.parse(message) as { id?: unknown }).id;
    } catch {
      return;
    }
    const waiting = typeof id === 'string' ? this.unheard.get(id) : undefined;
    if (!waiting) return;
    waiting.acks += 1;
    if (waiting.expected !== null && waiting.acks >= waiting.expected) waiting.heard();
  }

  private tell(userId: string, only: RevokedPart | undefined): void {
    if (only === undefined) this.events.emit('token.revoked', { userId });
    else if ('tokenId' in only) this.events.emit('access-token.revoked', { userId, tokenId: only.tokenId });
    else this.events.emit('session.revoked', { userId, sessionId: only.sessionId });
  }

  private channel(): string {
    return this.cluster.key('tokens', 'revoked');
  }

  private ackChannel(): string {
    return this.cluster.key('tokens', 'revoked', 'heard');
  }
}
