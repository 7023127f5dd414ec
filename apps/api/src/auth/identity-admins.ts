import { Inject, Injectable } from '@nestjs/common';
import type { SqlClient } from '@sweatpants/tree-store';
import { SQL_CLIENT } from '../database/database.module';
import { GENERATION_CACHE_MS } from './token-generations';

/**
 * Which accounts an identity provider made admins: its admin claim held at the person's latest
 * sign-in with it (`identity_links.grants_admin`, written by auth/oidc). Read at each use of a
 * token, as ADMIN_EMAILS is, and kept for as long as a token generation is, so checking a token
 * costs a query per account every few seconds; the process that signs the person in knows at once,
 * the others within that period.
 */
@Injectable()
export class IdentityAdmins {
  private readonly known = new Map<string, { admin: boolean; until: number }>();

  constructor(@Inject(SQL_CLIENT) private readonly db: SqlClient) {}

  async has(userId: string): Promise<boolean> {
    const now = Date.now();
    const cached = this.known.get(userId);
    if (cached && cached.until > now) return cached.admin;
    const [row] = await this.db.query<{ admin: boolean }>(
      `SELECT coalesce(bool_or(grants_admin), false) AS admin FROM identity_links WHERE user_id = $1`,
      [userId],
    );
    const admin = row?.admin === true;
    if (this.known.size > 10_000) {
      for (const [id, entry] of this.known) if (entry.until <= now) this.known.delete(id);
    }
    this.known.set(userId, { admin, until: now + GENERATION_CACHE_MS });
    return admin;
  }

  /** A sign-in with the provider just said it: this process need not ask the database. */
  learned(userId: string, admin: boolean): void {
    this.known.set(userId, { admin, until: Date.now() + GENERATION_CACHE_MS });
  }
}
