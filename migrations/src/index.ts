import 'reflect-metadata';
import type { PGlite } from '@electric-sql/pglite';
import { DataSource } from 'typeorm';
import { ConversationTree1795309984546 } from './1795309984546-ConversationTree';
import { Accounts1795400000000 } from './1795400000000-Accounts';
import { ConciergeActivities1795420000000 } from './1795420000000-ConciergeActivities';
import { RegenerateAndActivityIndex1795440000000 } from './1795440000000-RegenerateAndActivityIndex';
import { ReadinessProbe1795450000000 } from './1795450000000-ReadinessProbe';
import { GcRuns1795451000000 } from './1795451000000-GcRuns';
import { TokenGenerations1795452000000 } from './1795452000000-TokenGenerations';
import { AccountDeletion1795453000000 } from './1795453000000-AccountDeletion';
import { Blobs1795460000000 } from './1795460000000-Blobs';
import { InlinePhotosToBlobs1795460000001 } from './1795460000001-InlinePhotosToBlobs';
import { AccountDeletionFences1795480000000 } from './1795480000000-AccountDeletionFences';
import { PathFromSummary1795490000000 } from './1795490000000-PathFromSummary';
import { RefreshTokens1795500000000 } from './1795500000000-RefreshTokens';
import { QueuedMessages1795510000000 } from './1795510000000-QueuedMessages';
import { PersonalAccessTokens1795520000000 } from './1795520000000-PersonalAccessTokens';
import { EmailVerification1795530000000 } from './1795530000000-EmailVerification';
import { Passkeys1795540000000 } from './1795540000000-Passkeys';
import { VisibleSessions1795540000001 } from './1795540000001-VisibleSessions';
import { IdentityLinks1795550000000 } from './1795550000000-IdentityLinks';
import { SpendLimits1795570000000 } from './1795570000000-SpendLimits';
import { AppendRuns1795580000000 } from './1795580000000-AppendRuns';
import { ActivityChanges1795590000000 } from './1795590000000-ActivityChanges';
import { pgliteAsPgDriver } from './pglite-driver';

/** Every migration, oldest first. The api runs them at start; tests run them per database. */
export const migrations = [
  ConversationTree1795309984546,
  Accounts1795400000000,
  ConciergeActivities1795420000000,
  RegenerateAndActivityIndex1795440000000,
  ReadinessProbe1795450000000,
  GcRuns1795451000000,
  TokenGenerations1795452000000,
  AccountDeletion1795453000000,
  Blobs1795460000000,
  InlinePhotosToBlobs1795460000001,
  AccountDeletionFences1795480000000,
  PathFromSummary1795490000000,
  RefreshTokens1795500000000,
  QueuedMessages1795510000000,
  PersonalAccessTokens1795520000000,
  EmailVerification1795530000000,
  Passkeys1795540000000,
  VisibleSessions1795540000001,
  IdentityLinks1795550000000,
  SpendLimits1795570000000,
  AppendRuns1795580000000,
  ActivityChanges1795590000000,
];

/** The names TypeORM records in the `migrations` table, one per migration above. */
export const migrationNames: readonly string[] = migrations.map((m) => m.name);

export type MigrationTarget = { url: string } | { pglite: PGlite };

function dataSourceFor(target: MigrationTarget): DataSource {
  const common = { type: 'postgres' as const, migrations, migrationsTableName: 'migrations', logging: false };
  return 'url' in target
    ? new DataSource({ ...common, url: target.url, extra: { max: 2 } })
    : new DataSource({ ...common, driver: pgliteAsPgDriver(target.pglite) });
}

/** Any constant works; this one is "sweatpants migrations" as far as anyone reading pg_locks cares. */
const MIGRATION_LOCK = 7_250_451_042;

/**
 * Applies pending migrations, each in its own transaction; returns the names applied. Several api
 * processes start at once in the hosted shape: a session advisory lock (held on a connection of its
 * own, so it outlives each migration's transaction) lets one migrate while the others wait and then
 * find nothing pending. PGlite is one process's own database and needs no lock.
 */
export async function migrateUp(target: MigrationTarget): Promise<string[]> {
  const dataSource = await dataSourceFor(target).initialize();
  const lock = 'url' in target ? dataSource.createQueryRunner() : undefined;
  try {
    await lock?.query(`SELECT pg_advisory_lock($1)`, [MIGRATION_LOCK]);
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    return applied.map((m) => m.name);
  } finally {
    await lock?.query(`SELECT pg_advisory_unlock($1)`, [MIGRATION_LOCK]).catch(() => undefined);
    await lock?.release();
    await dataSource.destroy();
  }
}

/** Reverts the newest `steps` migrations. */
export async function migrateDown(target: MigrationTarget, steps = 1): Promise<void> {
  const dataSource = await dataSourceFor(target).initialize();
  try {
    for (let i = 0; i < steps; i++) await dataSource.undoLastMigration({ transaction: 'each' });
  } finally {
    await dataSource.destroy();
  }
}
