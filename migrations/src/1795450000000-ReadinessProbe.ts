import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The api's readiness probe (`GET /api/health/ready`) compares the migrations this build knows
 * with those the database has applied, so the api's role may read TypeORM's `migrations` table:
 * names and times of schema changes, nothing of anyone's data.
 */
export class ReadinessProbe1795450000000 implements MigrationInterface {
  name = 'ReadinessProbe1795450000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`GRANT SELECT ON migrations TO sweatpants_app`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`REVOKE SELECT ON migrations FROM sweatpants_app`);
  }
}
