import { costOf } from '@sweatpants/agent-claude';
import { offlineResponder, startFakeAnthropic, type FakeAnthropic } from '@sweatpants/agent-claude/testing';
import { ASSISTANT_OFFLINE_RULES } from '@sweatpants/agent-assistant';
import type { ModelUsage } from '@sweatpants/agent-runtime';
import { OfflineModel } from '@sweatpants/agent-runtime/offline';
import type { Compaction, PersonSpend, TreeNode } from '@sweatpants/domain';
import { createTestDatabase, type TestDatabase } from '@sweatpants/migrations/testing';
import { useApiPair } from './support/api-pair';
import { SUMMARY_TOOL } from '../src/compaction/summariser';
import { createConversation, path, turn, until } from './support/flows';
import {
  call,
  client,
  errorOf,
  register,
  registerAdmin,
  startApi,
  type ApiAddress,
  type TestApi,
} from './support/test-api';

/**
 * Spend limits per person (issue 33), through the public api, on Claude: the real SDK against the
 * fake Anthropic server, whose replies carry usage counted from each request as the API counts it.
 * What a person notices: at their budget, their words stay and the agent says plainly that the
 * budget is spent and when it resets, without asking the model; when an admin raises it, the same
 * conversation goes on. What an admin notices: each person's spend today and this month, priced
 * from the usage the nodes record.
 */

const ADMIN = 'spend-admin@example.com';
/** The assistant with no MCP servers: one model call a message, answered in words. */
const AGENT = { agent: 'assistant' } as const;

const claudeEnv = (fake: FakeAnthropic): Record<string, string> => ({
  ANTHROPIC_API_KEY: 'test-key',
  ANTHROPIC_BASE_URL: fake.url,
  ADMIN_EMAILS: ADMIN,
  MCP_SERVERS: '[]',
});

async function startFake(): Promise<FakeAnthropic> {
  const fake = await startFakeAnthropic();
  fake.respond(offlineResponder(new OfflineModel(ASSISTANT_OFFLINE_RULES)));
  return fake;
}

/** The admin, proven (ADMIN_EMAILS makes admins of proven addresses only); its token. */
async function signInAdmin(api: ApiAddress, databaseUrl: string): Promise<string> {
  return (await registerAdmin(api, databaseUrl, ADMIN)).token;
}

const spendOf = async (api: ApiAddress, admin: string, userId: string): Promise<PersonSpend> => {
  const report = await client(api, admin).adminSpend({ query: { limit: 500 } });
  const person = report.items.find((p) => p.userId === userId);
  if (!person) throw new Error(`no spend row for ${userId}`);
  return person;
};

const setBudget = (api: ApiAddress, admin: string, userId: string, dailyUsd: number | null) =>
  client(api, admin).setSpendLimit({ params: { userId }, body: { dailyUsd, monthlyUsd: null } });

/** What the assistant nodes of a conversation's whole tree cost, each priced from its own usage. */
async function pricedFromNodes(api: ApiAddress, token: string, id: string): Promise<number[]> {
  const tree = await client(api, token).tree({ params: { id }, query: { limit: 500 } });
  return (
    tree.nodes
      // a model call's node; a reply said without one (the refusal) records no usage
      .filter((n: TreeNode) => n.kind === 'assistant' && n.payload['usage'] !== undefined)
      .map((n) => costOf(String(n.payload['model']), n.payload['usage'] as unknown as ModelUsage))
  );
}

/** POST compact, then GET compactions until the job has finished; that job's item. */
async function compact(api: ApiAddress, token: string, id: string): Promise<Compaction> {
  const { jobId } = await client(api, token).compact({ params: { id } });
  const done = await until(
    () => client(api, token).compactions({ params: { id } }),
    (list) => list.items.some((j) => j.jobId === jobId && (j.state === 'completed' || j.state === 'failed')),
  );
  const job = done.items.find((j) => j.jobId === jobId);
  if (!job) throw new Error(`no compaction ${jobId}`);
  return job;
}

const lastWords = (nodes: readonly TreeNode[]): string =>
  String(nodes.filter((n) => n.kind === 'assistant').at(-1)?.payload['text'] ?? '');
const REFUSAL = /your daily budget of \$[\d.]+ is used up/;

