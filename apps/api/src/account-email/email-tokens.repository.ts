import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { err, ok, type LinkRefusal, type Result } from '@sweatpants/domain';
import type { SqlClient } from '@sweatpants/tree-store';
import { SQL_CLIENT } from '../database/database.module';

/** What a mailed link is for. */
export type EmailTokenPurpose = 'verify-email' | 'reset-password';

/** A token as it goes into a link: shown once, kept only as its hash. */
export interface IssuedEmailToken {
  token: string;
  userId: string;
  /** the account's address when the token was made: the mail goes there */
  email: string;
  /** whether the account has a password (one an identity provider made may have none yet) */
  hasPassword: boolean;
}

/** Whose a used-up token was, and the address its mail went to. */
export interface SpentEmailToken {
  userId: string;
  email: string;
  /** whether that address is still the account's (the link then proves it) */
  stillTheirs: boolean;
}

/** 32 random bytes, as refresh tokens: a fast hash suffices for what cannot be guessed. */
const newToken = (): string => randomBytes(32).toString('base64url');
const hashOf = (token: string): Buffer => createHash('sha256').update(token, 'utf8').digest();

/**
 * The `email_tokens` table (EmailVerification1795530000000): the tokens of mailed links, each
 * single use and expiring. A token is used up inside one transaction that locks its row, so two
 * requests with the same link cannot both succeed.
 */
@Injectable()
export class EmailTokensRepository {
  constructor(@Inject(SQL_CLIENT) private readonly db: SqlClient) {}

  /**
   * A token for the account whose address is `email`, or null when there is none. One statement
   * either way (an INSERT … SELECT that finds no account inserts nothing), so asking for an
   * address nobody has costs what asking for a known one does.
   */
  async issueByEmail(
    email: string,
    purpose: EmailTokenPurpose,
    ttlMs: number,
  ): Promise<IssuedEmailToken | null> {
    return this.issueWhere('lower(email) = lower($4)', email, purpose, ttlMs);
  }

  /** A token for the account `userId`, to its current address; null when the account is gone. */
  async issueById(
    userId: string,
    purpose: EmailTokenPurpose,
    ttlMs: number,
  ): Promise<IssuedEmailToken | null> {
    return this.issueWhere('id = $4::uuid', userId, purpose, ttlMs);
  }

  /**
   * Uses the token up: refused when no such token of this purpose was made, when it was used, or
   * when it expired. A password reset uses up every other reset link of the account with it (one
   * new password per mail; an older mail cannot undo it).
   */
  spend(token: string, purpose: EmailTokenPurpose): Promise<Result<SpentEmailToken, LinkRefusal>> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx.query<{
        id: string;
        user_id: string;
        email: string;
        used: boolean;
        expired: boolean;
        still_theirs: boolean;
      }>(
        `SELECT t.id, t.user_id, t.email, t.used_at IS NOT NULL AS used, t.expires_at <= now() AS expired,
           lower(u.email) = lower(t.email) AS still_theirs
         FROM email_tokens t JOIN users u ON u.id = t.user_id
         WHERE t.token_hash = $1 AND t.purpose = $2
         FOR UPDATE OF t`,
        [hashOf(token), purpose],
      );
      if (!row) return err('unknown');
      if (row.used) return err('used');
      // A link to prove an address the account no longer has proves nothing: it is as if expired.
      if (row.expired || (purpose === 'verify-email' && !row.still_theirs)) return err('expired');
      if (purpose === 'reset-password') {
        await tx.query(
          `UPDATE email_tokens SET used_at = now() WHERE user_id = $1 AND purpose = $2 AND used_at IS NULL`,
          [row.user_id, purpose],
        );
      } else {
        await tx.query(`UPDATE email_tokens SET used_at = now() WHERE id = $1`, [row.id]);
      }
      return ok({ userId: row.user_id, email: row.email, stillTheirs: row.still_theirs });
    });
  }

  private async issueWhere(
    condition: string,
    who: string,
    purpose: EmailTokenPurpose,
    ttlMs: number,
  ): Promise<IssuedEmailToken | null> {
    const token = newToken();
    // Tokens past their time refuse nothing a missing row would not: they go as new ones come.
    const [row] = await this.db.query<{ user_id: string; email: string; has_password: boolean }>(
      `WITH account AS (SELECT id, email, password_hash IS NOT NULL AS has_password FROM users WHERE ${condition}),
       swept AS (DELETE FROM email_tokens WHERE user_id IN (SELECT id FROM account) AND expires_at < now()),
       issued AS (
         INSERT INTO email_tokens (id, user_id, purpose, email, token_hash, expires_at)
         SELECT $1, id, $2, email, $3, now() + make_interval(secs => $5) FROM account
         RETURNING user_id, email)
       SELECT i.user_id, i.email, a.has_password FROM issued i JOIN account a ON a.id = i.user_id`,
      [randomUUID(), purpose, hashOf(token), who, ttlMs / 1000],
    );
    return row ? { token, userId: row.user_id, email: row.email, hasPassword: row.has_password } : null;
  }
}
