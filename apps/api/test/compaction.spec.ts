import { randomBytes } from 'node:crypto';
import { DEFAULT_SUMMARY_INSTRUCTIONS, modeStateOf } from '@sweatpants/agent-runtime';
import { summaryInstructions, type AgentCatalog } from '@sweatpants/agent-runtime/host';
import { productAgents } from '@sweatpants/product-agents';
import {
  compactJobId,
  foldPath,
  type Compaction,
  type CompactionList,
  type TreeNode,
} from '@sweatpants/domain';
import { createTestDatabase, type TestDatabase } from '@sweatpants/migrations/testing';
import { PgSqlClient, TreeStore } from '@sweatpants/tree-store';
import { BullJobQueue } from '../src/queue/bullmq-job-queue';
import { startBullWorker, type JobWorkerHandle } from '../src/queue/bullmq-worker';
import { CompactionQueue } from '../src/compaction/compaction-queue.service';
import { COMPACTOR_AUTHOR, CompactionProcessor } from '../src/compaction/compaction.processor';
import { InProcessJobQueue } from '../src/queue/in-process-job-queue';
import { checkProcessors, PermanentJobError, type JobProcessors } from '../src/queue/job-processors';
import type { JobCompleted, JobQueue } from '../src/queue/job-queue';
import { ModelSummariser, OfflineSummariser, type Summariser } from '../src/compaction/summariser';
import { conversationWithTurns, HeldModel, pathOf, summariesIn, talk, texts } from './compaction-fixtures';
import { answer, conversation, createConversation, kinds, path, say, turn, until } from './support/flows';
import { call, register, startApi, type TestApi } from './support/test-api';

const REDIS_URL = 'redis://127.0.0.1:6379';

/** The product's agents, as the worker exposes them. */
let agents: AgentCatalog;
beforeAll(async () => {
  agents = await productAgents();
});

