import { createServer } from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';

import type { MessageCreateParams } from '@anthropic-ai/sdk/resources/messages';

import {
  breakpointCount,
  DEFAULT_MIN_CACHE_TOKENS,
  estimateTokens,
  FakePromptCache,
  MAX_BREAKPOINTS,
} from './fake-anthropic-cache';
import {
  blockEvents,
  defaultStopReason,
  endEvents,
  errorTypeFor,
  FakeIds,
  message,
  replyBlocks,
  textDelta,
  textOpening,
  toolUseEvents,
} from './fake-anthropic-steps';
import type { FakeBlock, FakeStep, FakeUsage } from './fake-anthropic-steps';
import { paced, replyMs, type FakeTiming } from './fake-anthropic-clock';
import {
  apiKeyOf,
  parseMessagesBody,
  readBody,
  sendError,
  sendJson,
  SseStream,
  systemTextOf,
} from './fake-anthropic-http';

/** How long a dropped stream's first words travel before the connection goes. */
const DROP_AFTER_MS = 20;
/** One request the fake received, whatever its path, in arrival order. */
export interface FakeRequest {
  method: string;
  /** without the query string */
  path: string;
  headers: IncomingHttpHeaders;
  /** the key the request carried, from `x-api-key` or `authorization: Bearer` */
  apiKey: string | undefined;
  rawBody: string;
  /**
   * The body, typed as what the SDK sends. The fake checks only that `model`, `max_tokens` and
   * `messages` are there (as the API does before anything else); undefined when they are not.
   */
  body: MessageCreateParams | undefined;
  /** the body's system prompt as one text, whether it came as a string or as text blocks */
  systemText: string | undefined;
}

/** Answers a request the script has no step for, from its body: how a bench drives a long session. */
export type FakeResponder = (body: MessageCreateParams) => FakeStep;

/** How a fake counts: its prompt cache's minimum prefix, and its clock. */
export interface FakeAnthropicOptions {
  /** the shortest prefix, in estimated tokens, that the cache writes or reads; default 1024 (Sonnet, Opus) */
  minCacheTokens?: number;
  /** the clock cache entries expire by, in ms; default Date.now */
  now?: () => number;
  /** a model's clock for replies: none by default (a reply streams at once) */
  timing?: FakeTiming;
}

/**
 * A stand-in for the Anthropic API on 127.0.0.1: a real HTTP server, so tests run the real SDK
 * (streaming, headers, errors, aborts) with no module mocking. Replies are scripted per test, or
 * answered by a responder. Usage a step does not script is counted from the request, with prompt
 * caching by the API's rules (see FakePromptCache).
 *
 * @example
 * const fake = await startFakeAnthropic();
 * fake.script({ kind: 'error', status: 429 }, { kind: 'reply', content: [{ type: 'text', text: 'Hi' }] });
 * const model = new ClaudeModel(claudeConfig({ apiKey: 'test', baseURL: fake.url }));
 * // ... then fake.requests.length === 2
 * await fake.close();
 */
export interface FakeAnthropic {
  /** the base URL to give the SDK */
  readonly url: string;
  readonly requests: readonly FakeRequest[];
  /** queues replies; each `POST /v1/messages` takes the next, and one with none left gets a 500 */
  script(...steps: FakeStep[]): void;
  /** answers each request that finds the script empty with the step `responder` makes of its body */
  respond(responder: FakeResponder): void;
  /** steps scripted but not yet taken */
  readonly pendingSteps: number;
  /** streaming responses the client closed before the last event */
  readonly closedEarly: number;
  /** resolves once `closedEarly` reaches `count` (default 1) */
  whenClientDisconnects(count?: number): Promise<void>;
  close(): Promise<void>;
}

/** Starts a fake on a free port of 127.0.0.1. */
export async function startFakeAnthropic(options: FakeAnthropicOptions = {}): Promise<FakeAnthropic> {
  const fake = new FakeAnthropicServer(
    new FakePromptCache({
      minCacheTokens: options.minCacheTokens ?? DEFAULT_MIN_CACHE_TOKENS,
      now: options.now ?? Date.now,
    }),
    options.timing,
  );
  await fake.listen();
  return fake;
}

