import { demoActivities, demoPeople } from '@sweatpants/agent-concierge';
import { migrateDown, migrateUp, migrations } from '@sweatpants/migrations';
import { createTestDatabase, type TestDatabase } from '@sweatpants/migrations/testing';
import { PgSqlClient } from '@sweatpants/tree-store';
import { PgActivityStores } from './pg-activity-store';

const NOW = new Date('2026-11-20T12:00:00.000Z');

let db: TestDatabase;
let sql: PgSqlClient;
let stores: PgActivityStores;
beforeAll(async () => {
  db = await createTestDatabase('concierge_store');
  // The role the api works as, so the migration's grants are what is tested.
  sql = PgSqlClient.connect(db.url, { role: 'sweatpants_app', max: 4 });
  stores = new PgActivityStores(sql);
});
afterAll(async () => {
  await sql.close();
  await db.drop();
});

describe('the concierge store in Postgres', () => {
  it('seeds the demo data once: a second seedDemo adds nothing and keeps what the user changed', async () => {
    expect(await stores.seedDemo('alice', NOW)).toEqual({
      activities: demoActivities(NOW).length,
      people: demoPeople().length,
    });
    const alice = stores.forOwner('alice');
    await alice.updateActivities(['mail-101'], { status: 'archived' });

    expect(await stores.seedDemo('alice', NOW)).toEqual({ activities: 0, people: 0 });
    const all = await alice.queryActivities({ limit: 100 });
    expect(all.ok && all.value).toHaveLength(demoActivities(NOW).length);
    const read = await alice.queryActivities({ ids: ['mail-101'] });
    expect(read.ok && read.value[0]?.status).toBe('archived');
  });

  it('reads activities by status, ids, type, text and time, newest first', async () => {
    await stores.seedDemo('filters', NOW);
    const store = stores.forOwner('filters');
    const ids = async (filter: Parameters<typeof store.queryActivities>[0]) => {
      const found = await store.queryActivities(filter);
      if (!found.ok) throw new Error(found.error.message);
      return found.value.map((a) => a.id);
    };
    expect(await ids({ status: 'quarantined' })).toEqual([
      'mail-101',
      'mail-104',
      'mail-102',
      'mail-103',
      'mail-105',
    ]);
    expect(await ids({ status: 'quarantined', type: 'promotion' })).toEqual([
      'mail-101',
      'mail-102',
      'mail-103',
    ]);
    expect(await ids({ ids: ['mail-105', 'mail-110'] })).toEqual(['mail-110', 'mail-105']);
    expect(await ids({ text: 'TRAILGEAR', limit: 2 })).toEqual(['mail-101', 'mail-108']);
    expect(await ids({ text: '100%' })).toEqual([]);
    expect(await ids({ since: new Date(NOW.getTime() - 2.5 * 3_600_000).toISOString() })).toEqual([
      'mail-106',
      'mail-107',
    ]);
    const read = await store.queryActivities({ ids: ['mail-110'] });
    expect(read).toEqual({ ok: true, value: demoActivities(NOW).filter((a) => a.id === 'mail-110') });
  });

  it('never shows one owner the activities or people of another', async () => {
    await stores.seedDemo('bob', NOW);
    await stores.seedDemo('carol', NOW);
    const bob = stores.forOwner('bob');
    const carol = stores.forOwner('carol');
    expect(await bob.updateActivities(['mail-104'], { status: 'surfaced' })).toMatchObject({ ok: true });

    const carols = await carol.queryActivities({ ids: ['mail-104'] });
    expect(carols.ok && carols.value[0]?.status).toBe('quarantined');
    const stranger = stores.forOwner('stranger');
    expect(await stranger.queryActivities({})).toEqual({ ok: true, value: [] });
    expect(await stranger.queryPeople({ search: 'a' })).toEqual({ ok: true, value: [] });
    expect(await stranger.updateActivities(['mail-104'], { status: 'archived' })).toMatchObject({
      ok: false,
      error: { code: 'unknown_ids', ids: ['mail-104'] },
    });
    const bobs = await bob.queryActivities({ ids: ['mail-104'] });
    expect(bobs.ok && bobs.value[0]?.status).toBe('surfaced');
  });

  it('applies a batch to all its activities or, when one id is unknown, to none', async () => {
    await stores.seedDemo('dave', NOW);
    const dave = stores.forOwner('dave');
    const refused = await dave.updateActivities(['mail-101', 'mail-102', 'nope-1'], { status: 'processed' });
    expect(refused).toEqual({
      ok: false,
      error: { code: 'unknown_ids', ids: ['nope-1'], message: 'no activity nope-1' },
    });
    const untouched = await dave.queryActivities({ ids: ['mail-101', 'mail-102'] });
    expect(untouched.ok && untouched.value.map((a) => a.status)).toEqual(['quarantined', 'quarantined']);

    const applied = await dave.updateActivities(['mail-101', 'mail-102', 'mail-101'], {
      status: 'processed',
      classification: { autonomyTier: 2, activityType: 'promotion', confidence: 1 },
    });
    expect(applied).toEqual({ ok: true, value: { updatedCount: 2, activityIds: ['mail-101', 'mail-102'] } });
    const after = await dave.queryActivities({ ids: ['mail-101'] });
    // A partial classification replaces the fields it gives and keeps the rest.
    expect(after.ok && after.value[0]?.classification).toMatchObject({
      autonomyTier: 2,
      activityType: 'promotion',
      confidence: 1,
      reasoning: 'A sale from a shop you have ordered from; not sure you want these.',
    });
  });

  it('finds people by exact email (ignoring case) and by part of an email or a name', async () => {
    await stores.seedDemo('erin', NOW);
    const erin = stores.forOwner('erin');
    const exact = await erin.queryPeople({ email: 'Maya.Chen@WORK.example' });
    expect(exact.ok && exact.value.map((p) => p.name)).toEqual(['Maya Chen']);
    expect(await erin.queryPeople({ email: 'maya.chen@work' })).toEqual({ ok: true, value: [] });
    const partial = await erin.queryPeople({ search: 'bank' });
    expect(partial.ok && partial.value.map((p) => p.email)).toEqual(['notices@northbank.example']);
    const byName = await erin.queryPeople({ search: 'rivera' });
    expect(byName.ok && byName.value).toEqual([demoPeople().find((p) => p.name === 'Sam Rivera')]);
  });

  it('answers unavailable, not a crash, when the database cannot be reached', async () => {
    const gone = PgSqlClient.connect('postgres://postgres@127.0.0.1:1/none', { max: 1 });
    const store = new PgActivityStores(gone).forOwner('alice');
    expect(await store.queryActivities({})).toMatchObject({ ok: false, error: { code: 'unavailable' } });
    await gone.close();
  });
});

