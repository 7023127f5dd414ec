import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { SqlClient, SqlExecutor } from '@sweatpants/tree-store';
import { SQL_CLIENT } from '../database/database.module';
import type { TokenSubject } from './token-signer';

/**
 * How long a session may go unused before it ends. Each refresh starts the period again, so a
 * person who comes back every few weeks is never asked to sign in; a lost laptop's session dies
 * on its own a month after it was last used.
 */
export const REFRESH_IDLE_DAYS = 30;
const REFRESH_IDLE_MS = REFRESH_IDLE_DAYS * 24 * 60 * 60 * 1000;

/** A refresh token as its holder gets it: shown once, kept here only as its hash. */
export interface IssuedRefreshToken {
  token: string;
  expiresAt: Date;
}

/** Why a refresh token was refused; each is a 401 to the caller, the distinction is for the log. */
export type RefreshRefusal = 'unknown' | 'expired' | 'revoked' | 'reused' | 'signed-out';

/** What presenting a refresh token came to. */
export type Rotation =
  | { ok: true; subject: TokenSubject; next: IssuedRefreshToken }
  | { ok: false; reason: RefreshRefusal; userId?: string };

interface PresentedRow {
  id: string;
  user_id: string;
  family_id: string;
  token_generation: number;
  expired: boolean;
  used: boolean;
  revoked: boolean;
  current_generation: number;
  email: string;
  display_name: string;
  email_verified: boolean;
}

/** 32 random bytes: guessing one is out of the question, so a fast hash suffices (no salt, no argon2). */
const newToken = (): string => randomBytes(32).toString('base64url');
const hashOf = (token: string): Buffer => createHash('sha256').update(token, 'utf8').digest();

/**
 * The `refresh_tokens` table (RefreshTokens1795500000000), in plain parameterised SQL like
 * UsersRepository. A token is rotated on each use inside one transaction that locks its row, so two
 * requests presenting the same token cannot both be answered: the second sees it used.
 */
@Injectable()
export class RefreshTokensRepository {
  constructor(@Inject(SQL_CLIENT) private readonly db: SqlClient) {}

  /** A new session (a new family) for the account at its current token generation. */
  async issue(subject: Pick<TokenSubject, 'id' | 'tokenGeneration'>): Promise<IssuedRefreshToken> {
    // Rows past their idle period can refuse nothing a missing row would not: they go as the
    // account signs in again, so the table holds each account's live sessions and little else.
    await this.db.query(`DELETE FROM refresh_tokens WHERE user_id = $1 AND expires_at < now()`, [subject.id]);
    return this.insert(this.db, subject.id, randomUUID(), subject.tokenGeneration);
  }

  /**
   * Presents a refresh token: if it is live, it is marked used and its successor is answered with
   * the account as the token generation it was issued in saw it. A token used before ends its
   * whole family (the token was copied: whichever holder is the thief, neither carries on).
   */
  rotate(token: string): Promise<Rotation> {
    return this.db.transaction(async (tx): Promise<Rotation> => {
      const [row] = await tx.query<PresentedRow>(
        `SELECT r.id, r.user_id, r.family_id, r.token_generation,
           r.expires_at <= now() AS expired, r.used_at IS NOT NULL AS used, r.revoked_at IS NOT NULL AS revoked,
           u.token_generation AS current_generation, u.email, u.display_name,
           u.email_verified_at IS NOT NULL AS email_verified
         FROM refresh_tokens r JOIN users u ON u.id = r.user_id
         WHERE r.token_hash = $1
         FOR UPDATE OF r`,
        [hashOf(token)],
      );
      if (!row) return { ok: false, reason: 'unknown' };
      if (row.revoked) return { ok: false, reason: 'revoked', userId: row.user_id };
      if (row.used) {
        await tx.query(
          `UPDATE refresh_tokens SET revoked_at = now() WHERE family_id = $1 AND revoked_at IS NULL`,
          [row.family_id],
        );
        return { ok: false, reason: 'reused', userId: row.user_id };
      }
      if (row.expired) return { ok: false, reason: 'expired', userId: row.user_id };
      // Sign-out everywhere and a new password move the generation on: every earlier refresh token
      // is refused here, on every process, as every earlier access token is by TokenGenerations.
      if (row.token_generation !== row.current_generation) {
        return { ok: false, reason: 'signed-out', userId: row.user_id };
      }
      await tx.query(`UPDATE refresh_tokens SET used_at = now() WHERE id = $1`, [row.id]);
      const next = await this.insert(tx, row.user_id, row.family_id, row.token_generation);
      // The generation read in this transaction, not a later one: a sign-out everywhere that lands
      // meanwhile makes this answer's access token refused too, rather than valid in the new one.
      const subject: TokenSubject = {
        id: row.user_id,
        email: row.email,
        displayName: row.display_name,
        tokenGeneration: row.token_generation,
        emailVerified: row.email_verified,
      };
      return { ok: true, subject, next };
    });
  }

  /** Sign-out: the session this token belongs to ends (its family), whatever state the token is in. */
  async revokeFamilyOf(token: string): Promise<void> {
    await this.db.query(
      `UPDATE refresh_tokens SET revoked_at = now()
       WHERE revoked_at IS NULL AND family_id = (SELECT family_id FROM refresh_tokens WHERE token_hash = $1)`,
      [hashOf(token)],
    );
  }

  /**
   * Every session of the account ends. The generation move beside it already refuses them; marking
   * them says so in the table too, for whoever reads it.
   */
  async revokeAll(userId: string): Promise<void> {
    await this.db.query(
      `UPDATE refresh_tokens SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL`,
      [userId],
    );
  }

  private async insert(
    db: SqlExecutor,
    userId: string,
    familyId: string,
    generation: number,
  ): Promise<IssuedRefreshToken> {
    const token = newToken();
    const expiresAt = new Date(Date.now() + REFRESH_IDLE_MS);
    await db.query(
      `INSERT INTO refresh_tokens (id, user_id, family_id, token_hash, token_generation, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [randomUUID(), userId, familyId, hashOf(token), generation, expiresAt],
    );
    return { token, expiresAt };
  }
}
