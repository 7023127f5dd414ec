import { Client } from 'pg';
import { migrateDown, migrateUp } from './index';
import { STORE_FUNCTIONS, storeFunction } from './store-functions';
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

const ALL = [
  'ConversationTree1795309984546',
  'Accounts1795400000000',
  'ConciergeActivities1795420000000',
  'RegenerateAndActivityIndex1795440000000',
  'ReadinessProbe1795450000000',
  'GcRuns1795451000000',
  'TokenGenerations1795452000000',
  'AccountDeletion1795453000000',
  'Blobs1795460000000',
  'InlinePhotosToBlobs1795460000001',
  'AccountDeletionFences1795480000000',
  'PathFromSummary1795490000000',
  'RefreshTokens1795500000000',
  'QueuedMessages1795510000000',
  'PersonalAccessTokens1795520000000',
  'EmailVerification1795530000000',
  'Passkeys1795540000000',
  'VisibleSessions1795540000001',
  'IdentityLinks1795550000000',
  'SpendLimits1795570000000',
  'AppendRuns1795580000000',
  'ActivityChanges1795590000000',
];

/** What the reflog's action check allows and whether the activity index exists. */
async function activitySchema(url: string): Promise<{ check: string; index: boolean }> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ check: string; index: boolean }>(
      `SELECT pg_get_constraintdef(oid) AS check,
         to_regclass('conversations_owner_activity_idx') IS NOT NULL AS index
       FROM pg_constraint WHERE conrelid = 'reflog'::regclass AND conname = 'reflog_action_check'`,
    );
    return rows[0]!;
  } finally {
    await client.end();
  }
}

/** Whether the summary index and the function that uses it are installed. */
async function summarySchema(url: string): Promise<{ index: string | null; base: boolean }> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ index: string | null; base: boolean }>(
      `SELECT (SELECT pg_get_indexdef(i.indexrelid) FROM pg_index i
                 WHERE i.indexrelid = to_regclass('nodes_summary_idx')) AS index,
         EXISTS (SELECT 1 FROM pg_proc WHERE proname = 'tree_summary_base') AS base`,
    );
    return rows[0]!;
  } finally {
    await client.end();
  }
}

describe('migrations', () => {
  // Each test applies and reverts every migration on a fresh database; with more migrations and a
  // machine busy with other suites, that outgrows jest's default 5 s.
  jest.setTimeout(30_000);
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('migrations', { migrate: false });
  });
  afterAll(() => db.drop());

  it('create the tree and account tables, revert them completely, and apply again', async () => {
    const applied = await migrateUp({ url: db.url });
    expect(applied).toEqual(ALL);
    expect(await tables(db.url)).toEqual([
      'account_deletions',
      'account_events',
      'blobs',
      'concierge_activities',
      'concierge_activity_changes',
      'concierge_people',
      'conversations',
      'email_tokens',
      'gc_runs',
      'identity_links',
      'model_spend',
      'node_blobs',
      'nodes',
      'oidc_pending_logins',
      'passkeys',
      'personal_access_tokens',
      'queued_message_blobs',
      'queued_messages',
      'reflog',
      'refresh_tokens',
      'refs',
      'segments',
      'spend_limits',
      'state_snapshots',
      'users',
      'webauthn_challenges',
    ]);

    await migrateDown({ url: db.url }, ALL.length);
    expect(await tables(db.url)).toEqual([]);

    expect(await migrateUp({ url: db.url })).toEqual(ALL);
    expect(await migrateUp({ url: db.url })).toEqual([]);
  });

  it("let the reflog say 'regenerate' and index the owner's list by activity, and take both back", async () => {
    const fresh = await createTestDatabase('migrations_activity', { migrate: false });
    try {
      await migrateUp({ url: fresh.url });
      expect(await activitySchema(fresh.url)).toEqual({
        check: expect.stringContaining("'regenerate'"),
        index: true,
      });
      // Back to just before it: it and every migration after it reverted.
      const after = ALL.slice(ALL.indexOf('RegenerateAndActivityIndex1795440000000'));
      await migrateDown({ url: fresh.url }, after.length);
      const before = await activitySchema(fresh.url);
      expect(before).toEqual({ check: expect.stringContaining("'return'"), index: false });
      expect(before.check).not.toContain('regenerate');
      expect(await migrateUp({ url: fresh.url })).toEqual(after);
    } finally {
      await fresh.drop();
    }
  });

  it('index the summary nodes by position and install tree_summary_base, and take both back', async () => {
    const fresh = await createTestDatabase('migrations_summary', { migrate: false });
    try {
      await migrateUp({ url: fresh.url });
      const installed = await summarySchema(fresh.url);
      expect(installed.base).toBe(true);
      expect(installed.index).toMatch(
        /ON public\.nodes USING btree \(segment_id, depth\) WHERE \(kind = 'summary'::text\)/,
      );
      const after = ALL.slice(ALL.indexOf('PathFromSummary1795490000000'));
      await migrateDown({ url: fresh.url }, after.length);
      expect(await summarySchema(fresh.url)).toEqual({ index: null, base: false });
      expect(await migrateUp({ url: fresh.url })).toEqual(after);
    } finally {
      await fresh.drop();
    }
  });

  it('leave every account that was there before unverified (nothing ever proved its email), and take it back', async () => {
    const fresh = await createTestDatabase('migrations_verified', { migrate: false });
    const client = new Client({ connectionString: fresh.url });
    await client.connect();
    try {
      await migrateUp({ url: fresh.url });
      const after = ALL.slice(ALL.indexOf('EmailVerification1795530000000'));
      await migrateDown({ url: fresh.url }, after.length);
      await client.query(
        `INSERT INTO users (id, email, display_name, password_hash) VALUES (gen_random_uuid(), 'old@example.com', 'Old', 'x')`,
      );
      expect(await migrateUp({ url: fresh.url })).toEqual(after);
      const { rows } = await client.query(`SELECT email, email_verified_at FROM users`);
      expect(rows).toEqual([{ email: 'old@example.com', email_verified_at: null }]);
    } finally {
      await client.end();
      await fresh.drop();
    }
  });

  it("install each of the store's functions from its own file, as the file has it", async () => {
    const fresh = await createTestDatabase('migrations_functions');
    const client = new Client({ connectionString: fresh.url });
    await client.connect();
    try {
      for (const name of STORE_FUNCTIONS) {
        const { rows } = await client.query<{ body: string }>(
          `SELECT prosrc AS body FROM pg_proc WHERE proname = $1`,
          [name],
        );
        const file = storeFunction(name);
        expect(file).toMatch(new RegExp(`^CREATE OR REPLACE FUNCTION ${name}\\(`, 'm'));
        // the body between the dollar quotes, as installed
        const body = /AS \$\$([\s\S]*)\$\$;\s*$/.exec(file)?.[1];
        expect(rows.map((r) => r.body)).toEqual([body]);
      }
    } finally {
      await client.end();
      await fresh.drop();
    }
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
