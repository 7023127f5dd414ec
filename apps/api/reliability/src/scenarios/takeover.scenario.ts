import { startFakeAnthropic, type FakeAnthropic, type FakeStep } from '@sweatpants/agent-claude/testing';

import { Verdict, type ScenarioContext, type Scenario } from '../scenario';
import type { ApiUser } from '../support/api-client';
import { apiUrl, type RunningCluster } from '../support/cluster-handle';
import type { LiveClient } from '../support/live-client';
import { acceptContentFor } from '../support/elicit-answers';
import { answerNext, connectTab, fsckProblems, joinOrThrow, signUp } from '../support/session';
import { TreeAudit } from '../support/tree-audit';

/**
 * 2. kill -9 the api process driving a conversation, (a) while an elicit is pending and (b) while a
 * model call is in flight (the real SDK against the project's fake Anthropic server, holding its
 * reply): the other process takes over once the lease expires, the client's answer is accepted,
 * the tree has no lost or doubled node, and fsck is clean.
 */
export const takeoverScenario: Scenario = {
  id: 2,
  name: 'takeover: kill -9 the driving api with an elicit pending, and with a model call in flight',
  async run(ctx) {
    const verdict = new Verdict();
    await pendingElicitCase(ctx, verdict);
    const fake = await startFakeAnthropic();
    try {
      await modelInFlightCase(ctx, verdict, fake);
    } finally {
      await fake.close();
    }
    return verdict.outcome();
  },
};

/** Drives `turns` answers on the tab, returning every acknowledged node id. */
async function drive(
  tab: LiveClient,
  conversationId: string,
  answered: Set<string>,
  turns: number,
  verdict: Verdict,
) {
  const acked: string[] = [];
  for (let turn = 0; turn < turns; turn++) {
    const result = await answerNext(tab, conversationId, answered, turn);
    if (result.nodeId) acked.push(result.nodeId);
    verdict.check(result.error === undefined, `answer refused: ${result.error}`);
  }
  return acked;
}

/** Kills api-1 (where the conversation was created, joined and driven) and moves the tab to api-2. */
async function killAndMove(cluster: RunningCluster, tab: LiveClient): Promise<void> {
  await cluster.kill('api-1');
  await tab.moveTo(apiUrl(cluster, 'api-2'));
}

async function checkTree(
  cluster: RunningCluster,
  admin: ApiUser,
  conversationId: string,
  acked: readonly string[],
  seenBeforeKill: readonly string[],
  label: string,
  verdict: Verdict,
): Promise<void> {
  const audit = await TreeAudit.open(cluster.databaseUrl);
  try {
    const path = new Set((await audit.headPath(conversationId)).map((n) => n.id));
    const lost = [...acked, ...seenBeforeKill].filter((id) => !path.has(id));
    verdict.check(
      lost.length === 0,
      `${label}: ${lost.length} acknowledged or sent node(s) not on the HEAD path`,
    );
    for (const p of await audit.problems(conversationId)) verdict.check(false, `${label}: ${p}`);
    for (const p of await fsckProblems(admin.on(apiUrl(cluster, 'api-2')), conversationId))
      verdict.check(false, `${label}: ${p}`);
    const counts = await audit.counts(conversationId);
    verdict.figure(`${label}: nodes / reflog rows`, `${counts.nodes} / ${counts.reflog}`);
  } finally {
    await audit.close();
  }
}

/** A scrape of the survivor's /api/metrics (from this host) shows the takeover and the turns after it. */
async function checkMetrics(url: string, label: string, verdict: Verdict): Promise<void> {
  const text = await (await fetch(`${url}/api/metrics`)).text();
  const sample = (name: string) =>
    Number(/^(\S+) (\S+)$/m.exec(text.split('\n').find((l) => l.startsWith(`${name} `)) ?? '')?.[2] ?? NaN);
  const takeovers = sample('sweatpants_lease_takeovers_total');
  const turns = sample('sweatpants_turn_duration_seconds_count');
  verdict.figure(`${label}: survivor's metrics: takeovers / turns`, `${takeovers} / ${turns}`);
  verdict.check(takeovers >= 1, `${label}: the survivor's metrics show no takeover (${takeovers})`);
  verdict.check(turns >= 1, `${label}: the survivor's metrics show no turn (${turns})`);
}