describe('spend limits per person', () => {
  let db: TestDatabase;
  let fake: FakeAnthropic;
  let api: TestApi;
  let admin: string;

  beforeAll(async () => {
    db = await createTestDatabase('api_spend_limits');
    fake = await startFake();
    api = await startApi({ DATABASE_URL: db.url, ...claudeEnv(fake), SPEND_LIMIT_DAILY_USD: '5' });
    admin = await signInAdmin(api, db.url);
  }, 30_000);
  afterAll(async () => {
    await api?.close();
    await fake?.close();
    await db?.drop();
  });

  it('shows admins what each person spent, priced from the usage their nodes record, and the default budget', async () => {
    const alice = await register(api, 'alice');
    const c = await createConversation(api, alice.token, AGENT);
    await turn(api, alice.token, c.id, 'hello there');

    const priced = await pricedFromNodes(api, alice.token, c.id);
    expect(priced.length).toBeGreaterThan(0);
    const spend = await spendOf(api, admin, alice.user.id);
    expect(spend).toMatchObject({
      email: alice.user.email,
      limit: { dailyUsd: 5, monthlyUsd: null },
      limitSource: 'default',
    });
    expect(spend.todayUsd).toBeGreaterThan(0);
    expect(spend.todayUsd).toBeCloseTo(
      priced.reduce((a, b) => a + b, 0),
      5,
    );
    expect(spend.monthUsd).toBeCloseTo(spend.todayUsd, 6);
  });

  it('at their budget a person is told plainly, keeps their words, and goes on in the same conversation once it is raised', async () => {
    const alice = await register(api, 'alice');
    const c = await createConversation(api, alice.token, AGENT);
    await turn(api, alice.token, c.id, 'hello there');
    const spent = (await spendOf(api, admin, alice.user.id)).todayUsd;
    await setBudget(api, admin, alice.user.id, spent);
    const asked = fake.requests.length;

    await turn(api, alice.token, c.id, 'what should I do with the old lamp?');

    const refused = await path(api, alice.token, c.id);
    expect(refused.filter((n) => n.kind === 'user').map((n) => n.payload['text'])).toEqual([
      'hello there',
      'what should I do with the old lamp?',
    ]);
    expect(lastWords(refused)).toMatch(REFUSAL);
    expect(lastWords(refused)).toMatch(
      /What you wrote is kept\. The budget resets at midnight UTC, in \d+ (hours?|minutes?)/,
    );
    expect(fake.requests.length).toBe(asked);
    expect((await spendOf(api, admin, alice.user.id)).todayUsd).toBeCloseTo(spent, 6);

    const raised = await setBudget(api, admin, alice.user.id, spent + 1);
    expect(raised).toMatchObject({ limit: { dailyUsd: spent + 1 }, limitSource: 'person' });
    await turn(api, alice.token, c.id, 'and the lamp?');

    const after = await path(api, alice.token, c.id);
    expect(fake.requests.length).toBeGreaterThan(asked);
    expect(lastWords(after)).not.toMatch(REFUSAL);
    expect(lastWords(after)).not.toBe('');
    expect((await spendOf(api, admin, alice.user.id)).todayUsd).toBeGreaterThan(spent);
  });

  it('limits two people independently', async () => {
    const carol = await register(api, 'carol');
    const dan = await register(api, 'dan');
    const carolChat = await createConversation(api, carol.token, AGENT);
    const danChat = await createConversation(api, dan.token, AGENT);
    await setBudget(api, admin, carol.user.id, 0);

    await turn(api, carol.token, carolChat.id, 'hello');
    await turn(api, dan.token, danChat.id, 'hello');

    expect(lastWords(await path(api, carol.token, carolChat.id))).toMatch(REFUSAL);
    expect(lastWords(await path(api, dan.token, danChat.id))).not.toMatch(REFUSAL);
    expect((await spendOf(api, admin, carol.user.id)).todayUsd).toBe(0);
    expect((await spendOf(api, admin, dan.user.id)).todayUsd).toBeGreaterThan(0);

    // Back to the default budget: carol goes on where she was refused.
    const cleared = await client(api, admin).clearSpendLimit({ params: { userId: carol.user.id } });
    expect(cleared).toMatchObject({ limit: { dailyUsd: 5, monthlyUsd: null }, limitSource: 'default' });
    await turn(api, carol.token, carolChat.id, 'hello again');
    expect(lastWords(await path(api, carol.token, carolChat.id))).not.toMatch(REFUSAL);
  });

  /** The model calls that asked for a summary (through its forced tool). */
  const summaryCalls = () =>
    fake.requests.filter((r) => r.body?.tools?.some((t) => 'name' in t && t.name === SUMMARY_TOOL));

  it("pays a compaction's summary from the owner's budget; at their budget the summary is written offline", async () => {
    const frank = await register(api, 'frank');
    const c = await createConversation(api, frank.token, AGENT);
    const talk = async (...words: string[]) => {
      for (const text of words) await turn(api, frank.token, c.id, text);
    };
    await talk('hello there', 'I keep old cables in a drawer', 'and a box of chargers');
    const before = (await spendOf(api, admin, frank.user.id)).todayUsd;

    const summarised = await compact(api, frank.token, c.id);
    expect(summaryCalls().length).toBeGreaterThan(0);
    expect(summarised.state).toBe('completed');
    const paid = (await spendOf(api, admin, frank.user.id)).todayUsd;
    expect(paid).toBeGreaterThan(before);

    // At the budget, the conversation still compacts, written offline, and nothing more is spent.
    await talk('what about the chargers?', 'the drawer is full', 'fine');
    const spent = (await spendOf(api, admin, frank.user.id)).todayUsd;
    await setBudget(api, admin, frank.user.id, spent);
    const asked = summaryCalls().length;
    const offline = await compact(api, frank.token, c.id);
    expect(offline.state).toBe('completed');
    expect(summaryCalls()).toHaveLength(asked);
    const nodes = await path(api, frank.token, c.id);
    const summary = nodes.find((n) => n.id === offline.summaryNodeId);
    expect(summary?.payload['text']).toMatch(/^Offline summary of \d+ nodes/);
    expect(nodes.filter((n) => n.kind === 'user').map((n) => n.payload['text'])).toContain('fine');
    expect((await spendOf(api, admin, frank.user.id)).todayUsd).toBeCloseTo(spent, 6);
  });

  it('counts spend per model and refusals by reason for Prometheus', async () => {
    const text = await (await fetch(api.url('/api/metrics'))).text();

    expect(text).toMatch(/^sweatpants_model_spend_dollars_total\{model="claude-[^"]+"\} [0-9.e-]+$/m);
    expect(text).toMatch(/^sweatpants_spend_refusals_total\{reason="daily"\} [1-9]\d*$/m);
  });

  it('takes budgets from admins only, refuses bad ones with the error shape, and knows no stranger', async () => {
    const erin = await register(api, 'erin');
    const route = `/api/admin/users/${erin.user.id}/spend-limit`;

    expect(
      await call(api, 'POST', route, { token: erin.token, body: { dailyUsd: 9, monthlyUsd: null } }),
    ).toEqual({
      status: 403,
      body: errorOf('forbidden'),
    });
    expect(await call(api, 'GET', '/api/admin/spend', { token: erin.token })).toMatchObject({ status: 403 });
    const negative = await call(api, 'POST', route, {
      token: admin,
      body: { dailyUsd: -1, monthlyUsd: null },
    });
    expect(negative).toMatchObject({ status: 400, body: errorOf('invalid_request') });
    const missing = await call(api, 'POST', route, { token: admin, body: { dailyUsd: 1 } });
    expect(missing).toMatchObject({ status: 400, body: errorOf('invalid_request') });
    const stranger = `/api/admin/users/00000000-0000-4000-8000-000000000000/spend-limit`;
    expect(
      await call(api, 'POST', stranger, { token: admin, body: { dailyUsd: 1, monthlyUsd: 2 } }),
    ).toMatchObject({
      status: 404,
      body: errorOf('not_found'),
    });
    expect((await spendOf(api, admin, erin.user.id)).limitSource).toBe('default');
  });
});

describe('a budget across two api processes answering the same person at once', () => {
  let fake: FakeAnthropic | undefined;
  // Started before the apis (they are pointed at it) and closed after them (declared after the pair).
  beforeAll(async () => {
    fake = await startFake();
  });
  const pair = useApiPair('api_spend_two_processes', {}, () => {
    if (!fake) throw new Error('the fake Anthropic server is not running');
    return claudeEnv(fake);
  });
  afterAll(async () => {
    await fake?.close();
  });

  it('is overspent by at most one call: the second process sees the first call under way', async () => {
    const admin = await signInAdmin(pair.a, pair.db.url);
    const person = await register(pair.a, 'frank');
    // One conversation driven by each process: each is created and first spoken to there.
    const onA = await createConversation(pair.a, person.token, AGENT);
    const onB = await createConversation(pair.b, person.token, AGENT);
    await turn(pair.a, person.token, onA.id, 'hello from the laptop');
    const first = (await spendOf(pair.a, admin, person.user.id)).todayUsd;
    // Room for half a call more: the next call may start, the one after it may not.
    const budget = first * 1.5;
    await setBudget(pair.b, admin, person.user.id, budget);

    await Promise.all([
      turn(pair.a, person.token, onA.id, 'and from the laptop again'),
      turn(pair.b, person.token, onB.id, 'hello from the phone'),
    ]);

    const words = [
      lastWords(await path(pair.a, person.token, onA.id)),
      lastWords(await path(pair.b, person.token, onB.id)),
    ];
    expect(words.filter((w) => REFUSAL.test(w))).toHaveLength(1);
    const calls = [
      ...(await pricedFromNodes(pair.a, person.token, onA.id)),
      ...(await pricedFromNodes(pair.b, person.token, onB.id)),
    ];
    const total = (await spendOf(pair.b, admin, person.user.id)).todayUsd;
    expect(total).toBeCloseTo(
      calls.reduce((a, b) => a + b, 0),
      5,
    );
    expect(total).toBeGreaterThan(budget);
    expect(total).toBeLessThanOrEqual(budget + Math.max(...calls) + 1e-6);
  }, 60_000);
});
