import type { Conversation } from '../conversation-api';
import {
  createHttpClient,
  HttpApiError,
  HttpContractError,
  type HttpRequest,
  type HttpResponse,
} from './client';
import { HTTP_CONTRACT, ROUTE_NAMES } from './contract';

const NODE = 'a'.repeat(64);
const conversation: Conversation = {
  id: 'c1',
  agent: 'tidying',
  title: '',
  ownerId: 'u1',
  head: NODE,
  status: 'idle',
  pendingElicit: null,
  pendingElicits: [],
  model: 'offline',
  createdAt: '2024-01-01T00:00:00.000Z',
  updatedAt: '2024-01-01T00:00:00.000Z',
};

/** A transport that records each request and answers with `reply`. */
function recording(reply: (request: HttpRequest) => HttpResponse) {
  const sent: HttpRequest[] = [];
  const transport = async (request: HttpRequest) => {
    sent.push(request);
    return reply(request);
  };
  return { sent, transport };
}

describe('the typed HTTP client', () => {
  it('fills path parameters, the query and the body from the contract', async () => {
    const { sent, transport } = recording(() => ({ status: 200, body: { nodes: [] } }));
    const api = createHttpClient({ baseUrl: 'http://api', token: 't0ken', transport });
    await api.path({ params: { id: 'a b' }, query: { at: 'HEAD~1' } });
    await api.listConversations({ query: { q: '', limit: 5 } });
    await api.cancel({ params: { id: 'c1' } });
    await api.regenerate({ params: { id: 'c1', nodeId: NODE } });
    expect(sent.map((r) => [r.method, r.url, r.body])).toEqual([
      ['GET', 'http://api/api/conversations/a%20b/path?at=HEAD~1', undefined],
      ['GET', 'http://api/api/conversations?limit=5', undefined],
      ['POST', 'http://api/api/conversations/c1/cancel', undefined],
      ['POST', `http://api/api/conversations/c1/nodes/${NODE}/regenerate`, {}],
    ]);
    expect(sent[0]!.headers).toEqual({ authorization: 'Bearer t0ken' });
  });

  it('resolves with the body, and with nothing for a 204', async () => {
    const { transport } = recording((r) =>
      r.method === 'DELETE' ? { status: 204, body: undefined } : { status: 201, body: conversation },
    );
    const api = createHttpClient({ transport, validate: true });
    const created: Conversation = await api.createConversation({ body: { agent: 'tidying' } });
    expect(created).toEqual(conversation);
    await expect(api.archiveConversation({ params: { id: 'c1' } })).resolves.toBeUndefined();
  });

  it("rejects a non-2xx with PROTOCOL.md's error, or one made up when the body is not in its shape", async () => {
    const conflict = { error: { code: 'conflict', message: 'HEAD moved', details: { head: NODE } } };
    const api = createHttpClient({ transport: async () => ({ status: 409, body: conflict }) });
    const error = await api.rewind({ params: { id: 'c1' }, body: { to: 'HEAD' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpApiError);
    expect(error).toMatchObject({ route: 'rewind', status: 409, body: conflict.error, code: 'conflict' });
    const html = createHttpClient({ transport: async () => ({ status: 502, body: '<html>' }) });
    await expect(html.me()).rejects.toMatchObject({ status: 502, body: { code: 'internal' }, raw: '<html>' });
  });

  it('with validate, refuses an answer the contract does not declare', async () => {
    const wrongStatus = createHttpClient({
      validate: true,
      transport: async () => ({ status: 200, body: conversation }),
    });
    await expect(wrongStatus.createConversation({ body: { agent: 'tidying' } })).rejects.toBeInstanceOf(
      HttpContractError,
    );
    const wrongShape = createHttpClient({
      validate: true,
      transport: async () => ({ status: 200, body: { ...conversation, status: 'sleeping' } }),
    });
    await expect(wrongShape.conversation({ params: { id: 'c1' } })).rejects.toThrow(/status/);
  });

  it('has one method per route, and every route a distinct method and path', () => {
    const api = createHttpClient();
    expect(Object.keys(api)).toEqual(ROUTE_NAMES);
    const keys = ROUTE_NAMES.map((name) => `${HTTP_CONTRACT[name].method} ${HTTP_CONTRACT[name].path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('types each call by its route', () => {
    const api = createHttpClient({ transport: async () => ({ status: 200, body: {} }) });
    // Each line must fail to compile: the checks are the @ts-expect-error markers themselves.
    const calls = [
      // @ts-expect-error a path parameter is required
      () => api.conversation(),
      // @ts-expect-error the body is required
      () => api.createConversation({}),
      // @ts-expect-error `agent` is a string
      () => api.createConversation({ body: { agent: 1 } }),
      // @ts-expect-error `limit` is a number
      () => api.tree({ params: { id: 'c' }, query: { limit: 'many' } }),
    ];
    expect(calls).toHaveLength(4);
  });
});
