import { randomBytes } from 'node:crypto';
import { AGENTS, modeStateOf } from '@sweatpants/agents';
import { compactJobId, foldPath, type TreeNode } from '@sweatpants/domain';
import { createTestDatabase, type TestDatabase } from '@sweatpants/migrations/testing';
import { PgSqlClient, TreeStore } from '@sweatpants/tree-store';
import { BullJobQueue } from '../src/compaction/bullmq-job-queue';
import { startBullWorker, type JobWorkerHandle } from '../src/compaction/bullmq-worker';
import { CompactionQueue } from '../src/compaction/compaction-queue.service';
import { COMPACTOR_AUTHOR, CompactionProcessor } from '../src/compaction/compaction.processor';
import { InProcessJobQueue } from '../src/compaction/in-process-job-queue';
import { checkProcessors, type JobProcessors } from '../src/compaction/job-processors';
import type { JobCompleted, JobQueue } from '../src/compaction/job-queue';
import { ModelSummariser, OfflineSummariser, type Summariser } from '../src/compaction/summariser';
import { conversationWithTurns, HeldModel, pathOf, summariesIn, talk, texts } from './compaction-fixtures';

const REDIS_URL = 'redis://127.0.0.1:6379';

function processorsFor(
  store: TreeStore,
  summariser: Summariser,
): {
  processor: CompactionProcessor;
  processors: JobProcessors;
} {
  const processor = new CompactionProcessor(store, summariser, AGENTS);
  const processors: JobProcessors = {
    'conversation.compact': (payload, jobRun) => processor.process(payload, jobRun),
  };
  return { processor, processors: checkProcessors(processors) };
}

function completion(jobs: JobQueue, jobId: string): Promise<JobCompleted> {
  return new Promise((resolve) => {
    const stop = jobs.onCompleted((event) => {
      if (event.id !== jobId) return;
      stop();
      resolve(event);
    });
  });
}

const run = { jobId: 'direct', attempt: 1, signal: new AbortController().signal };

