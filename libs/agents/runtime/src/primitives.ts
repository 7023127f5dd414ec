import { randomUUID } from 'node:crypto';
import {
  err,
  ok,
  type ElicitRequest,
  type ElicitResponse,
  type ElicitType,
  type Json,
  type Result,
  type TreeNode,
} from '@sweatpants/domain';
import { call, ensure, type Api, type Operation } from 'effection';
import { createApi } from 'effection/experimental';
import type { ModelError, ModelReply, TextBlock, ToolUseBlock } from './model';
import { Logs, ModelContext, Run, SideQuests, type LogLevel, type RunContext } from './context';
import { recordSettled, stoppedAsking, waitForAnswer, type Elicited } from './waiting-questions';
import { interpretRequest, prefilled, readInterpretation } from './off-script';
import {
  fromPrompt,
  MAX_SAMPLE_ATTEMPTS,
  SampleStages,
  type Metadata,
  type PromptRequest,
  type SampleRequest,
} from './sample';

export type { Elicited } from './waiting-questions';

/**
 * The core primitives every agent and tool is built from (seed 004): `sample`, `elicit`, `notify`
 * and `log`. They form one effection Api, so middleware installed with `around` (at `max` or
 * `min`) in any scope surrounds them for that scope and its children. Each writes what it did to
 * the tree through the run's journal, and on replay returns what the journal recorded instead.
 */

/** A sampled reply that passed every stage, with what the stages made of it. */
export interface Sampled {
  reply: ModelReply;
  metadata: Metadata;
  confidence: number | undefined;
  /** how many times the pipeline ran */
  attempts: number;
  /** the assistant node that holds the reply */
  nodeId: string;
}

/** Why `sample` gave no reply: the model failed, or no attempt passed the stages. */
export type SampleError = ModelError | { code: 'retries_exhausted'; message: string };

/**
 * What `sample` answers: the reply or why there is none (a model that fails is a value here, not
 * an exception), and, beside it as the seed reads it (`result.confidence < 0.8`), how sure the
 * reply is: the confidence stage's judgement, 1 when no stage judged it, 0 when there is no reply.
 */
export type SampleResult = Result<Sampled, SampleError> & { confidence: number };

/** How far a tool has got: a fraction 0..1 as the seed writes it (`notify(msg, 0.5)`), or a count. */
export type Progress = number | { value: number; total?: number };

/** What an agent asks; the primitive adds the id and records it. */
export interface ElicitInput<T extends ElicitType = ElicitType> {
  type: T;
  message: string;
  payload: ElicitRequest<T>['payload'];
  schema?: ElicitRequest['schema'];
  timeoutMs?: number;
  /**
   * What the person's side reports while they work on it (a location being acquired, a form half
   * filled): each progress payload, as it arrives. Not recorded: progress is not an answer.
   */
  onProgress?: (payload: Json) => void;
}

/** The primitives' signatures, as middleware around them receives their arguments. */
export interface AgentApi {
  sample(request: SampleRequest | PromptRequest): Operation<SampleResult>;
  elicit(request: ElicitInput): Operation<Elicited>;
  notify(message: string, progress?: Progress): Operation<void>;
  log(level: LogLevel, message: string, fields?: { [key: string]: Json }): Operation<void>;
}

// Annotated: `elicit` samples through the Api itself (reading off-script words), so middleware
// around `sample` sees that call too.
/**
 * The primitives as one effection Api: `Agent.around` installs middleware around any of them for
 * the current scope and its children, at `max` (outermost) or `min` (closest to the core).
 *
 * @example
 * yield* Agent.around({
 *   *log([level, message, fields], next) {
 *     if (level !== 'debug') yield* next(level, message, fields);
 *   },
 * });
 */
