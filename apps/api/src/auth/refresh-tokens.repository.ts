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
  /** the session (family) it carries on: named in the access tokens given beside it */
  sessionId: string;
}

/** How a session began, kept with it for the person's list of sessions. */
export interface SignInContext {
  /** the browser's User-Agent header, as sent (cut to 512 characters); null when none was */
  userAgent: string | null;
  /** `password`, `passkey`, … */
  method: string;
}

/** A live session as its owner's list shows it (see AccountSessions). */
export interface LiveSession {
  id: string;
  userAgent: string | null;
  signedInWith: string;
  signedInAt: Date;
  lastUsedAt: Date;
}

/** The User-Agent header as kept: a browser's is rarely past 300 characters; longer says nothing more. */
export const userAgentOf = (header: string | string[] | undefined): string | null => {
  const value = Array.isArray(header) ? header[0] : header;
  return value ? value.slice(0, 512) : null;
};

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
  user_agent: string | null;
  signed_in_at: Date;
  signed_in_with: string | null;
}

interface LiveSessionRow {
  family_id: string;
  user_agent: string | null;
  signed_in_with: string | null;
  signed_in_at: Date | string;
  created_at: Date | string;
}

/** 32 random bytes: guessing one is out of the question, so a fast hash suffices (no salt, no argon2). */
const newToken = (): string => randomBytes(32).toString('base64url');
const hashOf = (token: string): Buffer => createHash('sha256').update(token, 'utf8').digest();
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The `refresh_tokens` table (RefreshTokens1795500000000), in plain parameterised SQL like
 * UsersRepository. A token is rotated on each use inside one transaction that locks its row, so two
 * requests presenting the same token cannot both be answered: the second sees it used.
 */
@Injectable()
export class RefreshTokensRepository {
  constructor(@Inject(SQL_CLIENT) private readonly db: SqlClient) {}

  /** A new session (a new family) for the account at its current token generation. */
  async issue(
    subject: Pick<TokenSubject, 'id' | 'tokenGeneration'>,
    context: SignInContext,
  ): Promise<IssuedRefreshToken> {
    // Rows past their idle period can refuse nothing a missing row would not: they go as the
    // account signs in again, so the table holds each account's live sessions and little else.
    await this.db.query(`DELETE FROM refresh_tokens WHERE user_id = $1 AND expires_at < now()`, [subject.id]);
    return this.insert(this.db, subject.id, randomUUID(), subject.tokenGeneration, {
      ...context,
      signedInAt: new Date(),
    });
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
           u.email_verified_at IS NOT NULL AS email_verified,
           r.user_agent, r.signed_in_at, r.signed_in_with
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
      const next = await this.insert(tx, row.user_id, row.family_id, row.token_generation, {
        userAgent: row.user_agent,
        method: row.signed_in_with ?? 'password',
        signedInAt: row.signed_in_at,
      });
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

  /**
   * Sign-out: the session this token belongs to ends (its family), whatever state the token is in.
   * Answers whose session it was, or null for a token no one was given.
   */
  async revokeFamilyOf(token: string): Promise<{ userId: string; sessionId: string } | null> {
    const [row] = await this.db.query<{ user_id: string; family_id: string }>(
      `SELECT user_id, family_id FROM refresh_tokens WHERE token_hash = $1`,
      [hashOf(token)],
    );
    if (!row) return null;
    await this.db.query(
      `UPDATE refresh_tokens SET revoked_at = now() WHERE revoked_at IS NULL AND family_id = $1`,
      [row.family_id],
    );
    return { userId: row.user_id, sessionId: row.family_id };
  }

  /**
   * The account's live sessions: each family's one unused row that is neither revoked, expired
   * nor of an earlier token generation. Its `created_at` is the family's last sign-in or refresh.
   */
  async live(userId: string): Promise<LiveSession[]> {
    const rows = await this.db.query<LiveSessionRow>(
      `SELECT r.family_id, r.user_agent, r.signed_in_with, r.signed_in_at, r.created_at
       FROM refresh_tokens r JOIN users u ON u.id = r.user_id
       WHERE r.user_id = $1 AND r.used_at IS NULL AND r.revoked_at IS NULL AND r.expires_at > now()
         AND r.token_generation = u.token_generation
       ORDER BY r.created_at DESC, r.family_id`,
      [userId],
    );
    return rows.map((row) => ({
      id: row.family_id,
      userAgent: row.user_agent,
      signedInWith: row.signed_in_with ?? 'password',
      signedInAt: new Date(row.signed_in_at),
      lastUsedAt: new Date(row.created_at),
    }));
  }

  /**
   * Ends the account's session `sessionId` (its family) if it is live; answers what it was, or
   * null when the account has no such live session (someone else's, ended, or never was).
   */
  async revokeSession(userId: string, sessionId: string): Promise<LiveSession | null> {
    if (!UUID.test(sessionId)) return null;
    const live = (await this.live(userId)).find((session) => session.id === sessionId);
    if (!live) return null;
    await this.db.query(
      `UPDATE refresh_tokens SET revoked_at = now() WHERE family_id = $1 AND user_id = $2 AND revoked_at IS NULL`,
      [sessionId, userId],
    );
    return live;
  }

  /**
   * Whether the session has ended by a revocation (sign-out, a revoked device, a reused token):
   * its access tokens are refused then too. A session ended by a new token generation is refused
   * by the generation already, and one merely idle past its period by its tokens' expiry.
   */
  async ended(sessionId: string): Promise<boolean> {
    if (!UUID.test(sessionId)) return true;
    const [row] = await this.db.query<{ ended: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM refresh_tokens WHERE family_id = $1 AND revoked_at IS NOT NULL) AS ended`,
      [sessionId],
    );
    return row?.ended ?? false;
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
    session: SignInContext & { signedInAt: Date },
  ): Promise<IssuedRefreshToken> {
    const token = newToken();
    const expiresAt = new Date(Date.now() + REFRESH_IDLE_MS);
    await db.query(
      `INSERT INTO refresh_tokens (id, user_id, family_id, token_hash, token_generation, expires_at,
         user_agent, signed_in_at, signed_in_with)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [
        randomUUID(),
        userId,
        familyId,
        hashOf(token),
        generation,
        expiresAt,
        session.userAgent,
        session.signedInAt,
        // an identity provider's name (OIDC_NAME) may be long; the list says enough in 40 characters
        session.method.slice(0, 40),
      ],
    );
    return { token, expiresAt, sessionId: familyId };
  }
}
