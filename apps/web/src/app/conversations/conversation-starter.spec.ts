import { TestBed } from '@angular/core/testing';
import { provideRouter } from '@angular/router';
import type { ClientEventName, Conversation } from '@sweatpants/domain';

import { FakeSocket } from '../../testing/fake-socket';
import { ApiService } from '../core/api.service';
import { SessionService } from '../core/session.service';
import { SocketClientService } from '../core/socket-client.service';
import { ConversationListService } from './conversation-list.service';
import { ConversationStarter, READY_TIMEOUT_MS } from './conversation-starter';
import { A_USER } from '../../testing/signed-in';

const conversation = (id: string, change: Partial<Conversation> = {}): Conversation => ({
  id,
  agent: 'tidying',
  title: '',
  ownerId: 'u-1',
  head: 'root',
  status: 'running',
  pendingElicit: null,
  pendingElicits: [],
  model: 'offline',
  createdAt: '2026-01-01T12:00:00.000Z',
  updatedAt: '2026-01-01T12:00:00.000Z',
  ...change,
});
const chatQuestion = { elicitId: 'q-1', type: 'chat' as const, message: 'Send a photo', payload: {} };
/** The conversation as the join answers it when the agent already waits for the person's words. */
const waitingForWords = (id: string) =>
  conversation(id, { status: 'waiting', pendingElicit: chatQuestion, pendingElicits: [chatQuestion] });

/**
 * The api and the socket as the server would answer: `joined` is the conversation the join's ack
 * carries; `send` answers `message:send`.
 */