describe('compaction', () => {
  let db: TestDatabase;
  let sql: PgSqlClient;
  let store: TreeStore;

  beforeAll(async () => {
    db = await createTestDatabase('api_compaction');
    sql = PgSqlClient.connect(db.url);
    store = new TreeStore(sql);
  }, 30_000);

  afterAll(async () => {
    await sql?.close();
    await db?.drop();
  });

  describe('on BullMQ, while the user keeps talking', () => {
    let jobs: BullJobQueue;
    let worker: JobWorkerHandle;
    const model = new HeldModel('They sorted the first drawers.');
    let processor: CompactionProcessor;

    beforeAll(async () => {
      const prefix = `test-${randomBytes(4).toString('hex')}`;
      const built = processorsFor(store, new ModelSummariser(model));
      processor = built.processor;
      jobs = new BullJobQueue(REDIS_URL, prefix);
      worker = startBullWorker(built.processors, { url: REDIS_URL, prefix, lockMs: 5_000 });
      await worker.waitUntilReady();
    });

    afterAll(async () => {
      await worker?.close();
      await jobs?.close();
    });

    it('squashes the older turns, rebases what was said meanwhile, and does it once per range', async () => {
      const { conversationId, ownerId, head } = await conversationWithTurns(store, 4);
      const before = await pathOf(store, conversationId);
      const queue = new CompactionQueue(jobs);
      const jobId = await queue.request({ conversationId, head, requestedBy: ownerId });
      expect(jobId).toBe(compactJobId(conversationId, head));
      const done = completion(jobs, jobId);

      // The model is writing the summary: the user goes on talking meanwhile.
      await model.asked;
      expect((await queue.list(conversationId)).items).toEqual([{ jobId, state: 'active' }]);
      await talk(store, conversationId, ownerId, 'message 5');
      model.answer();
      const { result } = await done;

      // Turns 1-3 became the summary; turn 4 and the one said meanwhile were rebased onto it.
      const after = await pathOf(store, conversationId);
      const [root, summary, ...tail] = after;
      expect(root?.kind).toBe('root');
      expect(summary).toMatchObject({
        kind: 'summary',
        authorId: COMPACTOR_AUTHOR,
        payload: { text: 'They sorted the first drawers.', covers: { fromId: before[1]!.id, count: 6 } },
      });
      expect(texts(tail)).toEqual(['message 4', 'reply to message 4', 'message 5', 'reply to message 5']);
      expect(result).toMatchObject({ summaryNodeId: summary!.id, rebased: 4, head: after.at(-1)!.id });

      // Nothing is lost: the covered range is still there, and with the summary the path says it all.
      const covers = (summary as TreeNode<'summary'>).payload.covers;
      const covered = (await pathOf(store, conversationId, covers.toId)).slice(1);
      expect(covered.map((n) => n.id)).toEqual(before.slice(1, 7).map((n) => n.id));
      expect([...texts(covered), ...texts(tail)]).toEqual([
        ...texts(before),
        'message 5',
        'reply to message 5',
      ]);

      const reflog = await store.reflog(conversationId, { limit: 1 });
      expect(reflog.ok && reflog.value.entries[0]).toMatchObject({
        action: 'compact',
        actorId: ownerId,
        newHead: after.at(-1)!.id,
      });
      expect((await queue.list(conversationId)).items).toEqual([
        { jobId, state: 'completed', summaryNodeId: summary!.id, covers },
      ]);

      // The same job again (a retry), twice at once, and asked for again: still one summary.
      const again = await Promise.all([
        processor.process({ conversationId, head, requestedBy: ownerId }, run),
        processor.process({ conversationId, head, requestedBy: ownerId }, run),
      ]);
      expect(again.map((o) => [o.summaryNodeId, o.reflog])).toEqual([
        [summary!.id, null],
        [summary!.id, null],
      ]);
      expect(await queue.request({ conversationId, head, requestedBy: ownerId })).toBe(jobId);
      expect((await queue.list(conversationId)).items).toHaveLength(1);
      expect(await summariesIn(store, conversationId)).toHaveLength(1);
      expect(model.requests).toHaveLength(1);
      expect((await pathOf(store, conversationId)).map((n) => n.id)).toEqual(after.map((n) => n.id));
    });

    it('fails for good, moving nothing, when HEAD left the branch', async () => {
      const { conversationId, ownerId, head } = await conversationWithTurns(store, 3);
      const rewound = await store.move({
        conversationId,
        to: 'HEAD~4',
        action: 'rewind',
        actorId: ownerId,
      });
      expect(rewound.ok).toBe(true);
      await expect(processor.process({ conversationId, head, requestedBy: ownerId }, run)).rejects.toThrow(
        /no longer runs through the range/,
      );
      expect(await summariesIn(store, conversationId)).toHaveLength(0);
    });
  });

  describe('in-process, without Redis', () => {
    it('runs the same processor with the same job ids and states, summarising offline', async () => {
      const { processors } = processorsFor(store, new OfflineSummariser());
      const jobs = new InProcessJobQueue(processors);
      const queue = new CompactionQueue(jobs);
      const { conversationId, ownerId, head } = await conversationWithTurns(store, 3);
      const jobId = compactJobId(conversationId, head);
      const done = completion(jobs, jobId);

      expect(await queue.request({ conversationId, head, requestedBy: ownerId })).toBe(jobId);
      expect(await queue.request({ conversationId, head, requestedBy: ownerId })).toBe(jobId);
      await done;
      await jobs.close();

      const [, summary, ...tail] = await pathOf(store, conversationId);
      expect(summary?.kind).toBe('summary');
      const covers = (summary as TreeNode<'summary'>).payload.covers;
      const covered = (await pathOf(store, conversationId, covers.toId)).slice(1);
      expect(summary?.payload['text']).toBe(
        `Offline summary of 4 nodes (2 user, 2 assistant) from ${covered[0]!.createdAt} to ` +
          `${covered[3]!.createdAt}. The user wrote 2 messages: "message 1" / "message 2". ` +
          'The assistant replied 2 times.',
      );
      expect(texts(tail)).toEqual(['message 3', 'reply to message 3']);
      expect((await queue.list(conversationId)).items).toEqual([
        { jobId, state: 'completed', summaryNodeId: summary!.id, covers },
      ]);
      expect(await summariesIn(store, conversationId)).toHaveLength(1);
    });

    it('keeps the agent’s state and mode in the summary, so folds at HEAD see what they saw before', async () => {
      const { processor } = processorsFor(store, new OfflineSummariser());
      const tidying = AGENTS.tidying;
      const { conversationId, ownerId } = await conversationWithTurns(store, 1);
      // The first turn switched mode; the compaction swallows it.
      const switched = await store.append({
        conversationId,
        nodes: [
          { kind: 'mode', payload: { from: 'start', to: 'sorting', data: null }, authorId: 'agent:tidying' },
        ],
        actorId: 'agent:tidying',
      });
      if (!switched.ok) throw new Error(switched.error.message);
      await talk(store, conversationId, ownerId, 'message 2');
      const head = await talk(store, conversationId, ownerId, 'message 3');
      const before = await pathOf(store, conversationId);

      await processor.process({ conversationId, head, requestedBy: ownerId }, run);

      const after = await pathOf(store, conversationId);
      expect(after[1]?.kind).toBe('summary');
      expect(after.every((n) => n.kind !== 'mode')).toBe(true);
      expect(modeStateOf(tidying, after)).toEqual(modeStateOf(tidying, before));
      expect(modeStateOf(tidying, before).mode).toBe('sorting');
      expect(foldPath(tidying.state, after)).toEqual(foldPath(tidying.state, before));
    });

    it('says a job failed, with why, when it cannot succeed', async () => {
      const { processors } = processorsFor(store, new OfflineSummariser());
      const jobs = new InProcessJobQueue(processors);
      const queue = new CompactionQueue(jobs);
      const { conversationId, ownerId, head } = await conversationWithTurns(store, 3);
      await store.move({ conversationId, to: 'HEAD~4', action: 'rewind', actorId: ownerId });
      await queue.request({ conversationId, head, requestedBy: ownerId });
      await jobs.close();
      expect((await queue.list(conversationId)).items).toEqual([
        {
          jobId: compactJobId(conversationId, head),
          state: 'failed',
          error: expect.stringMatching(/no longer runs/),
        },
      ]);
    });
  });

  it('refuses to start with a job name that has no processor', () => {
    expect(() => checkProcessors({})).toThrow("no processor for job 'conversation.compact'");
  });
});
