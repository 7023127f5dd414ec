import Anthropic from '@anthropic-ai/sdk';
import type {
  MessageCreateParamsNonStreaming,
  MessageCreateParamsStreaming,
} from '@anthropic-ai/sdk/resources/messages';

import { err, ok, type Result } from '@sweatpants/domain';

import type { ModelError, ModelReply, ModelRequest } from '@sweatpants/agent-runtime';
import type { CompleteOptions, Model, PhotoBytes } from '@sweatpants/agent-runtime/host';
import type { ClaudeConfig } from './claude-config';
import {
  photosIn,
  ReplyAssembler,
  replyOfMessage,
  toMessagesParams,
  type PhotoData,
} from './claude-messages';
import { backoffDelayMs, classifyFailure, sleepUnlessAborted, type AttemptFailure } from './claude-retry';

const ABORTED: ModelError = { code: 'aborted', message: 'the request was aborted' };
/** The failures that say the model is busy, not that the request is wrong: a fallback may answer. */
const BUSY: ReadonlySet<ModelError['code']> = new Set(['rate_limited', 'overloaded']);

/**
 * Claude through the Messages API, streamed unless the config says `stream: false` (then one
 * plain request, and `onText` gets the whole text once the reply is in). Retries (429, 529, 5xx, dropped connections)
 * are ours, not the SDK's, so the policy is explicit and the fake server can count the attempts.
 * Expected failures come back as `err(ModelError)`; `complete` does not throw.
 *
 * @example
 * const model = new ClaudeModel(claudeConfig({ apiKey }));
 * const reply = await model.complete(request, { signal, onText: (d) => show(d) });
 * if (!reply.ok && reply.error.code === 'rate_limited') fallBack();
 */
export class ClaudeModel implements Model {
  readonly kind = 'claude';
  readonly name: string;
  private readonly client: Anthropic;

  /**
   * @param options.photoBytes reads a stored photo's bytes by its sha-256, to send Claude the image;
   *   without it (or when it finds none) Claude is told a photo was there and could not be loaded.
   */
  constructor(
    private readonly config: ClaudeConfig,
    private readonly options: { photoBytes?: PhotoBytes } = {},
  ) {
    this.name = config.model;
    this.client = new Anthropic({
      apiKey: config.apiKey,
      // null, not undefined: undefined would let the SDK read ANTHROPIC_BASE_URL behind the config's back
      baseURL: config.baseURL ?? null,
      maxRetries: 0,
    });
  }

  /**
   * One reply, retried as the policy says; when the model stays busy (429 or overloaded after
   * every retry), asked once more of the configured fallback model, with the same retries.
   */
  async complete(request: ModelRequest, options: CompleteOptions): Promise<Result<ModelReply, ModelError>> {
    const model = request.model ?? this.config.model;
    const params = toMessagesParams(request, model, this.config.maxTokens, await this.photoData(request));
    const answered = await this.withRetries(params, options);
    const fallback = this.config.fallbackModel;
    if (answered.ok || !BUSY.has(answered.error.code) || fallback === undefined || fallback === model)
      return answered;
    return this.withRetries({ ...params, model: fallback }, options);
  }

  private async withRetries(
    params: MessageCreateParamsStreaming,
    options: CompleteOptions,
  ): Promise<Result<ModelReply, ModelError>> {
    const { retry } = this.config;
    for (let attempt = 0; ; attempt++) {
      if (options.signal.aborted) return err(ABORTED);
      const outcome = await this.attempt(params, options);
      if (outcome.ok) return ok(outcome.reply);
      // whatever the attempt failed with, a cancelled turn reports the cancel
      if (options.signal.aborted) return err(ABORTED);
      const { failure } = outcome;
      if (!failure.retryable || attempt >= retry.maxRetries) return err(failure.error);
      const waited = await sleepUnlessAborted(
        backoffDelayMs(attempt, retry, failure.headers),
        options.signal,
      );
      if (!waited) return err(ABORTED);
    }
  }

  /** Each photo's bytes, read once per call (a turn's history repeats the photos it holds). */
  private async photoData(request: ModelRequest): Promise<PhotoData> {
    const read = this.options.photoBytes;
    const shas = photosIn(request);
    if (!read || shas.length === 0) return new Map();
    const found = await Promise.all(
      shas.map(async (sha) => [sha, await read(sha).catch(() => null)] as const),
    );
    return new Map(
      found.flatMap(([sha, bytes]) => (bytes ? [[sha, Buffer.from(bytes).toString('base64')] as const] : [])),
    );
  }

  private attempt(params: MessageCreateParamsStreaming, options: CompleteOptions): Promise<Attempt> {
    if (this.config.stream === false) {
      const { stream: _streamed, ...whole } = params;
      return this.attemptWhole({ ...whole, stream: false }, options);
    }
    return this.attemptStreamed(params, options);
  }

  private async attemptWhole(
    params: MessageCreateParamsNonStreaming,
    { signal, onText }: CompleteOptions,
  ): Promise<Attempt> {
    try {
      const message = await this.client.messages.create(params, { signal });
      const reply = replyOfMessage(message);
      const text = reply.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
      if (text !== '') onText?.(text);
      return { ok: true, reply };
    } catch (thrown) {
      return { ok: false, failure: classifyFailure(thrown) };
    }
  }

  private async attemptStreamed(
    params: MessageCreateParamsStreaming,
    { signal, onText }: CompleteOptions,
  ): Promise<Attempt> {
    let shownText = false;
    const assembler = new ReplyAssembler((delta) => {
      shownText = true;
      onText?.(delta);
    });
    try {
      // the signal reaches fetch, so an abort closes the HTTP connection, mid-stream included
      const stream = await this.client.messages.create(params, { signal });
      for await (const event of stream) {
        if (signal.aborted) break;
        assembler.add(event);
      }
    } catch (thrown) {
      const failure = classifyFailure(thrown);
      // Once text has been shown, a retry would show it again from the start: report instead.
      return { ok: false, failure: shownText ? { ...failure, retryable: false } : failure };
    }
    // the SDK ends the iteration quietly when the signal aborts mid-stream
    if (signal.aborted) return { ok: false, failure: { error: ABORTED, retryable: false } };
    const finished = assembler.finish();
    if (finished.ok) return finished;
    // a stream cut short is a dropped connection: worth another try if nothing was shown yet
    return {
      ok: false,
      failure: { error: { code: 'unavailable', message: finished.message }, retryable: !shownText },
    };
  }
}

type Attempt = { ok: true; reply: ModelReply } | { ok: false; failure: AttemptFailure };