class FakeAnthropicServer implements FakeAnthropic {
  private readonly server: Server;
  private readonly received: FakeRequest[] = [];
  private readonly queue: FakeStep[] = [];
  private responder: FakeResponder | undefined;
  private readonly ids = new FakeIds();
  private readonly disconnectWaiters: { count: number; resolve: () => void }[] = [];
  /** stops slow streams when the fake closes */
  private readonly shutdown = new AbortController();
  private early = 0;
  private port = 0;

  constructor(
    private readonly cache: FakePromptCache,
    private readonly timing: FakeTiming | undefined,
  ) {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((e: unknown) => {
        // a bug in the fake itself: drop the connection so the test sees a failure, not a hang
        res.destroy(e instanceof Error ? e : new Error(String(e)));
      });
    });
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get requests(): readonly FakeRequest[] {
    return this.received;
  }

  get pendingSteps(): number {
    return this.queue.length;
  }

  get closedEarly(): number {
    return this.early;
  }

  script(...steps: FakeStep[]): void {
    this.queue.push(...steps);
  }

  respond(responder: FakeResponder): void {
    this.responder = responder;
  }

  whenClientDisconnects(count = 1): Promise<void> {
    if (this.early >= count) return Promise.resolve();
    return new Promise((resolve) => this.disconnectWaiters.push({ count, resolve }));
  }

  listen(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(0, '127.0.0.1', () => {
        this.port = (this.server.address() as AddressInfo).port;
        resolve();
      });
    });
  }

  close(): Promise<void> {
    this.shutdown.abort();
    return new Promise((resolve, reject) => {
      this.server.close((e) => (e ? reject(e) : resolve()));
      // the SDK keeps connections alive; without this, close waits for them to time out
      this.server.closeAllConnections();
    });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const rawBody = await readBody(req);
    const method = req.method ?? 'GET';
    const path = new URL(req.url ?? '/', 'http://fake').pathname;
    const body = parseMessagesBody(rawBody);
    const apiKey = apiKeyOf(req.headers);
    this.received.push({
      method,
      path,
      headers: req.headers,
      apiKey,
      rawBody,
      body,
      systemText: systemTextOf(body),
    });

    if (method !== 'POST' || path !== '/v1/messages') {
      return sendError(res, 404, 'not_found_error', `fake-anthropic: no route for ${method} ${path}`);
    }
    if (apiKey === undefined) {
      return sendError(res, 401, 'authentication_error', 'x-api-key header is required');
    }
    if (!body) {
      return sendError(res, 400, 'invalid_request_error', 'the body needs model, max_tokens and messages');
    }
    const breakpoints = breakpointCount(body);
    if (breakpoints > MAX_BREAKPOINTS) {
      const found = `A maximum of ${MAX_BREAKPOINTS} blocks with cache_control may be provided. Found ${breakpoints}.`;
      return sendError(res, 400, 'invalid_request_error', found);
    }
    const step = this.queue.shift() ?? this.responder?.(body);
    if (!step) {
      return sendError(
        res,
        500,
        'api_error',
        `fake-anthropic: the test did not script a reply for request #${this.received.length} ` +
          `(POST /v1/messages); call fake.script(...) with one step per request, or fake.respond(...)`,
      );
    }
    await this.answer(step, body, res);
  }

  private async answer(step: FakeStep, body: MessageCreateParams, res: ServerResponse): Promise<void> {
    const streaming = body.stream === true;
    switch (step.kind) {
      case 'error': {
        const headers: Record<string, string> = {};
        if (step.retryAfterSeconds !== undefined) headers['retry-after'] = String(step.retryAfterSeconds);
        if (step.retryAfterMs !== undefined) headers['retry-after-ms'] = String(step.retryAfterMs);
        const type = step.type ?? errorTypeFor(step.status);
        return sendError(res, step.status, type, step.message ?? `scripted ${type}`, headers);
      }
      case 'reply': {
        const model = step.model ?? body.model;
        const stopReason = step.stopReason ?? defaultStopReason(step.content);
        // the cache sees every request it answers, a reply with scripted usage included
        const counted = { ...this.cache.account(body), outputTokens: replyTokens(step.content) };
        const usage = step.usage ?? counted;
        const id = this.ids.next('msg');
        if (!streaming) {
          if (this.timing && !(await this.pause(replyMs(this.timing, usage.outputTokens)))) return;
          return sendJson(
            res,
            200,
            message(id, model, replyBlocks(step.content, this.ids), stopReason, usage),
          );
        }
        const sse = this.openStream(res, id, model, usage);
        const events = step.content.flatMap((block, index) => blockEvents(index, block, this.ids));
        if (this.timing && !(await paced(sse, events, this.timing, (ms) => this.pause(ms)))) return;
        if (!this.timing) sse.send(...events);
        sse.send(...endEvents(stopReason, usage));
        return sse.end();
      }
      case 'malformed_tool_input':
      case 'slow_stream':
      case 'stream_error':
      case 'dropped_stream':
        if (!streaming) {
          return sendError(
            res,
            500,
            'api_error',
            `fake-anthropic: a ${step.kind} step needs a streaming request`,
          );
        }
        return this.answerStreamOnly(step, body, res);
    }
  }

  private async answerStreamOnly(
    step: Extract<
      FakeStep,
      { kind: 'malformed_tool_input' | 'slow_stream' | 'stream_error' | 'dropped_stream' }
    >,
    body: MessageCreateParams,
    res: ServerResponse,
  ): Promise<void> {
    const input = this.cache.account(body);
    const sse = this.openStream(res, this.ids.next('msg'), body.model, { ...input, outputTokens: 1 });
    switch (step.kind) {
      case 'malformed_tool_input': {
        // several pieces, as the API sends; the fault is in what they add up to
        const third = Math.ceil(step.raw.length / 3);
        const pieces = [
          step.raw.slice(0, third),
          step.raw.slice(third, 2 * third),
          step.raw.slice(2 * third),
        ];
        sse.send(...toolUseEvents(0, step.id ?? this.ids.next('toolu'), step.name, pieces));
        sse.send(
          ...endEvents(step.stopReason ?? 'tool_use', { ...input, outputTokens: estimateTokens(step.raw) }),
        );
        return sse.end();
      }
      case 'slow_stream': {
        sse.send({
          type: 'content_block_start',
          index: 0,
          content_block: { type: 'text', text: '', citations: null },
        });
        for (const [i, text] of step.deltas.entries()) {
          if (i > 0 && !(await this.pause(step.delayMs))) return;
          if (sse.closed) return;
          sse.send(textDelta(0, text));
        }
        const outputTokens = estimateTokens(step.deltas.join(''));
        sse.send(
          { type: 'content_block_stop', index: 0 },
          ...endEvents('end_turn', { ...input, outputTokens }),
        );
        return sse.end();
      }
      case 'dropped_stream':
        if (step.textBefore !== undefined) sse.send(...textOpening(step.textBefore));
        // the words reach the client first (a reset would discard them unsent), then the
        // connection goes, mid-reply: no message_stop, no error event
        if (step.textBefore !== undefined && !(await this.pause(DROP_AFTER_MS))) return;
        res.destroy();
        return;
      case 'stream_error':
        if (step.textBefore !== undefined) sse.send(...textOpening(step.textBefore));
        sse.sendError(step.type, step.message ?? `scripted ${step.type}`);
        return sse.end();
    }
  }

  /** Sends the 200 head and message_start (then a ping, as the API does); counts an early close. */
  private openStream(res: ServerResponse, id: string, model: string, usage: FakeUsage): SseStream {
    res.on('close', () => {
      if (!res.writableFinished && !this.shutdown.signal.aborted) this.clientClosedEarly();
    });
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      'request-id': `req_${id}`,
    });
    const sse = new SseStream(res);
    // message_start reports output_tokens: 1, like the API; message_delta has the final count
    sse.send({
      type: 'message_start',
      message: message(id, model, [], null, { ...usage, outputTokens: 1 }),
    });
    sse.sendPing();
    return sse;
  }

  private clientClosedEarly(): void {
    this.early += 1;
    for (const waiter of [...this.disconnectWaiters]) {
      if (this.early >= waiter.count) {
        this.disconnectWaiters.splice(this.disconnectWaiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  }

  /** false when the fake is closing, so a slow stream stops instead of writing to nothing */
  private async pause(ms: number): Promise<boolean> {
    try {
      await delay(ms, undefined, { signal: this.shutdown.signal });
      return true;
    } catch {
      return false;
    }
  }
}

/** A reply's estimated output tokens, counted as the input is (see estimateTokens). */
function replyTokens(content: FakeBlock[]): number {
  const counted = content.map((b) =>
    b.type === 'text' ? estimateTokens(b) : estimateTokens({ type: b.type, name: b.name, input: b.input }),
  );
  return Math.max(
    1,
    counted.reduce((sum, n) => sum + n, 0),
  );
}
