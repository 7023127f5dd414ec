import { foldPath, ok, type Json, type NodeDraft, type TreeNode } from '@sweatpants/domain';
import { historyOf, summaryStates } from './history';
import type { Model, ModelReply, ModelRequest } from './model';
import { openingPath } from './opening-path';
import { Runner } from './runner';
import type { ConversationPort } from '@sweatpants/domain';
import { fromSummary, InMemoryConversationPort } from './storage/in-memory-port';
import { testAgent } from './testing/test-agent';

/** A model that answers every request with `text`, recording what it was asked. */
function recordingModel(text: string): Model & { asked: ModelRequest[] } {
  const asked: ModelRequest[] = [];
  return {
    kind: 'offline',
    name: 'recording',
    asked,
    async complete(request) {
      asked.push(request);
      const reply: ModelReply = {
        content: [{ type: 'text', text }],
        stopReason: 'end_turn',
        usage: { inputTokens: 1, outputTokens: 1 },
        model: 'recording',
      };
      return ok(reply);
    },
  };
}

const said = (kind: 'user' | 'assistant', text: string): NodeDraft => ({
  kind,
  payload: { text },
  authorId: kind === 'user' ? 'u1' : 'agent:test',
});

/**
 * An in-memory conversation and a port over it that counts whole-path reads: the runner should
 * open from the summaries and read root → HEAD only when a summary cannot stand for what it covers.
 */
function conversation() {
  const store = new InMemoryConversationPort();
  store.create('c1');
  const reads = { path: 0, fromSummary: 0 };
  const port: ConversationPort = {
    path: (id) => {
      reads.path++;
      return store.path(id);
    },
    pathFromSummary: (id) => {
      reads.fromSummary++;
      return store.pathFromSummary(id);
    },
    build: (input) => store.build(input),
    append: (input) => store.append(input),
    returnTo: (input) => store.returnTo(input),
    requestCompaction: (input) => store.requestCompaction(input),
    queue: store.queue,
  };
  return { store, port, reads };
}

async function wholePath(store: InMemoryConversationPort): Promise<TreeNode[]> {
  const path = await store.path('c1');
  if (!path.ok) throw new Error(path.error.message);
  return path.value;
}

/** Appends drafts at HEAD, as the store would; returns the stored nodes. */
async function append(store: InMemoryConversationPort, drafts: NodeDraft[]): Promise<TreeNode[]> {
  const path = await wholePath(store);
  const head = path.at(-1) as TreeNode;
  const built = store.build({ conversationId: 'c1', parent: head, nodes: drafts });
  if (!built.ok) throw new Error(built.error.message);
  const stored = await store.append({
    conversationId: 'c1',
    runs: [{ nodes: built.value }],
    expectedHead: head.id,
  });
  if (!stored.ok) throw new Error(stored.error.message);
  return built.value;
}

/** A summary of `covered` (the path root → the range's end) as compaction writes it. */
function summaryOf(covered: readonly TreeNode[], text: string, withStates = true): NodeDraft {
  const range = covered.slice(1);
  const payload: { [key: string]: Json } = {
    text,
    covers: { fromId: range[0]!.id, toId: range.at(-1)!.id, count: range.length },
  };
  if (withStates) payload['states'] = summaryStates(testAgent, covered);
  return { kind: 'summary', payload, authorId: 'agent:compactor' } as NodeDraft;
}

const windingDown: NodeDraft = {
  kind: 'mode',
  payload: { from: 'chatting', to: 'winding-down', data: { reason: 'tired' } },
  authorId: 'agent:test',
};

/** A runner opened on `port` whose model says nothing. */
const openQuiet = (port: ConversationPort) =>
  Runner.open({ conversationId: 'c1', agent: testAgent, port, model: recordingModel('ok') });

