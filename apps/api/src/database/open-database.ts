import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { Logger } from '@nestjs/common';
import { migrateUp } from '@sweatpants/migrations';
import { PgliteSqlClient, PgSqlClient, type SqlClient } from '@sweatpants/tree-store';
import type { AppConfig } from '../config/app-config';

/** The api works as this role: it may add to the tree but never rewrite it (see the migration). */
export const APP_ROLE = 'sweatpants_app';

/**
 * Migrates the database and opens the api's SqlClient on it: PostgreSQL at DATABASE_URL, or,
 * without it, embedded PGlite persisted in `<DATA_DIR>/pglite`.
 */
export async function openDatabase(config: AppConfig, logger: Logger): Promise<SqlClient> {
  return config.databaseUrl === undefined
    ? openPglite(join(config.dataDir, 'pglite'), logger)
    : openPostgres(config.databaseUrl, logger);
}

async function openPostgres(url: string, logger: Logger): Promise<SqlClient> {
  const applied = await migrateUp({ url });
  logMigrations(applied, logger);
  logger.log(`using PostgreSQL at ${redact(url)}`);
  return PgSqlClient.connect(url, { role: APP_ROLE });
}

async function openPglite(dir: string, logger: Logger): Promise<SqlClient> {
  logger.log(`DATABASE_URL unset: using embedded PGlite in ${dir}`);
  await mkdir(dir, { recursive: true });
  const db = await PGlite.create({ dataDir: dir });
  try {
    logMigrations(await migrateUp({ pglite: db }), logger);
  } catch (error) {
    await db.close();
    throw error;
  }
  return new PgliteSqlClient(db, { role: APP_ROLE });
}

function logMigrations(applied: string[], logger: Logger): void {
  logger.log(applied.length ? `applied migrations: ${applied.join(', ')}` : 'database schema is up to date');
}

/** The URL without its password, for the log. */
function redact(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}
