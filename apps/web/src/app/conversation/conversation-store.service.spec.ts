import { TestBed } from '@angular/core/testing';
import {
  type Conversation,
  type ElicitRequest,
  type QueuedMessage,
  queuedNode,
  type ReflogEntry,
  type TreeNode,
} from '@sweatpants/domain';

import { FakeSocket } from '../../testing/fake-socket';
import { fixtureId, treeFixture } from '../../testing/tree-fixture';
import { ApiService } from '../core/api.service';
import { AgentsService } from '../conversations/agents.service';
import { SessionService } from '../core/session.service';
import { SocketClientService } from '../core/socket-client.service';
import { ConversationStore } from './conversation-store.service';
import { TOO_LATE_TO_WITHDRAW } from './queued-messages';
import { A_USER } from '../../testing/signed-in';

const nodes = treeFixture();
const onHead = nodes.filter((n) => n.onHead).map(({ childIds: _c, onHead: _o, ...node }) => node as TreeNode);
const chatPrompt: ElicitRequest = {
  elicitId: `chat-${fixtureId('d2')}`,
  type: 'chat',
  message: '',
  payload: {},
};
const conversation: Conversation = {
  id: 'c1',
  agent: 'tidying',
  title: 'Desk',
  ownerId: 'u-1',
  head: fixtureId('d2'),
  status: 'waiting',
  pendingElicit: chatPrompt,
  pendingElicits: [chatPrompt],
  model: 'offline',
  createdAt: '2026-01-01T12:00:00.000Z',
  updatedAt: '2026-01-01T12:06:00.000Z',
};
const reflog = {} as ReflogEntry;

/** What a test's server answers to a client event, before the defaults below. */
type Answer = (payload: unknown) => object;

