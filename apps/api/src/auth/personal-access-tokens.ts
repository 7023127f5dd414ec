import { createHash } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import type { AccessToken, CreatedAccessToken } from '@sweatpants/domain';
import { OnAppEvent, type AppEventMap } from '../events/app-events';
import {
  PersonalAccessTokensRepository,
  type PresentedAccessToken,
} from './personal-access-tokens.repository';
import { GENERATION_CACHE_MS } from './token-generations';
import { TokenRevocations } from './token-revocations';

/**
 * How long a process trusts what it read of a token: a revocation on another process reaches this
 * one through Redis at once (TokenRevocations), and should Redis lose it, within this period.
 */
export const ACCESS_TOKEN_CACHE_MS = GENERATION_CACHE_MS;
/** A token's `lastUsedAt` is written at most this often by a process, so a busy script is not a write per request. */
export const LAST_USED_EVERY_MS = 60_000;
/** Tokens whose lookups are kept: bounded by those used within one cache period. */
const CACHE_LIMIT = 10_000;

interface Cached {
  /** null: no such token (never was, or revoked) */
  token: PresentedAccessToken | null;
  until: number;
}

/**
 * Personal access tokens (PROTOCOL.md): made, listed and revoked by their owner, and checked for
 * AuthService.verifyToken. A check reads the token's row by its hash and keeps the answer for
 * ACCESS_TOKEN_CACHE_MS, so a script's requests cost a query every few seconds, not one each. A
 * revocation makes this process forget the token at once and tells the others (TokenRevocations,
 * which waits for them to say they heard), so the answer to DELETE finds it refused everywhere.
 */
@Injectable()
export class PersonalAccessTokens {
  private readonly logger = new Logger('Auth');
  /** by the token's SHA-256 (hex): the token itself is never held beyond the request */
  private readonly cache = new Map<string, Cached>();
  /** when this process last wrote each token's `last_used_at` */
  private readonly lastWritten = new Map<string, number>();
  /**
   * Moves on with every revocation heard: a read that began before one may have seen the token
   * still there, and is then not cached (as TokenGenerations does for generations).
   */
  private revision = 0;

  constructor(
    private readonly tokens: PersonalAccessTokensRepository,
    private readonly revocations: TokenRevocations,
  ) {}

  create(userId: string, name: string): Promise<CreatedAccessToken> {
    return this.tokens.create(userId, name);
  }

  list(userId: string): Promise<AccessToken[]> {
    return this.tokens.list(userId);
  }

  /**
   * Revokes the account's token `id`: refused here at once and on every other process by the time
   * this returns (see TokenRevocations.revokedEverywhere). False when the account has no such token.
   */
  async revoke(userId: string, id: string): Promise<boolean> {
    if (!(await this.tokens.revoke(userId, id))) return false;
    await this.revocations.revokedEverywhere(userId, { tokenId: id });
    return true;
  }

  /** The live token `token` is, noting its use; null when there is no such token. */
  async verify(token: string): Promise<PresentedAccessToken | null> {
    const key = createHash('sha256').update(token, 'utf8').digest('hex');
    const now = Date.now();
    let cached = this.cache.get(key);
    if (!cached || cached.until <= now) {
      const revision = this.revision;
      cached = { token: await this.tokens.presented(token), until: now + ACCESS_TOKEN_CACHE_MS };
      if (revision === this.revision) {
        if (this.cache.size >= CACHE_LIMIT) this.sweep(now);
        this.cache.set(key, cached);
      }
    }
    if (cached.token) await this.noteUse(cached.token.tokenId, now);
    return cached.token;
  }

  /** A token was revoked, here or on another process: it is looked up again at its next use. */
  @OnAppEvent('access-token.revoked')
  forget({ tokenId }: AppEventMap['access-token.revoked']): void {
    this.revision += 1;
    for (const [key, entry] of this.cache) if (entry.token?.tokenId === tokenId) this.cache.delete(key);
    this.lastWritten.delete(tokenId);
  }

  /** An account's tokens are gone with it, or its sessions revoked: nothing it had is trusted from memory. */
  @OnAppEvent('token.revoked')
  forgetAccount({ userId }: AppEventMap['token.revoked']): void {
    this.revision += 1;
    for (const [key, entry] of this.cache) if (entry.token?.userId === userId) this.cache.delete(key);
  }

  /**
   * Writes `last_used_at` when this process has not for LAST_USED_EVERY_MS. Awaited, so an answer
   * sent after a use finds it written; a failure only costs the note, never the request.
   */
  private async noteUse(tokenId: string, now: number): Promise<void> {
    const last = this.lastWritten.get(tokenId);
    if (last !== undefined && now - last < LAST_USED_EVERY_MS) return;
    this.lastWritten.set(tokenId, now);
    if (this.lastWritten.size > CACHE_LIMIT) {
      for (const [id, at] of this.lastWritten)
        if (now - at >= LAST_USED_EVERY_MS) this.lastWritten.delete(id);
    }
    await this.tokens.used(tokenId).catch((error: unknown) => {
      this.logger.warn(`noting a use of access token ${tokenId}: ${String(error)}`);
    });
  }

  private sweep(now: number): void {
    for (const [key, entry] of this.cache) if (entry.until <= now) this.cache.delete(key);
    // Still full of live entries: start again rather than grow without bound.
    if (this.cache.size >= CACHE_LIMIT) this.cache.clear();
  }
}
