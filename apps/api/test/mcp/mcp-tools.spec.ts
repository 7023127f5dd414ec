import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  ElicitRequestSchema,
  LATEST_PROTOCOL_VERSION,
  type ElicitRequestFormParams,
} from '@modelcontextprotocol/sdk/types.js';
import type { ElicitRequest, ReflogPage, TreeNode } from '@sweatpants/domain';
import { createTestDatabase, type TestDatabase } from '@sweatpants/migrations/testing';
import { conversation, firstAnswer, OPENING, path, PHOTO, until } from '../support/flows';
import { mcpClient, textsOf } from '../support/mcp-client';
import { call, register, startApi, type TestApi } from '../support/test-api';
import { connect as connectSocket, record, request, type ClientSocket } from '../support/test-socket';

/** A call waits for the agent's whole turn; generous, so only a hang fails. */
const CALL_TIMEOUT_MS = 30_000;
const LONG = { timeout: CALL_TIMEOUT_MS };

interface Structured {
  conversationId: string;
  status: string;
  question: ElicitRequest | null;
}

/**
 * The product's agents as MCP tools, through the official SDK's client against a real api: each
 * call is a conversation of the caller's, on the tree as any client's; a question with a form
 * shape is asked of a client that can elicit, any other waits for the person's own clients.
 */
