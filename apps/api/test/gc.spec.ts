import { randomBytes, randomUUID } from 'node:crypto';
import {
  COMPACTION_QUEUE,
  type FsckReport,
  type GcQueued,
  type GcRun,
  type GcRunList,
} from '@sweatpants/domain';
import { createTestDatabase, type TestDatabase } from '@sweatpants/migrations/testing';
import { PgSqlClient, TreeStore } from '@sweatpants/tree-store';
import { Queue } from 'bullmq';
import { BullJobQueue } from '../src/queue/bullmq-job-queue';
import { startBullWorker, type JobWorkerHandle } from '../src/queue/bullmq-worker';
import { InProcessJobQueue } from '../src/queue/in-process-job-queue';
import { checkProcessors, PermanentJobError, type JobProcessors } from '../src/queue/job-processors';
import type { JobQueue } from '../src/queue/job-queue';
import { loadConfig } from '../src/config/app-config';
import { ABANDONED, GcRuns } from '../src/gc/gc-runs';
import { GcProcessor, type GcSweep } from '../src/gc/gc.processor';
import { createConversation, path, turn, until } from './support/flows';
import { call, errorOf, register, registerAdmin, startApi, type TestApi } from './support/test-api';

const REDIS_URL = 'redis://127.0.0.1:6379';

type GcPolicy = { reachableDays: number; unreachableDays: number };

function must<T>(result: { ok: true; value: T } | { ok: false; error: { message: string } }): T {
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}
const ADMIN = 'keeper@example.com';

