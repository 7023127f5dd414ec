import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Proving an email, and the one-time links mail carries. `users.email_verified_at` is when the
 * account's current address was proven (a link from a mail sent to it was opened); null for an
 * address never proven, which is every account made before this migration: nothing ever checked
 * them, so none is taken on trust. An unverified address is not an admin whatever ADMIN_EMAILS
 * says, and no identity provider's sign-in is linked to it.
 *
 * `email_tokens` holds the links' tokens (verify an address, reset a password), only as their
 * SHA-256, so a copy of the table lets no one in. Each is single use (`used_at`) and expires; a
 * verification names the address it was sent to, so one sent before an email change proves
 * nothing about the new address. Rows go with their account (ON DELETE CASCADE, done by
 * `purge_account`'s delete of `users`).
 */
export class EmailVerification1795530000000 implements MigrationInterface {
  name = 'EmailVerification1795530000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE users ADD COLUMN email_verified_at timestamptz`);
    // A person may change their address (it is proven again) and prove it.
    await q.query(`GRANT UPDATE (email, email_verified_at) ON users TO sweatpants_app`);
    await q.query(`
      CREATE TABLE email_tokens (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        purpose text NOT NULL CHECK (purpose IN ('verify-email', 'reset-password')),
        email text NOT NULL,
        token_hash bytea NOT NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        expires_at timestamptz NOT NULL,
        used_at timestamptz
      )`);
    await q.query(`CREATE UNIQUE INDEX email_tokens_hash_key ON email_tokens (token_hash)`);
    await q.query(`CREATE INDEX email_tokens_user_idx ON email_tokens (user_id, purpose)`);
    // The api writes them, uses them up and drops old ones; it never rewrites a hash or an address.
    await q.query(`GRANT SELECT, INSERT, DELETE ON email_tokens TO sweatpants_app`);
    await q.query(`GRANT UPDATE (used_at) ON email_tokens TO sweatpants_app`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE email_tokens`);
    await q.query(`REVOKE UPDATE (email, email_verified_at) ON users FROM sweatpants_app`);
    await q.query(`ALTER TABLE users DROP COLUMN email_verified_at`);
  }
}
