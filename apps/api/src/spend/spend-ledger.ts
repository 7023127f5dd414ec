import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { PersonSpend, SpendLimit } from '@sweatpants/domain';
import type { SqlClient, SqlExecutor } from '@sweatpants/tree-store';
import { SQL_CLIENT } from '../database/database.module';
import { spendPeriods } from './spend-periods';

/** A person's spend so far in each period, and the budget they are held to. */
export interface SpendStanding {
  todayUsd: number;
  monthUsd: number;
  limit: SpendLimit;
  limitSource: PersonSpend['limitSource'];
}

/** What asking to start a model call answers: go ahead (settle the reservation after), or not. */
export type Reservation =
  | { kind: 'allowed'; id: string | null }
  | { kind: 'refused'; period: 'daily' | 'monthly'; standing: SpendStanding };

/** A call about to start: whose budget it spends, and on what. */
export interface CallToReserve {
  userId: string;
  conversationId: string;
  model: string;
  /** the offline model: nothing is reserved or recorded, only the budget checked */
  free: boolean;
}

interface StandingRow {
  today: number;
  month: number;
  dearest: number;
  own: boolean;
  daily: number | null;
  monthly: number | null;
}

interface PersonRow extends StandingRow {
  id: string;
  email: string;
  display_name: string;
}

/**
 * A person's spend in this period: settled calls at what they cost, calls under way at what they
 * were reckoned to cost. `$1` the person (or every person, joined by the caller), `$2` the day's
 * start, `$3` the month's.
 */
const SPENT = `
  coalesce(sum(coalesce(s.cost_usd, s.reserved_usd)) FILTER (WHERE s.started_at >= $2), 0)::float8 AS today,
  coalesce(sum(coalesce(s.cost_usd, s.reserved_usd)), 0)::float8 AS month,
  coalesce(max(s.cost_usd), 0)::float8 AS dearest,
  l.user_id IS NOT NULL AS own,
  l.daily_usd::float8 AS daily,
  l.monthly_usd::float8 AS monthly`;

/**
 * The `model_spend` and `spend_limits` tables (see their migration): reservations made and
 * settled around each model call, each person's own budget, and what admins read.
 *
 * Reserving is check-and-insert in one transaction under an advisory lock on the person, so two
 * api processes asking for the same person at once are served one after the other, and the second
 * sees the first's reservation: a budget is overspent by at most what one call costs beyond what
 * it was reckoned at. A call under way is reckoned at the dearest call the person made this month.
 */
@Injectable()
export class SpendLedger {
  /** A free call's verdict per person, for FREE_CHECK_MS (see `reserve`). */
  private readonly freeChecks = new Map<string, FreeCheck>();
  /**
   * Counts budget changes and paid reservations made here: a free call's read that one overlapped
   * may have seen the spend or budget before it, so its verdict is used once and not kept.
   */
  private changes = 0;

  constructor(@Inject(SQL_CLIENT) private readonly db: SqlClient) {}

  /**
   * Reserves a call of `call.userId`'s at `now`, or says which budget it would go over. A free call
   * (the offline model) reserves nothing, so it only reads: no lock, no write, one statement; and
   * its verdict stands for FREE_CHECK_MS, so a conversation's turns do not each read the person's
   * month. A free call spends nothing, so one let through in that while costs nothing; a budget
   * changed here, or a paid call reserved here, drops the verdict at once, and one changed on
   * another api process is heard within FREE_CHECK_MS.
   */
  async reserve(call: CallToReserve, defaults: SpendLimit, now = new Date()): Promise<Reservation> {
    const { dayStart, monthStart } = spendPeriods(now);
    const standingNow = async (db: SqlExecutor): Promise<StandingRow> => {
      const [row] = await db.query<StandingRow>(
        `SELECT ${SPENT}
           FROM (SELECT $1::uuid AS user_id) p
           LEFT JOIN model_spend s ON s.user_id = p.user_id AND s.started_at >= $3
           LEFT JOIN spend_limits l ON l.user_id = p.user_id
          GROUP BY l.user_id, l.daily_usd, l.monthly_usd`,
        [call.userId, dayStart, monthStart],
      );
      if (!row) throw new Error('the spend query answered no row');
      return row;
    };
    if (call.free) {
      const known = this.freeChecks.get(call.userId);
      if (known && known.until > now.getTime() && known.dayStart === dayStart.getTime()) return known.answer;
      const changesBefore = this.changes;
      const standing = standingOf(await standingNow(this.db), defaults);
      const period = overWhich(standing);
      const answer: Reservation = period
        ? { kind: 'refused', period, standing }
        : { kind: 'allowed', id: null };
      if (this.changes === changesBefore) {
        this.remember(call.userId, {
          until: now.getTime() + FREE_CHECK_MS,
          dayStart: dayStart.getTime(),
          answer,
        });
      }
      return answer;
    }
    this.changed(call.userId);
    return this.db.transaction(async (tx) => {
      await tx.query(`SELECT pg_advisory_xact_lock(hashtextextended('spend:' || $1, 0))`, [call.userId]);
      const row = await standingNow(tx);
      const standing = standingOf(row, defaults);
      const period = overWhich(standing);
      if (period) return { kind: 'refused', period, standing };
      const id = randomUUID();
      await tx.query(
        `INSERT INTO model_spend (id, user_id, conversation_id, model, reserved_usd) VALUES ($1, $2, $3, $4, $5)`,
        [id, call.userId, call.conversationId, call.model, row.dearest],
      );
      return { kind: 'allowed', id };
    });
  }