function setup(answers: Partial<Record<string, Answer>> = {}) {
  let path = onHead;
  const api = {
    recover: jest.fn().mockResolvedValue({ head: fixtureId('d2'), reflog }),
    conversation: jest.fn().mockResolvedValue(conversation),
    adminConversation: jest.fn().mockResolvedValue(conversation),
    adminState: jest
      .fn()
      .mockResolvedValue({ at: fixtureId('d2'), agent: 'tidying', state: { phase: 'refining' } }),
    state: jest
      .fn()
      .mockResolvedValue({ at: fixtureId('d2'), agent: 'tidying', state: { phase: 'sorting' } }),
    rewind: jest.fn().mockImplementation(async (_id: string, body: { to: string }) => {
      const byId = new Map(nodes.map((n) => [n.id, n]));
      const chain: TreeNode[] = [];
      for (let n = byId.get(body.to); n; n = n.parentId ? byId.get(n.parentId) : undefined) chain.unshift(n);
      path = chain;
      return { head: body.to, reflog };
    }),
    owner: {
      path: jest.fn().mockImplementation(async () => ({ nodes: path })),
      tree: jest.fn().mockResolvedValue(nodes),
      reflog: jest.fn().mockResolvedValue({ entries: [{ id: 'r-before' }], next: null }),
    },
    admin: {
      path: jest.fn().mockImplementation(async () => ({ nodes: path })),
      tree: jest.fn().mockResolvedValue(nodes),
      reflog: jest.fn().mockResolvedValue({ entries: [], next: null }),
    },
  };
  const socket = new FakeSocket((event, payload) => {
    const answer = answers[event];
    if (answer) return answer(payload);
    if (event === 'conversation:join') return { ok: true, conversation };
    if (event === 'elicit:response') {
      // as the api answers: the chat prompt's answer is the person's message, any other
      // question's a `response` node recording it
      const p = payload as { elicitId: string; action: string; content: { text: string } };
      const chat = p.elicitId.startsWith('chat-');
      return {
        ok: true,
        node: {
          ...onHead[4]!,
          id: fixtureId('e1'),
          parentId: fixtureId('d2'),
          kind: chat ? 'user' : 'response',
          payload: chat ? p.content : { elicitId: p.elicitId, action: p.action, content: p.content },
        },
      };
    }
    if (event === 'message:regenerate') return { ok: true, head: fixtureId('d2') };
    return { ok: false, error: { code: 'invalid_request', message: 'nope' } };
  });
  TestBed.configureTestingModule({ providers: [ConversationStore, { provide: ApiService, useValue: api }] });
  TestBed.inject(SessionService).start({
    token: 't',
    user: A_USER,
  });
  TestBed.inject(SocketClientService).useFactory(() => socket.asSocket());
  return { store: TestBed.inject(ConversationStore), api, socket };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('ConversationStore', () => {
  afterEach(() => localStorage.clear());

  it('is opening only until HEAD’s path is in: slower reads of the tree and state do not hold the chat back', async () => {
    const { store, api } = setup();
    let treeRead: (value: typeof nodes) => void = () => undefined;
    api.owner.tree.mockImplementationOnce(() => new Promise((resolve) => (treeRead = resolve)));
    const opened = store.open('c1', false);
    expect(store.opening()).toBe(true);
    await tick();
    await tick();
    expect(store.path().length).toBeGreaterThan(0);
    expect(store.loading()).toBe(true);
    expect(store.opening()).toBe(false);
    treeRead(nodes);
    await opened;
    expect(store.loading()).toBe(false);
  });

  it('opens: conversation, HEAD path, tree and state; joins the room on connect and on reconnect', async () => {
    const { store, socket } = setup();
    await store.open('c1', false);
    expect(store.path().map((n) => n.id)).toEqual(onHead.map((n) => n.id));
    expect(store.pending()?.type).toBe('chat');
    expect(store.siblings(fixtureId('c2'))).toEqual({ ids: [fixtureId('c1'), fixtureId('c2')], index: 1 });
    socket.connect();
    await tick();
    socket.connect();
    await tick();
    expect(socket.emitted.filter((e) => e.event === 'conversation:join')).toEqual([
      { event: 'conversation:join', payload: { conversationId: 'c1' } },
      { event: 'conversation:join', payload: { conversationId: 'c1' } },
    ]);
  });

  it('opens read-only for an admin: what the conversation is, never its owner’s question, no room joined', async () => {
    const { store, api, socket } = setup();
    await store.open('c1', true);
    expect(api.adminConversation).toHaveBeenCalledWith('c1');
    expect(api.conversation).not.toHaveBeenCalled();
    expect(store.conversation()).toMatchObject({ title: 'Desk', agent: 'tidying' });
    expect(store.pending()).toBeNull();
    expect(store.path().map((n) => n.id)).toEqual(onHead.map((n) => n.id));
    socket.connect();
    await tick();
    expect(socket.emitted.filter((e) => e.event === 'conversation:join')).toEqual([]);
  });

  it('applies node, status, elicit, withdrawn and token events for its conversation only', async () => {
    const { store, socket } = setup();
    await store.open('c1', false);
    socket.serverSends('status', { conversationId: 'c1', status: 'running' });
    socket.serverSends('token', { conversationId: 'c1', nodeId: 'x', text: 'Let ' });
    socket.serverSends('token', { conversationId: 'c1', nodeId: 'x', text: 'us go' });
    socket.serverSends('token', { conversationId: 'other', nodeId: 'x', text: '!!' });
    expect(store.status()).toBe('running');
    expect(store.streaming()).toEqual({ nodeId: 'x', text: 'Let us go' });

    const reply = {
      ...onHead[4]!,
      id: fixtureId('f1'),
      parentId: fixtureId('d2'),
      payload: { text: 'Let us go' },
    };
    socket.serverSends('node', { conversationId: 'c1', node: reply });
    expect(store.path().at(-1)?.id).toBe(fixtureId('f1'));
    expect(store.streaming()).toBeNull();
    expect(store.announcement()).toBe('Agent: Let us go');
    expect(store.tree().get(fixtureId('d2'))?.childIds).toContain(fixtureId('f1'));

    const elicit = { elicitId: 'q1', type: 'confirm' as const, message: 'Done?', payload: { default: true } };
    socket.serverSends('elicit', { conversationId: 'c1', nodeId: fixtureId('f1'), ...elicit });
    // joins the chat prompt that waited already, after it
    expect(store.questions.all()).toEqual([chatPrompt, elicit]);
    expect(store.announcement()).toBe('Question: Done?');
    TestBed.inject(AgentsService).use([
      {
        name: 'donations',
        title: 'Donation helper',
        description: 'Finds places.',
        speaker: 'the helper',
        needs: [],
        intro: 'Hello.',
        placeholder: 'e.g. a coat',
      },
    ]);
    socket.serverSends('elicit', {
      conversationId: 'c1',
      nodeId: fixtureId('f1'),
      ...elicit,
      elicitId: 'q2',
      message: 'Look for places near you?',
      askedBy: 'donations',
    });
    // a screen reader is told who asks when it is another agent
    expect(store.announcement()).toBe('The donation helper asks: Look for places near you?');
    socket.serverSends('elicit:withdrawn', { conversationId: 'c1', elicitId: 'q2', reason: 'cancelled' });
    socket.serverSends('elicit:withdrawn', { conversationId: 'c1', elicitId: 'q1', reason: 'cancelled' });
    expect(store.questions.all()).toEqual([chatPrompt]);
  });

  it('asks for another answer to a reply over the socket, and shows the agent at work', async () => {
    const { store, socket, api } = setup();
    await store.open('c1', false);
    api.owner.path.mockClear();
    expect(await store.regenerate(fixtureId('d2'))).toBe(true);
    expect(socket.emitted.at(-1)).toEqual({
      event: 'message:regenerate',
      payload: { conversationId: 'c1', nodeId: fixtureId('d2') },
    });
    expect(store.status()).toBe('running');
    expect(api.owner.path).toHaveBeenCalled();
  });

  it('keeps a reply that arrives while the path after a move is being read', async () => {
    const { store, socket, api } = setup();
    await store.open('c1', false);
    // HEAD moved back one node (a regenerate); the read of the new path is slow to answer.
    const moved = onHead.slice(0, -1);
    let answer: (value: { nodes: TreeNode[] }) => void = () => undefined;
    api.owner.path.mockImplementationOnce(() => new Promise((resolve) => (answer = resolve)));
    const reading = store.refreshPath();
    // The new reply is delivered before the read answers, and the read does not hold it yet.
    const reply = {
      ...onHead.at(-1)!,
      id: fixtureId('f2'),
      parentId: moved.at(-1)!.id,
      payload: { text: 'Again' },
    };
    socket.serverSends('node', { conversationId: 'c1', node: reply });
    answer({ nodes: moved });
    await reading;
    expect(store.path().map((n) => n.id)).toEqual([...moved.map((n) => n.id), fixtureId('f2')]);
  });

  it('rewinds from the chat with an Undo that recovers where HEAD was', async () => {
    const { store, api } = setup();
    await store.open('c1', false);
    expect(await store.rewindWithUndo(fixtureId('a1'), "'my desk is a mess'")).toBe(true);
    expect(api.rewind).toHaveBeenCalledWith('c1', { to: fixtureId('a1') });
    expect(store.undo()).toEqual({ reflogId: 'r-before', label: "'my desk is a mess'" });
    expect(await store.undoRewind()).toBe(true);
    expect(api.recover).toHaveBeenCalledWith('c1', 'r-before');
    expect(store.undo()).toBeNull();
  });

  it('follows a rename, or a title taken from the first words, of its conversation only', async () => {
    const { store, socket } = setup();
    await store.open('c1', false);
    socket.serverSends('title', { conversationId: 'other', title: 'Not this one' });
    socket.serverSends('title', { conversationId: 'c1', title: 'The hall closet' });
    expect(store.conversation()?.title).toBe('The hall closet');
  });

  it('sends a message by answering the pending chat elicit', async () => {
    const { store, socket } = setup();
    await store.open('c1', false);
    expect(await store.send('the lamp', [])).toBe(true);
    expect(socket.emitted.at(-1)).toEqual({
      event: 'elicit:response',
      payload: {
        conversationId: 'c1',
        elicitId: `chat-${fixtureId('d2')}`,
        action: 'accept',
        content: { text: 'the lamp' },
      },
    });
    expect(store.pending()).toBeNull();
    expect(store.path().at(-1)?.id).toBe(fixtureId('e1'));
  });

  it('ends a pending question when its answer arrives as a node (another tab, or words typed off-script)', async () => {
    const { store, socket } = setup();
    await store.open('c1', false);
    const elicit = { elicitId: 'q1', type: 'confirm' as const, message: 'Done?', payload: { default: true } };
    socket.serverSends('elicit', { conversationId: 'c1', nodeId: fixtureId('d2'), ...elicit });
    socket.serverSends('status', { conversationId: 'c1', status: 'waiting' });
    socket.serverSends('node', {
      conversationId: 'c1',
      node: {
        ...onHead[4]!,
        id: fixtureId('r1'),
        kind: 'response',
        payload: { elicitId: 'other', action: 'decline' },
      },
    });
    expect(store.questions.all()).toEqual([chatPrompt, elicit]);
    socket.serverSends('node', {
      conversationId: 'c1',
      node: {
        ...onHead[4]!,
        id: fixtureId('r2'),
        parentId: fixtureId('d2'),
        kind: 'response',
        payload: { elicitId: 'q1', action: 'other', content: { text: 'not yet, one more drawer' } },
      },
    });
    expect(store.questions.all()).toEqual([chatPrompt]);
    // the agent still waits, on the question left
    expect(store.status()).toBe('waiting');
    expect(store.path().at(-1)?.id).toBe(fixtureId('r2'));
  });

  it('ends the chat prompt when a message sent from another tab arrives as its node', async () => {
    const { store, socket } = setup();
    await store.open('c1', false);
    socket.serverSends('node', {
      conversationId: 'c1',
      node: {
        ...onHead[4]!,
        id: fixtureId('u9'),
        parentId: fixtureId('d2'),
        kind: 'user',
        payload: { text: 'a scarf' },
      },
    });
    // the composer no longer answers the old prompt, and the agent is at work on the message
    expect(store.pending()).toBeNull();
    expect(store.status()).toBe('running');
    const card = {
      elicitId: 'q9',
      type: 'confirm' as const,
      message: 'Keep the scarf?',
      payload: { default: true },
    };
    socket.serverSends('elicit', { conversationId: 'c1', nodeId: fixtureId('u9'), ...card });
    expect(store.pending()).toEqual(card);
  });

  it('keeps the next chat prompt when the message it follows is announced after it (a fast turn)', async () => {
    const { store, socket } = setup();
    await store.open('c1', false);
    // the turn on the message ends before its nodes are announced: its prompt comes first
    const next = { ...chatPrompt, elicitId: `chat-${fixtureId('r9')}`, message: 'Session done.' };
    socket.serverSends('status', { conversationId: 'c1', status: 'waiting' });
    socket.serverSends('elicit', { conversationId: 'c1', nodeId: fixtureId('r9'), ...next });
    socket.serverSends('node', {
      conversationId: 'c1',
      node: {
        ...onHead[4]!,
        id: fixtureId('u9'),
        parentId: fixtureId('d2'),
        kind: 'user',
        payload: { text: "I'm done" },
      },
    });
    // the message ends only the prompt it answered: the composer offers the new one, nothing works
    expect(store.pending()).toEqual(next);
    expect(store.status()).toBe('waiting');
  });

  it('holds every question pending on join, answers the one named, and leaves the others pending', async () => {
    const { store, socket, api } = setup();
    const coach = { ...chatPrompt, askedBy: 'tidying' };
    const helper: ElicitRequest = {
      elicitId: 'q-helper',
      type: 'confirm',
      message: 'Look for places near you?',
      payload: { default: true },
      askedBy: 'donations',
    };
    api.conversation.mockResolvedValue({
      ...conversation,
      pendingElicit: coach,
      pendingElicits: [coach, helper],
    });
    await store.open('c1', false);
    expect(store.questions.all()).toEqual([coach, helper]);
    // the composer still answers the oldest, the coach's chat prompt
    expect(store.pending()).toEqual(coach);
    store.reportProgress({ status: 'acquiring' }, 'q-helper');
    expect(socket.emitted.at(-1)?.payload).toMatchObject({ elicitId: 'q-helper' });
    expect(await store.answer({ action: 'accept', content: { value: true } }, 'q-helper')).toBe(true);
    expect(socket.emitted.at(-1)).toEqual({
      event: 'elicit:response',
      payload: { conversationId: 'c1', elicitId: 'q-helper', action: 'accept', content: { value: true } },
    });
    expect(store.questions.all()).toEqual([coach]);
    // the agent waits on the coach's question still: not shown at work
    expect(store.status()).toBe('waiting');
    expect(await store.answer({ action: 'decline' }, 'q-helper')).toBe(false);
    expect(await store.send('the lamp', [])).toBe(true);
    expect(store.questions.all()).toEqual([]);
    expect(store.status()).toBe('running');
  });

  it('switches to a sibling branch by rewinding to its latest tip', async () => {
    const { store, api } = setup();
    await store.open('c1', false);
    await store.switchBranch(fixtureId('c1'));
    expect(api.rewind).toHaveBeenCalledWith('c1', { to: fixtureId('d1') });
    expect(store.path().at(-1)?.id).toBe(fixtureId('d1'));
  });

  it("sends what the pending question's widget reports as elicit:progress, and nothing when none is pending", async () => {
    const { store, socket } = setup();
    await store.open('c1', false);
    store.reportProgress({ status: 'acquiring' });
    expect(socket.emitted.at(-1)).toEqual({
      event: 'elicit:progress',
      payload: {
        conversationId: 'c1',
        elicitId: `chat-${fixtureId('d2')}`,
        payload: { status: 'acquiring' },
      },
    });
    socket.serverSends('elicit:withdrawn', {
      conversationId: 'c1',
      elicitId: `chat-${fixtureId('d2')}`,
      reason: 'cancelled',
    });
    const sent = socket.emitted.length;
    store.reportProgress({ status: 'acquiring' });
    expect(socket.emitted).toHaveLength(sent);
  });

  it('reads the session state again while HEAD keeps moving, not only once the moves stop', async () => {
    const { store, socket, api } = setup();
    await store.open('c1', false);
    api.state.mockClear();
    jest.useFakeTimers();
    try {
      // Answers tapped in quick succession: a HEAD move every 100 ms for 2.5 s.
      for (let ms = 0; ms < 2500; ms += 100) {
        socket.serverSends('head', { conversationId: 'c1', head: fixtureId('d2'), reflog });
        await jest.advanceTimersByTimeAsync(100);
      }
      const during = api.state.mock.calls.length;
      await jest.advanceTimersByTimeAsync(200);
      expect(during).toBeGreaterThanOrEqual(2);
      expect(api.state.mock.calls.length).toBe(during + 1);
    } finally {
      jest.useRealTimers();
    }
  });

  it('shows the newest state when two reads overlap and the older answers last', async () => {
    const { store, api } = setup();
    await store.open('c1', false);
    const answers: ((state: unknown) => void)[] = [];
    api.state.mockImplementation(() => new Promise((resolve) => answers.push(resolve)));
    const older = store.refreshState();
    const newer = store.refreshState();
    answers[1]?.({ at: fixtureId('d2'), agent: 'tidying', state: { phase: 'refining' } });
    await newer;
    answers[0]?.({ at: fixtureId('d1'), agent: 'tidying', state: { phase: 'sorting' } });
    await older;
    expect(store.state()?.state).toEqual({ phase: 'refining' });
  });

  it("shows an admin the state the owner sees, read through the admin's route", async () => {
    const { store, api } = setup();
    await store.open('c1', true);
    expect(api.adminState).toHaveBeenCalledWith('c1');
    expect(api.state).not.toHaveBeenCalled();
    expect(store.state()?.state).toEqual({ phase: 'refining' });
  });

  it('says why words were not taken beside the composer, and reads again what waits', async () => {
    const { store, api } = setup();
    await store.open('c1', false);
    store.questions.replace([]);
    const reads = api.conversation.mock.calls.length;
    expect(await store.send('hello', [])).toBe(false);
    expect(store.answerError()).toBe('nope');
    // not in the page-wide banner, far above the chat
    expect(store.error()).toBeNull();
    // what the conversation waits on now, so sending again answers that
    expect(api.conversation.mock.calls.length).toBe(reads + 1);
    expect(store.pending()).toEqual(conversation.pendingElicit);
  });

  describe('queued messages', () => {
    const waiting = (text: string, n: string): QueuedMessage => ({
      id: fixtureId(n),
      text,
      authorId: 'u-1',
      createdAt: '2026-01-01T12:07:00.000Z',
    });
    const second = waiting('and the papers', 'q1');
    const third = waiting('also the lamp', 'q2');
    /** The server queues every message: the agent is at work with nothing to ask. */
    const queues = {
      'message:send': (payload: unknown) => {
        const { text } = payload as { text: string };
        const message = text === third.text ? third : second;
        return { ok: true, node: queuedNode(message, 'c1', { id: fixtureId('d2'), depth: 4 }) };
      },
    };
    /** The store of a conversation whose agent is at work with nothing pending. */
    async function atWork(answers: Partial<Record<string, Answer>> = {}) {
      const parts = setup({ ...queues, ...answers });
      await parts.store.open('c1', false);
      parts.socket.serverSends('elicit:withdrawn', {
        conversationId: 'c1',
        elicitId: `chat-${fixtureId('d2')}`,
        reason: 'answered',
      });
      parts.socket.serverSends('status', { conversationId: 'c1', status: 'running' });
      return parts;
    }

    it('puts a message sent while the agent works in the queue, not on the path', async () => {
      const { store, socket } = await atWork();
      const before = store.path().map((n) => n.id);
      expect(await store.send('and the papers', [])).toBe(true);
      expect(socket.emitted.at(-1)).toEqual({
        event: 'message:send',
        payload: { conversationId: 'c1', text: 'and the papers' },
      });
      expect(store.path().map((n) => n.id)).toEqual(before);
      expect(store.tree().has(second.id)).toBe(false);
      expect(store.queue.items()).toEqual([second]);
      expect(store.status()).toBe('running');
      // The server's event listing it changes nothing more.
      socket.serverSends('queue', { conversationId: 'c1', items: [second] });
      expect(store.queue.items()).toEqual([second]);
    });

    it('lets the message go once the agent takes it: its node is on the path, and an ack that comes late does not bring it back', async () => {
      const { store, socket } = await atWork();
      const taken = {
        ...onHead[4]!,
        id: fixtureId('t1'),
        parentId: fixtureId('d2'),
        kind: 'user' as const,
        payload: { text: second.text, queuedId: second.id },
      };
      // The agent was quick: queued, taken and listed empty before the send's ack arrives.
      socket.serverSends('queue', { conversationId: 'c1', items: [second] });
      socket.serverSends('node', { conversationId: 'c1', node: taken });
      expect(store.queue.items()).toEqual([]);
      expect(store.path().at(-1)?.id).toBe(fixtureId('t1'));
      socket.serverSends('queue', { conversationId: 'c1', items: [] });
      expect(await store.send('and the papers', [])).toBe(true);
      expect(store.queue.items()).toEqual([]);
    });

    it('takes the list from the conversation on open, and each queue event replaces it whole', async () => {
      const { store, socket, api } = setup();
      api.conversation.mockResolvedValue({ ...conversation, status: 'running', queued: [second] });
      await store.open('c1', false);
      expect(store.queue.items()).toEqual([second]);
      socket.serverSends('queue', { conversationId: 'c1', items: [second, third] });
      expect(store.queue.items()).toEqual([second, third]);
      socket.serverSends('queue', { conversationId: 'other', items: [] });
      expect(store.queue.items()).toEqual([second, third]);
      socket.serverSends('queue', { conversationId: 'c1', items: [third] });
      expect(store.queue.items()).toEqual([third]);
    });

    it('withdraws a queued message with message:withdraw, and answers it so its words are not lost', async () => {
      const { store, socket } = await atWork({ 'message:withdraw': () => ({ ok: true }) });
      await store.send('and the papers', []);
      await store.send('also the lamp', []);
      expect(store.queue.items()).toEqual([second, third]);
      expect(await store.withdraw(third.id)).toEqual(third);
      expect(socket.emitted.at(-1)).toEqual({
        event: 'message:withdraw',
        payload: { conversationId: 'c1', nodeId: third.id },
      });
      expect(store.queue.items()).toEqual([second]);
      expect(store.queue.refusal()).toBeNull();
    });

    it('says beside the composer when a withdraw came too late (409): the agent took the message', async () => {
      const { store } = await atWork({
        'message:withdraw': () => ({
          ok: false,
          error: { code: 'conflict', message: 'the agent already took this message' },
        }),
      });
      await store.send('and the papers', []);
      expect(await store.withdraw(second.id)).toBeNull();
      expect(store.queue.refusal()).toBe(TOO_LATE_TO_WITHDRAW);
      expect(store.error()).toBeNull();
      expect(store.queue.items()).toEqual([]);
    });
  });
});
