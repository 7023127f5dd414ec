/**
 * `npm run bench`, second part: the api end to end over Socket.IO with the offline model. The
 * figure is what a user waits for: an elicit answered → the next elicit received, with 1
 * conversation and with 200 driven at once. The targets hold the api's own share of it to its
 * floor: the total less what the same session's agent takes alone in memory (a Runner with no
 * api, database or socket, measured in the same run). The floor is the protocol echo (see
 * ./floors): a server that stores the answer with one INSERT and sends the same events the api
 * sent per answer, running no agent, measured in the same run at the same concurrency.
 *
 *   the api's share, p50 with 1 conversation    ≤ 3 × the protocol echo's p50 with 1 client
 *     (total p50 − the agent alone's p50)
 *   the api's share, p99 with 200 conversations ≤ 3 × the protocol echo's p99 with 200 clients
 *     (total p99 − 200 × the agent alone's CPU per turn: the turns queued on one core before it)
 *
 * The solo turns are measured in blocks that take turns with the agent alone's and the echo's, and
 * the echo with 200 clients just before and just after the api's 200 conversations, so a machine
 * that runs slower for part of the run (a noisy neighbour, a CPU's clock) weighs on a figure and
 * its floor alike.
 *
 * Beside each figure the bench prints the bare Socket.IO acknowledgement and the durable echo (the
 * INSERT alone) at the same concurrency, and the CPU time this process spent per solo turn (the
 * api and the one tab driving it share the process; the tab's part is its socket's).
 *
 * The api runs in this process on a database of its own on the local PostgreSQL (dropped at the
 * end), no Redis (in-process jobs), rate limits out of the way. `--quick` takes fewer turns.
 */
import type { INestApplication } from '@nestjs/common';
import { createTestDatabase } from '@sweatpants/migrations/testing';
import { Client as PgClient } from 'pg';
import { ApiUser } from '../reliability/src/support/api-client';
import type { LiveClient, Received } from '../reliability/src/support/live-client';
import { percentile } from '../reliability/src/support/process-stats';
import { answerNext, connectTab, inBatches, joinOrThrow } from '../reliability/src/support/session';
import { createApp } from '../src/app.factory';
import { loadConfig } from '../src/config/app-config';
import { bareServer, durableEchoServer, type FloorServer, roundTrips } from './floors';
import { openAgentAlone } from './agent-alone';

const MANY = 200;
/** How many blocks the solo turns are measured in, taking turns with the agent alone and the echo. */
const BLOCKS = 4;
/** The pause before each block of the solo run. */
const SETTLE_MS = 200;
/** Conversations per account: registering hashes a password (argon2), slow on purpose. */
const PER_USER = 10;

interface Figure {
  figure: string;
  /** the api's share: the total less the agent alone's part */
  value: number;
  /** answer → next elicit as a person waits for it */
  total: number;
  /** the agent alone's part of the total, and how it was reckoned */
  agent: number;
  agentTerms: string;
  /** the same percentile of the protocol echo at the same concurrency */
  floor: number;
  /** the same percentile of a bare acknowledgement at the same concurrency, for comparison */
  bare: number;
  /** the same percentile of the durable echo at the same concurrency, for comparison */
  durable: number;
  factor: number;
}

const note = (text: string) => process.stderr.write(`  · ${text}\n`);

/** Opens `count` conversations, each with its own tab joined and its chat prompt received. */
async function openConversations(url: string, count: number) {
  const users = await inBatches(Array.from({ length: Math.ceil(count / PER_USER) }), 4, () =>
    ApiUser.register(url),
  );
  return inBatches(Array.from({ length: count }), 25, async (_, i) => {
    const owner = users[Math.floor(i / PER_USER)] as ApiUser;
    const conversation = await owner.createConversation('tidying');
    const tab = await connectTab(url, owner.token);
    await joinOrThrow(tab, conversation.id);
    const answered = new Set<string>();
    await tab.nextElicit(conversation.id, answered);
    return { id: conversation.id, tab, answered };
  });
}

/**
 * Drives each conversation `turns` times: answer the open elicit, wait for the next one. Returns
 * the latencies and, per counted turn, where its tab's received events began (read after the run,
 * so the measured loop only notes an index).
 */
async function drive(
  opened: { id: string; tab: LiveClient; answered: Set<string> }[],
  turns: number,
): Promise<{ samples: number[]; starts: number[] }> {
  const samples: number[] = [];
  const starts: number[] = [];
  await Promise.all(
    opened.map(async ({ id, tab, answered }) => {
      for (let turn = 0; turn < turns; turn++) {
        const from = tab.received.length;
        const sent = performance.now();
        const result = await answerNext(tab, id, answered, turn);
        // A compaction that landed meanwhile moved the chat prompt with HEAD (a new elicit id):
        // the client answers the new one, and that turn is not counted.
        if (result.error?.startsWith('not_found')) {
          turn--;
          continue;
        }
        if (result.error) throw new Error(`turn ${turn} of ${id}: ${result.error}`);
        await tab.nextElicit(id, answered, 120_000);
        samples.push(performance.now() - sent);
        starts.push(from);
      }
    }),
  );
  return { samples, starts };
}

