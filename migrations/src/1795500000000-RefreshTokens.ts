import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Sessions that last while they are used. A sign-in is given, beside its short-lived access token,
 * a refresh token (an httpOnly cookie in a browser): only its SHA-256 is kept here, so a copy of
 * this table signs no one in. Each use rotates it: the row is marked used and a new row of the same
 * family (one sign-in's chain) is written, expiring an idle period later. A used row presented again
 * means the token was copied; the api then revokes the whole family, whichever copy is the thief's.
 *
 * `token_generation` is the account's generation when the row was written (TokenGenerations1795452000000):
 * sign-out everywhere and a new password move it on, so every earlier refresh token is refused by
 * the same comparison as every earlier access token, on every api process, with nothing to announce.
 * Rows go with their account (ON DELETE CASCADE, done by `purge_account`'s delete of `users`).
 */
export class RefreshTokens1795500000000 implements MigrationInterface {
  name = 'RefreshTokens1795500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE refresh_tokens (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        family_id uuid NOT NULL,
        token_hash bytea NOT NULL,
        token_generation integer NOT NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        revoked_at timestamptz
      )`);
    await q.query(`CREATE UNIQUE INDEX refresh_tokens_hash_key ON refresh_tokens (token_hash)`);
    await q.query(`CREATE INDEX refresh_tokens_family_idx ON refresh_tokens (family_id)`);
    await q.query(`CREATE INDEX refresh_tokens_user_idx ON refresh_tokens (user_id, expires_at)`);
    // The api writes, rotates and revokes them, and drops expired ones; it never rewrites a hash.
    await q.query(`GRANT SELECT, INSERT, DELETE ON refresh_tokens TO sweatpants_app`);
    await q.query(`GRANT UPDATE (used_at, revoked_at) ON refresh_tokens TO sweatpants_app`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE refresh_tokens`);
  }
}
