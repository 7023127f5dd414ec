import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { ACCESS_TOKEN_PREFIX, type AccessToken, type CreatedAccessToken } from '@sweatpants/domain';
import type { SqlClient } from '@sweatpants/tree-store';
import { SQL_CLIENT } from '../database/database.module';

/** A live token found by its hash, with its owner as a token's subject needs them. */
export interface PresentedAccessToken {
  tokenId: string;
  name: string;
  userId: string;
  email: string;
  displayName: string;
  emailVerified: boolean;
}

interface TokenRow {
  id: string;
  name: string;
  created_at: Date | string;
  last_used_at: Date | string | null;
}

interface PresentedRow {
  id: string;
  name: string;
  user_id: string;
  email: string;
  display_name: string;
  email_verified: boolean;
}

const iso = (value: Date | string): string => new Date(value).toISOString();

const toAccessToken = (row: TokenRow): AccessToken => ({
  id: row.id,
  name: row.name,
  createdAt: iso(row.created_at),
  lastUsedAt: row.last_used_at === null ? null : iso(row.last_used_at),
});

/** 32 random bytes after the prefix: guessing one is out of the question, so SHA-256 suffices (no salt, no argon2). */
const newToken = (): string => `${ACCESS_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
const hashOf = (token: string): Buffer => createHash('sha256').update(token, 'utf8').digest();

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The `personal_access_tokens` table (PersonalAccessTokens1795520000000), in plain parameterised SQL. */
@Injectable()
export class PersonalAccessTokensRepository {
  constructor(@Inject(SQL_CLIENT) private readonly db: SqlClient) {}

  /** A new token of the account's; the answer is the only place the token itself ever appears. */
  async create(userId: string, name: string): Promise<CreatedAccessToken> {
    const token = newToken();
    const [row] = await this.db.query<TokenRow>(
      `INSERT INTO personal_access_tokens (id, user_id, name, token_hash) VALUES ($1, $2, $3, $4)
       RETURNING id, name, created_at, last_used_at`,
      [randomUUID(), userId, name, hashOf(token)],
    );
    if (!row) throw new Error('INSERT ... RETURNING returned nothing');
    return { id: row.id, name: row.name, token, createdAt: iso(row.created_at) };
  }

  /** The account's tokens, newest first. */
  async list(userId: string): Promise<AccessToken[]> {
    const rows = await this.db.query<TokenRow>(
      `SELECT id, name, created_at, last_used_at FROM personal_access_tokens
       WHERE user_id = $1 ORDER BY created_at DESC, id`,
      [userId],
    );
    return rows.map(toAccessToken);
  }

  /** Deletes the account's token `id`; false when it has none of that id (someone else's, or gone). */
  async revoke(userId: string, id: string): Promise<boolean> {
    if (!UUID.test(id)) return false;
    const rows = await this.db.query<{ id: string }>(
      `DELETE FROM personal_access_tokens WHERE id = $1 AND user_id = $2 RETURNING id`,
      [id, userId],
    );
    return rows.length > 0;
  }

  /** The live token `token` is, with its owner; null when no such token exists (any more). */
  async presented(token: string): Promise<PresentedAccessToken | null> {
    const [row] = await this.db.query<PresentedRow>(
      `SELECT t.id, t.name, t.user_id, u.email, u.display_name,
         u.email_verified_at IS NOT NULL AS email_verified
       FROM personal_access_tokens t JOIN users u ON u.id = t.user_id
       WHERE t.token_hash = $1`,
      [hashOf(token)],
    );
    return row
      ? {
          tokenId: row.id,
          name: row.name,
          userId: row.user_id,
          email: row.email,
          displayName: row.display_name,
          emailVerified: row.email_verified,
        }
      : null;
  }

  /** Notes a use of the token now (the caller decides how often that is worth a write). */
  async used(tokenId: string): Promise<void> {
    await this.db.query(`UPDATE personal_access_tokens SET last_used_at = now() WHERE id = $1`, [tokenId]);
  }
}
