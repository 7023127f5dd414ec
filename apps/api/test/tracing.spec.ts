import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import type { CompactionList, ElicitRequest, TreeNode } from '@sweatpants/domain';
import { createTestDatabase, type TestDatabase } from '@sweatpants/migrations/testing';
import {
  answer,
  conversation,
  createConversation,
  OPENING,
  path,
  PHOTO,
  say,
  settled,
  until,
} from './support/flows';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from './support/otlp-receiver';
import { startOwnProcess, type OwnProcess } from './support/own-process';
import { call, register } from './support/test-api';
import { connect, request } from './support/test-socket';

const REDIS_URL = 'redis://127.0.0.1:6379';
const SOCKET_MESSAGE = 'the lamp? bin it';
const ROOT = resolve(__dirname, '../../..');
const SERVER = 2;
const CLIENT = 3;
const CONSUMER = 5;

/**
 * OpenTelemetry traces as an operator's collector receives them: two api processes and a worker,
 * each its own process with the SDK started as `npm start` starts it, exporting over OTLP/HTTP to
 * a receiver this spec runs (the apis in http/json, the worker in http/protobuf, the default). A
 * person's whole short session through the public api: a message with a photo on one api, the
 * agent's question answered through the other (forwarded to the one that drives the
 * conversation), and a compaction that the worker runs.
 */
