/**
 * `npm run bench`, fourth part: what a tidying session costs on Claude. A 30-turn session (a photo,
 * then what the space is for, then one item per message, each proposal tapped) runs through the
 * runner, the tidying coach and the real Claude adapter and SDK against the fake Anthropic server,
 * which answers each request as the offline coach would and bills it by the prompt cache's rules
 * (a prefix read only when byte-identical up to a breakpoint, written within five minutes; nothing
 * under 1,024 tokens cached; tokens estimated as JSON length / 4).
 *
 *   billed input of a turn:  over the turn's calls, fresh input in full, cache writes at 1.25×
 *                            and cache reads at 0.1× (Anthropic's prices relative to input)
 *   cached share of a turn:  cache reads / all input tokens of the turn
 *
 * Targets (issue 19): turn 30's billed input ≤ 1.5 × turn 3's (uncached, it grows with every
 * turn: printed beside it), and the cached share ≥ 80% on every turn from the third. And (issue
 * 32) the session's cost in dollars, each call at Claude's published prices for its model, ≤ 0.3 ×
 * the same session sent naively: nothing cached, the photo on every call, the words read by a call
 * of their own before the card's (a tap still settles its turn without a call, so the naive
 * session is, if anything, cheaper than a truly naive one).
 * Prints `figure | cached | uncached | target | met` and `bench: N of M targets met`.
 */
import { createHash } from 'node:crypto';
import { ClaudeModel, claudeConfig, costOf } from '@sweatpants/agent-claude';
import { offlineResponder, startFakeAnthropic } from '@sweatpants/agent-claude/testing';
import { imageOf, type ModelReply, type ModelRequest, type ModelUsage } from '@sweatpants/agent-runtime';
import { InMemoryConversationPort, Runner, type Model } from '@sweatpants/agent-runtime/host';
import { OfflineModel } from '@sweatpants/agent-runtime/offline';
import { TIDYING_OFFLINE_RULES, tidyingAgent } from '@sweatpants/agent-tidying';
import { ok, type ElicitAnswer, type ElicitRequest, type Photo } from '@sweatpants/domain';
import { wordsOfTurn } from './tidying-session-words';

const TURNS = 30;
const PHOTO_BYTES = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const PHOTO: Photo = {
  sha256: createHash('sha256').update(PHOTO_BYTES).digest('hex'),
  mediaType: 'image/png',
  bytes: PHOTO_BYTES.length,
};
const WRITE_PRICE = 1.25;

/** One call: what it cost in tokens, and the model that answered (its price). */
interface Call {
  usage: ModelUsage;
  model: string;
}
const READ_PRICE = 0.1;

/** The one-tap answer to whatever the coach asks: its first choice. */
function tapFirst(q: ElicitRequest): ElicitAnswer {
  const p = q.payload as { choices?: { disposition: unknown }[]; options?: { id: string }[] };
  switch (q.type) {
    case 'propose-disposition':
      return {
        elicitId: q.elicitId,
        action: 'accept',
        content: { disposition: p.choices?.[0]?.disposition, wasCorrection: false },
      } as ElicitAnswer;
    case 'choose':
      return {
        elicitId: q.elicitId,
        action: 'accept',
        content: { choiceId: p.options?.[0]?.id },
      } as ElicitAnswer;
    case 'confirm':
      return { elicitId: q.elicitId, action: 'accept', content: { value: true } };
    case 'group':
      return { elicitId: q.elicitId, action: 'accept', content: { answers: { done: { value: true } } } };
    default:
      return { elicitId: q.elicitId, action: 'decline' };
  }
}

/**
 * How a session is sent. As the product sends it; or naively: nothing cached (the fake's cache
 * never reads, as a request with no cache marks is billed), the photo on every call (where the
 * product sends its analysis), and the words read by a call of their own before the card's call
 * (the reading's proposal left out).
 */
type Sending = 'product' | 'naive';

