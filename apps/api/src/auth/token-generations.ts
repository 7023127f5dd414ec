import { Injectable } from '@nestjs/common';
import { UsersRepository } from './users.repository';

/** How long a process trusts the generation it read: another process's revocation lands within it. */
export const GENERATION_CACHE_MS = 5_000;

/**
 * Each account's current token generation, read from `users` and kept for GENERATION_CACHE_MS, so
 * checking a token costs a query per account every few seconds rather than per request. A
 * revocation in this process updates it at once; one in another process makes this one forget the
 * account's entry as soon as Redis carries the news (TokenRevocations), and within the cache period
 * at worst.
 */
@Injectable()
export class TokenGenerations {
  private readonly cache = new Map<string, { generation: number | null; until: number }>();
  /**
   * Moves on with every revocation heard: a read of the database that began before one may have
   * seen the old generation, and is then not cached (it would keep an old token working).
   */
  private revision = 0;

  constructor(private readonly users: UsersRepository) {}

  /** The account's generation; null when the account does not exist (any more). */
  async current(userId: string): Promise<number | null> {
    const now = Date.now();
    const cached = this.cache.get(userId);
    if (cached && cached.until > now) return cached.generation;
    const revision = this.revision;
    const generation = await this.users.tokenGeneration(userId);
    if (revision !== this.revision) return generation;
    // Bounded by the accounts active in one cache period; expired entries go as they are met.
    if (this.cache.size > 10_000) this.sweep(now);
    this.cache.set(userId, { generation, until: now + GENERATION_CACHE_MS });
    return generation;
  }

  /** What this process now knows: a revocation it made, or an account it deleted (null). */
  set(userId: string, generation: number | null): void {
    this.revision += 1;
    this.cache.set(userId, { generation, until: Date.now() + GENERATION_CACHE_MS });
  }

  /** Another process revoked the account's tokens: the next check reads the database. */
  forget(userId: string): void {
    this.revision += 1;
    this.cache.delete(userId);
  }

  private sweep(now: number): void {
    for (const [id, entry] of this.cache) if (entry.until <= now) this.cache.delete(id);
  }
}
