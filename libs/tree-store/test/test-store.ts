import { createTestDatabase, type TestDatabase } from '@sweatpants/migrations/testing';
import { PgSqlClient, TreeStore } from '../src';

export interface TestStore {
  store: TreeStore;
  client: PgSqlClient;
  db: TestDatabase;
  /** closes the pool and drops the database */
  close(): Promise<void>;
}

/**
 * A store on a fresh, migrated database of its own, working as the application's role
 * (`sweatpants_app`), as the api does.
 */
export async function createTestStore(
  label: string,
  options: { poolSize?: number } = {},
): Promise<TestStore> {
  const db = await createTestDatabase(label);
  const client = PgSqlClient.connect(db.url, { max: options.poolSize ?? 4, role: 'sweatpants_app' });
  return {
    store: new TreeStore(client),
    client,
    db,
    close: async () => {
      await client.close();
      await db.drop();
    },
  };
}

export const user = (text: string, authorId = 'user-1') => ({
  kind: 'user' as const,
  payload: { text },
  authorId,
});
export const assistant = (text: string) => ({
  kind: 'assistant' as const,
  payload: { text },
  authorId: 'agent:test',
});
