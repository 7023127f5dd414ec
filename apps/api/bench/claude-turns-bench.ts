/**
 * `npm run bench`, what a person waits for on Claude: the 30-turn tidying session of the cost
 * bench (an item named each turn, each card tapped) through the api and a tab's socket, against
 * the fake Anthropic server on a model's clock (the first token after 600 ms, then 60 tokens a
 * second), which answers as the offline coach would. The model's own timing is measured in the
 * same run, straight through the SDK: a round trip of the call that reads a person's words, and
 * the first token of a reply.
 *
 *   tap → next card                      p50 ≤ 1.1 × one model round trip (0 where no call is needed)
 *   typed words → first thing shown      p50 ≤ the model's first token + 50 ms (the first streamed
 *                                        word, or the card when a named item's card is the answer)
 *   model calls per turn                 ≤ 1.3 on average
 *
 * The api runs in this process on a database of its own (dropped at the end), no Redis.
 * `--quick` runs 12 turns.
 */
import type { INestApplication } from '@nestjs/common';
import { ClaudeModel, claudeConfig } from '@sweatpants/agent-claude';
import { offlineResponder, startFakeAnthropic, type FakeAnthropic } from '@sweatpants/agent-claude/testing';
import type { ModelRequest } from '@sweatpants/agent-runtime';
import { OfflineModel } from '@sweatpants/agent-runtime/offline';
import { TIDYING_OFFLINE_RULES } from '@sweatpants/agent-tidying';
import type { ElicitEvent } from '@sweatpants/domain';
import { createTestDatabase } from '@sweatpants/migrations/testing';
import { ApiUser } from '../reliability/src/support/api-client';
import { acceptContentFor } from '../reliability/src/support/elicit-answers';
import type { LiveClient } from '../reliability/src/support/live-client';
import { percentile } from '../reliability/src/support/process-stats';
import { connectTab, joinOrThrow } from '../reliability/src/support/session';
import { createApp } from '../src/app.factory';
import { loadConfig } from '../src/config/app-config';
import { wordsOfTurn } from './tidying-session-words';

const TIMING = { firstTokenMs: 600, tokensPerSecond: 60 };
const MODEL = 'claude-sonnet-4-6';

const note = (text: string) => process.stderr.write(`  · ${text}\n`);

/** The model's clock, measured through the SDK: a reading call's round trip, and a reply's first token. */
async function modelTiming(fake: FakeAnthropic): Promise<{ roundTrip: number; firstToken: number }> {
  const claude = new ClaudeModel(claudeConfig({ apiKey: 'bench-key', baseURL: fake.url, model: MODEL }));
  const reading: ModelRequest = {
    system: 'You read one message from someone tidying a space.',
    messages: [{ role: 'user', content: [{ type: 'text', text: 'a mug' }] }],
    tools: [
      {
        name: 'record_extraction',
        description: 'Record the facts',
        inputSchema: { type: 'object', properties: {} },
      },
    ],
    toolChoice: 'record_extraction',
  };
  const reply: ModelRequest = {
    system: 'You are a tidying coach.',
    notes: 'This turn: Ask for the next thing.\nAction: instruct-next',
    messages: [{ role: 'user', content: [{ type: 'text', text: 'ok' }] }],
    tools: [],
  };
  const trips: number[] = [];
  const firsts: number[] = [];
  for (let i = 0; i < 5; i++) {
    const start = performance.now();
    await claude.complete(reading, { signal: new AbortController().signal });
    trips.push(performance.now() - start);
    const began = performance.now();
    let first: number | undefined;
    await claude.complete(reply, {
      signal: new AbortController().signal,
      onText: () => (first ??= performance.now() - began),
    });
    if (first !== undefined) firsts.push(first);
  }
  return { roundTrip: percentile(trips, 50), firstToken: percentile(firsts, 50) };
}

interface Turn {
  /** typed words → the first token event or the card, whichever came first (ms) */
  firstShown: number;
  /** whether what came first was streamed words */
  streamed: boolean;
  /** each tap → the next elicit (ms) */
  taps: number[];
}

/** Waits for the next unanswered elicit; returns it with when it arrived. */
async function next(tab: LiveClient, id: string, answered: Set<string>): Promise<ElicitEvent> {
  const elicit = await tab.nextElicit(id, answered, 60_000);
  answered.add(elicit.elicitId);
  return elicit;
}

