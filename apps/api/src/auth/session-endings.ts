import { Injectable } from '@nestjs/common';
import { OnAppEvent, type AppEventMap } from '../events/app-events';
import { RefreshTokensRepository } from './refresh-tokens.repository';
import { GENERATION_CACHE_MS } from './token-generations';

/** Sessions whose answer is kept: bounded by those seen within one cache period. */
const CACHE_LIMIT = 10_000;

/**
 * Whether a session (a signed-in device) has ended by a revocation, for the access tokens given to
 * it: read from `refresh_tokens` and kept for GENERATION_CACHE_MS, so a check costs a query per
 * session every few seconds, as a token generation does. A revocation on this process is known at
 * once; one on another makes this process forget as soon as Redis carries the news
 * (TokenRevocations, `session.revoked`), and within the cache period at worst.
 */
@Injectable()
export class SessionEndings {
  private readonly cache = new Map<string, { ended: boolean; until: number }>();
  /** Moves on with every revocation heard: a read that began before one is then not cached. */
  private revision = 0;

  constructor(private readonly refreshTokens: RefreshTokensRepository) {}

  async ended(sessionId: string): Promise<boolean> {
    const now = Date.now();
    const cached = this.cache.get(sessionId);
    if (cached && cached.until > now) return cached.ended;
    const revision = this.revision;
    const ended = await this.refreshTokens.ended(sessionId);
    if (revision !== this.revision) return ended;
    if (this.cache.size >= CACHE_LIMIT) {
      for (const [id, entry] of this.cache) if (entry.until <= now) this.cache.delete(id);
      if (this.cache.size >= CACHE_LIMIT) this.cache.clear();
    }
    // An ended session never comes back: that answer may be kept as long as any.
    this.cache.set(sessionId, { ended, until: now + GENERATION_CACHE_MS });
    return ended;
  }

  /** A session ended, here or on another process: its next check reads the database. */
  @OnAppEvent('session.revoked')
  forget({ sessionId }: AppEventMap['session.revoked']): void {
    this.revision += 1;
    this.cache.delete(sessionId);
  }
}
