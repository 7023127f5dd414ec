/**
 * `npm run bench`, fifth part: what a conversation's depth costs the api. Two tidying
 * conversations shaped like long, compacted ones, 1k and 100k nodes deep: user and assistant
 * turns with a summary node every SUMMARY_EVERY nodes (its payload as compaction writes it, the
 * agent's state and mode included), built straight through the tree store in batches, then two
 * real turns through the api so that HEAD ends where the agent waits for the user's next message.
 * Each figure at 100k is measured against the same figure at 1k, in the same run, interleaved:
 *
 *   open: the runner closed, a tab joins and receives the chat prompt at HEAD
 *         (Runner.open and its replay of the last turn)          100k ≤ 2 × 1k
 *   rewind + recover: POST rewind to the previous turn's end, its chat prompt received, POST
 *         recover of the reflog entry that left HEAD at the tip, its chat prompt received
 *                                                                100k ≤ 1.2 × 1k
 *
 * The api runs in this process on a database of its own on the local PostgreSQL (dropped at the
 * end), with the offline model and no Redis. The runner asks for compaction when a branch looks
 * long; the bench drops those requests (and says how many) so HEAD stays where it put it.
 * `--quick` takes fewer samples. Prints `figure | value | floor | ratio | target | met` and
 * `bench: N of M targets met`.
 */
import type { INestApplication } from '@nestjs/common';
import type { AgentDefinition } from '@sweatpants/agent-runtime';
import { summaryStates } from '@sweatpants/agent-runtime/host';
import type { Conversation, ElicitEvent, HeadMove, NodeDraft, TreeNode } from '@sweatpants/domain';
import { createTestDatabase } from '@sweatpants/migrations/testing';
import { TreeStore } from '@sweatpants/tree-store';
import { ApiUser } from '../reliability/src/support/api-client';
import { acceptContentFor } from '../reliability/src/support/elicit-answers';
import type { LiveClient } from '../reliability/src/support/live-client';
import { percentile } from '../reliability/src/support/process-stats';
import { connectTab, joinOrThrow, settled } from '../reliability/src/support/session';
import { AgentRegistry } from '../src/agents/agent-registry';
import { createApp } from '../src/app.factory';
import { loadConfig } from '../src/config/app-config';
import { AppEvents } from '../src/events/app-events';
import { ConversationActors } from '../src/conversations/conversation-actors';

const DEPTHS = [1_000, 100_000] as const;
/** A summary every this many nodes, as a conversation compacted at the default node budget. */
const SUMMARY_EVERY = 200;
const AGENT_AUTHOR = 'agent:tidying';

const note = (text: string) => process.stderr.write(`  · ${text}\n`);

/** A deep conversation, the two places its HEAD waits on the user, and the entry back to the tip. */
interface Deep {
  depth: number;
  id: string;
  /** where the agent waited after the first real turn: the rewind's target */
  previous: string;
  /** where it waits now, HEAD */
  tip: string;
  /** a reflog entry whose new HEAD is `tip`, for recover */
  reflogId: string;
}

function must<T>(
  result: { ok: true; value: T } | { ok: false; error: { message: string } },
  what: string,
): T {
  if (!result.ok) throw new Error(`${what}: ${result.error.message}`);
  return result.value;
}

/** A summary of `window` after its first node (the root or the previous summary), as compaction writes it. */
function summaryOf(agent: AgentDefinition, window: readonly TreeNode[]): NodeDraft {
  const range = window.slice(1);
  const [first, last] = [range[0], range.at(-1)];
  if (!first || !last) throw new Error('a summary of nothing');
  return {
    kind: 'summary',
    payload: {
      text: `The person sorted ${range.length} more things with their coach.`,
      covers: { fromId: first.id, toId: last.id, count: range.length },
      // The fold over the window is the fold over the whole path: its first node keeps the rest.
      states: summaryStates(agent, window),
    },
    authorId: 'agent:compactor',
  } as NodeDraft;
}

/** One synthetic turn node: the user speaks at odd positions, the coach answers at even ones. */
function said(position: number, userId: string): NodeDraft {
  return position % 2 === 1
    ? { kind: 'user', payload: { text: `there is a thing number ${position}` }, authorId: userId }
    : { kind: 'assistant', payload: { text: `what about thing ${position - 1}?` }, authorId: AGENT_AUTHOR };
}

/**
 * Appends `depth` nodes under the root, one batch per summary: the summary of the previous batch,
 * then SUMMARY_EVERY - 1 turn nodes, ending on the coach's words; then a `cancel`.
 */