describe('Runner.open from the latest summaries', () => {
  it('reads only from the summary: the state and mode it keeps, the chat prompt at HEAD', async () => {
    const { store, port, reads } = conversation();
    const [hi] = await append(store, [said('user', 'hi'), windingDown, said('assistant', 'bye for now')]);
    // The summary is written below the range here, as the bench builds deep conversations: the
    // runner must still read nothing above it.
    const [summary] = await append(store, [summaryOf(await wholePath(store), 'the user is tired')]);
    await append(store, [said('user', 'still here'), said('assistant', 'so I see')]);
    const whole = await wholePath(store);

    const runner = await openQuiet(port);
    try {
      expect(reads).toEqual({ path: 0, fromSummary: 1 });
      expect(runner.state()).toEqual(foldPath(testAgent.state, whole));
      expect(runner.state()).toEqual({ mode: 'winding-down', data: { reason: 'tired' } });
      // Its last turn has no cancel: the runner replays it from the record, writing nothing.
      await runner.whenIdle();
      expect(runner.head).toBe(whole.at(-1)?.id);
      expect(await wholePath(store)).toEqual(whole);
      expect(runner.pending().map((p) => p.type)).toEqual(['chat']);
      expect(runner.onPath(summary!.id)).toBe(true);
      // Above the summary: not on the path the runner holds (see Runner.onPath).
      expect(runner.onPath(hi!.id)).toBe(false);
    } finally {
      await runner.close();
    }
  });

  it("gives the model what the whole path would: every stacked summary's words and what follows", async () => {
    const { store, port } = conversation();
    // What two compactions squashed, on a branch of its own: the summaries stand for it.
    store.create('squashed');
    const squashed = store.build({
      conversationId: 'squashed',
      parent: store.inspect('squashed').nodes.values().next().value as TreeNode,
      nodes: [
        said('user', 'hi'),
        said('assistant', 'hello'),
        said('user', 'a coat'),
        said('assistant', 'keep it?'),
      ],
    });
    if (!squashed.ok) throw new Error(squashed.error.message);
    const [root] = await wholePath(store);
    const range = [root!, ...squashed.value];
    // Compaction stacks them: the second summarises only what followed the first, under it.
    await append(store, [
      summaryOf(range.slice(0, 3), 'they said hello'),
      summaryOf([range[0]!, ...range.slice(3)], 'they talked about a coat'),
    ]);
    const model = recordingModel('noted');

    const runner = await Runner.open({ conversationId: 'c1', agent: testAgent, port, model });
    try {
      const sent = await runner.send({ text: 'next', authorId: 'u1' });
      expect(sent.ok).toBe(true);
      await runner.whenIdle();
      const whole = await wholePath(store);
      expect(whole.map((n) => n.kind)).toEqual(['root', 'summary', 'summary', 'user', 'assistant']);
      expect(model.asked[0]?.messages).toEqual(historyOf(whole.slice(0, 4)));
      expect(JSON.stringify(model.asked[0]?.messages)).toContain('they said hello');
      expect(whole.at(-1)?.payload).toMatchObject({ text: 'noted' });
    } finally {
      await runner.close();
    }
  });

  it('reads the whole path when the summary does not keep the agent state (an older summary)', async () => {
    const { store, port, reads } = conversation();
    await append(store, [said('user', 'hi'), windingDown]);
    await append(store, [summaryOf(await wholePath(store), 'no states', false), said('user', 'hm')]);
    const whole = await wholePath(store);

    const runner = await openQuiet(port);
    try {
      expect(reads).toEqual({ path: 1, fromSummary: 1 });
      expect(runner.state()).toEqual(foldPath(testAgent.state, whole));
      expect(runner.state()).toEqual({ mode: 'winding-down', data: { reason: 'tired' } });
    } finally {
      await runner.close();
    }
  });
});

describe('Runner.pathTo: the path a runner opened after HEAD moved back stands on', () => {
  it('is what opening at that node reads, from the same summaries, for every node on the path', async () => {
    const { store, port, reads } = conversation();
    await append(store, [said('user', 'hi'), said('assistant', 'hello')]);
    await append(store, [summaryOf(await wholePath(store), 'they said hello')]);
    await append(store, [said('user', 'a coat'), said('assistant', 'keep it?'), said('user', 'yes')]);
    const runner = await openQuiet(port);
    await runner.whenIdle();
    const whole = await wholePath(store);
    const held = whole.filter((n) => runner.onPath(n.id));
    try {
      expect(held.map((n) => n.kind)).toEqual(['summary', 'user', 'assistant', 'user', 'assistant']);
      for (const node of held) {
        store.moveHead('c1', node.id);
        const opened = await openingPath(port, 'c1', testAgent);
        expect(runner.pathTo(node.id)).toEqual(opened.ok ? opened.value : opened.error);
      }
      expect(reads.path).toBe(0);
      // Above the summary the runner holds nothing: the caller reads the tree.
      expect(runner.pathTo(whole.find((n) => n.kind === 'user')?.id ?? '')).toBeUndefined();
    } finally {
      await runner.close();
    }
  });

  it('is refused while a turn runs: its path is still being written', async () => {
    const { port } = conversation();
    const runner = await Runner.open({
      conversationId: 'c1',
      agent: testAgent,
      port,
      model: { kind: 'offline', name: 'never', complete: () => new Promise(() => undefined) },
    });
    try {
      const sent = await runner.send({ text: 'hi', authorId: 'u1' });
      expect(sent.ok && runner.pathTo(sent.value.id)).toBeUndefined();
    } finally {
      await runner.close();
    }
  });
});

describe('fromSummary (the in-memory port)', () => {
  const node = (kind: TreeNode['kind'], id: string) => ({ kind, id }) as TreeNode;

  it('starts at the latest summary, at the first of a stack, at the root when there is none', () => {
    const [root, u, a, s1, s2, u2] = [
      node('root', 'r'),
      node('user', 'u'),
      node('assistant', 'a'),
      node('summary', 's1'),
      node('summary', 's2'),
      node('user', 'u2'),
    ] as TreeNode[];
    const ids = (path: TreeNode[]) => path.map((n) => n.id);
    expect(ids(fromSummary([root!, u!, a!]))).toEqual(['r', 'u', 'a']);
    expect(ids(fromSummary([root!, s1!, u!, s2!, u2!]))).toEqual(['s2', 'u2']);
    expect(ids(fromSummary([root!, s1!, s2!, u2!]))).toEqual(['s1', 's2', 'u2']);
    expect(ids(fromSummary([root!, u!, s1!]))).toEqual(['s1']);
  });
});