export const Agent: Api<AgentApi> = createApi<AgentApi>('sweatpants.agent', {
  *sample(asked) {
    const run = yield* Run.expect();
    const request = asked.prompt === undefined ? asked : fromPrompt(asked);
    for (let attempt = 1; attempt <= MAX_SAMPLE_ATTEMPTS; attempt++) {
      const input = yield* SampleStages.operations.input(request);
      const called = yield* callModel(run, input);
      if (!called.ok) return { ...called, confidence: 0 };
      const { reply, nodeId } = called.value;
      const output = yield* SampleStages.operations.output(reply, input);
      if (output.retry) {
        yield* recordRetry(run, output.reason);
        continue;
      }
      const metadata = yield* SampleStages.operations.metadata(output.value);
      if (metadata.retry) {
        yield* recordRetry(run, metadata.reason);
        continue;
      }
      const confidence = yield* SampleStages.operations.confidence(output.value, metadata.value);
      if (confidence.retry) {
        yield* recordRetry(run, confidence.reason);
        continue;
      }
      return {
        ...ok({
          reply: output.value,
          metadata: metadata.value,
          confidence: confidence.value,
          attempts: attempt,
          nodeId,
        }),
        confidence: confidence.value ?? 1,
      };
    }
    return {
      ...err({
        code: 'retries_exhausted',
        message: `no acceptable reply in ${MAX_SAMPLE_ATTEMPTS} attempts`,
      }),
      confidence: 0,
    };
  },

  *elicit(input) {
    const run = yield* Run.expect();
    // The person said they are done with this agent earlier in the turn: it asks nothing more.
    if (yield* stoppedAsking(askerOf(run.authorId))) return { action: 'decline' };
    const { onProgress, ...question } = input;
    let asking: Omit<ElicitInput, 'onProgress'> = question;
    let asked = yield* askNode(run, { elicitId: randomUUID(), ...asking });
    for (;;) {
      const request = requestOf(asked);
      // The client may only learn an elicit id the store holds: a restart sends it again.
      yield* run.journal.durable();
      // Several questions may wait at once, answered in any order: this one's answer may be
      // recorded after another's.
      let answered = yield* run.journal.takeWhenReached(
        'response',
        `the answer to ${request.elicitId}`,
        (n) => n.payload.elicitId === request.elicitId,
      );
      const replayed = answered !== undefined;
      if (!answered) {
        const { answeredBy, ...response } = yield* waitForAnswer(run, request, asked, onProgress);
        const payload = { elicitId: request.elicitId, ...response } as TreeNode<'response'>['payload'];
        const authorId = answeredBy ?? run.authorId;
        // Answered while another question's asker still replays what it recorded: it goes after.
        yield* run.journal.replayed();
        [answered] = (yield* run.journal.append([{ kind: 'response', payload, authorId }])) as [
          TreeNode<'response'>,
        ];
        // Whoever answered waits for the acknowledgement, which comes once the answer is stored:
        // with what the turn says next when that comes soon, in one write.
        void run.journal.writeSoon();
      }
      const { elicitId: _id, ...response } = answered.payload as Elicited & { elicitId: string };
      if (response.action !== 'other') return response;
      // Words that answer the question answer it, in a side quest's own turn too (a card asked
      // there, "kitchen" typed at it): only a tangent needs a side quest to run.
      const reading = interpretRequest(request, response.content);
      if (reading) {
        const sampled = yield* Agent.operations.sample(reading);
        const read = sampled.ok ? readInterpretation(request, sampled.value.reply) : null;
        if (read?.kind === 'answer') return { action: 'accept', content: read.content };
        // Words that filled in part of a form: it comes back with those fields filled in.
        if (read?.given && asking.schema)
          asking = { ...asking, schema: prefilled(asking.schema, read.given) };
      }
      // A tangent with no side quest to run it (outside a turn chain): the asker reads the words.
      const sideQuest = yield* SideQuests.expect();
      if (!sideQuest) return response;
      // Seed 004: the question stays suspended while the tangent runs to its end below the
      // user's words; then it is asked again after the tangent, as a new elicit that names the one
      // it resumes, unless the tangent's turn settled it. Nothing the user said leaves the path,
      // and HEAD only ever moves forward.
      const outcome: { settled?: ElicitResponse } = {};
      const settle = (answer: ElicitResponse) => (outcome.settled = answer);
      yield* sideQuest({ question: request, said: response.content, settle });
      if (outcome.settled) {
        yield* recordSettled(run, request.elicitId, outcome.settled, replayed);
        return outcome.settled;
      }
      // The person stopped this asker in the side quest ("I'm done" at a card asked there, whose
      // own side quest ended it): it asks nothing more this turn, this question neither.
      if (yield* stoppedAsking(askerOf(run.authorId))) return { action: 'decline' };
      asked = yield* askNode(run, { ...asking, elicitId: randomUUID(), resumes: request.elicitId });
    }
  },

  *notify(message, given) {
    const run = yield* Run.expect();
    const progress = typeof given === 'number' ? { value: given } : given;
    if (run.journal.take('notify', `the notice "${message}"`)) return;
    const payload = { message, ...(progress ? { progress: progress.value, total: progress.total } : {}) };
    const [node] = yield* run.journal.append([{ kind: 'notify', payload, authorId: run.authorId }]);
    yield* run.journal.durable();
    run.outbox.notify({
      nodeId: (node as TreeNode).id,
      message,
      progress: progress?.value,
      total: progress?.total,
    });
  },

  *log(level, message, fields) {
    (yield* Logs.expect()).write(level, message, fields);
  },
});

