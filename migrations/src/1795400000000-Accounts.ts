import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Accounts: who may sign in. An email is unique whatever its case (`Ada@x` and `ada@x` are one
 * account), and is kept as typed. There is no role column: admins are named by ADMIN_EMAILS, so
 * granting or revoking admin is a deploy, not a write. Conversations already hold their owner's id.
 */
export class Accounts1795400000000 implements MigrationInterface {
  name = 'Accounts1795400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE users (
        id uuid PRIMARY KEY,
        email text NOT NULL,
        display_name text NOT NULL,
        password_hash text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
    await q.query(`CREATE UNIQUE INDEX users_email_key ON users (lower(email))`);
    // The api registers accounts and reads them; nothing it does rewrites or removes one.
    await q.query(`GRANT SELECT, INSERT ON users TO sweatpants_app`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE users`);
  }
}