  /** The call ended: what it cost (0 when it failed: nothing was answered), on the model that answered. */
  async settle(id: string, model: string, costUsd: number): Promise<void> {
    await this.db.query(
      `UPDATE model_spend SET model = $2, cost_usd = $3, settled_at = clock_timestamp() WHERE id = $1`,
      [id, model, costUsd],
    );
  }

  /** Everyone's spend today and this month, most spent this month first. */
  async people(defaults: SpendLimit, limit: number, now = new Date()): Promise<PersonSpend[]> {
    return this.read(null, defaults, limit, now);
  }

  /** One person's spend, or null when there is no such account. */
  async person(userId: string, defaults: SpendLimit, now = new Date()): Promise<PersonSpend | null> {
    return (await this.read(userId, defaults, 1, now))[0] ?? null;
  }

  /** `userId`'s row, or (null) everyone's. */
  private async read(
    userId: string | null,
    defaults: SpendLimit,
    limit: number,
    now: Date,
  ): Promise<PersonSpend[]> {
    const { dayStart, monthStart } = spendPeriods(now);
    const rows = await this.db.query<PersonRow>(
      `SELECT u.id, u.email, u.display_name, ${SPENT}
         FROM users u
         LEFT JOIN model_spend s ON s.user_id = u.id AND s.started_at >= $3
         LEFT JOIN spend_limits l ON l.user_id = u.id
        WHERE $1::uuid IS NULL OR u.id = $1::uuid
        GROUP BY u.id, l.user_id, l.daily_usd, l.monthly_usd
        ORDER BY month DESC, lower(u.email)
        LIMIT $4`,
      [userId, dayStart, monthStart, limit],
    );
    return rows.map((row) => personOf(row, defaults));
  }

  /** The person's own budget, in place of the default; false when there is no such account. */
  async setLimit(userId: string, limit: SpendLimit, by: string): Promise<boolean> {
    this.changed(userId);
    const rows = await this.db.query<{ user_id: string }>(
      `INSERT INTO spend_limits (user_id, daily_usd, monthly_usd, updated_by)
       SELECT id, $2, $3, $4 FROM users WHERE id = $1
       ON CONFLICT (user_id) DO UPDATE
         SET daily_usd = EXCLUDED.daily_usd, monthly_usd = EXCLUDED.monthly_usd,
             updated_by = EXCLUDED.updated_by, updated_at = clock_timestamp()
       RETURNING user_id`,
      [userId, limit.dailyUsd, limit.monthlyUsd, by],
    );
    this.changed(userId);
    return rows.length > 0;
  }

  /** Back to the deployment's default budget. */
  async clearLimit(userId: string): Promise<void> {
    this.changed(userId);
    await this.db.query(`DELETE FROM spend_limits WHERE user_id = $1`, [userId]);
    this.changed(userId);
  }

  /** The person's budget or spend changes here: their free-call verdict goes, and none read meanwhile is kept. */
  private changed(userId: string): void {
    this.changes += 1;
    this.freeChecks.delete(userId);
  }

  private remember(userId: string, check: FreeCheck): void {
    // Verdicts go stale on their own; sweep the stale ones now and then so the map stays small.
    if (this.freeChecks.size >= FREE_CHECKS_SWEPT_AT) {
      for (const [id, known] of this.freeChecks) if (known.until <= Date.now()) this.freeChecks.delete(id);
    }
    this.freeChecks.set(userId, check);
  }
}

/** How long a free call's budget verdict stands for the same person. */
export const FREE_CHECK_MS = 2_000;
const FREE_CHECKS_SWEPT_AT = 1_000;

/** A free call's verdict, until when it stands, and the day it was read in (a new day reads again). */
interface FreeCheck {
  until: number;
  dayStart: number;
  answer: Reservation;
}

function standingOf(row: StandingRow, defaults: SpendLimit): SpendStanding {
  return {
    todayUsd: row.today,
    monthUsd: row.month,
    limit: row.own ? { dailyUsd: row.daily, monthlyUsd: row.monthly } : defaults,
    limitSource: row.own ? 'person' : 'default',
  };
}

function personOf(row: PersonRow, defaults: SpendLimit): PersonSpend {
  return { userId: row.id, email: row.email, displayName: row.display_name, ...standingOf(row, defaults) };
}

/**
 * The period whose budget is spent (the month's first: it resets later), or null. A call starts
 * only while spend is below the budget, so a budget of 0 allows none.
 */
export function overWhich(standing: SpendStanding): 'daily' | 'monthly' | null {
  const { monthlyUsd, dailyUsd } = standing.limit;
  if (monthlyUsd !== null && standing.monthUsd >= monthlyUsd) return 'monthly';
  if (dailyUsd !== null && standing.todayUsd >= dailyUsd) return 'daily';
  return null;
}