describe('traces of a session, over OTLP/HTTP', () => {
  let receiver: OtlpReceiver;
  let db: TestDatabase;
  let a: OwnProcess | undefined;
  let b: OwnProcess | undefined;
  let worker: OwnProcess | undefined;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    db = await createTestDatabase('api_tracing');
    const shared = {
      DATABASE_URL: db.url,
      REDIS_URL,
      REDIS_PREFIX: `tracing-${randomBytes(4).toString('hex')}`,
      LOG_LEVEL: 'warn',
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      OTEL_BSP_SCHEDULE_DELAY: '100',
    };
    const api = { ...shared, WORKER: 'off', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' };
    // One after the other: each migrates the database as it starts.
    a = await startOwnProcess('api', api);
    b = await startOwnProcess('api', { ...api, OTEL_SERVICE_NAME: 'sweatpants-api-b' });
    // The worker's start-up lines are read below; its exports carry a header, as a backend's key.
    worker = await startOwnProcess('worker', {
      ...shared,
      LOG_LEVEL: 'info',
      OTEL_EXPORTER_OTLP_HEADERS: 'x-collector-key=from-the-spec',
    });
  }, 300_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop(), worker?.stop()]);
    await receiver?.close();
    await db?.drop();
  });

  it('makes each command one trace, its model calls, tools, waits and writes inside it, across processes and into the worker', async () => {
    const { token } = await register(a!, 'traced');
    const { id } = await createConversation(a!, token);

    // The message on api a (which takes the conversation's lease): the agent asks about the photo.
    const asked = await say(a!, token, id, OPENING, [PHOTO]);
    const question = asked.pendingElicit as ElicitRequest;
    expect(question.type).not.toBe('chat');
    // Answered through api b, which forwards it to a; then every further question the same way.
    const answered: ElicitRequest[] = [];
    for (let q: ElicitRequest | null = question; q && q.type !== 'chat';) {
      const res = await answer(b!, token, id, q);
      expect(res.status).toBe(200);
      answered.push(q);
      const previous: string = q.elicitId;
      q = (
        await until(
          () => conversation(b!, token, id),
          (c) => c.pendingElicit?.elicitId !== previous && c.status === 'waiting',
        )
      ).pendingElicit;
    }
    // A message over Socket.IO, which no instrumentation sees: the gateway opens its trace.
    const socket = await connect(a!, token);
    const sent = await request(socket, 'message:send', { conversationId: id, text: SOCKET_MESSAGE });
    socket.disconnect();
    expect(sent.ok).toBe(true);
    const nodes = await until(
      () => path(a!, token, id),
      (all) =>
        all.at(-1)?.kind !== 'user' &&
        all.some((n) => n.kind === 'user' && n.payload.text === SOCKET_MESSAGE),
    );
    await settled(a!, token, id);

    // A compaction asked for through api b, run by the worker.
    const compact = await call<{ jobId: string }>(b!, 'POST', `/api/conversations/${id}/compact`, { token });
    expect(compact.status).toBe(202);
    await until(
      async () =>
        (await call<CompactionList>(b!, 'GET', `/api/conversations/${id}/compactions`, { token })).body,
      (list) => list.items.some((job) => job.jobId === compact.body.jobId && job.state === 'completed'),
    );
    // Stopping each process exports what it still holds.
    await Promise.all([a!.stop(), b!.stop(), worker!.stop()]);

    const spans = receiver.spans;
    const byId = new Map(spans.map((s) => [s.spanId, s]));
    const rootOf = (span: ReceivedSpan): ReceivedSpan => {
      let at = span;
      for (let parent = byId.get(at.parentSpanId); parent; parent = byId.get(at.parentSpanId)) at = parent;
      return at;
    };
    const inTrace = (traceId: string) => spans.filter((s) => s.traceId === traceId);
    const ours = spans.filter((s) => s.attributes['gen_ai.conversation.id'] === id);

    // Each exporter spoke its protocol, under its service's name.
    expect(new Set(spans.map((s) => `${s.service} ${s.protocol}`))).toEqual(
      new Set(['sweatpants-api http/json', 'sweatpants-api-b http/json', 'sweatpants-worker http/protobuf']),
    );

    // Each process said at start where its spans go; the worker's exports carried its header.
    expect(worker!.output()).toContain(
      `tracing on: spans go to ${receiver.endpoint}/v1/traces over http/protobuf as service sweatpants-worker, without prompts and replies`,
    );
    for (const span of spans)
      expect(span.headers['x-collector-key']).toBe(
        span.service === 'sweatpants-worker' ? 'from-the-spec' : undefined,
      );

    // One trace per command: its root is the HTTP request that carried it (a SERVER span with no
    // parent), and every span of the conversation reaches that root through its parents.
    const commands = ours.filter((s) => s.name.startsWith('command '));
    const send = commands.find((s) => s.name === 'command send')!;
    expect(send).toBeDefined();
    for (const span of ours) {
      const root = rootOf(span);
      expect({ span: span.name, rootParent: root.parentSpanId, rootKind: root.kind }).toEqual({
        span: span.name,
        rootParent: '',
        rootKind: SERVER,
      });
      expect(inTrace(span.traceId).filter((s) => s.parentSpanId === '')).toHaveLength(1);
    }
    expect(rootOf(send).attributes['http.route']).toBe('/api/conversations/:id/messages');

    // A model call is a GenAI chat span whose usage is what its assistant node records, all of
    // them: the offline model's estimates, with no cache.
    const chats = ours.filter((s) => s.attributes['gen_ai.operation.name'] === 'chat');
    // (an assistant node without usage is the agent's own words, not a model's reply)
    const assistants = nodes.filter((n) => n.kind === 'assistant');
    const replies = assistants.filter((n) => n.payload['usage'] !== undefined);
    expect(chats.length).toBeGreaterThan(0);
    const usageOf = (n: TreeNode) => n.payload['usage'] as { inputTokens: number; outputTokens: number };
    expect(
      sorted(
        chats.map((s) => [
          s.attributes['gen_ai.usage.input_tokens'],
          s.attributes['gen_ai.usage.output_tokens'],
        ]),
      ),
    ).toEqual(sorted(replies.map((n) => [usageOf(n).inputTokens, usageOf(n).outputTokens])));
    for (const chat of chats) {
      expect(chat).toMatchObject({
        name: 'chat offline',
        kind: CLIENT,
        attributes: {
          'gen_ai.provider.name': 'offline',
          'gen_ai.request.model': 'offline',
          'gen_ai.response.model': 'offline',
          'gen_ai.usage.cache_read.input_tokens': 0,
          'gen_ai.usage.cache_creation.input_tokens': 0,
          'gen_ai.response.finish_reasons': [expect.stringMatching(/^(end_turn|tool_use)$/)],
        },
      });
    }
    // The message's turn asked the model in the message's trace.
    expect(chats.some((s) => s.traceId === send.traceId)).toBe(true);

    // A tool the agent ran is an execute_tool span, one per result the tree keeps.
    const tools = ours.filter((s) => s.attributes['gen_ai.operation.name'] === 'execute_tool');
    const results = nodes.filter((n) => n.kind === 'tool_result').map((n) => String(n.payload['name']));
    expect(sorted(tools.map((s) => s.attributes['gen_ai.tool.name']))).toEqual(sorted(results));
    for (const tool of tools)
      expect(tool.name).toBe(`execute_tool ${String(tool.attributes['gen_ai.tool.name'])}`);

    // Each question's wait, from asked (in the message's trace) to answered (through api b).
    const waits = ours.filter((s) => s.name.startsWith('elicit wait '));
    const first = waits.find((s) => s.attributes['sweatpants.elicit.id'] === question.elicitId)!;
    expect(first).toMatchObject({
      traceId: send.traceId,
      attributes: { 'sweatpants.elicit.type': question.type, 'sweatpants.elicit.outcome': 'answered' },
    });
    expect(waits.map((s) => s.attributes['sweatpants.elicit.id']).sort()).toEqual(
      answered.map((q) => q.elicitId).sort(),
    );

    // The answer crossed processes in one trace: b's request is its root, a ran the command.
    const respond = commands.filter((s) => s.name === 'command respond' && s.service === 'sweatpants-api');
    expect(respond.length).toBe(answered.length);
    for (const command of respond) {
      const trace = inTrace(command.traceId);
      expect(rootOf(command)).toMatchObject({ service: 'sweatpants-api-b', kind: SERVER });
      expect(
        trace.some((s) => s.service === 'sweatpants-api' && s.name === 'forwarded conversation-command'),
      ).toBe(true);
      expect(trace.some((s) => s.service === 'sweatpants-api-b' && s.name === 'command respond')).toBe(true);
    }
    // The first answer's turn went on to the model, in the answer's trace.
    expect(chats.some((s) => s.traceId === respond[0]!.traceId)).toBe(true);
    expect(first.endNs).toBeGreaterThanOrEqual(rootOf(respond[0]!).startNs);

    // The socket event is the root of its command's trace, and the agent's reply is in it.
    const bySocket = commands.find((s) => s.name === 'command send' && s.traceId !== send.traceId)!;
    expect(rootOf(bySocket)).toMatchObject({
      name: 'socket message:send',
      kind: SERVER,
      attributes: { 'sweatpants.socket.event': 'message:send', 'gen_ai.conversation.id': id },
    });
    expect(chats.some((s) => s.traceId === bySocket.traceId)).toBe(true);

    // The store's writes: an append span per durability point, pg's statements inside.
    const appends = ours.filter((s) => s.name === 'append');
    expect(appends.length).toBeGreaterThan(0);
    const appendIds = new Set(appends.map((s) => s.spanId));
    const isPg = (s: ReceivedSpan) =>
      s.attributes['db.system.name'] === 'postgresql' || s.attributes['db.system'] === 'postgresql';
    expect(spans.some((s) => appendIds.has(s.parentSpanId) && isPg(s))).toBe(true);

    // The compaction continued the trace of the request that asked for it, into the worker.
    const job = spans.find(
      (s) => s.name === 'conversation.compact' && s.attributes['sweatpants.job.id'] === compact.body.jobId,
    )!;
    expect(job).toMatchObject({ service: 'sweatpants-worker', kind: CONSUMER, protocol: 'http/protobuf' });
    expect(rootOf(job)).toMatchObject({
      service: 'sweatpants-api-b',
      attributes: { 'http.route': '/api/conversations/:id/compact' },
    });
    expect(spans.some((s) => s.parentSpanId === job.spanId && s.service === 'sweatpants-worker')).toBe(true);

    // What the person said and what the model answered stay out of every span (no opt-in here).
    const exported = JSON.stringify(spans, (key, value: unknown) =>
      key === 'headers' ? undefined : typeof value === 'bigint' ? String(value) : value,
    );
    expect(exported).not.toContain(OPENING);
    expect(exported).not.toContain(SOCKET_MESSAGE);
    expect(exported).not.toContain('gen_ai.input.messages');
    const said = assistants.map((n) => String(n.payload['text'])).filter((text) => text.length > 12);
    expect(said.length).toBeGreaterThan(0);
    for (const text of said) expect(exported).not.toContain(text);
  }, 180_000);
});

