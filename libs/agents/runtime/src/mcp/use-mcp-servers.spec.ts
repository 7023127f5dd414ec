import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createServer } from 'node:net';
import type { InlinePhoto, Json, Photo, TreeNode } from '@sweatpants/domain';
import type { Operation } from 'effection';
import * as z from 'zod';
import { defineMode, historyOf, modeReducer, prompt, type AgentDefinition } from '..';
import { providePhotoStore, Runner, silentOutbox, type Outbox, type PhotoStore } from '../host';
import { OfflineModel, type OfflineRule } from '../offline';
import { InMemoryConversationPort } from '../storage/in-memory-port';
import type { ToolOutcome } from '../tool';
import type { McpServerConfig } from './mcp-server-config';
import { useMcpServers } from './use-mcp-servers';

/** server-everything, the MCP project's reference server, as a child process over stdio. */
const EVERYTHING_JS = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
const everything: McpServerConfig = {
  name: 'everything',
  command: process.execPath,
  args: [EVERYTHING_JS, 'stdio'],
};

/**
 * The model: "call <tool> <json input>" calls that tool; a tool's result is said back as
 * "<tool>: <text>", so what the server answered is on the path twice (its node, and the reply).
 */
const callAsTold: OfflineRule = {
  name: 'call the tool named',
  when: (ctx) => !ctx.hasToolResults && /^call \S+/.test(ctx.userText),
  reply: (ctx) => {
    const [, name = '', input = '{}'] = /^call (\S+)\s*(.*)$/s.exec(ctx.userText) ?? [];
    return { calls: [{ name, input: JSON.parse(input) as Json }] };
  },
};
const listTools: OfflineRule = {
  name: 'say the tools offered',
  when: (ctx) => ctx.userText === 'list the tools',
  reply: (ctx) => ({ text: ctx.request.tools.map((t) => t.name).join(' ') }),
};
const showSchema: OfflineRule = {
  name: 'say a tool’s input schema',
  when: (ctx) => ctx.userText.startsWith('schema of '),
  reply: (ctx) => ({
    text: JSON.stringify(ctx.tools.get(ctx.userText.slice('schema of '.length))?.inputSchema),
  }),
};
const sayResults: OfflineRule = {
  name: 'say what the tools answered',
  when: (ctx) => ctx.hasToolResults,
  reply: (ctx) => ({ text: ctx.toolResults.map((r) => `${r.name}: ${r.content}`).join('\n') }),
};

function agentUsing(servers: McpServerConfig[], timeoutMs?: number): AgentDefinition {
  return {
    name: 'mcp-user',
    modes: [
      defineMode({
        name: 'helping',
        data: z.null(),
        template: () => prompt`You use the tools you are given.`,
        tools: () => [],
      }),
    ],
    initial: { mode: 'helping', data: null },
    state: modeReducer('mcp-user', { mode: 'helping', data: null }),
    fallbackReply: () => 'I could not do that.',
    plugins: [useMcpServers(servers, timeoutMs === undefined ? {} : { timeoutMs })],
  };
}

async function session(agent: AgentDefinition, provide?: () => Operation<void>, outbox?: Outbox) {
  const port = new InMemoryConversationPort();
  port.create('c1');
  const runner = await Runner.open({
    conversationId: 'c1',
    agent,
    port,
    model: new OfflineModel([callAsTold, listTools, showSchema, sayResults]),
    logs: { write: () => undefined },
    ...(provide ? { provide } : {}),
    ...(outbox ? { outbox } : {}),
  });
  const path = async () => {
    const read = await port.path('c1');
    if (!read.ok) throw new Error(read.error.message);
    return read.value;
  };
  const outcomes = async () =>
    (await path())
      .filter((n): n is TreeNode<'tool_result'> => n.kind === 'tool_result')
      .map((n) => n.payload['outcome'] as unknown as ToolOutcome);
  const replies = async () =>
    (await path()).filter((n) => n.kind === 'assistant').map((n) => String(n.payload['text']));
  const send = async (text: string) => {
    const sent = await runner.send({ text, authorId: 'u1' });
    if (!sent.ok) throw new Error(sent.error.message);
  };
  return { runner, port, path, outcomes, replies, send };
}