async function pendingElicitCase(ctx: ScenarioContext, verdict: Verdict): Promise<void> {
  const cluster = await ctx.startCluster({ apis: 2, workers: 0 });
  const { user, admin } = await signUp(cluster);
  const conversation = await user.createConversation('tidying');
  const tab = await connectTab(apiUrl(cluster, 'api-1'), user.token);
  try {
    await joinOrThrow(tab, conversation.id);
    const answered = new Set<string>();
    const acked = await drive(tab, conversation.id, answered, 2, verdict);
    const pending = await tab.nextElicit(conversation.id, answered);
    const seen = tab.events('node', conversation.id).map((e) => e.node.id);
    ctx.log(`elicit ${pending.elicitId} pending; kill -9 api-1`);
    const killedAt = Date.now();
    await killAndMove(cluster, tab);
    // The answer goes to the survivor, which must take the conversation over to accept it.
    const ack = await tab.emit('elicit:response', {
      conversationId: conversation.id,
      elicitId: pending.elicitId,
      action: 'accept',
      content: acceptContentFor(pending, 2),
    });
    answered.add(pending.elicitId);
    verdict.check(
      ack.ok,
      `elicit pending: the answer after the kill was refused: ${ack.ok ? '' : ack.error.message}`,
    );
    if (ack.ok) acked.push(ack.node.id);
    await tab.nextElicit(conversation.id, answered, 60_000);
    verdict.figure('elicit pending: kill → next elicit (ms)', Date.now() - killedAt);
    acked.push(...(await drive(tab, conversation.id, answered, 1, verdict)));
    await checkTree(cluster, admin, conversation.id, acked, seen, 'elicit pending', verdict);
    await checkMetrics(apiUrl(cluster, 'api-2'), 'elicit pending', verdict);
  } finally {
    tab.close();
  }
}

/** Replies the fake gives after the held one: plain text, which every mode can take as its answer. */
const FOLLOW_UPS: FakeStep[] = Array.from({ length: 30 }, (_, i) => ({
  kind: 'reply',
  content: [{ type: 'text', text: `Noted (${i}). What else is on the desk?` }],
}));

async function modelInFlightCase(ctx: ScenarioContext, verdict: Verdict, fake: FakeAnthropic): Promise<void> {
  const cluster = await ctx.startCluster({
    apis: 2,
    workers: 0,
    env: { ANTHROPIC_API_KEY: 'reliability-test-key', ANTHROPIC_BASE_URL: fake.url },
  });
  const { user, admin } = await signUp(cluster);
  const conversation = await user.createConversation('tidying');
  verdict.check(
    conversation.model === 'claude',
    `model in flight: the conversation runs the ${conversation.model} model`,
  );
  const tab = await connectTab(apiUrl(cluster, 'api-1'), user.token);
  try {
    await joinOrThrow(tab, conversation.id);
    // The first model call is held: a stream that trickles for longer than the scenario needs.
    fake.script(
      { kind: 'slow_stream', deltas: Array.from({ length: 120 }, () => 'hmm '), delayMs: 500 },
      ...FOLLOW_UPS,
    );
    const answered = new Set<string>();
    const before = fake.requests.length;
    const first = await answerNext(tab, conversation.id, answered, 0);
    verdict.check(first.error === undefined, `model in flight: first answer refused: ${first.error}`);
    await tab.waitFor(() => (fake.requests.length > before ? true : undefined), 'a model request', 60_000);
    const seen = tab.events('node', conversation.id).map((e) => e.node.id);
    ctx.log('model call in flight; kill -9 api-1');
    const killedAt = Date.now();
    await killAndMove(cluster, tab);
    await tab.nextElicit(conversation.id, answered, 90_000);
    verdict.figure('model in flight: kill → next elicit (ms)', Date.now() - killedAt);
    verdict.figure('model in flight: model requests', fake.requests.length);
    const acked = first.nodeId ? [first.nodeId] : [];
    const result = await answerNext(tab, conversation.id, answered, 1);
    verdict.check(
      result.error === undefined,
      `model in flight: the answer after the takeover was refused: ${result.error}`,
    );
    if (result.nodeId) acked.push(result.nodeId);
    await checkTree(cluster, admin, conversation.id, acked, seen, 'model in flight', verdict);
  } finally {
    tab.close();
  }
}
