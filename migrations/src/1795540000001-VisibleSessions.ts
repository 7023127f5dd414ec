import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Sessions a person can see, and an audit of what happened to accounts.
 *
 * A session is a refresh-token family (RefreshTokens1795500000000). Each row now also says which
 * browser signed in (`user_agent`, as it sent it), when the session began (`signed_in_at`) and how
 * (`signed_in_with`: `password`, `passkey`, or a later way such as an identity provider); a
 * rotation copies all three onto the successor, so the family's live row describes the session,
 * and its `created_at` is when the session was last carried on. Rows from before keep their
 * family's first `created_at` as the sign-in.
 *
 * `account_events` is the admins' audit of accounts: sign-ins, passkeys added and removed,
 * sessions revoked. It keeps the email as it was, so a row reads alone. Rows go with their account
 * (ON DELETE CASCADE, done by `purge_account`'s delete of `users`): deleting an account deletes
 * what is known of the person, this included.
 */
export class VisibleSessions1795540000001 implements MigrationInterface {
  name = 'VisibleSessions1795540000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE refresh_tokens
        ADD COLUMN user_agent text CHECK (char_length(user_agent) <= 512),
        ADD COLUMN signed_in_at timestamptz,
        ADD COLUMN signed_in_with text CHECK (char_length(signed_in_with) <= 40)`);
    await q.query(`
      UPDATE refresh_tokens r SET signed_in_at = f.first
      FROM (SELECT family_id, min(created_at) AS first FROM refresh_tokens GROUP BY family_id) f
      WHERE f.family_id = r.family_id`);
    await q.query(`ALTER TABLE refresh_tokens ALTER COLUMN signed_in_at SET DEFAULT clock_timestamp()`);
    await q.query(`ALTER TABLE refresh_tokens ALTER COLUMN signed_in_at SET NOT NULL`);

    await q.query(`
      CREATE TABLE account_events (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        email text NOT NULL,
        kind text NOT NULL CHECK (kind IN ('signed-in', 'passkey-added', 'passkey-removed', 'session-revoked')),
        detail text NOT NULL DEFAULT '' CHECK (char_length(detail) <= 600),
        -- to the millisecond, as a JavaScript Date holds it: a page's cursor then names a row exactly
        at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', clock_timestamp())
      )`);
    await q.query(`CREATE INDEX account_events_at_idx ON account_events (at DESC, id DESC)`);
    await q.query(`CREATE INDEX account_events_user_idx ON account_events (user_id, at DESC)`);
    // An audit is written and read, never rewritten.
    await q.query(`GRANT SELECT, INSERT ON account_events TO sweatpants_app`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE account_events`);
    await q.query(`
      ALTER TABLE refresh_tokens DROP COLUMN user_agent, DROP COLUMN signed_in_at, DROP COLUMN signed_in_with`);
  }
}
