import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { AgentList, Conversation, ElicitRequest, TreeNode } from '@sweatpants/domain';
import { createTestDatabase, type TestDatabase } from '@sweatpants/migrations/testing';
import { answer, conversation, createConversation, path, settled, until } from '../support/flows';
import { call, JWT_SECRET, register, startApi, type TestApi } from '../support/test-api';
import { freePort } from '../support/own-process';
import { connect, record, request } from '../support/test-socket';

/**
 * The assistant with the deployment's MCP servers, driven as a person drives it through the public
 * api on the offline model: it is in the agents list with its servers; "use echo with hello"
 * calls server-everything's echo and the reply says hello; a question the server asks during a
 * call is the person's card, answered over HTTP, and the server's result says what they answered;
 * a server that went down is a tool error the reply says, and the conversation goes on; and a
 * kill -9 of the api during a call, then a takeover by another, never calls again a tool whose
 * result was recorded.
 */

const ROOT = resolve(__dirname, '../../../..');
const EVERYTHING_JS = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
const TAP = join(__dirname, '../support/mcp-tap.mjs');
const REDIS_URL = 'redis://127.0.0.1:6379';

/** server-everything over stdio, each tool call it gets written to `log`. */
const tapped = (log: string) => ({
  name: 'everything',
  command: process.execPath,
  args: [TAP, log, process.execPath, EVERYTHING_JS, 'stdio'],
});

const nodesOf = <K extends TreeNode['kind']>(nodes: readonly TreeNode[], kind: K) =>
  nodes.filter((n): n is TreeNode<K> => n.kind === kind);

/** The assistant's last reply on the path. */
const lastReply = (nodes: readonly TreeNode[]) => String(nodesOf(nodes, 'assistant').at(-1)?.payload['text']);

// A tool call starts server-everything; on a busy machine that alone may take seconds.
jest.setTimeout(30_000);

