import { ClientEventSchemas, type ClientEventName } from '@sweatpants/domain';
import { createTestDatabase, type TestDatabase } from '@sweatpants/migrations/testing';
import { ask, createConversation, path } from './support/flows';
import { call, errorOf, register, startApi, type TestApi } from './support/test-api';
import { connect, request, type ClientSocket } from './support/test-socket';
import { ROUTES } from '../src/openapi/route-table';

/** Fills a route's path parameters with the ids under test. */
const fill = (route: string, ids: { id: string; nodeId: string; elicitId: string }) =>
  route
    .replace(':id', ids.id)
    .replace(':conversationId', ids.id)
    .replace(':nodeId', ids.nodeId)
    .replace(':elicitId', ids.elicitId);

/** A valid body for each route that takes one, so only access can fail. */
function bodyFor(method: string, path: string): unknown {
  if (method === 'patch') return { title: 'hi' };
  if (method !== 'post') return undefined;
  if (path.endsWith('/messages')) return { text: 'hi' };
  if (path.endsWith('/response')) return { action: 'decline' };
  if (path.endsWith('/rewind')) return { to: 'HEAD' };
  if (path.endsWith('/edit')) return { text: 'hi' };
  if (path.endsWith('/regenerate')) return {};
  if (path.endsWith('/recover')) return { reflogId: '1' };
  if (path.endsWith('/fork')) return {};
  if (path === '/api/conversations') return { agent: 'tidying' };
  return undefined;
}

describe('access: who may touch what', () => {
  let db: TestDatabase;
  let api: TestApi;
  let owner: string;
  let stranger: string;
  let ids: { id: string; nodeId: string; elicitId: string };
  const sockets: ClientSocket[] = [];

  beforeAll(async () => {
    db = await createTestDatabase('api_access');
    api = await startApi({ DATABASE_URL: db.url });
    owner = (await register(api, 'owner')).token;
    stranger = (await register(api, 'stranger')).token;
    const c = await createConversation(api, owner);
    const q = await ask(api, owner, c.id);
    const user = (await path(api, owner, c.id)).find((n) => n.kind === 'user')!;
    ids = { id: c.id, nodeId: user.id, elicitId: q.elicitId };
  }, 30_000);
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await api?.close();
    await db?.drop();
  });

  // A conversation's routes (a personal access token's `:id` is another object's, with its own spec).
  const idRoutes = ROUTES.filter(
    (r) => r.access === 'user' && r.path.startsWith('/api/conversations/') && r.path.includes(':id'),
  );

  it("answers every id-taking route with a 404 for another user's conversation, and changes nothing", async () => {
    // every conversation route of PROTOCOL.md but create and list, and unarchive
    expect(idRoutes).toHaveLength(20);
    const before = await path(api, owner, ids.id);
    for (const route of idRoutes) {
      const res = await call(api, route.method.toUpperCase(), fill(route.path, ids), {
        token: stranger,
        body: bodyFor(route.method, route.path),
      });
      expect([route.method, route.path, res]).toEqual([
        route.method,
        route.path,
        { status: 404, body: errorOf('not_found') },
      ]);
    }
    expect(await path(api, owner, ids.id)).toEqual(before);
  });

  it('answers every route but the public ones with a 401 without a token', async () => {
    for (const route of ROUTES.filter((r) => r.access !== 'public')) {
      const res = await call(api, route.method.toUpperCase(), fill(route.path, ids), {
        body: bodyFor(route.method, route.path),
      });
      expect([route.path, res]).toEqual([route.path, { status: 401, body: errorOf('unauthenticated') }]);
    }
  });

  it('answers every admin route with a 403 for a user', async () => {
    for (const route of ROUTES.filter((r) => r.access === 'admin')) {
      const res = await call(api, route.method.toUpperCase(), fill(route.path, ids), {
        token: owner,
        body: bodyFor(route.method, route.path),
      });
      expect([route.method, route.path, res]).toEqual([
        route.method,
        route.path,
        { status: 403, body: errorOf('forbidden') },
      ]);
    }
  });

  it("answers every socket event about another user's conversation with not_found", async () => {
    const socket = await connect(api, stranger);
    sockets.push(socket);
    const payloads: Record<ClientEventName, object> = {
      'conversation:join': {},
      'conversation:leave': {},
      'message:send': { text: 'hi' },
      'elicit:response': { elicitId: ids.elicitId, action: 'decline' },
      'elicit:progress': { elicitId: ids.elicitId, payload: {} },
      'conversation:cancel': {},
      'conversation:rewind': { to: 'HEAD' },
      'message:edit': { nodeId: ids.nodeId, text: 'hi' },
      'message:regenerate': { nodeId: ids.nodeId },
      'conversation:recover': { reflogId: '1' },
      'message:withdraw': { nodeId: 'a'.repeat(64) },
    };
    const before = await path(api, owner, ids.id);
    for (const event of Object.keys(ClientEventSchemas) as ClientEventName[]) {
      const ack = await request(socket, event, { conversationId: ids.id, ...payloads[event] });
      expect([event, ack]).toEqual([
        event,
        { ok: false, error: { code: 'not_found', message: expect.any(String) } },
      ]);
    }
    expect(await path(api, owner, ids.id)).toEqual(before);
  });
});