/**
 * Runs `work` counting the queries this process sends to PostgreSQL meanwhile (each a round trip):
 * the api's, and its in-process jobs'.
 */
async function countingQueries<T>(work: () => Promise<T>): Promise<{ result: T; queries: number }> {
  const proto = PgClient.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const query = proto.query;
  let queries = 0;
  proto.query = function (this: unknown, ...args: unknown[]) {
    queries++;
    return query.apply(this, args);
  };
  try {
    return { result: await work(), queries };
  } finally {
    proto.query = query;
  }
}

/** A single tab's received events cut at each turn's start: what it was sent per answer. */
function eventsPerTurn(tab: LiveClient, starts: readonly number[]): Received[][] {
  return starts.map((from, i) => tab.received.slice(from, starts[i + 1]));
}

async function main(argv: string[]): Promise<number> {
  const unknown = argv.filter((a) => a !== '--quick');
  if (unknown.length > 0) throw new Error(`unknown arguments: ${unknown.join(' ')} (only --quick)`);
  const quick = argv.includes('--quick');
  const soloTurns = quick ? 40 : 120;
  const manyTurns = quick ? 3 : 6;
  process.stderr.write(`bench: api over Socket.IO, offline model${quick ? ' (--quick)' : ''}\n`);

  const db = await createTestDatabase('bench_socket');
  const bare = await bareServer();
  let durable: FloorServer | undefined;
  let protocol: FloorServer | undefined;
  let app: INestApplication | undefined;
  const tabs: LiveClient[] = [];
  try {
    durable = await durableEchoServer(db.url);
    const config = loadConfig({
      PORT: '0',
      JWT_SECRET: 'a-bench-secret-that-is-long-enough-for-hs256',
      WEB_DIST: '/nonexistent',
      DATABASE_URL: db.url,
      RATE_LIMIT_HTTP_PER_MINUTE: '10000000',
      RATE_LIMIT_WS_PER_MINUTE: '10000000',
    });
    app = await createApp(config, { logger: ['error', 'warn'] });
    await app.listen(0, '127.0.0.1');
    const url = (await app.getUrl()).replace('[::1]', '127.0.0.1');

    // Warm both paths (JIT, connection pools) before anything is recorded.
    await roundTrips(bare.url, 1, 200);
    await roundTrips(durable.url, 1, 200);
    const [warm] = await openConversations(url, 1);
    if (warm) {
      tabs.push(warm.tab);
      await drive([warm], 5);
    }

    const floorSolo = await roundTrips(bare.url, 1, 1000);
    const durableSolo = await roundTrips(durable.url, 1, 1000);
    const [solo] = await openConversations(url, 1);
    if (!solo) throw new Error('no conversation opened');
    tabs.push(solo.tab);
    const agentAlone = await openAgentAlone();
    // The api, the agent alone and the protocol echo take turns in blocks, so that a machine
    // slower in one part of the run (a noisy neighbour, a CPU's clock) weighs on all three alike.
    const perBlock = Math.ceil(soloTurns / BLOCKS);
    const api = { samples: [] as number[], starts: [] as number[], cpuMs: 0, queries: 0 };
    // Each block starts once what the one before left running (its garbage's collection, sockets'
    // writes) has settled: the CPU a block counts is the process's, whichever thread spends it.
    const settle = () => new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    const apiBlock = async () => {
      await settle();
      const cpuBefore = process.cpuUsage();
      const { result, queries } = await countingQueries(() => drive([solo], perBlock));
      const cpu = process.cpuUsage(cpuBefore);
      api.cpuMs += (cpu.user + cpu.system) / 1000;
      api.queries += queries;
      api.samples.push(...result.samples);
      api.starts.push(...result.starts);
    };
    const memory = { samples: [] as number[], cpuMs: 0 };
    const memoryBlock = async () => {
      await settle();
      const block = await agentAlone.turns(perBlock);
      memory.samples.push(...block.samples);
      memory.cpuMs += block.cpuMs;
    };
    const protocolSolo: number[] = [];
    const echoBlock = async (echo: FloorServer) => {
      protocolSolo.push(...(await roundTrips(echo.url, 1, Math.ceil(1000 / BLOCKS))));
    };
    try {
      // The first block of the api's turns says what the protocol echo sends per answer.
      await apiBlock();
      await memoryBlock();
      const echo = await durableEchoServer(db.url, eventsPerTurn(solo.tab, api.starts));
      protocol = echo;
      await roundTrips(echo.url, 1, 200);
      for (let block = 1; block < BLOCKS; block++) {
        await echoBlock(echo);
        await apiBlock();
        await memoryBlock();
      }
      await echoBlock(echo);
    } finally {
      await agentAlone.close();
    }
    const soloSamples = api.samples;
    const cpuPerTurn = api.cpuMs / soloSamples.length;
    const soloEvents = eventsPerTurn(solo.tab, api.starts);
    const agentP50 = percentile(memory.samples, 50);
    const agentCpuPerTurn = memory.cpuMs / memory.samples.length;
    note(
      `1 conversation: ${soloSamples.length} turns, in ${BLOCKS} blocks between the agent alone's and the echo's`,
    );

    const floorMany = await roundTrips(bare.url, MANY, 25);
    const durableMany = await roundTrips(durable.url, MANY, 25);
    const many = await openConversations(url, MANY);
    tabs.push(...many.map((m) => m.tab));
    // The echo just before the api's turns and just after them, as one sample.
    const protocolMany = await roundTrips(protocol.url, MANY, 13);
    const { samples: manySamples } = await drive(many, manyTurns);
    protocolMany.push(...(await roundTrips(protocol.url, MANY, 12)));
    note(`${MANY} conversations: ${manySamples.length} turns`);

    const soloTotal = percentile(soloSamples, 50);
    const manyTotal = percentile(manySamples, 99);
    const manyAgent = MANY * agentCpuPerTurn;
    const figures: Figure[] = [
      {
        figure: "the api's share of answer → next elicit, p50, 1 conversation",
        value: soloTotal - agentP50,
        total: soloTotal,
        agent: agentP50,
        agentTerms: "the agent alone's p50",
        floor: percentile(protocolSolo, 50),
        bare: percentile(floorSolo, 50),
        durable: percentile(durableSolo, 50),
        factor: 3,
      },
      {
        figure: `the api's share of answer → next elicit, p99, ${MANY} conversations`,
        value: manyTotal - manyAgent,
        total: manyTotal,
        agent: manyAgent,
        agentTerms: `${MANY} x the agent alone's CPU per turn ${agentCpuPerTurn.toFixed(2)} ms`,
        floor: percentile(protocolMany, 99),
        bare: percentile(floorMany, 99),
        durable: percentile(durableMany, 99),
        factor: 3,
      },
    ];
    note(
      `also: p99 with 1 = ${percentile(soloSamples, 99).toFixed(2)} ms, p50 with ${MANY} = ${percentile(manySamples, 50).toFixed(2)} ms`,
    );
    const rows = figures.map((f) => {
      const ratio = f.value / f.floor;
      const met = ratio <= f.factor ? 'yes' : 'NO';
      return `${f.figure} | ${f.value.toFixed(3)} ms | protocol echo ${f.floor.toFixed(3)} ms | ${ratio.toFixed(2)}x | <= ${f.factor}x | ${met}`;
    });
    for (const f of figures)
      note(
        `${f.figure}: ${f.value.toFixed(3)} ms = the total ${f.total.toFixed(3)} ms - ${f.agentTerms} ` +
          `${f.agent.toFixed(3)} ms; the total is ${(f.total / f.floor).toFixed(2)}x the protocol echo`,
      );
    const events = soloEvents.reduce((sum, turn) => sum + turn.length, 0) / soloEvents.length;
    note(
      `the api sent ${events.toFixed(1)} events per answer in the solo run; the protocol echo sends as many`,
    );
    for (const f of figures)
      note(
        `${f.figure}: bare ack ${f.bare.toFixed(3)} ms, durable echo ${f.durable.toFixed(3)} ms, ` +
          `protocol echo ${f.floor.toFixed(3)} ms; the total is ${(f.total / f.bare).toFixed(2)}x the bare ack`,
      );
    note(`CPU per solo turn (api and its one tab, one process): ${cpuPerTurn.toFixed(2)} ms`);
    note(
      `database round trips per solo turn: ${(api.queries / soloSamples.length).toFixed(2)} (the protocol echo makes 1)`,
    );
    note(
      `the same session's agent alone (a Runner in memory: no api, database or socket): ` +
        `p50 ${agentP50.toFixed(3)} ms, CPU ${agentCpuPerTurn.toFixed(2)} ms per turn; ` +
        `the api adds ${(cpuPerTurn - agentCpuPerTurn).toFixed(2)} ms of CPU per turn`,
    );
    const met = figures.filter((f) => f.value / f.floor <= f.factor).length;
    process.stdout.write(`\n${rows.join('\n')}\nbench: ${met} of ${figures.length} targets met\n`);
    return 0;
  } finally {
    for (const tab of tabs) tab.close();
    await app?.close();
    await bare.close();
    await durable?.close();
    await protocol?.close();
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
