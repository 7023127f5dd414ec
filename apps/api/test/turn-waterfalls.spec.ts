import { costOf } from '@sweatpants/agent-claude';
import { offlineResponder, startFakeAnthropic, type FakeAnthropic } from '@sweatpants/agent-claude/testing';
import { ASSISTANT_OFFLINE_RULES } from '@sweatpants/agent-assistant';
import type { ModelUsage } from '@sweatpants/agent-runtime';
import { OfflineModel } from '@sweatpants/agent-runtime/offline';
import type { TreeNode } from '@sweatpants/domain';
import { createTestDatabase, type TestDatabase } from '@sweatpants/migrations/testing';
import { createConversation, path, turn } from './support/flows';
import { call, client, errorOf, register, registerAdmin, startApi, type TestApi } from './support/test-api';

/**
 * The operator's picture of a turn (issue 33), through the public api: a short session on Claude
 * (the real SDK against the fake Anthropic server on a model's clock, so each call takes time),
 * then an admin reads the conversation's turns as waterfalls. What they notice: one turn per
 * message, each model call a bar as long as the call took, carrying the tokens its node records
 * and their price; the slowest and the costliest turns named. Nobody else may read it.
 */

const ADMIN = 'waterfall-admin@example.com';
/** The fake answers its first token after this long, so a model call lasts at least this. */
const FIRST_TOKEN_MS = 50;

describe("an admin's waterfall of a conversation's turns", () => {
  let db: TestDatabase;
  let fake: FakeAnthropic;
  let api: TestApi;
  let admin: string;

  beforeAll(async () => {
    db = await createTestDatabase('api_turn_waterfalls');
    fake = await startFakeAnthropic({ timing: { firstTokenMs: FIRST_TOKEN_MS, tokensPerSecond: 2000 } });
    fake.respond(offlineResponder(new OfflineModel(ASSISTANT_OFFLINE_RULES)));
    api = await startApi({
      DATABASE_URL: db.url,
      ANTHROPIC_API_KEY: 'test-key',
      ANTHROPIC_BASE_URL: fake.url,
      ADMIN_EMAILS: ADMIN,
      // the assistant with no MCP servers: one model call a message, answered in words
      MCP_SERVERS: '[]',
    });
    admin = (await registerAdmin(api, db.url, ADMIN)).token;
  }, 30_000);
  afterAll(async () => {
    await api?.close();
    await fake?.close();
    await db?.drop();
  });

  it('shows each turn with its model calls timed, their recorded usage and its cost, and names the slowest and costliest', async () => {
    const ana = await register(api, 'ana');
    const c = await createConversation(api, ana.token, { agent: 'assistant' });
    await turn(api, ana.token, c.id, 'hello there');
    await turn(api, ana.token, c.id, 'what should I do with the old lamp and the box of cables?');
    const nodes = await path(api, ana.token, c.id);
    const replies = new Map(
      nodes.filter((n): n is TreeNode<'assistant'> => n.kind === 'assistant').map((n) => [n.id, n]),
    );

    const { turns, slowest, costliest } = await client(api, admin).adminTurns({ params: { id: c.id } });

    expect(turns.map((t) => t.opener)).toEqual([
      'hello there',
      'what should I do with the old lamp and the box of cables?',
    ]);
    for (const t of turns) {
      const models = t.spans.filter((s) => s.kind === 'model');
      expect(models.length).toBeGreaterThan(0);
      for (const span of models) {
        // the bar is the call's own time, from when it was asked: at least the model's first token
        expect(span.estimated).toBe(false);
        expect(span.durationMs).toBeGreaterThanOrEqual(FIRST_TOKEN_MS);
        expect(span.startMs + span.durationMs).toBeLessThanOrEqual(t.durationMs);
        const node = replies.get(span.nodeId);
        const usage = node?.payload['usage'] as unknown as ModelUsage;
        expect(span.model).toBe(node?.payload['model']);
        expect(span.tokens).toEqual({ cacheWriteTokens: 0, cacheReadTokens: 0, ...usage });
        expect(span.costUsd).toBeCloseTo(costOf(String(node?.payload['model']), usage), 9);
      }
      expect(t.modelCalls).toBe(models.length);
      expect(t.costUsd).toBeGreaterThan(0);
      // the person's message and the agent's reply were each stored: writes on the same clock
      expect(t.spans.some((s) => s.kind === 'write')).toBe(true);
    }
    expect([...slowest].sort()).toEqual([1, 2]);
    expect([...costliest].sort()).toEqual([1, 2]);
    const [first] = turns.filter((t) => t.number === slowest[0]);
    expect(turns.every((t) => t.durationMs <= (first?.durationMs ?? 0))).toBe(true);
  });

  it('is for admins only: the owner gets a 403, and an unknown conversation a 404', async () => {
    const bo = await register(api, 'bo');
    const c = await createConversation(api, bo.token, { agent: 'assistant' });
    const route = `/api/admin/conversations/${c.id}/turns`;
    expect(await call(api, 'GET', route, { token: bo.token })).toEqual({
      status: 403,
      body: errorOf('forbidden'),
    });
    expect(
      await call(api, 'GET', '/api/admin/conversations/00000000-0000-4000-8000-000000000000/turns', {
        token: admin,
      }),
    ).toMatchObject({ status: 404, body: errorOf('not_found') });
    expect(await call(api, 'GET', route, { token: admin })).toMatchObject({
      status: 200,
      body: { turns: [], slowest: [], costliest: [] },
    });
  });
});