/**
 * With no OTLP endpoint the SDK is not started and nothing of it is loaded: no exporter, no span
 * processor, no instrumentation. Asked of a fresh process, as the api's start asks it.
 */
describe('tracing off', () => {
  const probe = async (env: Record<string, string>) => {
    const script = [
      "const { startTracing, describeTracing } = require('./apps/api/src/tracing/tracing-sdk');",
      "const status = startTracing(JSON.parse(process.argv[1]), 'probe');",
      'const loaded = Object.keys(require.cache).filter((p) => /@opentelemetry[\\\\/](?!api[\\\\/])/.test(p));',
      'console.log(JSON.stringify({ on: status.on, line: describeTracing(), loaded }));',
      'process.exit(0);',
    ].join('\n');
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['-r', '@swc-node/register', '-e', script, JSON.stringify(env)],
      { cwd: ROOT, env: { ...process.env, SWC_NODE_PROJECT: resolve(ROOT, 'apps/api/tsconfig.json') } },
    );
    return JSON.parse(stdout.trim().split('\n').at(-1)!) as { on: boolean; line: string; loaded: string[] };
  };

  it('constructs no exporter when OTEL_EXPORTER_OTLP_ENDPOINT is unset, and says so', async () => {
    const off = await probe({});
    expect(off).toEqual({ on: false, line: 'tracing off: OTEL_EXPORTER_OTLP_ENDPOINT unset', loaded: [] });
    // The same probe with an endpoint loads the SDK and its exporter: the probe can tell.
    const on = await probe({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' });
    expect(on.on).toBe(true);
    expect(on.line).toBe(
      'tracing on: spans go to http://127.0.0.1:4318/v1/traces over http/protobuf as service probe, without prompts and replies',
    );
    expect(on.loaded.some((p) => p.includes('exporter-trace-otlp-proto'))).toBe(true);
  }, 60_000);
});

function sorted<T>(values: T[]): T[] {
  return values
    .map((v) => JSON.stringify(v))
    .sort()
    .map((v) => JSON.parse(v) as T);
}
