import type { Json } from '@sweatpants/domain';
import { CommandForwarder } from '../src/cluster/command-forwarder';
import { firstAnswer, OPENING, path, PHOTO, until } from './support/flows';
import { useApiPair } from './support/api-pair';
import { call, register, type TestApi } from './support/test-api';
import { connect, record, request, type ClientSocket } from './support/test-socket';

/**
 * Each test is a dozen round trips through two apps, Redis and argon2 hashing; on a CI machine
 * running every suite at once that has taken more than jest's default 5 s. Generous: a hang still
 * fails, and the figures that matter are measured by the bench, not here.
 */
const TWO_PROCESS_TIMEOUT_MS = 30_000;

/**
 * Two api processes on one database and one Redis, as the hosted shape runs them. A conversation
 * is driven by the process holding its lease; whatever a client sends to the other process is
 * forwarded there, and every event reaches the clients of both through the Redis adapter.
 */
describe('two api processes on one database and Redis', () => {
  const sockets: ClientSocket[] = [];
  // Declared first so it runs first: the sockets close before the apis they are connected to.
  afterAll(() => {
    for (const socket of sockets) socket.close();
  });
  // A short lease, so the survivor takes over soon after the driver stops.
  const pair = useApiPair('api_two_processes', { LEASE_MS: '1500' });

  async function open(api: TestApi, token: string): Promise<ClientSocket> {
    const socket = await connect(api, token);
    sockets.push(socket);
    return socket;
  }

  it(
    'a client on each process sees every node and HEAD move; commands sent to the other process are forwarded',
    async () => {
      const { token } = await register(pair.a, 'pair');
      const created = await call<{ id: string; head: string }>(pair.a, 'POST', '/api/conversations', {
        token,
        body: { agent: 'tidying' },
      });
      const id = created.body.id;
      const onA = await open(pair.a, token);
      const onB = await open(pair.b, token);
      const nodesA = record(onA, 'node');
      const nodesB = record(onB, 'node');
      const headsA = record(onA, 'head');
      const headsB = record(onB, 'head');
      const elicitsB = record(onB, 'elicit');
      expect(await request(onA, 'conversation:join', { conversationId: id })).toMatchObject({ ok: true });
      // Joining on b asks a (the driver) for the live view and the pending chat prompt.
      expect(await request(onB, 'conversation:join', { conversationId: id })).toMatchObject({
        ok: true,
        conversation: { id, status: 'waiting' },
      });

      // Sent through b, run by a's runner: one user node, seen by both clients.
      const sent = await request(onB, 'message:send', { conversationId: id, text: OPENING, photos: [PHOTO] });
      if (!sent.ok) throw new Error(sent.error.message);
      const asked = await elicitsB.next((e) => e.type !== 'chat');
      const answered = await request(onB, 'elicit:response', {
        conversationId: id,
        elicitId: asked.elicitId,
        ...firstAnswer(asked),
      });
      if (!answered.ok) throw new Error(answered.error.message);
      // The card after the answered one: the agent waits on it, so nothing more is written until
      // it is answered. (The chat prompt's elicit, seen on joining, is not it.)
      await elicitsB.next((e) => e.type !== 'chat' && e.elicitId !== asked.elicitId);

      const nodes = await path(pair.a, token, id);
      await until(
        async () => [nodesA.seen.length, nodesB.seen.length],
        ([x, y]) => x === nodes.length - 1 && y === nodes.length - 1,
      );
      expect(nodesA.seen.map((e) => e.node)).toEqual(nodes.slice(1));
      expect(nodesB.seen.map((e) => e.node)).toEqual(nodes.slice(1));
      expect(new Set(nodes.map((n) => n.id)).size).toBe(nodes.length);

      // A rewind through b: both clients see the move and its reflog row.
      const rewound = await request(onB, 'conversation:rewind', { conversationId: id, to: sent.node.id });
      if (!rewound.ok) throw new Error(rewound.error.message);
      for (const heads of [headsA, headsB]) {
        expect(await heads.next((e) => e.reflog.action === 'rewind')).toMatchObject({
          head: sent.node.id,
          reflog: { newHead: sent.node.id },
        });
      }
    },
    TWO_PROCESS_TIMEOUT_MS,
  );

  it(
    'a forwarded command that does not parse is refused where it arrives, and changes nothing',
    async () => {
      const { token, user } = await register(pair.a, 'forwarder');
      const created = await call<{ id: string; head: string }>(pair.a, 'POST', '/api/conversations', {
        token,
        body: { agent: 'tidying' },
      });
      const id = created.body.id;
      // a drives it (it created it and holds its lease); b forwards raw values as another
      // process of a different version, or a corrupted message, might.
      const forwarder = pair.b.app.get(CommandForwarder);
      // The caller as a command carries it: the user and how their token was verified.
      const caller = { ...user, via: { kind: 'session' } };
      const forward = (command: unknown) =>
        forwarder.run(
          id,
          'conversation-command',
          { user: caller, conversationId: id, command } as Json,
          () => {
            throw new Error('b must not run it: a holds the lease');
          },
        );

      await expect(forward({ kind: 'rewind' })).rejects.toMatchObject({
        body: { error: { code: 'invalid_request' } },
      });
      await expect(forward({ kind: 'detonate' })).rejects.toMatchObject({
        body: { error: { code: 'invalid_request' } },
      });
      await expect(forward({ kind: 'send', text: 42 })).rejects.toMatchObject({
        body: { error: { code: 'invalid_request' } },
      });
      expect(await path(pair.a, token, id)).toHaveLength(1);

      // The same channel carries a well-formed command as itself.
      const viewed = await forward({ kind: 'view' });
      expect(viewed).toMatchObject({ id, head: created.body.head, status: 'waiting' });
    },
    TWO_PROCESS_TIMEOUT_MS,
  );

  it(
    'when the driving process stops, the other takes the conversation over from the tree',
    async () => {
      const { token } = await register(pair.a, 'survivor');
      const created = await call<{ id: string }>(pair.a, 'POST', '/api/conversations', {
        token,
        body: { agent: 'tidying' },
      });
      const id = created.body.id;
      const onA = await open(pair.a, token);
      const elicitsA = record(onA, 'elicit');
      await request(onA, 'conversation:join', { conversationId: id });
      await request(onA, 'message:send', { conversationId: id, text: OPENING, photos: [PHOTO] });
      const asked = await elicitsA.next((e) => e.type !== 'chat');
      const before = await path(pair.a, token, id);
      onA.close();
      await pair.stopA();

      // b was never asked about this conversation: it takes the lease and rebuilds the runner.
      const onB = await open(pair.b, token);
      const elicitsB = record(onB, 'elicit');
      await request(onB, 'conversation:join', { conversationId: id });
      expect(await elicitsB.next((e) => e.elicitId === asked.elicitId)).toEqual(asked);
      const answered = await request(onB, 'elicit:response', {
        conversationId: id,
        elicitId: asked.elicitId,
        ...firstAnswer(asked),
      });
      if (!answered.ok) throw new Error(answered.error.message);
      expect(answered.node).toMatchObject({ kind: 'response', parentId: asked.nodeId });
      const after = await path(pair.b, token, id);
      expect(after.slice(0, before.length)).toEqual(before);
      expect(new Set(after.map((n) => n.id)).size).toBe(after.length);
    },
    TWO_PROCESS_TIMEOUT_MS,
  );
});