async function buildPrefix(
  store: TreeStore,
  agent: AgentDefinition,
  user: ApiUser,
  id: string,
  depth: number,
): Promise<void> {
  const [root] = must(await store.path(id, 'HEAD'), 'root');
  if (!root) throw new Error('a conversation without a root');
  let window: TreeNode[] = [root];
  let head = root.id;
  let position = 0;
  for (let d = 0; d < depth;) {
    const drafts: NodeDraft[] = window.length > 1 ? [summaryOf(agent, window)] : [];
    while (drafts.length < SUMMARY_EVERY && d + drafts.length < depth)
      drafts.push(said(++position, user.userId));
    if (drafts.at(-1)?.kind === 'user') drafts.push(said(++position, user.userId));
    const appended = must(
      await store.append({ conversationId: id, nodes: drafts, expectedHead: head, actorId: user.userId }),
      `append at depth ${d}`,
    );
    window = drafts[0]?.kind === 'summary' ? appended.nodes : [...window, ...appended.nodes];
    head = appended.head;
    d += appended.nodes.length;
  }
  // The last synthetic turn was stopped: a runner opened here replays no turn (the tidying coach's
  // turns record events these made-up turns do not have), and the next message starts afresh.
  must(
    await store.append({
      conversationId: id,
      nodes: [{ kind: 'cancel', payload: { by: user.userId }, authorId: user.userId }],
      expectedHead: head,
      action: 'cancel',
      actorId: user.userId,
    }),
    'cancel',
  );
}

/** Sends `text` and answers what the agent asks until it waits on the chat prompt; returns HEAD there. */
async function turn(user: ApiUser, id: string, text: string): Promise<string> {
  const sent = await user.sendMessage(id, text);
  if (sent.status !== 201) throw new Error(`message: ${sent.status} ${JSON.stringify(sent.body)}`);
  for (let answers = 0; answers < 20; answers++) {
    await settled(user, id);
    const conversation = await user.conversation(id);
    const pending = conversation.pendingElicit;
    if (pending?.type === 'chat') return conversation.head;
    if (!pending) throw new Error(`the agent waits on nothing in ${id}`);
    const answered = await user.respond(id, pending.elicitId, 'accept', acceptContentFor(pending, answers));
    if (answered.status !== 200)
      throw new Error(`answer: ${answered.status} ${JSON.stringify(answered.body)}`);
  }
  throw new Error(`the agent of ${id} kept asking`);
}