describe('the assistant and MCP servers, through the public api', () => {
  let db: TestDatabase;
  let api: TestApi;
  let remote: ChildProcess | undefined;
  let token: string;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'assistant-mcp-'));
    db = await createTestDatabase('api_assistant_mcp');
    const port = await freePort();
    remote = await everythingOverHttp(port);
    api = await startApi({
      DATABASE_URL: db.url,
      MCP_SERVERS: JSON.stringify([
        tapped(join(dir, 'calls.log')),
        { name: 'remote', url: `http://127.0.0.1:${port}/mcp` },
      ]),
    });
    token = (await register(api, 'assistant-user')).token;
  }, 60_000);

  afterAll(async () => {
    await api?.close();
    if (remote) await stop(remote);
    await db?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  async function start(): Promise<Conversation> {
    const c = await createConversation(api, token, { agent: 'assistant' });
    return settled(api, token, c.id);
  }

  async function send(c: Conversation, text: string): Promise<Conversation> {
    const sent = await call(api, 'POST', `/api/conversations/${c.id}/messages`, { token, body: { text } });
    expect(sent.status).toBe(201);
    return until(
      () => conversation(api, token, c.id),
      (now) =>
        now.status === 'waiting' &&
        now.pendingElicit !== null &&
        now.pendingElicit.elicitId !== c.pendingElicit?.elicitId,
    );
  }

  it('is listed among the agents with the servers it uses', async () => {
    const agents = await call<AgentList>(api, 'GET', '/api/agents', { token });
    expect(agents.body.items.find((a) => a.name === 'assistant')).toMatchObject({
      title: 'Assistant',
      mcpServers: ['everything', 'remote'],
    });
  });

  it('"use echo with hello" calls server-everything’s echo, and the reply says hello', async () => {
    const c = await start();
    const after = await send(c, 'use echo with hello');
    expect(after.pendingElicit?.type).toBe('chat');
    const nodes = await path(api, token, c.id);
    expect(nodesOf(nodes, 'tool_call').map((n) => n.payload)).toEqual([
      expect.objectContaining({ name: 'everything_echo', input: { message: 'hello' } }),
    ]);
    expect(nodesOf(nodes, 'tool_result').map((n) => n.payload['outcome'])).toEqual([
      { kind: 'success', value: 'Echo: hello' },
    ]);
    expect(lastReply(nodes)).toContain('hello');
  });

  it('"use get-tiny-image" shows the person the image the server answered with, and only to them', async () => {
    const c = await start();
    await send(c, 'use get-tiny-image');
    const nodes = await path(api, token, c.id);
    const [result] = nodesOf(nodes, 'tool_result');
    const photos = result?.payload['photos'] as { sha256: string; mediaType: string }[] | undefined;
    expect(photos).toEqual([expect.objectContaining({ mediaType: 'image/png' })]);
    const sha256 = photos?.[0]?.sha256 ?? '';
    // Kept as a person's photo is: a PNG, read at /api/blobs by the conversation's owner only.
    const mine = await fetch(api.url(`/api/blobs/${sha256}`), {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(mine.status).toBe(200);
    expect(mine.headers.get('content-type')).toBe('image/png');
    expect([...new Uint8Array(await mine.arrayBuffer()).slice(1, 4)]).toEqual([0x50, 0x4e, 0x47]);
    const stranger = (await register(api, 'assistant-stranger')).token;
    const theirs = await fetch(api.url(`/api/blobs/${sha256}`), {
      headers: { authorization: `Bearer ${stranger}` },
    });
    expect(theirs.status).toBe(404);
    // The reply does not name the image in words: it is shown above it.
    expect(lastReply(nodes)).toContain('everything_get-tiny-image:');
    expect(lastReply(nodes)).not.toContain('[image');
  });

  it('puts the server’s question to the person, and the server gets their answer', async () => {
    const c = await start();
    const socket = await connect(api, token);
    try {
      const elicits = record(socket, 'elicit');
      await request(socket, 'conversation:join', { conversationId: c.id });
      const asked = await send(c, 'use trigger-elicitation-request');
      const question = asked.pendingElicit as ElicitRequest;
      expect(question).toMatchObject({
        type: 'form',
        message: 'Please provide inputs for the following fields:',
        schema: { type: 'object', required: ['name'] },
      });
      // the person's own clients are sent it, as any question
      expect(await elicits.next((e) => e.elicitId === question.elicitId)).toMatchObject({ type: 'form' });

      const answered = await answer(api, token, c.id, question, {
        action: 'accept',
        content: { name: 'Ada Lovelace', check: true },
      });
      expect(answered.status).toBe(200);
      const after = await until(
        () => conversation(api, token, c.id),
        (now) => now.pendingElicit?.type === 'chat',
      );
      expect(after.status).toBe('waiting');
      const nodes = await path(api, token, c.id);
      const [result] = nodesOf(nodes, 'tool_result');
      const text = JSON.stringify(result?.payload['outcome']);
      expect(text).toContain('- Name: Ada Lovelace');
      expect(text).toContain('- Agreed to terms: true');
      expect(lastReply(nodes)).toContain('- Name: Ada Lovelace');
      const response = nodesOf(nodes, 'response').find((n) => n.payload.elicitId === question.elicitId);
      expect(response?.payload).toMatchObject({ action: 'accept', content: { name: 'Ada Lovelace' } });
    } finally {
      socket.close();
    }
  });

  it('says a server that went down is down, and the conversation goes on', async () => {
    const c = await start();
    let now = await send(c, 'use remote_echo with up');
    expect(lastReply(await path(api, token, c.id))).toBe('remote_echo: Echo: up');

    if (remote) await stop(remote);
    now = await send(now, 'use remote_echo with anyone there');
    const nodes = await path(api, token, c.id);
    const [, down] = nodesOf(nodes, 'tool_result').map((n) => n.payload['outcome']);
    expect(down).toMatchObject({
      kind: 'error',
      message: expect.stringMatching(/^the MCP server remote could not be reached for echo/),
    });
    expect(lastReply(nodes)).toMatch(/^remote_echo did not work: the MCP server remote could not be reached/);
    expect(now.pendingElicit?.type).toBe('chat');

    // the conversation goes on with the server that is up
    await send(now, 'use echo with still here');
    expect(lastReply(await path(api, token, c.id))).toBe('everything_echo: Echo: still here');
  });
});

describe('kill -9 of the api during an MCP call, then a takeover', () => {
  let db: TestDatabase;
  let dir: string;
  let first: ChildProcess | undefined;
  let second: TestApi | undefined;
  const saved = { ...process.env };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'assistant-mcp-kill-'));
    db = await createTestDatabase('api_assistant_mcp_kill');
    Object.assign(process.env, {
      REDIS_PREFIX: `assistant-mcp-${randomBytes(4).toString('hex')}`,
      WORKER: 'off',
      LEASE_MS: '1000',
    });
  });

  afterAll(async () => {
    if (first) await stop(first);
    await second?.close();
    process.env = saved;
    await db?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('does not call again a tool whose result was recorded; the call in flight is made again', async () => {
    const log = join(dir, 'calls.log');
    const servers = JSON.stringify([tapped(log)]);
    const port = await freePort();
    first = await apiProcess(port, { DATABASE_URL: db.url, REDIS_URL, MCP_SERVERS: servers });
    const one: Pick<TestApi, 'base' | 'url'> = {
      base: `http://127.0.0.1:${port}`,
      url: (p) => `http://127.0.0.1:${port}${p}`,
    };
    const { token } = await register(one as TestApi, 'survivor');
    const created = await call<Conversation>(one as TestApi, 'POST', '/api/conversations', {
      token,
      body: { agent: 'assistant' },
    });
    const id = created.body.id;
    const sent = await call(one as TestApi, 'POST', `/api/conversations/${id}/messages`, {
      token,
      body: { text: 'use echo with once, then use trigger-elicitation-request' },
    });
    expect(sent.status).toBe(201);
    // the echo is recorded and the second call waits on the person: the server's question is out
    const waiting = await until(
      () => call<Conversation>(one as TestApi, 'GET', `/api/conversations/${id}`, { token }),
      (c) => c.body.pendingElicit?.type === 'form',
    );
    const asked = waiting.body.pendingElicit as ElicitRequest;
    expect(readFileSync(log, 'utf8').split('\n').filter(Boolean)).toEqual([
      'echo',
      'trigger-elicitation-request',
    ]);

    // kill -9 mid-call: nothing is handed back, its lease lapses
    await stop(first);
    first = undefined;

    second = await startApi({ DATABASE_URL: db.url, REDIS_URL, MCP_SERVERS: servers });
    const socket = await connect(second, token);
    try {
      const elicits = record(socket, 'elicit');
      const joined = await until(
        () => request(socket, 'conversation:join', { conversationId: id }),
        (ack) => ack.ok,
      );
      expect(joined.ok).toBe(true);
      // the same question again, asked by the call made again
      const again = await elicits.next((e) => e.elicitId === asked.elicitId);
      expect(again).toMatchObject({ type: 'form', elicitId: asked.elicitId });
      const ack = await request(socket, 'elicit:response', {
        conversationId: id,
        elicitId: asked.elicitId,
        action: 'accept',
        content: { name: 'Alan Turing' },
      });
      if (!ack.ok) throw new Error(ack.error.message);
      await until(
        () => conversation(second as TestApi, token, id),
        (c) => c.pendingElicit?.type === 'chat',
      );
    } finally {
      socket.close();
    }

    // echo was called once, by the first process; the call in flight was made again by the second
    expect(readFileSync(log, 'utf8').split('\n').filter(Boolean)).toEqual([
      'echo',
      'trigger-elicitation-request',
      'trigger-elicitation-request',
    ]);
    const nodes = await path(second, token, id);
    expect(nodesOf(nodes, 'tool_call').map((n) => n.payload['name'])).toEqual([
      'everything_echo',
      'everything_trigger-elicitation-request',
    ]);
    expect(nodesOf(nodes, 'tool_result')).toHaveLength(2);
    expect(nodesOf(nodes, 'elicit').filter((n) => n.payload.type === 'form')).toHaveLength(1);
    const reply = lastReply(nodes);
    expect(reply).toContain('everything_echo: Echo: once');
    expect(reply).toContain('- Name: Alan Turing');
  }, 120_000);
});