function setup(joined: (id: string) => Conversation, send?: (server: FakeSocket) => object) {
  let made = 0;
  const api = {
    createConversation: jest
      .fn()
      .mockImplementation(async ({ agent }: { agent: Conversation['agent'] }) =>
        conversation(`c-${++made}`, { agent }),
      ),
    archive: jest.fn().mockResolvedValue(undefined),
    listConversations: jest.fn().mockResolvedValue({ items: [], next: null }),
  };
  const socket: FakeSocket = new FakeSocket((event: ClientEventName, payload: unknown): object => {
    const { conversationId } = payload as { conversationId: string };
    if (event === 'conversation:join') return { ok: true, conversation: joined(conversationId) };
    if (event === 'message:send') return send?.(socket) ?? { ok: true, node: { id: 'n-1' } };
    return { ok: true };
  });
  TestBed.configureTestingModule({ providers: [provideRouter([]), { provide: ApiService, useValue: api }] });
  TestBed.inject(SessionService).start({
    token: 't',
    user: A_USER,
  });
  TestBed.inject(SocketClientService).useFactory(() => socket.asSocket());
  const sent = () => socket.emitted.filter((e) => e.event === 'message:send').map((e) => e.payload);
  return { starter: TestBed.inject(ConversationStarter), api, socket, sent };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('ConversationStarter', () => {
  afterEach(() => {
    jest.useRealTimers();
    localStorage.clear();
  });

  it('creates it untitled, joins, and sends at once when the agent already waits', async () => {
    const { starter, api, socket, sent } = setup(waitingForWords);
    const started = starter.start('tidying', { text: 'My desk is a mess' });
    expect(starter.starting()).toBe(true);
    const made = await started;
    expect(made.id).toBe('c-1');
    expect(api.createConversation).toHaveBeenCalledWith({ agent: 'tidying' });
    expect(socket.emitted.map((e) => e.event)).toEqual(['conversation:join', 'message:send']);
    expect(sent()).toEqual([{ conversationId: 'c-1', text: 'My desk is a mess' }]);
    expect(starter.starting()).toBe(false);
    expect(
      TestBed.inject(ConversationListService)
        .items()
        ?.map((c) => c.id),
    ).toEqual(['c-1']);
  });

  it('lists it under the title the api gave it from the first words as they were sent', async () => {
    const { starter, socket } = setup(waitingForWords, (server) => {
      // The api titles it while the message is stored, before the send's acknowledgement.
      server.serverSends('title', { conversationId: 'c-1', title: 'My desk is a mess' });
      return { ok: true, node: { id: 'n-1' } };
    });
    // The tab is connected, so the list hears the api's events.
    TestBed.inject(ConversationListService);
    TestBed.inject(SocketClientService).connect();
    socket.connect();
    await starter.start('tidying', { text: 'My desk is a mess' });
    expect(
      TestBed.inject(ConversationListService)
        .items()
        ?.map((c) => c.title),
    ).toEqual(['My desk is a mess']);
  });

  it('while the agent works, waits for its first question before sending (else it would be queued)', async () => {
    const { starter, socket, sent } = setup((id) => conversation(id, { status: 'running' }));
    const photos = [{ mediaType: 'image/png' as const, data: 'iVBORw0KGgo=' }];
    let done = false;
    const started = starter.start('concierge', { text: '', photos }).then(() => (done = true));
    for (let i = 0; i < 5; i++) await tick();
    expect(socket.emitted.map((e) => e.event)).toEqual(['conversation:join']);
    // Another conversation's question changes nothing.
    socket.serverSends('elicit', { conversationId: 'other', nodeId: 'n', ...chatQuestion });
    await tick();
    expect(sent()).toEqual([]);
    socket.serverSends('elicit', { conversationId: 'c-1', nodeId: 'n', ...chatQuestion });
    await started;
    expect(done).toBe(true);
    expect(sent()).toEqual([{ conversationId: 'c-1', text: '', photos }]);
  });

  it('a status that is no longer running will do as well', async () => {
    const { starter, socket, sent } = setup((id) => conversation(id, { status: 'running' }));
    const started = starter.start('tidying', { text: 'hello' });
    for (let i = 0; i < 5; i++) await tick();
    socket.serverSends('status', { conversationId: 'c-1', status: 'idle' });
    await started;
    expect(sent()).toHaveLength(1);
  });

  it('keeps the conversation it made when sending fails, so a retry makes no second one', async () => {
    let refuse = true;
    const { starter, api, sent } = setup(waitingForWords, () =>
      refuse ? { ok: false, error: { code: 'too_large', message: 'too big' } } : { ok: true, node: {} },
    );
    await expect(starter.start('tidying', { text: 'a long story' })).rejects.toMatchObject({
      code: 'too_large',
    });
    expect(starter.starting()).toBe(false);
    refuse = false;
    const made = await starter.start('tidying', { text: 'a shorter story' });
    expect(made.id).toBe('c-1');
    expect(api.createConversation).toHaveBeenCalledTimes(1);
    expect(sent()).toEqual([
      { conversationId: 'c-1', text: 'a long story' },
      { conversationId: 'c-1', text: 'a shorter story' },
    ]);
  });

  it('another agent after a failure: a new conversation, and the empty one goes', async () => {
    let refuse = true;
    const { starter, api } = setup(waitingForWords, () =>
      refuse ? { ok: false, error: { code: 'internal', message: 'down' } } : { ok: true, node: {} },
    );
    await expect(starter.start('tidying', { text: 'x' })).rejects.toBeDefined();
    refuse = false;
    const made = await starter.start('concierge', { text: 'y' });
    expect(made).toMatchObject({ id: 'c-2', agent: 'concierge' });
    expect(api.archive).toHaveBeenCalledWith('c-1');
  });

  it('gives up in plain words when the agent never gets ready', async () => {
    jest.useFakeTimers();
    const { starter, sent } = setup((id) => conversation(id, { status: 'running' }));
    const started = starter.start('tidying', { text: 'hello' });
    const failed = expect(started).rejects.toThrow(/taking too long/);
    await jest.advanceTimersByTimeAsync(READY_TIMEOUT_MS);
    await failed;
    expect(sent()).toEqual([]);
  });
});