/**
 * The primitives as operations (seed 004), through whatever middleware is in force: `sample` asks
 * the model, `notify` tells the person how it goes, `log` writes a line. (`elicit`, which asks the
 * person, is in ./elicit, with the seed's form of it.)
 *
 * @example
 * const read = yield* sample({ prompt: `Extract destination and date from: ${trip}`, maxTokens: 150 });
 * yield* notify('Processing...', 0.5);
 * yield* notify(`Checked the ${list}`, { value: checked, total });
 * yield* log('warn', 'photo analysis failed; going on without it', { code: sampled.error.code });
 */
export const { notify, log } = Agent.operations;

/**
 * Asks the model (seed 004's `sample`): a conversation's request, or the seed's one prompt
 * (PromptRequest), answered beside the conversation. Middleware around `sample` sees either.
 */
export function sample(request: PromptRequest): Operation<SampleResult>;
export function sample(request: SampleRequest): Operation<SampleResult>;
export function sample(request: SampleRequest | PromptRequest): Operation<SampleResult> {
  return Agent.operations.sample(request);
}

/**
 * Installs middleware around the primitives for the current scope (seed 004's `around`).
 *
 * @example
 * yield* around(
 *   { *notify([message, progress], next) { yield* next(`(demo) ${message}`, progress); } },
 *   { at: 'min' },
 * );
 */
export const around = Agent.around;