async function buildDeep(
  store: TreeStore,
  runners: ConversationActors,
  agent: AgentDefinition,
  user: ApiUser,
  depth: number,
): Promise<Deep> {
  const started = performance.now();
  const { id } = await user.createConversation('tidying');
  await buildPrefix(store, agent, user, id, depth);
  // The runner opened with the conversation stands on its root: the next command opens one on HEAD.
  await runners.close(id);
  const previous = await turn(user, id, "Let's tidy my desk");
  const tip = await turn(user, id, 'There is a stack of old magazines');
  const entry = (await user.reflog(id)).find((e) => e.newHead === tip);
  if (!entry) throw new Error(`no reflog entry leaves HEAD at ${tip}`);
  note(`built a conversation ${depth} deep in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return { depth, id, previous, tip, reflogId: entry.id };
}

/** Resolves when the tab has received, since event `from`, the chat prompt at `head`. */
function chatPromptAt(tab: LiveClient, id: string, head: string, from: number): Promise<ElicitEvent> {
  const elicitId = `chat-${head}`;
  return tab.waitFor(
    () => {
      for (let i = from; i < tab.received.length; i++) {
        const r = tab.received[i];
        if (r?.event !== 'elicit') continue;
        const event = r.payload as ElicitEvent;
        if (event.conversationId === id && event.elicitId === elicitId) return event;
      }
      return undefined;
    },
    `the chat prompt at ${head.slice(0, 12)}`,
  );
}

/** Opening: the runner closed, a tab joins and receives the chat prompt at HEAD. */
async function openOnce(runners: ConversationActors, tab: LiveClient, deep: Deep): Promise<number> {
  await runners.close(deep.id);
  const from = tab.received.length;
  const started = performance.now();
  await joinOrThrow(tab, deep.id);
  await chatPromptAt(tab, deep.id, deep.tip, from);
  return performance.now() - started;
}

/** Rewind to the previous turn's end and recover the tip, each until its chat prompt is received. */
async function roundOnce(user: ApiUser, tab: LiveClient, deep: Deep): Promise<number> {
  const started = performance.now();
  let from = tab.received.length;
  const rewound = await user.call<HeadMove>('POST', `/api/conversations/${deep.id}/rewind`, {
    to: deep.previous,
  });
  if (rewound.status !== 200) throw new Error(`rewind: ${rewound.status} ${JSON.stringify(rewound.body)}`);
  await chatPromptAt(tab, deep.id, deep.previous, from);
  from = tab.received.length;
  const recovered = await user.recover(deep.id, deep.reflogId);
  if (recovered.status !== 200)
    throw new Error(`recover: ${recovered.status} ${JSON.stringify(recovered.body)}`);
  await chatPromptAt(tab, deep.id, deep.tip, from);
  return performance.now() - started;
}

/** Samples `measure` on every conversation in turn, the order alternating each round. */
async function interleaved(
  deeps: readonly Deep[],
  rounds: number,
  measure: (deep: Deep) => Promise<number>,
): Promise<Map<number, number[]>> {
  const samples = new Map(deeps.map((d) => [d.depth, [] as number[]]));
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? deeps : [...deeps].reverse();
    for (const deep of order) samples.get(deep.depth)?.push(await measure(deep));
  }
  return samples;
}

interface Figure {
  figure: string;
  value: number;
  floor: number;
  factor: number;
}

async function main(argv: string[]): Promise<number> {
  const unknown = argv.filter((a) => a !== '--quick');
  if (unknown.length > 0) throw new Error(`unknown arguments: ${unknown.join(' ')} (only --quick)`);
  const quick = argv.includes('--quick');
  const [openRounds, tripRounds] = quick ? [8, 5] : [30, 15];
  process.stderr.write(
    `bench: conversation depth through the api, offline model${quick ? ' (--quick)' : ''}\n`,
  );

  const db = await createTestDatabase('bench_depth');
  let app: INestApplication | undefined;
  let tab: LiveClient | undefined;
  try {
    const config = loadConfig({
      PORT: '0',
      JWT_SECRET: 'a-bench-secret-that-is-long-enough-for-hs256',
      WEB_DIST: '/nonexistent',
      DATABASE_URL: db.url,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_HTTP_PER_MINUTE: '10000000',
      RATE_LIMIT_WS_PER_MINUTE: '10000000',
    });
    app = await createApp(config, { logger: ['error', 'warn'] });
    await app.listen(0, '127.0.0.1');
    const url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
    let dropped = 0;
    app.get(AppEvents).replaceHandlers('compaction.requested', () => {
      dropped++;
    });
    const store = app.get(TreeStore);
    const runners = app.get(ConversationActors);
    const agent = app.get(AgentRegistry).get('tidying').definition;

    const user = await ApiUser.register(url);
    const deeps: Deep[] = [];
    for (const depth of DEPTHS) deeps.push(await buildDeep(store, runners, agent, user, depth));
    tab = await connectTab(url, user.token);
    for (const deep of deeps) await joinOrThrow(tab, deep.id);

    // Warm up (JIT, pools, the planner's caches) before anything is recorded.
    const liveTab = tab;
    await interleaved(deeps, 2, (deep) => openOnce(runners, liveTab, deep));
    await interleaved(deeps, 2, (deep) => roundOnce(user, liveTab, deep));
    const opens = await interleaved(deeps, openRounds, (deep) => openOnce(runners, liveTab, deep));
    const trips = await interleaved(deeps, tripRounds, (deep) => roundOnce(user, liveTab, deep));
    const final = await Promise.all(deeps.map((d) => user.conversation(d.id)));
    if (final.some((c: Conversation, i) => c.head !== deeps[i]?.tip))
      throw new Error('a conversation moved away from where the bench put it');

    const [shallow, deep] = DEPTHS;
    const p50 = (samples: Map<number, number[]>, depth: number) => percentile(samples.get(depth) ?? [], 50);
    const figures: Figure[] = [
      {
        figure: `open, depth ${deep / 1000}k vs ${shallow / 1000}k (p50)`,
        value: p50(opens, deep),
        floor: p50(opens, shallow),
        factor: 2,
      },
      {
        figure: `rewind + recover, depth ${deep / 1000}k vs ${shallow / 1000}k (p50)`,
        value: p50(trips, deep),
        floor: p50(trips, shallow),
        factor: 1.2,
      },
    ];
    note(
      `${openRounds} opens and ${tripRounds} round trips per depth; ${dropped} compaction requests dropped`,
    );
    const rows = figures.map((f) => {
      const ratio = f.value / f.floor;
      const met = ratio <= f.factor ? 'yes' : 'NO';
      return `${f.figure} | ${f.value.toFixed(2)} ms | floor ${f.floor.toFixed(2)} ms | ${ratio.toFixed(2)}x | <= ${f.factor}x | ${met}`;
    });
    const met = figures.filter((f) => f.value / f.floor <= f.factor).length;
    process.stdout.write(`\n${rows.join('\n')}\nbench: ${met} of ${figures.length} targets met\n`);
    return 0;
  } finally {
    tab?.close();
    await app?.close();
    await db.drop();
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  },
);
