import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ReflogPage } from '@sweatpants/domain';
import { conversation, firstAnswer, OPENING, path, PHOTO, until } from '../support/flows';
import { useApiPair } from '../support/api-pair';
import { mcpClient, textsOf } from '../support/mcp-client';
import { call, register } from '../support/test-api';
import { connect, record, request, type ClientSocket } from '../support/test-socket';

/** Round trips through two apps and Redis; generous, so only a hang fails. */
const TWO_PROCESS_TIMEOUT_MS = 30_000;

/**
 * Two api processes on one database and Redis: an MCP call waits on one while the person answers
 * on the other, and a session opened on one is taken up by the other, as a load balancer that
 * sends each request anywhere would have it.
 */
describe('MCP across two api processes', () => {
  const sockets: ClientSocket[] = [];
  const clients: Client[] = [];
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await Promise.allSettled(clients.map((c) => c.close()));
  });
  const pair = useApiPair('api_mcp_two_processes');

  it(
    'the call on one process returns when the person answers on the other',
    async () => {
      const { token, user } = await register(pair.a, 'two');
      // The conversation is made (and driven) by b; the MCP call lands on a.
      const created = await call<{ id: string }>(pair.b, 'POST', '/api/conversations', {
        token,
        body: { agent: 'tidying' },
      });
      const id = created.body.id;
      const onB = await connect(pair.b, token);
      sockets.push(onB);
      const elicits = record(onB, 'elicit');
      await request(onB, 'conversation:join', { conversationId: id });

      const client = await mcpClient(pair.a, token);
      clients.push(client);
      let returned = false;
      const calling = client
        .callTool(
          { name: 'tidying', arguments: { message: OPENING, photos: [PHOTO], conversationId: id } },
          undefined,
          { timeout: TWO_PROCESS_TIMEOUT_MS },
        )
        .finally(() => (returned = true));

      for (const type of ['choose', 'propose-disposition']) {
        const asked = await elicits.next((e) => e.type === type);
        expect(returned).toBe(false);
        const answered = await request(onB, 'elicit:response', {
          conversationId: id,
          elicitId: asked.elicitId,
          ...firstAnswer(asked),
        });
        expect(answered).toMatchObject({ ok: true });
      }
      const result = await calling;
      expect(result.structuredContent).toMatchObject({
        conversationId: id,
        status: 'waiting',
        question: null,
      });

      const nodes = await path(pair.a, token, id);
      const said = nodes.findIndex((n) => n.kind === 'user' && n.payload['text'] === OPENING);
      expect(said).toBeGreaterThan(0);
      expect(nodes[said]?.authorId).toBe(user.id);
      expect(textsOf(result)).toEqual(
        nodes
          .slice(said)
          .filter((n) => n.kind === 'assistant' && String(n.payload['text']).trim() !== '')
          .map((n) => n.payload['text']),
      );
      const entries = (await call<ReflogPage>(pair.b, 'GET', `/api/conversations/${id}/reflog`, { token }))
        .body.entries;
      expect(entries.find((e) => e.newHead === nodes[said]?.id)).toMatchObject({
        actorId: user.id,
        message: expect.stringMatching(/\(via MCP\)$/),
      });
    },
    TWO_PROCESS_TIMEOUT_MS,
  );

  it(
    'a session opened on one process is taken up by the other, the client’s capabilities included',
    async () => {
      const { token } = await register(pair.a, 'roaming');
      const onA = await mcpClient(pair.a, token, { elicitation: { form: {} } });
      clients.push(onA);
      const sessionId = (onA.transport as StreamableHTTPClientTransport).sessionId;
      expect(sessionId).toEqual(expect.any(String));

      // The same session, its requests sent to b: b rebuilds it from what a kept in Redis, so it
      // knows this client can elicit and asks it the coach's first question.
      const onB = await mcpClient(pair.b, token, { elicitation: { form: {} } }, sessionId);
      clients.push(onB);
      const asked: string[] = [];
      onB.setRequestHandler(ElicitRequestSchema, (req) => {
        asked.push(req.params.message);
        return { action: 'accept', content: { choice: 'function-1' } };
      });
      const calling = onB.callTool(
        { name: 'tidying', arguments: { message: OPENING, photos: [PHOTO] } },
        undefined,
        {
          timeout: TWO_PROCESS_TIMEOUT_MS,
        },
      );
      // The proposal card is the person's to tap, here over HTTP on a.
      const id = await until(
        async () =>
          (await call<{ items: { id: string }[] }>(pair.a, 'GET', '/api/conversations', { token })).body
            .items,
        (items) => items.length > 0,
      ).then((items) => items[0]!.id);
      const card = await until(
        () => conversation(pair.a, token, id),
        (c) => c.pendingElicit?.type === 'propose-disposition',
      ).then((c) => c.pendingElicit!);
      const tapped = await call(
        pair.a,
        'POST',
        `/api/conversations/${id}/elicits/${card.elicitId}/response`,
        {
          token,
          body: firstAnswer(card),
        },
      );
      expect(tapped.status).toBe(200);
      expect((await calling).structuredContent).toMatchObject({ conversationId: id, question: null });
      expect(asked).toEqual(['What do you need to DO in this space?']);

      // The client ends the session on a: b's copy of it ends too.
      await (onA.transport as StreamableHTTPClientTransport).terminateSession();
      await until(
        () =>
          onB.listTools().then(
            () => false,
            (error: unknown) => /404|not_found/.test(String(error)),
          ),
        Boolean,
      );

      // Someone else's token with that session id is refused as if there were no such session.
      const other = await register(pair.b, 'stranger');
      await expect(mcpClient(pair.b, other.token, {}, sessionId).then((c) => c.listTools())).rejects.toThrow(
        /404|not_found/,
      );
    },
    TWO_PROCESS_TIMEOUT_MS,
  );

  it(
    'a client’s answer to elicitation/create that lands on the other process reaches the call that asked',
    async () => {
      const { token, user } = await register(pair.a, 'balanced');
      // A load balancer that sends the client's answers (JSON-RPC responses) to b, all else to a.
      const a = new URL(pair.a.url('/mcp'));
      const b = new URL(pair.b.url('/mcp'));
      const answersTo: string[] = [];
      const balanced = (url: string | URL, init?: RequestInit) => {
        const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as { method?: unknown }) : {};
        const isAnswer = init?.method === 'POST' && !Array.isArray(body) && body.method === undefined;
        const target = new URL(String(url));
        if (isAnswer) {
          target.host = b.host;
          answersTo.push(target.host);
        } else target.host = a.host;
        return fetch(target, init);
      };
      const client = new Client(
        { name: 'balanced', version: '1.0.0' },
        { capabilities: { elicitation: { form: {} } } },
      );
      await client.connect(
        new StreamableHTTPClientTransport(a, {
          requestInit: { headers: { Authorization: `Bearer ${token}` } },
          fetch: balanced,
        }),
      );
      clients.push(client);
      client.setRequestHandler(ElicitRequestSchema, () => ({
        action: 'accept',
        content: { choice: 'function-1' },
      }));
      const calling = client.callTool(
        { name: 'tidying', arguments: { message: OPENING, photos: [PHOTO] } },
        undefined,
        {
          timeout: TWO_PROCESS_TIMEOUT_MS,
        },
      );
      const id = await until(
        async () =>
          (await call<{ items: { id: string }[] }>(pair.a, 'GET', '/api/conversations', { token })).body
            .items,
        (items) => items.length > 0,
      ).then((items) => items[0]!.id);
      const card = await until(
        () => conversation(pair.a, token, id),
        (c) => c.pendingElicit?.type === 'propose-disposition',
      ).then((c) => c.pendingElicit!);
      expect(answersTo).toEqual([b.host]);
      const nodes = await path(pair.b, token, id);
      expect(nodes.find((n) => n.kind === 'response')).toMatchObject({
        authorId: user.id,
        payload: { action: 'accept', content: { choiceId: 'function-1' } },
      });
      await call(pair.a, 'POST', `/api/conversations/${id}/elicits/${card.elicitId}/response`, {
        token,
        body: firstAnswer(card),
      });
      expect((await calling).structuredContent).toMatchObject({ conversationId: id, question: null });
    },
    TWO_PROCESS_TIMEOUT_MS,
  );
});
