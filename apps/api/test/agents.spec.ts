import type { AgentList } from '@sweatpants/domain';
import { createTestDatabase, type TestDatabase } from '@sweatpants/migrations/testing';
import { call, register, startApi, type TestApi } from './support/test-api';

/** The agents a deployment runs are the ones its program registered, listed for clients. */
describe('registered agents (PROTOCOL.md, GET /api/agents)', () => {
  let db: TestDatabase;
  let api: TestApi;
  let token: string;

  beforeAll(async () => {
    db = await createTestDatabase('api_agents');
    api = await startApi({ DATABASE_URL: db.url, GC_EVERY_MINUTES: 'off' });
    token = (await register(api, 'picker')).token;
  }, 30_000);

  afterAll(async () => {
    await api?.close();
    await db?.drop();
  });

  it('lists each registered agent with how it presents itself and what it needs, in registration order', async () => {
    const answer = await call<AgentList>(api, 'GET', '/api/agents', { token });
    expect(answer.status).toBe(200);
    expect(answer.body.items.map((a) => a.name)).toEqual(['tidying', 'concierge', 'donations', 'assistant']);
    expect(answer.body.items[0]).toEqual({
      name: 'tidying',
      title: 'Tidying coach',
      description: expect.any(String),
      speaker: 'the coach',
      needs: ['photos'],
      intro: expect.any(String),
      placeholder: expect.any(String),
    });
    // the assistant says which MCP servers it uses: with MCP_SERVERS unset, server-everything
    expect(answer.body.items[3]).toMatchObject({ name: 'assistant', mcpServers: ['everything'] });
    expect((await call(api, 'GET', '/api/agents')).status).toBe(401);
  });

  it('starts a conversation only with a registered agent, naming the field otherwise', async () => {
    const made = await call(api, 'POST', '/api/conversations', { token, body: { agent: 'concierge' } });
    expect(made.status).toBe(201);
    const unknown = await call(api, 'POST', '/api/conversations', { token, body: { agent: 'gardener' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({
      error: {
        code: 'invalid_request',
        details: [{ field: 'agent', message: expect.stringContaining('tidying, concierge') }],
      },
    });
    const malformed = await call(api, 'POST', '/api/conversations', { token, body: { agent: 'Not A Name' } });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ error: { details: [{ field: 'agent' }] } });
    const listed = await call<{ items: unknown[] }>(api, 'GET', '/api/conversations', { token });
    expect(listed.body.items).toHaveLength(1);
  });
});
