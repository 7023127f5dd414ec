import { Inject, Injectable } from '@nestjs/common';
import type { SqlClient } from '@sweatpants/tree-store';
import { SQL_CLIENT } from '../../database/database.module';

/** A provider's person, by the issuer and the subject it names them with. */
export interface Identity {
  issuer: string;
  subject: string;
}

/** The `identity_links` table (IdentityLinks1795550000000): which account a provider's person is. */
@Injectable()
export class IdentityLinksRepository {
  constructor(@Inject(SQL_CLIENT) private readonly db: SqlClient) {}

  /**
   * The account the person is linked to, noting this sign-in and whether the provider's admin claim
   * held in it; null when they were never linked.
   */
  async signedIn(identity: Identity, grantsAdmin: boolean): Promise<string | null> {
    const [row] = await this.db.query<{ user_id: string }>(
      `UPDATE identity_links SET grants_admin = $3, last_sign_in_at = clock_timestamp()
       WHERE issuer = $1 AND subject = $2 RETURNING user_id`,
      [identity.issuer, identity.subject, grantsAdmin],
    );
    return row?.user_id ?? null;
  }

  /**
   * Links the person to `userId`. When a sign-in of theirs in another tab linked them meanwhile,
   * that link stands and its account is answered: a person is one account.
   */
  async link(identity: Identity, userId: string, grantsAdmin: boolean): Promise<string> {
    const [inserted] = await this.db.query<{ user_id: string }>(
      `INSERT INTO identity_links (issuer, subject, user_id, grants_admin) VALUES ($1, $2, $3, $4)
       ON CONFLICT (issuer, subject) DO NOTHING RETURNING user_id`,
      [identity.issuer, identity.subject, userId, grantsAdmin],
    );
    if (inserted) return inserted.user_id;
    const linked = await this.signedIn(identity, grantsAdmin);
    if (linked === null) throw new Error('identity link neither inserted nor found');
    return linked;
  }
}