function processorsFor(
  store: TreeStore,
  summariser: Summariser,
): {
  processor: CompactionProcessor;
  processors: JobProcessors;
} {
  const processor = new CompactionProcessor(store, summariser, agents);
  const processors: JobProcessors = {
    'conversation.compact': (payload, jobRun) => processor.process(payload, jobRun),
    // These specs queue compactions only; gc has its own (gc.spec.ts).
    'tree.gc': () => Promise.reject(new PermanentJobError('gc is not run by the compaction specs')),
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
      // The runner's compaction: everything up to its last turn.
      const jobId = await queue.request({ conversationId, head, requestedBy: ownerId, trigger: 'threshold' });
      expect(jobId).toBe(compactJobId(conversationId, head));
      const done = completion(jobs, jobId);

      // The model is writing the summary, told what the tidying coach keeps: the user goes on
      // talking meanwhile.
      await model.asked;
      const tidyingInstructions = await summaryInstructions(agents.definition('tidying'));
      expect(tidyingInstructions).not.toBe(DEFAULT_SUMMARY_INSTRUCTIONS);
      expect(model.requests[0]?.system).toBe(tidyingInstructions);
      // the coach names no model of its own: the deployment's writes its summaries
      expect(model.requests[0]?.model).toBeUndefined();
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

    it('completes a job that had nothing to squash with the reason, and no summary', async () => {
      const { conversationId, ownerId, head } = await conversationWithTurns(store, 2);
      const queue = new CompactionQueue(jobs);
      const jobId = compactJobId(conversationId, head);
      const done = completion(jobs, jobId);
      await queue.request({ conversationId, head, requestedBy: ownerId });
      expect((await done).result).toMatchObject({ reflog: null, reason: expect.any(String) });
      expect((await queue.list(conversationId)).items).toEqual([
        {
          jobId,
          state: 'completed',
          reason:
            'nothing to squash: the conversation is no longer than the 2 latest exchanges, which a compaction keeps',
        },
      ]);
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
      // Asked for, it keeps the two latest exchanges.
      expect(summary?.payload['text']).toBe(
        `Offline summary of 2 nodes (1 user, 1 assistant) from ${covered[0]!.createdAt} to ` +
          `${covered[1]!.createdAt}. The user wrote 1 message: "message 1". ` +
          'The assistant replied 1 times.',
      );
      expect(texts(tail)).toEqual(['message 2', 'reply to message 2', 'message 3', 'reply to message 3']);
      expect((await queue.list(conversationId)).items).toEqual([
        { jobId, state: 'completed', summaryNodeId: summary!.id, covers },
      ]);
      expect(await summariesIn(store, conversationId)).toHaveLength(1);
    });

    it('keeps the agent’s state and mode in the summary, so folds at HEAD see what they saw before', async () => {
      const { processor } = processorsFor(store, new OfflineSummariser());
      const tidying = agents.definition('tidying');
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

    it('completes a job that had nothing to squash with the reason, and no summary', async () => {
      const { processors } = processorsFor(store, new OfflineSummariser());
      const jobs = new InProcessJobQueue(processors);
      const queue = new CompactionQueue(jobs);
      const { conversationId, ownerId, head } = await conversationWithTurns(store, 1);
      await queue.request({ conversationId, head, requestedBy: ownerId });
      await jobs.close();
      expect((await queue.list(conversationId)).items).toEqual([
        {
          jobId: compactJobId(conversationId, head),
          state: 'completed',
          reason:
            'nothing to squash: the conversation is no longer than the 2 latest exchanges, which a compaction keeps',
        },
      ]);
      expect(await summariesIn(store, conversationId)).toHaveLength(0);
    });

    it('says a job failed, with why, when it cannot succeed', async () => {
      const { processors } = processorsFor(store, new OfflineSummariser());
      const jobs = new InProcessJobQueue(processors);
      const queue = new CompactionQueue(jobs);
      const { conversationId, ownerId, head } = await conversationWithTurns(store, 3);
      await store.move({ conversationId, to: 'HEAD~4', action: 'rewind', actorId: ownerId });
      await queue.request({ conversationId, head, requestedBy: ownerId, trigger: 'threshold' });
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

/** PROTOCOL.md's compaction routes on the real app and the real agent, with either queue. */
describe.each([
  ['in-process', {}],
  ['BullMQ', { REDIS_URL }],
] as const)('POST compact on the real app (%s queue)', (_mode, env) => {
  let db: TestDatabase;
  let api: TestApi;
  let token: string;
  const saved = { ...process.env };

  beforeAll(async () => {
    db = await createTestDatabase('api_compaction_routes');
    // The queue's keys go under a prefix of this run's own on the shared Redis.
    process.env['REDIS_PREFIX'] = `compact-${randomBytes(4).toString('hex')}`;
    api = await startApi({ DATABASE_URL: db.url, ...env });
    ({ token } = await register(api, 'compactor'));
  }, 30_000);
  afterAll(async () => {
    await api?.close();
    process.env = saved;
    await db?.drop();
  });

  /** The user's inputs: what they typed, and their answers to the agent's questions. */
  const inputs = (nodes: readonly TreeNode[]): TreeNode[] =>
    nodes.filter((n) => (n.kind === 'user' && n.payload['synthetic'] !== true) || n.kind === 'response');

  /** POST compact, then GET compactions until the job has finished; that job's item. */
  async function compact(id: string): Promise<Compaction> {
    const posted = await call<{ jobId: string }>(api, 'POST', `/api/conversations/${id}/compact`, { token });
    expect(posted.status).toBe(202);
    const { jobId } = posted.body;
    const { body } = await until(
      () => call<CompactionList>(api, 'GET', `/api/conversations/${id}/compactions`, { token }),
      (res) =>
        res.body.items.some((j) => j.jobId === jobId && (j.state === 'completed' || j.state === 'failed')),
    );
    return body.items.find((j) => j.jobId === jobId)!;
  }

  it('squashes all but the latest exchanges of a conversation into a summary on HEAD’s path', async () => {
    const c = await createConversation(api, token);
    await turn(api, token, c.id, 'hello');
    await turn(api, token, c.id, 'My desk is a mess');
    await turn(api, token, c.id, 'ok thanks');
    const before = await path(api, token, c.id);
    expect(before[1]?.payload['text']).toBe('hello');

    const job = await compact(c.id);
    expect(job).toEqual({
      jobId: expect.any(String),
      state: 'completed',
      summaryNodeId: expect.stringMatching(/^[0-9a-f]{64}$/),
      covers: { fromId: before[1]!.id, toId: expect.any(String), count: expect.any(Number) },
    });
    const covered = before.findIndex((n) => n.id === job.covers!.toId);
    expect(job.covers!.count).toBe(covered);

    // The older part is the summary; the two latest exchanges and all after them follow it as they were.
    const after = await until(
      () => path(api, token, c.id),
      (nodes) => nodes[1]?.id === job.summaryNodeId,
    );
    expect(kinds(after.slice(0, 2))).toEqual(['root', 'summary']);
    const tail = after.slice(2);
    expect(tail.map((n) => [n.kind, n.payload['text']])).toEqual(
      before.slice(covered + 1).map((n) => [n.kind, n.payload['text']]),
    );
    expect(inputs(tail)).toHaveLength(2);
    expect(inputs(tail).map((n) => n.payload['text'])).toContain('ok thanks');
    expect(inputs(before.slice(1, covered + 1)).map((n) => n.payload['text'])).toContain('hello');

    // Asked again at once, everything before the latest exchanges is already the summary.
    expect(await compact(c.id)).toEqual({
      jobId: expect.any(String),
      state: 'completed',
      reason: 'nothing to squash: everything before the 2 latest exchanges is already a summary',
    });

    // The agent goes on from the summary.
    await until(
      () => conversation(api, token, c.id),
      (now) => now.head === after.at(-1)!.id && now.pendingElicit?.type === 'chat',
    );
    await turn(api, token, c.id, 'a mug');
    const next = await path(api, token, c.id);
    expect(next[1]?.id).toBe(job.summaryNodeId);
    expect(next.some((n) => n.kind === 'user' && n.payload['text'] === 'a mug')).toBe(true);
  }, 30_000);

  it('leaves a question waiting through a compaction: the turn that asked it stays whole, and its answer is taken', async () => {
    const c = await createConversation(api, token, { agent: 'donations' });
    await turn(api, token, c.id, 'some old books');
    // The next turn asks three questions; two are answered, and the third (the copy) waits.
    const form = (await say(api, token, c.id, 'a winter coat')).pendingElicit!;
    expect(form.type).toBe('form');
    await answer(api, token, c.id, form, {
      action: 'accept',
      content: { condition: 'good', collection: false },
    });
    const located = await until(
      () => conversation(api, token, c.id),
      (now) => now.pendingElicit?.type === 'location',
    );
    await answer(api, token, c.id, located.pendingElicit!, {
      action: 'accept',
      content: { lat: 51.5229, lng: -0.1256 },
    });
    const copy = (
      await until(
        () => conversation(api, token, c.id),
        (now) => now.pendingElicit?.type === 'clipboard-write',
      )
    ).pendingElicit!;

    // Only the turn before goes into the summary: the one in flight begins the tail.
    const job = await compact(c.id);
    expect(job.state).toBe('completed');
    const after = await until(
      () => path(api, token, c.id),
      (nodes) => nodes[1]?.id === job.summaryNodeId,
    );
    expect(after[2]).toMatchObject({ kind: 'user', payload: { text: 'a winter coat' } });

    // The copy is still asked, and answering it finishes the turn.
    const still = await until(
      () => conversation(api, token, c.id),
      (now) => now.head === after.at(-1)!.id && now.pendingElicit !== null,
    );
    expect(still.pendingElicit).toMatchObject({ type: 'clipboard-write', message: copy.message });
    const answered = await answer(api, token, c.id, still.pendingElicit!, {
      action: 'accept',
      content: { success: true },
    });
    expect(answered.status).toBe(200);
    await until(
      () => path(api, token, c.id),
      (nodes) =>
        nodes.some((n) => n.kind === 'assistant' && n.payload['text'] === "I've copied the address for you."),
    );
  }, 30_000);

  it('completes with the reason, and no summary, when there is nothing to squash', async () => {
    const c = await createConversation(api, token);
    const reason =
      'nothing to squash: the conversation is no longer than the 2 latest exchanges, which a compaction keeps';
    expect(await compact(c.id)).toEqual({ jobId: expect.any(String), state: 'completed', reason });
    await turn(api, token, c.id, 'hello');
    expect(await compact(c.id)).toEqual({ jobId: expect.any(String), state: 'completed', reason });
    expect(kinds(await path(api, token, c.id))).not.toContain('summary');
  }, 30_000);

  it("answers another user's compact and compactions with a 404", async () => {
    const c = await createConversation(api, token);
    const stranger = (await register(api, 'stranger')).token;
    for (const [method, route] of [
      ['POST', 'compact'],
      ['GET', 'compactions'],
    ] as const) {
      const res = await call(api, method, `/api/conversations/${c.id}/${route}`, { token: stranger });
      expect([route, res.status]).toEqual([route, 404]);
    }
  });
});
