import { createApi } from 'effection/experimental';
import type { Json } from '@sweatpants/domain';
import type { Operation } from 'effection';
import type { ModelMessage, ModelReply, ToolSpec } from './model';

/**
 * The stages of `sample` (seed 004): input → output → metadata → confidence. Each is an effection
 * Api, so middleware can surround any stage at any scope with `SampleStages.around(...)`. A stage
 * that wants another attempt answers `retry(reason)`: the pipeline starts again from `input`.
 */

/** What `sample` is asked: a model request before the stages (and the journal) have had it. */
export interface SampleRequest {
  /** the seed's form is PromptRequest; a request of this form has none */
  prompt?: undefined;
  /** what stays the same from call to call (see ModelRequest.system) */
  system: string;
  messages: ModelMessage[];
  tools: ToolSpec[];
  /** what changes from call to call, sent after the conversation (see ModelRequest.notes) */
  notes?: string;
  maxTokens?: number;
  /** a tool the model must call; by default it chooses */
  toolChoice?: string;
  /**
   * set on a call the runtime makes for itself beside the conversation (reading an off-script
   * answer): its reply is recorded with this name and kept out of the model's history and the chat
   */
  purpose?: string;
}

/**
 * Seed 004's form of a sample: one prompt, answered beside the conversation (a tool extracting a
 * destination from a trip), kept out of the model's history and the chat like every call with a
 * `purpose`. The conversation's own turns ask with a SampleRequest.
 *
 * @example
 * const read = yield* sample({ prompt: `Extract destination and date from: ${trip}`, maxTokens: 150 });
 */
export interface PromptRequest {
  prompt: string;
  maxTokens?: number;
  /** what the model is told it is for; none by default */
  system?: string;
}

/** A PromptRequest as the model is asked it: the prompt as the one message, no tools. */
export function fromPrompt(request: PromptRequest): SampleRequest {
  return {
    system: request.system ?? '',
    messages: [{ role: 'user', content: [{ type: 'text', text: request.prompt }] }],
    tools: [],
    ...(request.maxTokens !== undefined ? { maxTokens: request.maxTokens } : {}),
    purpose: 'prompt',
  };
}

/** A stage's answer: go on with `value`, or start the pipeline again. */
export type Stage<T> = { retry: false; value: T } | { retry: true; reason: string };
/**
 * A stage's answer that lets the pipeline go on with `value`.
 *
 * @example
 * *confidence([reply, metadata], next) {
 *   const stage = yield* next(reply, metadata);
 *   return stage.retry ? stage : proceed(0.9);
 * },
 */
export const proceed = <T>(value: T): Stage<T> => ({ retry: false, value });
/**
 * A stage's answer that starts the pipeline again from `input`; `reason` is recorded on the
 * `sample-retry` event. After MAX_SAMPLE_ATTEMPTS, `sample` answers `retries_exhausted`.
 *
 * @example
 * *output([reply, request], next) {
 *   const text = reply.content[0]?.type === 'text' ? reply.content[0].text : '';
 *   if (!text.startsWith('{')) return retry('not JSON');
 *   return yield* next(reply, request);
 * },
 */
export const retry = (reason: string): Stage<never> => ({ retry: true, reason });

/** Structured data the `metadata` stage takes from a reply; `sample` hands it back in `Sampled`. */
export interface Metadata {
  [key: string]: Json;
}

/** The four stages' signatures, as middleware around each receives its arguments. */
export interface SampleStagesApi {
  /** prepare the request: PII filtering, prompt enrichment */
  input(request: SampleRequest): Operation<SampleRequest>;
  /** the model's raw reply: validate, parse, or ask for a retry */
  output(reply: ModelReply, request: SampleRequest): Operation<Stage<ModelReply>>;
  /** structured data taken from the reply */
  metadata(reply: ModelReply): Operation<Stage<Metadata>>;
  /** how sure the reply is, 0..1 (undefined: not judged); retry or escalate below a threshold */
  confidence(reply: ModelReply, metadata: Metadata): Operation<Stage<number | undefined>>;
}

/**
 * The sample pipeline as one effection Api; its core passes every stage through unchanged, so
 * whatever a stage does is middleware installed for a scope (an agent's turn, a test).
 *
 * @example
 * yield* SampleStages.around({
 *   *input([request], next) {
 *     if (request.purpose !== undefined) return yield* next(request);
 *     return yield* next({ ...request, system: `${request.system}\n\n${asideNote(card)}` });
 *   },
 * });
 */
export const SampleStages = createApi<SampleStagesApi>('sweatpants.sample', {
  *input(request) {
    return request;
  },
  *output(reply, request) {
    // A reply with nothing in it, to words of the person's that wait for one, would leave them
    // with nothing: asked again. After a tool's result the model may rightly have no more to say.
    return isEmpty(reply) && awaitsWords(request) ? retry('the model answered with nothing') : proceed(reply);
  },
  *metadata() {
    return proceed({});
  },
  *confidence() {
    return proceed(undefined);
  },
});

/** How many times the pipeline may start before `sample` gives up with `retries_exhausted`. */
export const MAX_SAMPLE_ATTEMPTS = 3;

/** No words and no tool call: what a model on a bad day sends. */
function isEmpty(reply: ModelReply): boolean {
  return !reply.content.some((b) => b.type === 'tool_use' || (b.type === 'text' && b.text.trim() !== ''));
}

/**
 * The request ends with words (the person's, or a mode switch's message after a tool's result),
 * or carries the turn's instruction in its notes, which a reply must answer; a message of tool
 * results alone may rightly get none.
 */
function awaitsWords(request: SampleRequest): boolean {
  if (request.notes !== undefined && request.notes.trim() !== '') return true;
  const last = request.messages.at(-1);
  return last?.role === 'user' && last.content.some((b) => b.type === 'text' || b.type === 'image');
}
