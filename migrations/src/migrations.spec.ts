import { Client } from 'pg';
import { migrateDown, migrateUp } from './index';
import { createTestDatabase, type TestDatabase } from './testing';

async function tables(url: string): Promise<string[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(
      `SELECT table_name AS name FROM information_schema.tables
       WHERE table_schema = 'public' AND table_name <> 'migrations' ORDER BY 1`,
    );
    return rows.map((r) => r.name);
  } finally {
    await client.end();
  }
}

const ALL = ['ConversationTree1795309984546', 'Accounts1795400000000', 'ConciergeActivities1795420000000'];

describe('migrations', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('migrations', { migrate: false });
  });
  afterAll(() => db.drop());

  it('create the tree and account tables, revert them completely, and apply again', async () => {
    const applied = await migrateUp({ url: db.url });
    expect(applied).toEqual(ALL);
    expect(await tables(db.url)).toEqual([
      'concierge_activities',
      'concierge_people',
      'conversations',
      'nodes',
      'reflog',
      'refs',
      'segments',
      'state_snapshots',
      'users',
    ]);

    await migrateDown({ url: db.url }, ALL.length);
    expect(await tables(db.url)).toEqual([]);

    expect(await migrateUp({ url: db.url })).toEqual(ALL);
    expect(await migrateUp({ url: db.url })).toEqual([]);
  });

  it('are applied once when several processes start together', async () => {
    const fresh = await createTestDatabase('migrations_race', { migrate: false });
    try {
      const runs = await Promise.all(Array.from({ length: 4 }, () => migrateUp({ url: fresh.url })));
      expect(runs.flat()).toEqual(ALL);
      expect(await tables(fresh.url)).toContain('nodes');
    } finally {
      await fresh.drop();
    }
  });
});