/** Resolves once the runner holds a pending elicit other than its chat prompt. */
async function question(runner: Runner) {
  for (let i = 0; i < 200; i++) {
    const [pending] = runner.elicits.list();
    if (pending) return pending;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('no question came');
}

// Each test starts a server process; on a busy machine that alone may take seconds.
jest.setTimeout(30_000);

describe('useMcpServers: an MCP server’s tools are the agent’s', () => {
  it('calls a server’s tool by its prefixed name and records what it answered', async () => {
    const s = await session(agentUsing([everything]));
    await s.send('call everything_echo {"message":"hello"}');
    await s.runner.whenIdle();

    expect(await s.outcomes()).toEqual([{ kind: 'success', value: 'Echo: hello' }]);
    expect(await s.replies()).toContain('everything_echo: Echo: hello');
    const call = (await s.path()).find((n) => n.kind === 'tool_call');
    expect(call?.payload).toMatchObject({ name: 'everything_echo', input: { message: 'hello' } });
    await s.runner.close();
  });

  it('keeps the images a server answers with as photos: the result names them, and the model sees them', async () => {
    // The host's blob store, kept in memory: what it was given, named by its bytes' sha-256.
    const given: InlinePhoto[] = [];
    const store: PhotoStore = {
      keep: (image) => {
        given.push(image);
        const bytes = Buffer.from(image.data, 'base64');
        const sha256 = createHash('sha256').update(bytes).digest('hex');
        return Promise.resolve({ sha256, mediaType: image.mediaType, bytes: bytes.length });
      },
    };
    const s = await session(agentUsing([everything]), providePhotoStore(store));
    await s.send('call everything_get-tiny-image {}');
    await s.runner.whenIdle();

    expect(given.map((image) => image.mediaType)).toEqual(['image/png']);
    const path = await s.path();
    const result = path.find((n) => n.kind === 'tool_result');
    const photos = result?.payload['photos'] as Photo[];
    expect(photos).toEqual([expect.objectContaining({ mediaType: 'image/png' })]);
    expect(await s.outcomes()).toEqual([
      { kind: 'success', value: expect.stringContaining('[image image/png, shown to the person]') },
    ]);
    // The model reads the result's words, then the image itself.
    const block = historyOf(path)
      .flatMap((m) => m.content)
      .find((b) => b.type === 'tool_result');
    expect(block).toMatchObject({
      images: [{ type: 'image', mediaType: 'image/png', sha256: photos[0]?.sha256 }],
    });
    await s.runner.close();
  });

  it('names an image in words only when the host keeps no photos', async () => {
    const s = await session(agentUsing([everything]));
    await s.send('call everything_get-tiny-image {}');
    await s.runner.whenIdle();
    const result = (await s.path()).find((n) => n.kind === 'tool_result');
    expect(result?.payload['photos']).toBeUndefined();
    expect(await s.outcomes()).toEqual([
      { kind: 'success', value: expect.stringContaining('[image image/png]') },
    ]);
    await s.runner.close();
  });

  it('shows the progress a server reports during a call as passing notices, kept nowhere on the tree', async () => {
    const notices: Parameters<Outbox['notify']>[0][] = [];
    const s = await session(agentUsing([everything]), undefined, {
      ...silentOutbox,
      notify: (notice) => notices.push(notice),
    });
    await s.send('call everything_trigger-long-running-operation {"duration":1,"steps":3}');
    await s.runner.whenIdle();

    // each step as the server reported it (its last may land after the result, and is then moot)
    expect(notices.slice(0, 2)).toEqual(
      [1, 2].map((step) => ({
        message: `trigger long running operation: ${step} of 3`,
        progress: step,
        total: 3,
      })),
    );
    expect(notices.map((n) => n.progress)).toEqual(notices.map((_, i) => i + 1));
    const path = await s.path();
    expect(path.some((n) => n.kind === 'notify')).toBe(false);
    expect(String(((await s.outcomes())[0] as { value: Json }).value)).toContain(
      'Long running operation completed',
    );
    await s.runner.close();
  });

  it('calls a tool that runs only as a task: created, polled, and its result recorded', async () => {
    const s = await session(agentUsing([everything]));
    await s.send('call everything_simulate-research-query {"topic":"winter coats"}');
    await s.runner.whenIdle();

    const [outcome] = await s.outcomes();
    expect(outcome).toMatchObject({ kind: 'success' });
    const text = String((outcome as { value: Json }).value);
    expect(text).toContain('# Research Report: winter coats');
    expect(text).toContain('Stage 4: Generating report ✓');
    await s.runner.close();
  });

  it('puts the question a task asks while it waits for input to the person, and the task goes on with the answer', async () => {
    const s = await session(agentUsing([everything]));
    await s.send('call everything_simulate-research-query {"topic":"python","ambiguous":true}');
    const asked = await question(s.runner);
    expect(asked).toMatchObject({ type: 'form', message: expect.stringContaining('"python"') });
    const answered = s.runner.answer(
      { elicitId: asked.elicitId, action: 'accept', content: { interpretation: 'snake' } },
      'u1',
    );
    expect(answered.ok).toBe(true);
    await s.runner.whenIdle();

    const text = String(((await s.outcomes())[0] as { value: Json }).value);
    expect(text).toContain('# Research Report: python (snake)');
    await s.runner.close();
  });

  it('puts the server’s elicitation to the person as a form, and the server gets their answer', async () => {
    const s = await session(agentUsing([everything]));
    await s.send('call everything_trigger-elicitation-request {}');
    const asked = await question(s.runner);
    expect(asked.type).toBe('form');
    expect(asked.message).toBe('Please provide inputs for the following fields:');
    // the server's own schema, as it gave it
    expect(asked.schema).toMatchObject({ type: 'object', required: ['name'] });
    expect(Object.keys((asked.schema?.['properties'] ?? {}) as object)).toContain('check');

    const answered = s.runner.answer(
      { elicitId: asked.elicitId, action: 'accept', content: { name: 'Ada Lovelace', check: true } },
      'u1',
    );
    expect(answered.ok).toBe(true);
    await s.runner.whenIdle();

    const [outcome] = await s.outcomes();
    // what the server received, in its own words
    expect(outcome).toMatchObject({ kind: 'success' });
    const text = String((outcome as { value: Json }).value);
    expect(text).toContain('- Name: Ada Lovelace');
    expect(text).toContain('- Agreed to terms: true');
    const response = (await s.path()).find(
      (n) => n.kind === 'response' && n.payload['elicitId'] === asked.elicitId,
    );
    expect(response?.authorId).toBe('u1');
    await s.runner.close();
  });

  it('tells the server a declined question was declined', async () => {
    const s = await session(agentUsing([everything]));
    await s.send('call everything_trigger-elicitation-request {}');
    const asked = await question(s.runner);
    s.runner.answer({ elicitId: asked.elicitId, action: 'decline' }, 'u1');
    await s.runner.whenIdle();
    const [outcome] = await s.outcomes();
    expect(String((outcome as { value: Json }).value)).toContain('User declined');
    await s.runner.close();
  });

  it('asks a URL elicitation as a card that carries the link; opened is accept', async () => {
    const s = await session(agentUsing([everything]));
    await s.send(
      'call everything_trigger-url-elicitation {"url":"https://example.com/sign-in","message":"Sign in first"}',
    );
    const asked = await question(s.runner);
    expect(asked.type).toBe('confirm');
    expect(asked.message).toContain('Sign in first');
    expect(asked.message).toContain('https://example.com/sign-in');
    s.runner.answer({ elicitId: asked.elicitId, action: 'accept', content: { value: true } }, 'u1');
    await s.runner.whenIdle();
    const [outcome] = await s.outcomes();
    expect(outcome).toMatchObject({ kind: 'success' });
    expect(JSON.stringify(outcome)).toContain('accept');
    await s.runner.close();
  });

  it('offers the tools prefixed with the server’s name, in a stable order sorted by name', async () => {
    const s = await session(agentUsing([everything]));
    await s.send('list the tools');
    await s.runner.whenIdle();
    const names = (await s.replies()).at(-1)?.split(' ') ?? [];
    expect(names).toEqual([...names].sort());
    expect(names).toEqual(
      expect.arrayContaining(['everything_echo', 'everything_trigger-elicitation-request']),
    );
    expect(names.every((n) => /^everything_[a-zA-Z0-9_-]{1,53}$/.test(n))).toBe(true);
    await s.runner.close();
  });

  it('gives the model the server’s input schema as the server gave it', async () => {
    const s = await session(agentUsing([everything]));
    await s.send('schema of everything_echo');
    await s.runner.whenIdle();
    expect(JSON.parse((await s.replies()).at(-1) ?? 'null')).toEqual({
      type: 'object',
      properties: { message: { type: 'string', description: 'Message to echo' } },
      required: ['message'],
    });
    await s.runner.close();
  });

  it('makes a server’s error answer a tool error the model reads, and the turn completes', async () => {
    const s = await session(agentUsing([everything]));
    await s.send('call everything_gzip-file-as-resource {"data":"ftp://files.example.com/notes.txt"}');
    await s.runner.whenIdle();
    const [outcome] = await s.outcomes();
    expect(outcome).toMatchObject({
      kind: 'error',
      message: expect.stringContaining('Unsupported URL protocol for ftp://files.example.com/notes.txt'),
    });
    expect((await s.replies()).at(-1)).toContain('everything_gzip-file-as-resource: Error');
    expect(s.runner.status).toBe('waiting');
    await s.runner.close();
  });

  it('asks the person to open the pages a server requires by error, then calls it once more', async () => {
    const s = await session(agentUsing([everything]));
    // the error path: the server refuses with UrlElicitationRequired (-32042) naming a page to open
    await s.send(
      'call everything_trigger-url-elicitation {"url":"https://example.com/pay","errorPath":true,"elicitationId":"e-1"}',
    );
    const prerequisite = await question(s.runner);
    expect(prerequisite).toMatchObject({ type: 'confirm' });
    expect(prerequisite.message).toContain('https://modelcontextprotocol.io');
    s.runner.answer({ elicitId: prerequisite.elicitId, action: 'accept', content: { value: true } }, 'u1');

    // the call made again asks for the page it was called with
    let [asked] = s.runner.elicits.list();
    for (let i = 0; (!asked || asked.elicitId === prerequisite.elicitId) && i < 200; i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      [asked] = s.runner.elicits.list();
    }
    expect(asked?.message).toContain('https://example.com/pay');
    s.runner.answer({ elicitId: asked?.elicitId ?? '', action: 'accept', content: { value: true } }, 'u1');
    await s.runner.whenIdle();
    const [outcome] = await s.outcomes();
    expect(outcome).toMatchObject({ kind: 'success' });
    expect(JSON.stringify(outcome)).toContain('User completed the URL elicitation flow');
    expect(JSON.stringify(outcome)).toContain('URL: https://example.com/pay');
    await s.runner.close();
  });

  it('says the page a server requires was not opened when the person says no', async () => {
    const s = await session(agentUsing([everything]));
    await s.send(
      'call everything_trigger-url-elicitation {"url":"https://example.com/pay","errorPath":true,"elicitationId":"e-2"}',
    );
    const prerequisite = await question(s.runner);
    s.runner.answer({ elicitId: prerequisite.elicitId, action: 'accept', content: { value: false } }, 'u1');
    await s.runner.whenIdle();
    expect(await s.outcomes()).toEqual([
      {
        kind: 'error',
        message:
          'the MCP server everything needs https://modelcontextprotocol.io opened first; the person did not',
      },
    ]);
    await s.runner.close();
  });

  it('makes a server silent past its timeout a tool error', async () => {
    // long enough to start and list its tools on a busy machine; the call takes 20 s
    const s = await session(agentUsing([{ ...everything, timeoutMs: 4_000 }]));
    await s.send('call everything_trigger-long-running-operation {"duration":20,"steps":1}');
    await s.runner.whenIdle();
    const [outcome] = await s.outcomes();
    expect(outcome).toEqual({
      kind: 'error',
      message: 'the MCP server everything: trigger-long-running-operation did not answer within 4 s',
    });
    await s.runner.close();
  });

  it('offers a server that went down by the tools it listed last, and a call says it is unreachable', async () => {
    const port = await freePort();
    const server = await everythingOverHttp(port);
    const agent = agentUsing([{ name: 'remote', url: `http://127.0.0.1:${port}/mcp` }]);
    try {
      const s = await session(agent);
      await s.send('call remote_echo {"message":"up"}');
      await s.runner.whenIdle();
      expect(await s.outcomes()).toEqual([{ kind: 'success', value: 'Echo: up' }]);

      await stop(server);
      await s.send('call remote_echo {"message":"down"}');
      await s.runner.whenIdle();
      const [, down] = await s.outcomes();
      expect(down).toMatchObject({ kind: 'error' });
      expect((down as { message: string }).message).toMatch(
        /^the MCP server remote could not be reached for echo/,
      );
      expect(s.runner.status).toBe('waiting');
      await s.runner.close();
    } finally {
      await stop(server);
    }
  });

  it('offers nothing of a server that never started, and the agent still answers', async () => {
    const gone: McpServerConfig = {
      name: 'gone',
      command: process.execPath,
      args: ['-e', 'process.exit(3)'],
    };
    const s = await session(agentUsing([gone, everything]));
    await s.send('call everything_echo {"message":"still here"}');
    await s.runner.whenIdle();
    expect(await s.outcomes()).toEqual([{ kind: 'success', value: 'Echo: still here' }]);
    await s.runner.close();
  });
});

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** server-everything over Streamable HTTP on `port`, once it listens. */
async function everythingOverHttp(port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, [EVERYTHING_JS, 'streamableHttp'], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('server-everything did not listen')), 10_000);
    child.stderr?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('listening on port')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', () => reject(new Error('server-everything exited')));
  });
  return child;
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}