describe("a conversation's changes in Postgres, following its HEAD", () => {
  const status = async (owner: string, id: string) => {
    const read = await stores.forOwner(owner).queryActivities({ ids: [id] });
    if (!read.ok) throw new Error(read.error.message);
    return { status: read.value[0]?.status, tier: read.value[0]?.classification.autonomyTier };
  };
  const quarantined = { status: 'quarantined', tier: 3 };

  it('undoes a pick HEAD left and redoes it when HEAD returns, the batch as one', async () => {
    await stores.seedDemo('rewinder', NOW);
    const store = stores.forOwner('rewinder');
    const pick = { conversationId: 'c-1', changeId: 'call-1' };
    await store.updateActivities(
      ['mail-101', 'mail-102'],
      { status: 'archived', classification: { autonomyTier: 1 } },
      pick,
    );
    const archived = { status: 'archived', tier: 1 };
    expect(await status('rewinder', 'mail-102')).toEqual(archived);

    expect(await store.followHead('c-1', [])).toEqual({ ok: true, value: { undone: 2, redone: 0 } });
    expect(await status('rewinder', 'mail-101')).toEqual(quarantined);
    expect(await status('rewinder', 'mail-102')).toEqual(quarantined);
    expect(await store.followHead('c-1', [])).toEqual({ ok: true, value: { undone: 0, redone: 0 } });

    expect(await store.followHead('c-1', ['call-1'])).toEqual({ ok: true, value: { undone: 0, redone: 2 } });
    expect(await status('rewinder', 'mail-101')).toEqual(archived);
  });

  it("leaves what another conversation changed since, and another owner's rows", async () => {
    await stores.seedDemo('two-tabs', NOW);
    await stores.seedDemo('neighbour', NOW);
    const store = stores.forOwner('two-tabs');
    await store.updateActivities(
      ['mail-101'],
      { status: 'archived' },
      { conversationId: 'c-1', changeId: 'mine' },
    );
    await store.updateActivities(
      ['mail-101'],
      { status: 'surfaced' },
      { conversationId: 'c-2', changeId: 'theirs' },
    );
    await stores
      .forOwner('neighbour')
      .updateActivities(['mail-101'], { status: 'processed' }, { conversationId: 'c-1', changeId: 'mine' });

    expect(await store.followHead('c-1', [])).toEqual({ ok: true, value: { undone: 0, redone: 0 } });
    expect((await status('two-tabs', 'mail-101')).status).toBe('surfaced');
    expect((await status('neighbour', 'mail-101')).status).toBe('processed');
  });

  it('logs a call made again once, in force, and its rows go with their activity', async () => {
    await stores.seedDemo('replayed', NOW);
    const store = stores.forOwner('replayed');
    const pick = { conversationId: 'c-1', changeId: 'call-1' };
    await store.updateActivities(['mail-103'], { status: 'archived' }, pick);
    await store.followHead('c-1', []);
    await store.updateActivities(['mail-103'], { status: 'archived' }, pick);
    await store.followHead('c-1', ['call-1']);
    expect((await status('replayed', 'mail-103')).status).toBe('archived');
    await store.followHead('c-1', []);
    expect(await status('replayed', 'mail-103')).toEqual(quarantined);
    // The person's export says what the pick did, and that it was taken back.
    expect((await stores.exportFor('replayed')).changes).toEqual([
      expect.objectContaining({
        conversationId: 'c-1',
        activityId: 'mail-103',
        before: expect.objectContaining({ status: 'quarantined' }),
        after: expect.objectContaining({ status: 'archived' }),
        undone: true,
      }),
    ]);

    const owner = PgSqlClient.connect(db.url, { max: 1 });
    try {
      const logged = `SELECT count(*)::int AS n FROM concierge_activity_changes WHERE owner_id = 'replayed'`;
      expect(await owner.query(logged)).toEqual([{ n: 1 }]);
      await owner.query(`DELETE FROM concierge_activities WHERE owner_id = 'replayed'`);
      expect(await owner.query(logged)).toEqual([{ n: 0 }]);
    } finally {
      await owner.close();
    }
  });
});