describe('the agents as MCP tools at /mcp', () => {
  let db: TestDatabase;
  let api: TestApi;
  /** the person's own sign-in, for what they do in their own clients */
  let session: string;
  /** a personal access token named 'laptop', as an MCP client is given */
  let token: string;
  let userId: string;
  const clients: Client[] = [];
  const sockets: ClientSocket[] = [];

  beforeAll(async () => {
    db = await createTestDatabase('api_mcp_tools');
    api = await startApi({ DATABASE_URL: db.url });
    const registered = await register(api, 'mcp');
    session = registered.token;
    userId = registered.user.id;
    token = await accessToken(session, 'laptop');
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await Promise.allSettled(clients.map((c) => c.close()));
    await api?.close();
    await db?.drop();
  }, CALL_TIMEOUT_MS);

  const accessToken = async (signedIn: string, name: string) =>
    (await call<{ token: string }>(api, 'POST', '/api/auth/tokens', { token: signedIn, body: { name } })).body
      .token;
  const VIA_MCP = "(via MCP, token 'laptop')";
  const mcp = async (capabilities = {}) => {
    const c = await mcpClient(api, token, capabilities);
    clients.push(c);
    return c;
  };
  const listed = async () =>
    (
      await call<{ items: { id: string }[] }>(api, 'GET', '/api/conversations?limit=100', { token })
    ).body.items.map((c) => c.id);
  /** The conversation a call started: the caller's one that was not there `before`. */
  const started = async (before: string[]) =>
    until(listed, (ids) => ids.some((id) => !before.includes(id))).then((ids) =>
      ids.find((id) => !before.includes(id))!,
    );
  /** The question the conversation waits on, once it is of `type`. */
  const waitingOn = (id: string, type: string) =>
    until(
      () => conversation(api, token, id),
      (c) => c.status === 'waiting' && c.pendingElicit?.type === type,
    ).then((c) => c.pendingElicit!);
  const reflog = async (id: string) =>
    (await call<ReflogPage>(api, 'GET', `/api/conversations/${id}/reflog?limit=100`, { token })).body.entries;

  it('lists a tool per exposed agent, taking {message, photos?, conversationId?}, and the coach’s guess_pile', async () => {
    const client = await mcp();
    // The newest protocol version the official SDK speaks, negotiated at initialize.
    expect((client.transport as StreamableHTTPClientTransport).protocolVersion).toBe(LATEST_PROTOCOL_VERSION);
    expect(LATEST_PROTOCOL_VERSION).toBe('2025-11-25');
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      'tidying',
      'tidying_guess_pile',
      'concierge',
      'donations',
      'assistant',
    ]);
    expect(tools.find((t) => t.name === 'tidying')?.inputSchema).toMatchObject({
      type: 'object',
      properties: {
        message: { type: 'string' },
        photos: { type: 'array' },
        conversationId: { type: 'string' },
      },
      required: ['message'],
    });
    const guess = await (
      await mcp()
    ).callTool({ name: 'tidying_guess_pile', arguments: { item: 'a coffee mug' } });
    expect(guess.isError).toBeFalsy();
    expect(guess.structuredContent).toMatchObject({ item: 'a coffee mug', pile: expect.any(String) });
  });

  it(
    'a tidying session: the first question comes as elicitation/create, the client’s answer is the response node',
    async () => {
      const client = await mcp({ elicitation: { form: {} } });
      // Listed first, so the SDK's client holds the result to the tool's output schema.
      await client.listTools();
      const asked: ElicitRequestFormParams[] = [];
      client.setRequestHandler(ElicitRequestSchema, (req) => {
        asked.push(req.params as ElicitRequestFormParams);
        return { action: 'accept', content: { choice: 'function-1' } };
      });
      const before = await listed();
      const calling = client.callTool(
        { name: 'tidying', arguments: { message: OPENING, photos: [PHOTO] } },
        undefined,
        LONG,
      );
      // The proposal card has no form shape: the person taps it in their own client.
      const id = await started(before);
      const card = await waitingOn(id, 'propose-disposition');
      expect(
        (
          await call(api, 'POST', `/api/conversations/${id}/elicits/${card.elicitId}/response`, {
            token: session,
            body: firstAnswer(card),
          })
        ).status,
      ).toBe(200);
      const result = await calling;

      expect(asked).toEqual([
        {
          mode: 'form',
          message: 'What do you need to DO in this space?',
          requestedSchema: {
            type: 'object',
            properties: {
              choice: expect.objectContaining({
                type: 'string',
                oneOf: expect.arrayContaining([{ const: 'function-1', title: 'working' }]),
              }),
            },
            required: ['choice'],
          },
        },
      ]);
      const nodes = await path(api, token, id);
      const question = nodes.find((n) => n.kind === 'elicit' && n.payload['type'] === 'choose')!;
      const answer = nodes.find(
        (n): n is TreeNode<'response'> =>
          n.kind === 'response' && n.payload.elicitId === question.payload['elicitId'],
      )!;
      expect(answer.payload).toMatchObject({ action: 'accept', content: { choiceId: 'function-1' } });
      expect(answer.authorId).toBe(userId);
      // The move that wrote the answer is the caller's, as a tap in their own client would be.
      const entries = await reflog(id);
      const at = (nodeId: string) => nodes.findIndex((n) => n.id === nodeId);
      /** The reflog entry of the move that wrote `node` (the first whose HEAD is it or past it). */
      const movedTo = (node: TreeNode) =>
        entries.filter((e) => at(e.newHead) >= at(node.id)).sort((x, y) => at(x.newHead) - at(y.newHead))[0];
      const wrote = movedTo(answer);
      expect(wrote).toMatchObject({ actorId: userId, message: expect.stringMatching(/^append: response/) });
      expect(wrote?.message.endsWith(VIA_MCP)).toBe(true);
      // The message the call said is noted so too; the person's own tap on the card is not.
      expect(
        entries.some(
          (e) => e.message.startsWith(`append: user "${OPENING.slice(0, 20)}`) && e.message.endsWith(VIA_MCP),
        ),
      ).toBe(true);
      const tap = nodes.find((n) => n.kind === 'response' && n.payload['elicitId'] === card.elicitId)!;
      expect(movedTo(tap)).toMatchObject({
        actorId: userId,
        message: expect.stringMatching(/^append: response/),
      });
      expect(movedTo(tap)?.message).not.toContain('MCP');

      const structured = result.structuredContent as unknown as Structured;
      expect(structured).toMatchObject({ conversationId: id, status: 'waiting', question: null });
      const replies = nodes
        .slice(nodes.findIndex((n) => n.kind === 'user'))
        .filter((n) => n.kind === 'assistant' && String(n.payload['text']).trim() !== '')
        .map((n) => n.payload['text']);
      expect(textsOf(result)).toEqual(replies);
    },
    CALL_TIMEOUT_MS,
  );

  it(
    'a question with no form shape waits for the person’s socket while the call sends progress, then returns',
    async () => {
      const client = await mcp(); // no elicitation: every question goes to the person
      const progress: unknown[] = [];
      const before = await listed();
      const calling = client.callTool(
        { name: 'tidying', arguments: { message: OPENING, photos: [PHOTO] } },
        undefined,
        { ...LONG, onprogress: (p) => progress.push(p), resetTimeoutOnProgress: true },
      );
      let done = false;
      void calling.finally(() => (done = true));
      const id = await started(before);
      const socket = await connectSocket(api, session);
      sockets.push(socket);
      const elicits = record(socket, 'elicit');
      await request(socket, 'conversation:join', { conversationId: id });
      const choose = await elicits.next((e) => e.type === 'choose');
      await until(
        async () => progress.length,
        (n) => n > 0,
      );
      expect(done).toBe(false);
      await request(socket, 'elicit:response', {
        conversationId: id,
        elicitId: choose.elicitId,
        ...firstAnswer(choose),
      });
      const card = await elicits.next((e) => e.type === 'propose-disposition');
      expect(done).toBe(false);
      const tapped = await request(socket, 'elicit:response', {
        conversationId: id,
        elicitId: card.elicitId,
        ...firstAnswer(card),
      });
      expect(tapped).toMatchObject({ ok: true });
      const result = await calling;
      expect(result.structuredContent).toMatchObject({
        conversationId: id,
        status: 'waiting',
        question: null,
      });
      const nodes = await path(api, token, id);
      expect(
        nodes.find((n) => n.kind === 'response' && n.payload['elicitId'] === card.elicitId),
      ).toMatchObject({
        authorId: userId,
        payload: { action: 'accept' },
      });
    },
    CALL_TIMEOUT_MS,
  );

  it(
    'the client cancelling the call stops the turn as Stop does',
    async () => {
      const client = await mcp();
      const stop = new AbortController();
      const before = await listed();
      const calling = client.callTool(
        { name: 'tidying', arguments: { message: OPENING, photos: [PHOTO] } },
        undefined,
        { ...LONG, signal: stop.signal },
      );
      const id = await started(before);
      await waitingOn(id, 'choose');
      stop.abort('changed my mind');
      await expect(calling).rejects.toThrow();
      // The question is withdrawn and a cancel node ends the turn, as the Stop button's does.
      const stopped = await until(
        () => conversation(api, token, id),
        (c) => c.pendingElicit?.type !== 'choose',
      );
      expect(stopped.status).not.toBe('running');
      const nodes = await path(api, token, id);
      const cancel = nodes.findLast((n) => n.kind === 'cancel');
      expect(cancel).toMatchObject({ authorId: userId });
      expect(nodes.indexOf(cancel!)).toBeGreaterThan(nodes.findIndex((n) => n.kind === 'elicit'));
      expect((await reflog(id))[0]).toMatchObject({ action: 'cancel', actorId: userId });
      expect((await reflog(id))[0]?.message.endsWith(VIA_MCP)).toBe(true);
    },
    CALL_TIMEOUT_MS,
  );

  it('a bad argument is a tool error naming the field, and writes nothing', async () => {
    const client = await mcp();
    const before = (await call<{ items: unknown[] }>(api, 'GET', '/api/conversations', { token })).body.items
      .length;
    const empty = await client.callTool({ name: 'tidying', arguments: { message: '' } });
    expect(empty.isError).toBe(true);
    expect(textsOf(empty).join(' ')).toMatch(/message/);
    const photos = await client.callTool({
      name: 'tidying',
      arguments: { message: 'hi', photos: [{ mediaType: 'image/png' }] },
    });
    expect(photos.isError).toBe(true);
    expect(textsOf(photos).join(' ')).toMatch(/photos\.0\.data/);
    const unknown = await client.callTool({ name: 'tidying', arguments: { message: 'hi', colour: 'red' } });
    expect(unknown.isError).toBe(true);
    expect(textsOf(unknown).join(' ')).toMatch(/colour/);
    expect(
      (await call<{ items: unknown[] }>(api, 'GET', '/api/conversations', { token })).body.items,
    ).toHaveLength(before);
  });

  it('a call to a conversation archived since the last call to it is not found, and writes nothing', async () => {
    const client = await mcp();
    const first = await client.callTool(
      { name: 'concierge', arguments: { message: 'hello' } },
      undefined,
      LONG,
    );
    const { conversationId } = first.structuredContent as unknown as Structured;
    const before = await path(api, session, conversationId);
    expect(
      (await call(api, 'DELETE', `/api/conversations/${conversationId}`, { token: session })).status,
    ).toBe(204);

    const again = await client.callTool(
      { name: 'concierge', arguments: { message: 'and again', conversationId } },
      undefined,
      LONG,
    );

    expect(again.isError).toBe(true);
    expect(textsOf(again).join(' ')).toMatch(/not found/);
    await call(api, 'POST', `/api/conversations/${conversationId}/unarchive`, { token: session });
    expect((await path(api, session, conversationId)).map((n) => n.id)).toEqual(before.map((n) => n.id));
  });

  it('another person’s conversation is not found, and is left as it was', async () => {
    const other = await register(api, 'other');
    const theirs = await call<{ id: string }>(api, 'POST', '/api/conversations', {
      token: other.token,
      body: { agent: 'tidying' },
    });
    const before = await path(api, other.token, theirs.body.id);
    const result = await (
      await mcp()
    ).callTool({
      name: 'tidying',
      arguments: { message: 'mine now', conversationId: theirs.body.id },
    });
    expect(result.isError).toBe(true);
    expect(textsOf(result).join(' ')).toMatch(/conversationId: not found/);
    expect(await path(api, other.token, theirs.body.id)).toEqual(before);
  });

  it('no token, a wrong one or a revoked one is a 401, and nothing is written', async () => {
    const conversations = async () =>
      (await call<{ items: unknown[] }>(api, 'GET', '/api/conversations', { token })).body.items.length;
    const before = await conversations();
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    };
    const post = (authorization?: string) =>
      fetch(api.url('/mcp'), {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...(authorization ? { authorization } : {}),
        },
        body: JSON.stringify(initialize),
      });
    for (const authorization of [undefined, 'Bearer not-a-token', `Bearer ${token}x`]) {
      const res = await post(authorization);
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ error: { code: 'unauthenticated' } });
    }
    await expect(mcpClient(api, 'not-a-token')).rejects.toThrow();

    // Revoked: the person revokes the token on their account page; the session it opened ends.
    const made = await call<{ id: string; token: string }>(api, 'POST', '/api/auth/tokens', {
      token: session,
      body: { name: 'old phone' },
    });
    const client = await mcpClient(api, made.body.token);
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    expect((await call(api, 'DELETE', `/api/auth/tokens/${made.body.id}`, { token: session })).status).toBe(
      204,
    );
    await expect(client.callTool({ name: 'tidying', arguments: { message: 'still here?' } })).rejects.toThrow(
      /unauthenticated/,
    );
    await client.close().catch(() => undefined);
    expect(await conversations()).toBe(before);
  });

  it(
    'a call waiting when its token is revoked stops waiting; the turn goes on for the person',
    async () => {
      const made = await call<{ id: string; token: string }>(api, 'POST', '/api/auth/tokens', {
        token: session,
        body: { name: 'lost tablet' },
      });
      const client = await mcpClient(api, made.body.token);
      clients.push(client);
      const before = await listed();
      const calling = client.callTool(
        { name: 'tidying', arguments: { message: OPENING, photos: [PHOTO] } },
        undefined,
        LONG,
      );
      const id = await started(before);
      const choose = await waitingOn(id, 'choose');
      expect((await call(api, 'DELETE', `/api/auth/tokens/${made.body.id}`, { token: session })).status).toBe(
        204,
      );
      const result = await calling;
      expect(result.isError).toBe(true);
      expect(textsOf(result).join(' ')).toMatch(/revoked/);
      // Nothing was stopped: the question still waits for the person.
      expect((await conversation(api, session, id)).pendingElicit?.elicitId).toBe(choose.elicitId);
      expect((await path(api, session, id)).some((n) => n.kind === 'cancel')).toBe(false);
    },
    CALL_TIMEOUT_MS,
  );
});
