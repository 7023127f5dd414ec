/**
 * `npm run bench`, MCP part: a turn over MCP (a tool call → the agent's reply, the call returned)
 * against the same turn over Socket.IO (`message:send` → the agent's chat prompt after its reply),
 * offline model, the api in this process on a database of its own on the local PostgreSQL
 * (dropped at the end), no Redis. The turn is the concierge answering "hello" (a reply and its
 * chat prompt, no question), in two conversations of one account, run interleaved so drift hits
 * both alike. The Socket.IO turn is the floor, measured in the same run.
 *
 *   a turn over MCP, p50 ≤ 1.5 × the same turn over Socket.IO, p50
 *
 * Prints `figure | value | floor | ratio | target | met` and `bench: N of M targets met`.
 * `--quick` takes fewer turns.
 */
import type { INestApplication } from '@nestjs/common';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createTestDatabase } from '@sweatpants/migrations/testing';
import { ApiUser } from '../reliability/src/support/api-client';
import type { LiveClient } from '../reliability/src/support/live-client';
import { percentile } from '../reliability/src/support/process-stats';
import { connectTab, joinOrThrow } from '../reliability/src/support/session';
import { createApp } from '../src/app.factory';
import { loadConfig } from '../src/config/app-config';

const FACTOR = 1.5;
const note = (text: string) => process.stderr.write(`  · ${text}\n`);

async function main(argv: string[]): Promise<number> {
  const unknown = argv.filter((a) => a !== '--quick');
  if (unknown.length > 0) throw new Error(`unknown arguments: ${unknown.join(' ')} (only --quick)`);
  const quick = argv.includes('--quick');
  const turns = quick ? 30 : 100;
  process.stderr.write(
    `bench: a turn over MCP vs over Socket.IO, offline model${quick ? ' (--quick)' : ''}\n`,
  );

  const db = await createTestDatabase('bench_mcp');
  let app: INestApplication | undefined;
  let tab: LiveClient | undefined;
  let mcp: Client | undefined;
  try {
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
    const user = await ApiUser.register(url);

    // Over Socket.IO: a tab joined to its conversation, as the web client is.
    const overSocket = await user.createConversation('concierge');
    tab = await connectTab(url, user.token);
    await joinOrThrow(tab, overSocket.id);
    const asked = new Set<string>();
    asked.add((await tab.nextElicit(overSocket.id, asked)).elicitId);
    const socketTurn = async (): Promise<number> => {
      const started = performance.now();
      const ack = await tab!.emit('message:send', { conversationId: overSocket.id, text: 'hello' });
      if (!ack.ok) throw new Error(`message:send: ${ack.error.message}`);
      const prompt = await tab!.nextElicit(overSocket.id, asked);
      const ms = performance.now() - started;
      if (prompt.type !== 'chat')
        throw new Error(`the concierge asked a ${prompt.type}, not for the next message`);
      asked.add(prompt.elicitId);
      return ms;
    };

    // Over MCP: the official SDK's client in one session, with a personal access token as an MCP
    // client is given one; its conversation is made by the first call.
    const made = await user.call<{ token: string }>('POST', '/api/auth/tokens', { name: 'bench' });
    if (made.status !== 201 || !('token' in made.body)) throw new Error('no personal access token was made');
    mcp = new Client({ name: 'sweatpants-bench', version: '1.0.0' });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${made.body.token}` } },
      }),
    );
    let conversationId: string | undefined;
    const mcpTurn = async (): Promise<number> => {
      const started = performance.now();
      const result = await mcp!.callTool({
        name: 'concierge',
        arguments: { message: 'hello', ...(conversationId ? { conversationId } : {}) },
      });
      const ms = performance.now() - started;
      const structured = result.structuredContent as
        { conversationId?: string; question?: unknown } | undefined;
      if (result.isError || !structured?.conversationId || structured.question)
        throw new Error(`the MCP turn did not come back with a reply: ${JSON.stringify(result)}`);
      conversationId = structured.conversationId;
      return ms;
    };

    // Warm both paths (JIT, connection pools, the runners) before anything is recorded.
    for (let i = 0; i < 5; i++) {
      await socketTurn();
      await mcpTurn();
    }
    const samples = { socket: [] as number[], mcp: [] as number[] };
    for (let i = 0; i < turns; i++) {
      if (i % 2 === 0) {
        samples.socket.push(await socketTurn());
        samples.mcp.push(await mcpTurn());
      } else {
        samples.mcp.push(await mcpTurn());
        samples.socket.push(await socketTurn());
      }
    }
    // For comparison: MCP's bare round trip (a ping: the token checked, one request and answer).
    const pings: number[] = [];
    for (let i = 0; i < 50; i++) {
      const started = performance.now();
      await mcp.ping();
      pings.push(performance.now() - started);
    }
    note(`an MCP ping (the protocol's bare round trip), p50 ${percentile(pings, 50).toFixed(2)} ms`);
    const value = percentile(samples.mcp, 50);
    const floor = percentile(samples.socket, 50);
    const ratio = value / floor;
    note(
      `${turns} turns each; p99 over MCP ${percentile(samples.mcp, 99).toFixed(2)} ms, over Socket.IO ${percentile(samples.socket, 99).toFixed(2)} ms`,
    );
    const met = ratio <= FACTOR;
    process.stdout.write(
      `\nfigure | value | floor | ratio | target | met\n--- | --- | --- | --- | --- | ---\n` +
        `a turn over MCP (tool call → reply), p50 | ${value.toFixed(3)} ms | the same turn over Socket.IO ${floor.toFixed(3)} ms | ${ratio.toFixed(2)}x | <= ${FACTOR}x | ${met ? 'yes' : 'NO'}\n` +
        `bench: ${met ? 1 : 0} of 1 targets met\n`,
    );
    return 0;
  } finally {
    tab?.close();
    await mcp?.close().catch(() => undefined);
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
