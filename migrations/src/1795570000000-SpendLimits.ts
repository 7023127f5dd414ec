import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Spend limits per person (issue 33).
 *
 * `model_spend`: one row per model call a person's conversation makes, written before the call
 * as a reservation (`reserved_usd`, what the call is reckoned to cost) and settled after it with
 * what the reply's usage costs at the model's published prices (`cost_usd`, the same usage the
 * assistant node records). A call is allowed only while the person's settled spend plus every
 * unsettled reservation is below their budget, checked and reserved in one transaction under an
 * advisory lock on the person, so two api processes cannot both spend the last of a budget. A row
 * never settled (its process died mid-call) keeps counting at its reservation.
 *
 * `spend_limits`: a person's own budget, set by an admin, in place of the deployment's default
 * (SPEND_LIMIT_DAILY_USD, SPEND_LIMIT_MONTHLY_USD); a null column there means no limit.
 *
 * Both go with their account (ON DELETE CASCADE, done by `purge_account`'s delete of `users`).
 */
export class SpendLimits1795570000000 implements MigrationInterface {
  name = 'SpendLimits1795570000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE model_spend (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        conversation_id uuid,
        model text NOT NULL,
        reserved_usd numeric(14, 6) NOT NULL CHECK (reserved_usd >= 0),
        cost_usd numeric(14, 6) CHECK (cost_usd >= 0),
        started_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        settled_at timestamptz
      )`);
    await q.query(`CREATE INDEX model_spend_user_idx ON model_spend (user_id, started_at)`);
    await q.query(`GRANT SELECT, INSERT ON model_spend TO sweatpants_app`);
    await q.query(`GRANT UPDATE (model, cost_usd, settled_at) ON model_spend TO sweatpants_app`);
    await q.query(`
      CREATE TABLE spend_limits (
        user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
        daily_usd numeric(14, 6) CHECK (daily_usd >= 0),
        monthly_usd numeric(14, 6) CHECK (monthly_usd >= 0),
        updated_by uuid,
        updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
    await q.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON spend_limits TO sweatpants_app`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE spend_limits`);
    await q.query(`DROP TABLE model_spend`);
  }
}