/** The line the product puts where a photo already analysed stood (see the tidying coach's act). */
const PHOTO_SEEN = /^\(a photo, already looked at/;

/** The photo back where the product left its line: the naive session sends it on every call. */
function withPhoto(request: ModelRequest): ModelRequest {
  return {
    ...request,
    messages: request.messages.map((m) => ({
      ...m,
      content: m.content.map((b) => (b.type === 'text' && PHOTO_SEEN.test(b.text) ? imageOf(PHOTO) : b)),
    })),
  };
}

/** A reading's reply without its proposal or its first sentence: the naive session proposes in a call of its own. */
function readOnly(content: ModelReply['content']): ModelReply['content'] {
  if (!content.some((b) => b.type === 'tool_use' && b.name === 'record_extraction')) return content;
  return content.flatMap((b) =>
    b.type === 'text'
      ? []
      : b.type === 'tool_use'
        ? [{ ...b, input: { ...(b.input as object), proposal: null } }]
        : [b],
  );
}

/** Each turn's calls' usage, with the model that answered, in order. */
async function session(sending: Sending): Promise<Call[][]> {
  const fake = await startFakeAnthropic(sending === 'naive' ? { minCacheTokens: Infinity } : {});
  fake.respond(offlineResponder(new OfflineModel(TIDYING_OFFLINE_RULES)));
  const claude = new ClaudeModel(
    claudeConfig({ apiKey: 'bench-key', baseURL: fake.url, model: 'claude-sonnet-4-6' }),
    { photoBytes: async (sha) => (sha === PHOTO.sha256 ? PHOTO_BYTES : null) },
  );
  const turns: Call[][] = [];
  const model: Model = {
    kind: claude.kind,
    name: claude.name,
    async complete(request, options) {
      const reply = await claude.complete(sending === 'naive' ? withPhoto(request) : request, options);
      if (!reply.ok) return reply;
      turns.at(-1)?.push({ usage: reply.value.usage, model: reply.value.model });
      return sending === 'naive' ? ok({ ...reply.value, content: readOnly(reply.value.content) }) : reply;
    },
  };
  const port = new InMemoryConversationPort();
  port.create('bench');
  const runner = await Runner.open({
    conversationId: 'bench',
    agent: tidyingAgent,
    port,
    model,
    logs: { write: () => undefined },
  });
  try {
    for (let turn = 1; turn <= TURNS; turn++) {
      turns.push([]);
      const text = wordsOfTurn(turn);
      const sent = await runner.send({
        text,
        authorId: 'bench-user',
        ...(turn === 1 ? { photos: [PHOTO] } : {}),
      });
      if (!sent.ok) throw new Error(sent.error.message);
      const answered = new Set<string>();
      while (runner.pending()[0]?.type !== 'chat') {
        for (const q of runner.elicits.list()) {
          if (answered.has(q.elicitId)) continue;
          answered.add(q.elicitId);
          const done = runner.answer(tapFirst(q));
          if (!done.ok) throw new Error(done.error.message);
        }
        await new Promise((r) => setTimeout(r, 1));
      }
      await runner.whenIdle();
    }
  } finally {
    await runner.close();
    await fake.close();
  }
  return turns;
}

const all = (u: ModelUsage) => u.inputTokens + (u.cacheWriteTokens ?? 0) + (u.cacheReadTokens ?? 0);
const billed = (calls: ModelUsage[]) =>
  calls.reduce(
    (sum, u) =>
      sum + u.inputTokens + WRITE_PRICE * (u.cacheWriteTokens ?? 0) + READ_PRICE * (u.cacheReadTokens ?? 0),
    0,
  );
const uncached = (calls: ModelUsage[]) => calls.reduce((sum, u) => sum + all(u), 0);
const share = (calls: ModelUsage[]) =>
  calls.reduce((sum, u) => sum + (u.cacheReadTokens ?? 0), 0) / Math.max(1, uncached(calls));

/** The session's cost in dollars, each call priced by Claude's published prices for its model. */
const dollars = (calls: Call[]) => calls.reduce((sum, c) => sum + costOf(c.model, c.usage), 0);

async function main(): Promise<number> {
  process.stderr.write(`bench: a ${TURNS}-turn tidying session on Claude (fake server, cache rules)\n`);
  const sent = await session('product');
  const naive = (await session('naive')).flat();
  const turns = sent.map((calls) => calls.map((c) => c.usage));
  const [t3, t30] = [turns[2]!, turns[TURNS - 1]!];
  const growth = billed(t30) / billed(t3);
  const growthUncached = uncached(t30) / uncached(t3);
  const shares = turns.slice(2).map(share);
  const lowest = Math.min(...shares);
  const total = turns.flat();
  const rows = [
    {
      name: 'billed input, turn 30 / turn 3',
      cached: `${Math.round(billed(t30))} / ${Math.round(billed(t3))} = ${growth.toFixed(2)}x`,
      uncachedText: `${uncached(t30)} / ${uncached(t3)} = ${growthUncached.toFixed(2)}x`,
      target: '≤ 1.5x',
      met: growth <= 1.5,
    },
    {
      name: 'cached share of input, lowest of turns 3–30',
      cached: `${(lowest * 100).toFixed(1)}%`,
      uncachedText: '0%',
      target: '≥ 80%',
      met: lowest >= 0.8,
    },
    {
      name: "the session's cost in dollars, against the same session sent naively",
      cached: `$${dollars(sent.flat()).toFixed(4)} = ${(dollars(sent.flat()) / dollars(naive)).toFixed(2)}x`,
      uncachedText: `$${dollars(naive).toFixed(4)} (${naive.length} calls)`,
      target: '≤ 0.3x',
      met: dollars(sent.flat()) <= 0.3 * dollars(naive),
    },
  ];
  process.stderr.write(
    `  · ${total.length} calls; billed input over the session ${Math.round(billed(total))} tokens against ${uncached(total)} uncached (${((billed(total) / uncached(total)) * 100).toFixed(1)}%)\n`,
  );
  const fromThird = turns.slice(2).flat();
  process.stderr.write(
    `  · cached share over turns 3–30 together: ${(share(fromThird) * 100).toFixed(1)}%\n`,
  );
  process.stderr.write(`  · model calls per turn: ${turns.map((t) => t.length).join(' ')}\n`);
  process.stderr.write(`  · billed input per turn: ${turns.map((t) => Math.round(billed(t))).join(' ')}\n`);
  process.stderr.write(
    `  · cached share per turn: ${turns.map((t) => `${Math.round(share(t) * 100)}%`).join(' ')}\n`,
  );
  console.log('\nfigure | cached | uncached | target | met');
  console.log('--- | --- | --- | --- | ---');
  for (const r of rows)
    console.log(`${r.name} | ${r.cached} | ${r.uncachedText} | ${r.target} | ${r.met ? 'yes' : 'no'}`);
  console.log(`bench: ${rows.filter((r) => r.met).length} of ${rows.length} targets met`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
