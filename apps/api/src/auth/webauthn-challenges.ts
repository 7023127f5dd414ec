import { Inject, Injectable } from '@nestjs/common';
import type { SqlClient } from '@sweatpants/tree-store';
import { SQL_CLIENT } from '../database/database.module';

/** How long a passkey ceremony's challenge may wait for its answer (the browser's own timeout too). */
export const CHALLENGE_TTL_MS = 5 * 60_000;

/** What a challenge was handed out for: adding a passkey to an account, or signing in with one. */
export type ChallengePurpose = 'register' | 'sign-in';

/**
 * The `webauthn_challenges` table (Passkeys1795540000000): every challenge a ceremony hands out is
 * kept in PostgreSQL, so its answer may come to any api process, and taking it deletes it, so it
 * answers once. A registration's challenge names the account that asked for it.
 */
@Injectable()
export class WebAuthnChallenges {
  constructor(@Inject(SQL_CLIENT) private readonly db: SqlClient) {}

  /** Keeps `challenge` (made by the WebAuthn library) for CHALLENGE_TTL_MS; expired ones go meanwhile. */
  async issue(challenge: string, purpose: ChallengePurpose, userId: string | null): Promise<void> {
    await this.db.query(`DELETE FROM webauthn_challenges WHERE expires_at < now()`);
    await this.db.query(
      `INSERT INTO webauthn_challenges (challenge, purpose, user_id, expires_at) VALUES ($1, $2, $3, $4)`,
      [challenge, purpose, userId, new Date(Date.now() + CHALLENGE_TTL_MS)],
    );
  }

  /**
   * Takes `challenge` for `purpose` (and, for a registration, `userId`'s): true once, for a live
   * challenge handed out so; false for one unknown, used, expired, or handed out for anything else.
   * A challenge presented for the wrong purpose or account is used up all the same.
   */
  async take(challenge: string, purpose: ChallengePurpose, userId: string | null): Promise<boolean> {
    const [row] = await this.db.query<{ purpose: string; user_id: string | null; live: boolean }>(
      `DELETE FROM webauthn_challenges WHERE challenge = $1
       RETURNING purpose, user_id, expires_at > now() AS live`,
      [challenge],
    );
    return row !== undefined && row.live && row.purpose === purpose && row.user_id === userId;
  }
}