function* callModel(
  run: RunContext,
  request: SampleRequest,
): Operation<Result<{ reply: ModelReply; nodeId: string }, ModelError>> {
  const next = run.journal.peek();
  if (next?.kind === 'event' && next.payload['type'] === 'model-error') {
    const failed = run.journal.take('event', 'a model error') as TreeNode<'event'>;
    return err(failed.payload['error'] as unknown as ModelError);
  }
  const recorded = run.journal.take('assistant', 'a model reply');
  if (recorded) return ok({ reply: replyOf(recorded), nodeId: recorded.id });

  const model = yield* ModelContext.expect();
  // A remote model costs time and money and need not answer the same twice: what led to the call
  // is stored first (and shown to the client while it waits), so a rebuilt runner never asks it
  // again for a turn it had recorded. The offline model answers in-process, at no cost, the same
  // every time: the turn goes on and its nodes are stored at the next durability point.
  if (model.kind !== 'offline') yield* run.journal.durable();
  // Aborted only when the turn is halted mid-call: an abort builds a DOMException with its stack,
  // which every call that simply finished would pay for.
  const controller = new AbortController();
  let answered = false;
  yield* ensure(() => {
    if (!answered) controller.abort();
  });
  const at = run.journal.head;
  // The node is named when the reply has come; when it was asked is kept beside it, so an
  // operator's waterfall of the turn shows the call's own time, not the gap since the last node.
  const startedAt = new Date().toISOString();
  const result = yield* call(() =>
    model.complete(request, {
      signal: controller.signal,
      // A side call's words are not the chat's: nothing of it is streamed.
      ...(request.purpose ? {} : { onText: (text: string) => run.outbox.token(at, text) }),
    }),
  );
  answered = true;
  if (!result.ok) {
    // Recorded, so a replay takes the same fallback instead of asking the model again.
    const error: ModelError = result.error;
    yield* run.journal.append([
      {
        kind: 'event',
        payload: { type: 'model-error', error: { ...error } as unknown as Json },
        authorId: run.authorId,
      },
    ]);
    return err(error);
  }
  const reply = result.value;
  const text = reply.content
    .filter((b): b is TextBlock => b.type === 'text')
    .map((b) => b.text)
    .join('');
  const [node] = yield* run.journal.append([
    {
      kind: 'assistant',
      payload: {
        text,
        content: reply.content as unknown as Json,
        stopReason: reply.stopReason,
        usage: { ...reply.usage },
        model: reply.model,
        startedAt,
        ...(request.purpose ? { purpose: request.purpose } : {}),
      },
      authorId: run.authorId,
    },
  ]);
  if (model.kind !== 'offline') run.journal.startWriting();
  return ok({ reply, nodeId: (node as TreeNode).id });
}

function* recordRetry(run: RunContext, reason: string): Operation<void> {
  if (run.journal.take('event', 'a sample retry', (n) => n.payload['type'] === 'sample-retry')) return;
  yield* run.journal.append([
    { kind: 'event', payload: { type: 'sample-retry', reason }, authorId: run.authorId },
  ]);
}

/** The elicit node that asks `payload`: the one the journal recorded, or a new one. */
function* askNode(
  run: RunContext,
  payload: ElicitInput & { elicitId: string; resumes?: string },
): Operation<TreeNode<'elicit'>> {
  const recorded = run.journal.take('elicit', `the elicit "${payload.message}"`);
  if (recorded) return recorded as TreeNode<'elicit'>;
  const [node] = yield* run.journal.append([
    { kind: 'elicit', payload: payload as TreeNode<'elicit'>['payload'], authorId: run.authorId },
  ]);
  return node as TreeNode<'elicit'>;
}

/**
 * The reply an assistant node recorded, from the payloads of every version of the runtime (one
 * with only `text` reads as a single text block), so a replay or a history reads old nodes too.
 *
 * @example
 * const blocks = replyOf(node as TreeNode<'assistant'>).content.filter((b) => b.type === 'text');
 */
export function replyOf(node: TreeNode<'assistant'>): ModelReply {
  const p = node.payload as {
    text: string;
    content?: (TextBlock | ToolUseBlock)[];
    stopReason?: ModelReply['stopReason'];
    usage?: ModelReply['usage'];
    model?: string;
  };
  return {
    content: p.content ?? [{ type: 'text', text: p.text }],
    stopReason: p.stopReason ?? 'end_turn',
    usage: p.usage ?? { inputTokens: 0, outputTokens: 0 },
    model: p.model ?? 'unknown',
  };
}

/** The agent an `agent:<name>` author names; a question's asker is the author of its node. */
function askerOf(authorId: string): string | undefined {
  return authorId.startsWith(AGENT_AUTHOR) ? authorId.slice(AGENT_AUTHOR.length) : undefined;
}
const AGENT_AUTHOR = 'agent:';

function requestOf(node: TreeNode<'elicit'>): ElicitRequest {
  const { elicitId, type, message, payload, schema, timeoutMs, resumes } = node.payload;
  const askedBy = askerOf(node.authorId);
  return {
    ...(askedBy ? { askedBy } : {}),
    elicitId,
    type: type as ElicitType,
    message,
    payload: payload as ElicitRequest['payload'],
    ...(schema ? { schema } : {}),
    ...(timeoutMs ? { timeoutMs } : {}),
    ...(resumes ? { resumes } : {}),
  };
}
