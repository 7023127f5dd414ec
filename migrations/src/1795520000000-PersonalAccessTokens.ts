import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Personal access tokens (PROTOCOL.md): long-lived bearer tokens a person makes for scripts and MCP
 * clients, each with a name of their choosing. As with refresh tokens, only the SHA-256 of the
 * token is kept, so a copy of this table lets no one in; the token is shown once, at creation.
 *
 * Revoking one deletes its row: nothing else refers to it, and a revoked token is only ever asked
 * about by its hash, which then finds nothing. `last_used_at` is written at most once a minute per
 * token per api process, so a busy script does not write per request. Rows go with their account
 * (ON DELETE CASCADE, done by `purge_account`'s delete of `users`).
 */
export class PersonalAccessTokens1795520000000 implements MigrationInterface {
  name = 'PersonalAccessTokens1795520000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE personal_access_tokens (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 100),
        token_hash bytea NOT NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        last_used_at timestamptz
      )`);
    await q.query(
      `CREATE UNIQUE INDEX personal_access_tokens_hash_key ON personal_access_tokens (token_hash)`,
    );
    await q.query(
      `CREATE INDEX personal_access_tokens_user_idx ON personal_access_tokens (user_id, created_at)`,
    );
    // The api creates, lists, revokes and marks them used; it never rewrites a name or a hash.
    await q.query(`GRANT SELECT, INSERT, DELETE ON personal_access_tokens TO sweatpants_app`);
    await q.query(`GRANT UPDATE (last_used_at) ON personal_access_tokens TO sweatpants_app`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE personal_access_tokens`);
  }
}
