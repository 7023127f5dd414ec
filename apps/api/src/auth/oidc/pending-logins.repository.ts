import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { SqlClient } from '@sweatpants/tree-store';
import { SQL_CLIENT } from '../../database/database.module';

/** How long a person may take at the provider before the sign-in they began is forgotten. */
export const PENDING_LOGIN_TTL_MS = 10 * 60_000;

/** A sign-in on its way through the provider: what its return is checked against. */
export interface PendingLogin {
  state: string;
  nonce: string;
  codeVerifier: string;
  /** a path of the web client to land on afterwards */
  returnUrl: string | null;
}

interface PendingRow {
  nonce: string;
  code_verifier: string;
  return_url: string | null;
  browser_hash: Buffer;
  expired: boolean;
}

const hashOf = (secret: string): Buffer => createHash('sha256').update(secret, 'utf8').digest();

/**
 * The `oidc_pending_logins` table (IdentityLinks1795550000000): pending sign-ins in Postgres, so the
 * provider may return the person to any api process, and each is taken once.
 */
@Injectable()
export class PendingLoginsRepository {
  constructor(@Inject(SQL_CLIENT) private readonly db: SqlClient) {}

  /** Keeps `login` for the browser holding `browserSecret` (its cookie); sweeps expired ones. */
  async put(login: PendingLogin, browserSecret: string): Promise<void> {
    await this.db.query(`DELETE FROM oidc_pending_logins WHERE expires_at < now()`);
    await this.db.query(
      `INSERT INTO oidc_pending_logins (state, browser_hash, nonce, code_verifier, return_url, expires_at)
       VALUES ($1, $2, $3, $4, $5, now() + make_interval(secs => $6))`,
      [
        login.state,
        hashOf(browserSecret),
        login.nonce,
        login.codeVerifier,
        login.returnUrl,
        PENDING_LOGIN_TTL_MS / 1000,
      ],
    );
  }

  /**
   * The pending sign-in `state` names, removed as it is read, so a second return with it finds
   * nothing; null as well when it expired or another browser began it.
   */
  async take(state: string, browserSecret: string | null): Promise<PendingLogin | null> {
    const [row] = await this.db.query<PendingRow>(
      `DELETE FROM oidc_pending_logins WHERE state = $1
       RETURNING nonce, code_verifier, return_url, browser_hash, expires_at < now() AS expired`,
      [state],
    );
    if (!row || row.expired || browserSecret === null) return null;
    if (!hashOf(browserSecret).equals(Buffer.from(row.browser_hash))) return null;
    return { state, nonce: row.nonce, codeVerifier: row.code_verifier, returnUrl: row.return_url };
  }
}
