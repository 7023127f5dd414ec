import { Inject, Injectable } from '@nestjs/common';
import type { SqlExecutor } from '@sweatpants/tree-store';
import { APP_CONFIG, type AppConfig } from '../config/app-config';

/**
 * How many ways an account has to sign in: its password (when it has one, and while this
 * deployment takes passwords: not with PASSWORD_SIGNIN=off), each of its passkeys and each
 * identity provider it is linked to. Whatever takes a way away (removing a passkey, unlinking a
 * provider) asks this first, inside its own transaction, and refuses to leave none. A new way of
 * signing in adds its count below.
 */
@Injectable()
export class SignInWays {
  private readonly ways: string;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    const password = config.passwordSignIn ? '(u.password_hash IS NOT NULL)::int' : '0';
    this.ways = `${password}
      + (SELECT count(*) FROM passkeys p WHERE p.user_id = u.id)::int
      + (SELECT count(*) FROM identity_links l WHERE l.user_id = u.id)::int`;
  }

  /**
   * The account's ways to sign in, read in `tx`; with `lock`, the account's row stays locked until
   * `tx` ends, so a concurrent removal waits and then counts what this one left. 0 for no account.
   */
  async count(tx: SqlExecutor, userId: string, options: { lock: boolean }): Promise<number> {
    const [row] = await tx.query<{ ways: number }>(
      `SELECT ${this.ways} AS ways FROM users u WHERE u.id = $1${options.lock ? ' FOR UPDATE OF u' : ''}`,
      [userId],
    );
    return row ? Number(row.ways) : 0;
  }
}
