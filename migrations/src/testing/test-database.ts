import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { migrateUp } from '../index';

/** The server tests use: PostgreSQL on 127.0.0.1:5432 as `postgres`, unless TEST_DATABASE_URL says otherwise. */
export const TEST_SERVER_URL =
  process.env['TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestDatabase {
  /** a connection string for the new database */
  url: string;
  name: string;
  /** drops the database; call it in afterAll */
  drop(): Promise<void>;
}

function urlFor(database: string): string {
  const url = new URL(TEST_SERVER_URL);
  url.pathname = `/${database}`;
  return url.toString();
}

async function onServer<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: TEST_SERVER_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * A fresh database for one test file, migrated (unless `migrate: false`), so files can run in
 * parallel and leave nothing behind once `drop()` has run.
 */
export async function createTestDatabase(
  label: string,
  options: { migrate?: boolean } = {},
): Promise<TestDatabase> {
  const name = `sp_test_${label
    .replace(/[^a-z0-9]/gi, '_')
    .toLowerCase()
    .slice(0, 30)}_${randomBytes(4).toString('hex')}`;
  await onServer((c) => c.query(`CREATE DATABASE ${name}`));
  const url = urlFor(name);
  if (options.migrate !== false) await migrateUp({ url });
  return {
    url,
    name,
    drop: () =>
      onServer((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}