describe('the ConciergeActivities migration', () => {
  it('drops exactly its tables in down() (the migrations after it reverted first)', async () => {
    const names = migrations.map((m) => m.name);
    const fromIt = names.slice(names.indexOf('ConciergeActivities1795420000000'));
    expect(fromIt[0]).toBe('ConciergeActivities1795420000000');
    const fresh = await createTestDatabase('concierge_down');
    const tables = async () => {
      const client = PgSqlClient.connect(fresh.url, { max: 1 });
      try {
        const rows = await client.query<{ name: string }>(
          `SELECT table_name AS name FROM information_schema.tables
           WHERE table_schema = 'public' AND table_name LIKE 'concierge_%' ORDER BY 1`,
        );
        return rows.map((r) => r.name);
      } finally {
        await client.close();
      }
    };
    try {
      expect(await tables()).toEqual([
        'concierge_activities',
        'concierge_activity_changes',
        'concierge_people',
      ]);
      await migrateDown({ url: fresh.url }, fromIt.length);
      expect(await tables()).toEqual([]);
      expect(await migrateUp({ url: fresh.url })).toEqual(fromIt);
      expect(await tables()).toEqual([
        'concierge_activities',
        'concierge_activity_changes',
        'concierge_people',
      ]);
    } finally {
      await fresh.drop();
    }
  });
});
