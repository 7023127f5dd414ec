import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Passkeys (WebAuthn): a person signs in with a key their device keeps, with no password.
 *
 * `passkeys` holds each credential's public key (COSE, as the authenticator gave it), its id as
 * the browser names it (base64url, unique: one authenticator's key belongs to one account), the
 * signature counter the next assertion must pass, and what the person called it. Rows go with
 * their account (ON DELETE CASCADE, done by `purge_account`'s delete of `users`).
 *
 * `webauthn_challenges` holds the challenges handed out and not yet answered, so that any api
 * process may check the answer and each is good for one answer only: taking one deletes its row,
 * and a row past `expires_at` is never taken (they are swept as new ones are made). A sign-in's
 * challenge names no account (the passkey says whose it is); a registration's names the account
 * that asked, so no one else's answer can add a key to it.
 *
 * An account may now have no password: one that signs in with passkeys only, or (from the OpenID
 * Connect work) through its identity provider. Password sign-in then fails as for a wrong password.
 */
export class Passkeys1795540000000 implements MigrationInterface {
  name = 'Passkeys1795540000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE passkeys (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        credential_id text NOT NULL,
        public_key bytea NOT NULL,
        counter bigint NOT NULL DEFAULT 0,
        transports text[] NOT NULL DEFAULT '{}',
        name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 100),
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        last_used_at timestamptz
      )`);
    await q.query(`CREATE UNIQUE INDEX passkeys_credential_key ON passkeys (credential_id)`);
    await q.query(`CREATE INDEX passkeys_user_idx ON passkeys (user_id, created_at)`);
    // The api adds, lists, removes and uses them; a key and its id are never rewritten.
    await q.query(`GRANT SELECT, INSERT, DELETE ON passkeys TO sweatpants_app`);
    await q.query(`GRANT UPDATE (counter, last_used_at) ON passkeys TO sweatpants_app`);

    await q.query(`
      CREATE TABLE webauthn_challenges (
        challenge text PRIMARY KEY,
        purpose text NOT NULL CHECK (purpose IN ('register', 'sign-in')),
        user_id uuid REFERENCES users (id) ON DELETE CASCADE,
        expires_at timestamptz NOT NULL,
        CHECK ((purpose = 'register') = (user_id IS NOT NULL))
      )`);
    await q.query(`CREATE INDEX webauthn_challenges_expiry_idx ON webauthn_challenges (expires_at)`);
    await q.query(`GRANT SELECT, INSERT, DELETE ON webauthn_challenges TO sweatpants_app`);

    await q.query(`ALTER TABLE users ALTER COLUMN password_hash DROP NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    // An account without a password cannot be kept by the older schema: it gets one no one knows.
    await q.query(`UPDATE users SET password_hash = '!' WHERE password_hash IS NULL`);
    await q.query(`ALTER TABLE users ALTER COLUMN password_hash SET NOT NULL`);
    await q.query(`DROP TABLE webauthn_challenges`);
    await q.query(`DROP TABLE passkeys`);
  }
}