/** An api as its own process, started from its sources as `npm start` runs it; resolves once it answers. */
async function apiProcess(port: number, env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['-r', '@swc-node/register', 'apps/api/src/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      JWT_SECRET,
      WEB_DIST: '/nonexistent',
      SWC_NODE_PROJECT: join(ROOT, 'apps/api/tsconfig.json'),
      LOG_LEVEL: 'warn',
      ANTHROPIC_API_KEY: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline && child.exitCode === null) {
    const up = await fetch(`http://127.0.0.1:${port}/api/health`).then(
      (res) => res.ok,
      () => false,
    );
    if (up) return child;
    await new Promise((r) => setTimeout(r, 300));
  }
  await stop(child);
  throw new Error(`the api did not start:\n${output.join('').slice(-2000)}`);
}

/** server-everything over Streamable HTTP on `port`, once it listens. */
async function everythingOverHttp(port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, [EVERYTHING_JS, 'streamableHttp'], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  await new Promise<void>((done, fail) => {
    const timer = setTimeout(() => fail(new Error('server-everything did not listen')), 10_000);
    child.stderr?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('listening on port')) {
        clearTimeout(timer);
        done();
      }
    });
    child.once('exit', () => fail(new Error('server-everything exited')));
  });
  return child;
}

/** kill -9, and wait for it to be gone. */
async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise<void>((done) => {
    child.once('exit', () => done());
    child.kill('SIGKILL');
  });
}
