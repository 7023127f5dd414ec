import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type {
  AccountEvent,
  AccountEventKind,
  AccountEventPage,
  AccountEventsQuery,
} from '@sweatpants/domain';
import type { SqlClient } from '@sweatpants/tree-store';
import { SQL_CLIENT } from '../database/database.module';

interface EventRow {
  id: string;
  user_id: string;
  email: string;
  kind: AccountEventKind;
  detail: string;
  at: Date | string;
}

/** A page's cursor: the last row's time and id, so rows of the same instant are neither lost nor repeated. */
const cursorOf = (row: EventRow): string => `${new Date(row.at).toISOString()}_${row.id}`;
const CURSOR = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z)_([0-9a-f-]{36})$/i;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The admins' audit of accounts (`account_events`, VisibleSessions1795540000001): sign-ins,
 * passkeys added and removed, sessions revoked. Writing one never fails what it records: the
 * sign-in or removal has happened, and a lost audit row is logged instead.
 */
@Injectable()
export class AccountEvents {
  private readonly logger = new Logger('Auth');

  constructor(@Inject(SQL_CLIENT) private readonly db: SqlClient) {}

  async record(account: { id: string; email: string }, kind: AccountEventKind, detail = ''): Promise<void> {
    await this.db
      .query(`INSERT INTO account_events (id, user_id, email, kind, detail) VALUES ($1, $2, $3, $4, $5)`, [
        randomUUID(),
        account.id,
        account.email,
        kind,
        detail.slice(0, 600),
      ])
      .catch((error: unknown) => {
        this.logger.warn(`recording ${kind} of account ${account.id}: ${String(error)}`);
      });
  }

  /** Newest first; `before` a previous page's `next`. A malformed cursor or user id finds nothing. */
  async page(query: AccountEventsQuery): Promise<AccountEventPage> {
    const cursor = query.before === undefined ? null : CURSOR.exec(query.before);
    if ((query.before !== undefined && !cursor) || (query.userId !== undefined && !UUID.test(query.userId))) {
      return { items: [], next: null };
    }
    const rows = await this.db.query<EventRow>(
      `SELECT id, user_id, email, kind, detail, at FROM account_events
       WHERE ($1::uuid IS NULL OR user_id = $1)
         AND ($2::timestamptz IS NULL OR (at, id) < ($2::timestamptz, $3::uuid))
       ORDER BY at DESC, id DESC
       LIMIT $4`,
      [query.userId ?? null, cursor?.[1] ?? null, cursor?.[2] ?? null, query.limit + 1],
    );
    const items = rows.slice(0, query.limit);
    const last = items.at(-1);
    return {
      items: items.map(toEvent),
      next: rows.length > query.limit && last ? cursorOf(last) : null,
    };
  }
}

const toEvent = (row: EventRow): AccountEvent => ({
  id: row.id,
  userId: row.user_id,
  email: row.email,
  kind: row.kind,
  detail: row.detail,
  at: new Date(row.at).toISOString(),
});