async function session(url: string, turns: number): Promise<Turn[]> {
  const user = await ApiUser.register(url);
  const conversation = await user.createConversation('tidying');
  const tab = await connectTab(url, user.token);
  await joinOrThrow(tab, conversation.id);
  const answered = new Set<string>();
  let prompt = await next(tab, conversation.id, answered);
  const measured: Turn[] = [];
  try {
    for (let turn = 1; turn <= turns; turn++) {
      if (prompt.type !== 'chat') throw new Error(`turn ${turn} began at a ${prompt.type} elicit`);
      const text = wordsOfTurn(turn);
      const from = tab.received.length;
      const sent = performance.now();
      const ack = await tab.emit('elicit:response', {
        conversationId: conversation.id,
        elicitId: prompt.elicitId,
        action: 'accept',
        content: { text },
      });
      if (!ack.ok) throw new Error(`turn ${turn}: ${ack.error.code} ${ack.error.message}`);
      let elicit = await next(tab, conversation.id, answered);
      const shown = tab.received
        .slice(from)
        .find(
          (r) =>
            (r.event === 'token' || r.event === 'elicit') && r.payload.conversationId === conversation.id,
        );
      const taps: number[] = [];
      while (elicit.type !== 'chat') {
        const tapped = performance.now();
        const answer = await tab.emit('elicit:response', {
          conversationId: conversation.id,
          elicitId: elicit.elicitId,
          action: 'accept',
          content: acceptContentFor(elicit, turn),
        });
        if (!answer.ok) throw new Error(`turn ${turn}: ${answer.error.code} ${answer.error.message}`);
        elicit = await next(tab, conversation.id, answered);
        taps.push(performance.now() - tapped);
      }
      prompt = elicit;
      if (shown) measured.push({ firstShown: shown.at - sent, streamed: shown.event === 'token', taps });
    }
  } finally {
    tab.close();
  }
  return measured;
}

async function main(argv: string[]): Promise<number> {
  const unknown = argv.filter((a) => a !== '--quick');
  if (unknown.length > 0) throw new Error(`unknown arguments: ${unknown.join(' ')} (only --quick)`);
  const turns = argv.includes('--quick') ? 12 : 30;
  process.stderr.write(
    `bench: a ${turns}-turn tidying session through the api on Claude's clock (fake server: first token ${TIMING.firstTokenMs} ms, ${TIMING.tokensPerSecond} tokens/s)\n`,
  );
  const fake = await startFakeAnthropic({ timing: TIMING });
  fake.respond(offlineResponder(new OfflineModel(TIDYING_OFFLINE_RULES)));
  const db = await createTestDatabase('bench_claude_turns');
  let app: INestApplication | undefined;
  try {
    const model = await modelTiming(fake);
    const before = fake.requests.length;
    app = await createApp(
      loadConfig({
        PORT: '0',
        JWT_SECRET: 'a-bench-secret-that-is-long-enough-for-hs256',
        WEB_DIST: '/nonexistent',
        DATABASE_URL: db.url,
        ANTHROPIC_API_KEY: 'bench-key',
        ANTHROPIC_BASE_URL: fake.url,
        ANTHROPIC_MODEL: MODEL,
        RATE_LIMIT_HTTP_PER_MINUTE: '10000000',
        RATE_LIMIT_WS_PER_MINUTE: '10000000',
      }),
      { logger: ['error', 'warn'] },
    );
    await app.listen(0, '127.0.0.1');
    const url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
    const measured = await session(url, turns);
    const calls = fake.requests.length - before;

    const taps = measured.flatMap((t) => t.taps);
    const tapP50 = percentile(taps, 50);
    const shownP50 = percentile(
      measured.map((t) => t.firstShown),
      50,
    );
    const perTurn = calls / turns;
    note(
      `the model alone: a reading round trip ${model.roundTrip.toFixed(0)} ms, a reply's first token ${model.firstToken.toFixed(0)} ms`,
    );
    note(`${calls} model calls over ${turns} turns; ${taps.length} taps`);
    note(
      `typed words → first shown, per turn (ms; * streamed words): ${measured.map((t) => `${t.firstShown.toFixed(0)}${t.streamed ? '*' : ''}`).join(' ')}`,
    );
    note(`tap → next card, per tap (ms): ${taps.map((t) => t.toFixed(0)).join(' ')}`);
    const rows = [
      {
        figure: 'tap → next card, p50',
        value: `${tapP50.toFixed(0)} ms`,
        target: `≤ 1.1 × ${model.roundTrip.toFixed(0)} ms = ${(1.1 * model.roundTrip).toFixed(0)} ms`,
        met: tapP50 <= 1.1 * model.roundTrip,
      },
      {
        figure: 'typed words → first word or card shown, p50',
        value: `${shownP50.toFixed(0)} ms`,
        target: `≤ ${model.firstToken.toFixed(0)} + 50 = ${(model.firstToken + 50).toFixed(0)} ms`,
        met: shownP50 <= model.firstToken + 50,
      },
      {
        figure: 'model calls per turn',
        value: perTurn.toFixed(2),
        target: '≤ 1.3',
        met: perTurn <= 1.3,
      },
    ];
    console.log('\nfigure | value | target | met');
    console.log('--- | --- | --- | ---');
    for (const r of rows) console.log(`${r.figure} | ${r.value} | ${r.target} | ${r.met ? 'yes' : 'no'}`);
    console.log(`bench: ${rows.filter((r) => r.met).length} of ${rows.length} targets met`);
    return 0;
  } finally {
    await app?.close();
    await fake.close();
    await db.drop();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