describe('garbage collection that runs (DESIGN.md, gc)', () => {
  describe('through the api, with a retention of 0 days', () => {
    let db: TestDatabase;
    let api: TestApi;
    let admin: string;
    let user: { token: string };
    let id: string;
    let kept: string[];
    let discarded: string[];

    beforeAll(async () => {
      db = await createTestDatabase('api_gc');
      api = await startApi({
        DATABASE_URL: db.url,
        ADMIN_EMAILS: ADMIN,
        GC_EVERY_MINUTES: 'off',
        GC_REFLOG_EXPIRE_DAYS: '0',
        GC_REFLOG_EXPIRE_UNREACHABLE_DAYS: '0',
      });
      admin = (await registerAdmin(api, db.url, ADMIN, 'Keeper')).token;
      user = await register(api, 'tidier');
      // A conversation with a discarded branch: two turns, then back to the first.
      const created = await createConversation(api, user.token);
      id = created.id;
      await turn(api, user.token, id, 'the bookshelf');
      const firstTurn = await path(api, user.token, id);
      await turn(api, user.token, id, 'the wardrobe');
      const both = await path(api, user.token, id);
      const back = await call(api, 'POST', `/api/conversations/${id}/rewind`, {
        token: user.token,
        body: { to: firstTurn.at(-1)!.id },
      });
      expect(back.status).toBe(200);
      await turn(api, user.token, id, 'the desk instead');
      kept = (await path(api, user.token, id)).map((n) => n.id);
      discarded = both.map((n) => n.id).filter((n) => !kept.includes(n));
      expect(discarded.length).toBeGreaterThan(0);
    }, 60_000);

    afterAll(async () => {
      await api?.close();
      await db?.drop();
    });

    const runs = async () =>
      (await call<GcRunList>(api, 'GET', '/api/admin/gc', { token: admin })).body.items;
    const finished = (jobCount: number) =>
      until(runs, (items) => items.length >= jobCount && items.every((r) => r.finishedAt !== null));
    const nodeStatus = async (nodeId: string) =>
      (await call(api, 'GET', `/api/conversations/${id}/nodes/${nodeId}`, { token: user.token })).status;

    it('is for admins only', async () => {
      expect(await call(api, 'GET', '/api/admin/gc', { token: user.token })).toEqual({
        status: 403,
        body: errorOf('forbidden'),
      });
      expect((await call(api, 'POST', '/api/admin/gc', { token: user.token, body: {} })).status).toBe(403);
      expect(
        (await call(api, 'POST', '/api/admin/gc', { token: admin, body: { dryRun: 'yes' } })).status,
      ).toBe(400);
    });

    it('a dry run reports what would go and removes nothing', async () => {
      const queued = await call<GcQueued>(api, 'POST', '/api/admin/gc', {
        token: admin,
        body: { dryRun: true },
      });
      expect(queued.status).toBe(202);
      const [run] = await finished(1);
      expect(run).toMatchObject<Partial<GcRun>>({
        dryRun: true,
        error: null,
        policy: { reachableDays: 0, unreachableDays: 0 },
      });
      expect(run!.nodes).toBeGreaterThanOrEqual(discarded.length);
      for (const nodeId of discarded) expect(await nodeStatus(nodeId)).toBe(200);
    });

    it('removes the discarded branch, keeps everything HEAD reaches, and leaves the tree whole', async () => {
      // No body at all: a real run.
      const queued = await fetch(api.url('/api/admin/gc'), {
        method: 'POST',
        headers: { authorization: `Bearer ${admin}` },
      });
      expect(queued.status).toBe(202);
      const [run] = await finished(2);
      expect(run).toMatchObject({ dryRun: false, error: null, requestedBy: expect.any(String) });
      expect(run!.nodes).toBeGreaterThanOrEqual(discarded.length);
      for (const nodeId of discarded) expect(await nodeStatus(nodeId)).toBe(404);
      expect((await path(api, user.token, id)).map((n) => n.id)).toEqual(kept);
      const fsck = await call<FsckReport>(api, 'GET', `/api/admin/fsck/${id}`, { token: admin });
      expect(fsck.body).toMatchObject({ ok: true, problems: [] });
      // And the conversation goes on.
      await turn(api, user.token, id, 'and the lamp');
    });

    it('shows a run whose process died as stopped, not as running for ever', async () => {
      const sql = PgSqlClient.connect(db.url);
      try {
        await new GcRuns(sql).start({
          jobId: 'gc.of-a-process-that-died',
          requestedBy: 'schedule',
          dryRun: false,
          policy: { reachableDays: 0, unreachableDays: 0 },
        });
      } finally {
        await sql.close();
      }
      const [newest] = await runs();
      expect(newest).toMatchObject({
        requestedBy: 'schedule',
        error: ABANDONED,
        finishedAt: expect.any(String),
      });
    });
  });

  describe('on its schedule', () => {
    let db: TestDatabase;
    let sql: PgSqlClient;
    let processors: JobProcessors;
    let runs: GcRuns;

    beforeAll(async () => {
      db = await createTestDatabase('api_gc_schedule');
      sql = PgSqlClient.connect(db.url);
      runs = new GcRuns(sql);
      const gc = new GcProcessor(new TreeStore(sql), runs, { reachableDays: 90, unreachableDays: 30 }, false);
      const all: JobProcessors = {
        'conversation.compact': () => Promise.reject(new PermanentJobError('no compaction here')),
        'tree.gc': (payload, run) => gc.process(payload, run),
      };
      processors = checkProcessors(all);
    });

    afterAll(async () => {
      await sql?.close();
      await db?.drop();
    });

    /** Schedules gc every `everyMs` on `queue`, waits for `count` scheduled runs, then unschedules. */
    async function scheduledRuns(queue: JobQueue, count: number): Promise<GcRun[]> {
      const before = (await runs.list(100)).length;
      await queue.schedule(
        'tree.gc',
        { dryRun: false, requestedBy: 'schedule' },
        { id: 'gc-test', everyMs: 100, group: 'gc' },
      );
      const seen = await until(
        () => runs.list(100),
        (items) => items.length >= before + count && items.every((r) => r.finishedAt !== null),
      );
      await queue.schedule(
        'tree.gc',
        { dryRun: false, requestedBy: 'schedule' },
        { id: 'gc-test', everyMs: null, group: 'gc' },
      );
      return seen.slice(0, seen.length - before);
    }

    it('runs in-process on a timer, each run reported', async () => {
      const queue = new InProcessJobQueue(processors);
      try {
        const made = await scheduledRuns(queue, 2);
        for (const run of made)
          expect(run).toMatchObject({ requestedBy: 'schedule', dryRun: false, error: null });
      } finally {
        await queue.close();
      }
    });

    it('runs through a BullMQ job scheduler that several processes upsert once', async () => {
      const prefix = `test-${randomBytes(4).toString('hex')}`;
      const one = new BullJobQueue(REDIS_URL, prefix);
      const two = new BullJobQueue(REDIS_URL, prefix);
      let worker: JobWorkerHandle | undefined;
      try {
        // Two apis starting together put the same schedule in place.
        await two.schedule(
          'tree.gc',
          { dryRun: false, requestedBy: 'schedule' },
          { id: 'gc-test', everyMs: 100, group: 'gc' },
        );
        await one.schedule(
          'tree.gc',
          { dryRun: false, requestedBy: 'schedule' },
          { id: 'gc-test', everyMs: 100, group: 'gc' },
        );
        const schedulers = new Queue(COMPACTION_QUEUE, { connection: { url: REDIS_URL }, prefix });
        try {
          expect(await schedulers.getJobSchedulersCount()).toBe(1);
        } finally {
          await schedulers.close();
        }
        worker = startBullWorker(processors, { url: REDIS_URL, prefix, lockMs: 5_000 });
        await worker.waitUntilReady();
        const made = await scheduledRuns(one, 2);
        for (const run of made) expect(run).toMatchObject({ requestedBy: 'schedule', error: null });
      } finally {
        await worker?.close();
        await one.close();
        await two.close();
      }
    });
  });

  describe('runs, sweeps and writers', () => {
    const NOW: GcPolicy = { reachableDays: 0, unreachableDays: 0 };
    let db: TestDatabase;
    let sql: PgSqlClient;
    let store: TreeStore;
    let runs: GcRuns;

    beforeAll(async () => {
      db = await createTestDatabase('api_gc_runs');
      sql = PgSqlClient.connect(db.url, { max: 8 });
      store = new TreeStore(sql);
      runs = new GcRuns(sql);
    });

    afterAll(async () => {
      await sql?.close();
      await db?.drop();
    });

    const jobRun = (jobId = `gc.${randomUUID()}`) => ({
      jobId,
      attempt: 1,
      signal: new AbortController().signal,
    });
    const userNode = (text: string) => ({ kind: 'user' as const, payload: { text }, authorId: 'u' });
    const agentNode = (text: string) => ({
      kind: 'assistant' as const,
      payload: { text },
      authorId: 'agent:test',
    });
    const nodeCount = async (conversationId: string) =>
      (
        await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM nodes WHERE conversation_id = $1`, [
          conversationId,
        ])
      )[0]!.n;

    /** root → a → b, then back to a and c appended: b is a discarded branch. */
    async function withDiscardedBranch(): Promise<{ id: string; discarded: string }> {
      const { conversation } = await store.createConversation({ ownerId: 'u', agent: 'tidying' });
      const id = conversation.id;
      const [a, b] = must(
        await store.append({ conversationId: id, nodes: [userNode('a'), agentNode('b')], actorId: 'u' }),
      ).nodes;
      must(await store.move({ conversationId: id, to: a!.id, action: 'rewind', actorId: 'u' }));
      must(await store.append({ conversationId: id, nodes: [agentNode('c')], actorId: 'u' }));
      return { id, discarded: b!.id };
    }

    it('a run whose process died reads as stopped; one still running stays open until it ends', async () => {
      // A sweep that holds its run open until released: meanwhile its job is active.
      let release = (): void => undefined;
      const held = new Promise<void>((resolve) => (release = resolve));
      let entered = (): void => undefined;
      const inSweep = new Promise<void>((resolve) => (entered = resolve));
      const holding: GcSweep = {
        name: 'held things',
        sweep: async () => {
          entered();
          await held;
          return 0;
        },
      };
      const gc = new GcProcessor(store, runs, NOW, false, undefined, [holding]);
      const processors: JobProcessors = {
        'conversation.compact': () => Promise.reject(new PermanentJobError('no compaction here')),
        'tree.gc': (payload, run) => gc.process(payload, run),
      };
      const queue = new InProcessJobQueue(checkProcessors(processors));
      try {
        // What a process that died mid-run leaves: a started row whose job no queue knows.
        const dead = await runs.start({
          jobId: 'gc.of-a-dead-process',
          requestedBy: 'schedule',
          dryRun: false,
          policy: NOW,
        });
        await queue.add(
          'tree.gc',
          { dryRun: false, requestedBy: 'an-admin' },
          { jobId: 'gc.live', group: 'gc' },
        );
        await inSweep;
        await runs.closeAbandoned((jobId) => queue.state(jobId));
        const [live, stopped] = await runs.list(2);
        expect(stopped).toMatchObject({ id: dead, error: ABANDONED, finishedAt: expect.any(String) });
        expect(live).toMatchObject({ requestedBy: 'an-admin', finishedAt: null, error: null });

        release();
        const [done] = await until(
          () => runs.list(1),
          ([run]) => run?.finishedAt !== null,
        );
        expect(done).toMatchObject({ requestedBy: 'an-admin', error: null });
      } finally {
        release();
        await queue.close();
      }
    });

    it('a job started again after its worker died closes the row its first start left open', async () => {
      const jobId = `gc.${randomUUID()}`;
      const first = await runs.start({ jobId, requestedBy: 'schedule', dryRun: false, policy: NOW });
      const again = new GcProcessor(store, runs, NOW, false);
      await again.process({ dryRun: true, requestedBy: 'schedule' }, jobRun(jobId));
      const items = await runs.list(100);
      expect(items.find((r) => r.id === first)).toMatchObject({
        error: ABANDONED,
        finishedAt: expect.any(String),
      });
    });

    it('runs each sweep after node gc (the nodes are gone when it runs), dry when the run is', async () => {
      const { discarded } = await withDiscardedBranch();
      const seen: { dryRun: boolean; discardedLeft: number }[] = [];
      const blobs: GcSweep = {
        name: 'blobs',
        sweep: async ({ dryRun }) => {
          const [left] = await sql.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM nodes WHERE id = decode($1, 'hex')`,
            [discarded],
          );
          seen.push({ dryRun, discardedLeft: left!.n });
          return 3;
        },
      };
      const gc = new GcProcessor(store, runs, NOW, false, undefined, [blobs]);

      const dry = await gc.process({ dryRun: true, requestedBy: 'schedule' }, jobRun());
      expect(dry).toMatchObject({ dryRun: true, swept: { blobs: 3 } });
      const real = await gc.process({ dryRun: false, requestedBy: 'schedule' }, jobRun());
      expect(real).toMatchObject({ dryRun: false, swept: { blobs: 3 } });
      expect(real.nodes).toBeGreaterThanOrEqual(1);
      expect(seen).toEqual([
        { dryRun: true, discardedLeft: 1 },
        { dryRun: false, discardedLeft: 0 },
      ]);
    });

    it('a sweep that fails fails the run, which still reports what node gc removed', async () => {
      await withDiscardedBranch();
      const broken: GcSweep = {
        name: 'blobs',
        sweep: () => Promise.reject(new Error('the blob store is away')),
      };
      const gc = new GcProcessor(store, runs, NOW, false, undefined, [broken]);
      const run = jobRun();
      await expect(gc.process({ dryRun: false, requestedBy: 'schedule' }, run)).rejects.toThrow(
        'the blob store is away',
      );
      const [report] = await runs.list(1);
      expect(report).toMatchObject({ error: 'the blob store is away', finishedAt: expect.any(String) });
      expect(report!.nodes).toBeGreaterThanOrEqual(1);
    });

    it('beside writers appending and rewinding, removes only discarded branches and leaves every tree whole', async () => {
      const CONVERSATIONS = 4;
      const ROUNDS = 60;
      let writing = true;
      /** One conversation's writer: turns appended by compare-and-swap, every third round after going back two nodes. */
      const writer = async (c: number) => {
        const { conversation } = await store.createConversation({ ownerId: 'u', agent: 'tidying' });
        const id = conversation.id;
        let onHead = [conversation.head];
        for (let round = 0; round < ROUNDS; round++) {
          if (round % 3 === 2) {
            must(
              await store.move({
                conversationId: id,
                to: onHead.at(-3)!,
                action: 'rewind',
                expectedHead: onHead.at(-1)!,
                actorId: 'u',
              }),
            );
            onHead = onHead.slice(0, -2);
          }
          const appended = must(
            await store.append({
              conversationId: id,
              nodes: [userNode(`${c}.${round} asks`), agentNode(`${c}.${round} answers`)],
              expectedHead: onHead.at(-1)!,
              actorId: 'u',
            }),
          );
          onHead = [...onHead, ...appended.nodes.map((n) => n.id)];
        }
        return { id, onHead };
      };
      const collector = async () => {
        let removed = 0;
        while (writing) removed += (await store.gc({ policy: NOW })).nodes.length;
        return removed;
      };

      const collecting = collector();
      const written = await Promise.all(Array.from({ length: CONVERSATIONS }, (_, c) => writer(c))).finally(
        () => (writing = false),
      );
      const removedWhileWriting = await collecting;
      await store.gc({ policy: NOW });

      expect(removedWhileWriting).toBeGreaterThan(0);
      for (const { id, onHead } of written) {
        expect(must(await store.path(id)).map((n) => n.id)).toEqual(onHead);
        expect(await store.fsck(id)).toMatchObject({ ok: true, problems: [] });
        // Everything else went: the discarded branches, and nothing more.
        expect(await nodeCount(id)).toBe(onHead.length);
      }
    }, 60_000);
  });

  it('reads its schedule and policy from the environment, git’s retention by default', () => {
    expect(loadConfig({}).gc).toEqual({
      everyMinutes: 24 * 60,
      policy: { reachableDays: 90, unreachableDays: 30 },
      dryRun: false,
    });
    expect(
      loadConfig({
        GC_EVERY_MINUTES: 'off',
        GC_REFLOG_EXPIRE_DAYS: '14',
        GC_REFLOG_EXPIRE_UNREACHABLE_DAYS: '7',
        GC_DRY_RUN: 'true',
      }).gc,
    ).toEqual({ everyMinutes: null, policy: { reachableDays: 14, unreachableDays: 7 }, dryRun: true });
    expect(() => loadConfig({ GC_EVERY_MINUTES: 'hourly' })).toThrow(
      /GC_EVERY_MINUTES: must be a whole number of minutes, or off/,
    );
    expect(() => loadConfig({ GC_DRY_RUN: 'yes' })).toThrow(/GC_DRY_RUN: must be true or false/);
  });
});
