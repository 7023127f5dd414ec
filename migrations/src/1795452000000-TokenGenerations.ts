import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Tokens that can be taken back. Each token carries its account's generation when it was signed;
 * a password change or "sign out everywhere" moves the generation on, and a token of an earlier
 * one is refused from then. A counter rather than a time: a token's `iat` has one-second
 * resolution, so a time could not tell a token signed just before a change from one just after.
 * The api may now change an account's password and generation, and nothing else of it.
 */
export class TokenGenerations1795452000000 implements MigrationInterface {
  name = 'TokenGenerations1795452000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE users ADD COLUMN token_generation integer NOT NULL DEFAULT 0`);
    await q.query(`GRANT UPDATE (password_hash, token_generation) ON users TO sweatpants_app`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`REVOKE UPDATE (password_hash, token_generation) ON users FROM sweatpants_app`);
    await q.query(`ALTER TABLE users DROP COLUMN token_generation`);
  }
}
