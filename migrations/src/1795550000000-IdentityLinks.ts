import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Sign-in with an OpenID Connect provider.
 *
 * `identity_links`: which account a provider's person is. A person is named by the provider's
 * issuer and their subject there (`sub`, stable where an email may change), so the pair is the key;
 * an account may be linked to several. `grants_admin` is whether the provider's admin claim
 * (OIDC_ADMIN_CLAIM holding OIDC_ADMIN_VALUE) held at the person's latest sign-in with it: the role
 * is read from it at each use, as ADMIN_EMAILS is, and the next sign-in refreshes it.
 *
 * `oidc_pending_logins`: a sign-in between the redirect to the provider and its return, so that the
 * return may reach any api process. Keyed by `state`; the PKCE verifier and the nonce stay here,
 * never in the browser; `browser_hash` is the SHA-256 of the random value in the httpOnly cookie of
 * the browser that began it, so a return in another browser (a login CSRF) is refused. The return
 * deletes the row as it reads it, which makes each single-use; expired rows are swept as new ones
 * are written.
 *
 * Links go with their account (ON DELETE CASCADE, done by `purge_account`'s delete of `users`);
 * pending sign-ins belong to no account yet.
 */
export class IdentityLinks1795550000000 implements MigrationInterface {
  name = 'IdentityLinks1795550000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE identity_links (
        issuer text NOT NULL,
        subject text NOT NULL,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        grants_admin boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        last_sign_in_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        PRIMARY KEY (issuer, subject)
      )`);
    await q.query(`CREATE INDEX identity_links_user_idx ON identity_links (user_id)`);
    await q.query(`GRANT SELECT, INSERT ON identity_links TO sweatpants_app`);
    await q.query(`GRANT UPDATE (grants_admin, last_sign_in_at) ON identity_links TO sweatpants_app`);
    await q.query(`
      CREATE TABLE oidc_pending_logins (
        state text PRIMARY KEY,
        browser_hash bytea NOT NULL,
        nonce text NOT NULL,
        code_verifier text NOT NULL,
        return_url text,
        expires_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX oidc_pending_logins_expiry_idx ON oidc_pending_logins (expires_at)`);
    await q.query(`GRANT SELECT, INSERT, DELETE ON oidc_pending_logins TO sweatpants_app`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE oidc_pending_logins`);
    await q.query(`DROP TABLE identity_links`);
  }
}
