import { err, type Json, ok, type Result } from '@sweatpants/domain';

import type {
  CompleteOptions,
  ContentBlock,
  Model,
  ModelError,
  ModelReply,
  ModelRequest,
  TextBlock,
  ToolSpec,
  ToolUseBlock,
} from '../model';
import { DEFAULT_OFFLINE_RULES } from './default-rules';
import { formatIssues, validateJson } from './json-schema';
import { interpretOffScriptRule, unreadOffScriptRule } from './off-script-rule';
import { createOfflineContext, type OfflineContext } from './offline-context';
import type { OfflineReply, OfflineRule } from './offline-rule';
import { countWords, hashJson, wordChunks } from './text';

/** Which rule answered a request, and the reply it made. */
export interface OfflineAnswer {
  rule: string;
  reply: ModelReply;
}

/**
 * The model the product runs when there is no API key: deterministic rules behind the `Model`
 * interface. The runtime's own rule (reading off-script words) is asked first, then the agents'
 * rules, in order, then the built-in defaults, which always answer; the same request always gets the same reply.
 *
 * A rule that calls a tool not offered, or with an input its schema rejects, is a bug in the
 * rule: `complete` rejects with an error naming the rule and the tool rather than send it.
 *
 * @example
 * const model = new OfflineModel([...tidyingRules]);
 * const reply = await model.complete(request, { signal, onText: (delta) => process.stdout.write(delta) });
 */
export class OfflineModel implements Model {
  readonly kind = 'offline';
  readonly name = 'offline';
  private readonly rules: readonly OfflineRule[];

  private readonly paceMs: number;

  /** `paceMs`: how long it thinks before each reply, as a real model takes time (0: at once). */
  constructor(rules: readonly OfflineRule[] = [], options: { paceMs?: number } = {}) {
    // The runtime's own requests (reading off-script words) come first: no agent rule is meant
    // for them.
    // The runtime reads words typed at a question first; what it leaves to an agent's rules
    // (a town's name at a location question) and they do not read is said aside.
    this.rules = [interpretOffScriptRule, ...rules, unreadOffScriptRule, ...DEFAULT_OFFLINE_RULES];
    this.paceMs = options.paceMs ?? 0;
  }

  /**
   * The reply to `request` and the rule that made it, without streaming: what `complete` sends,
   * and what an agent's rule tests assert on.
   */
  answer(request: ModelRequest): OfflineAnswer {
    // The notes are more of the system prompt to a model that caches nothing.
    const ctx = createOfflineContext(
      request.notes ? { ...request, system: `${request.system}\n\n${request.notes}` } : request,
    );
    for (const rule of this.rules) {
      const answered = ask(rule, ctx);
      if (answered !== undefined) return { rule: rule.name, reply: toModelReply(rule, answered, ctx) };
    }
    // unreachable while the canned default answers everything; kept so a broken default says so
    throw new Error('no offline rule answered the request');
  }

  /**
   * Streams the reply's text to `options.onText` a word at a time, yielding to the event loop
   * between words so a cancel can land mid-reply, then resolves with the reply, or `aborted`.
   */
  async complete(request: ModelRequest, options: CompleteOptions): Promise<Result<ModelReply, ModelError>> {
    const { signal, onText } = options;
    if (signal.aborted) return aborted();
    if (this.paceMs > 0 && !(await thinking(this.paceMs, signal))) return aborted();
    const { reply } = this.answer(request);
    const text = reply.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('');
    for (const chunk of wordChunks(text)) {
      await nextTick();
      if (signal.aborted) return aborted();
      onText?.(chunk);
    }
    await nextTick();
    if (signal.aborted) return aborted();
    return ok(reply);
  }
}

/** Waits `ms`, or less when `signal` aborts first; says whether the wait ran its course. */
function thinking(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    const done = (ran: boolean) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', stop);
      resolve(ran);
    };
    const stop = () => done(false);
    const timer = setTimeout(() => done(true), ms);
    signal.addEventListener('abort', stop, { once: true });
  });
}

function ask(rule: OfflineRule, ctx: OfflineContext): OfflineReply | undefined {
  try {
    if (rule.when && !rule.when(ctx)) return undefined;
    return rule.reply(ctx);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(`offline rule "${rule.name}" failed: ${message}`, { cause: error });
  }
}

function toModelReply(rule: OfflineRule, answered: OfflineReply, ctx: OfflineContext): ModelReply {
  const text = answered.text ?? '';
  const calls = answered.calls ?? [];
  if (text === '' && calls.length === 0) {
    throw new Error(
      `offline rule "${rule.name}" replied with neither text nor tool calls (return undefined to pass)`,
    );
  }
  const uses = calls.map((call, index): ToolUseBlock => {
    const tool = ctx.tools.get(call.name);
    if (!tool) {
      const offered = [...ctx.tools.keys()].join(', ') || 'none';
      throw new Error(
        `offline rule "${rule.name}" called ${call.name}, which is not offered (offered: ${offered})`,
      );
    }
    const input = call.input ?? inputOrThrow(rule, ctx, call.name);
    const issues = validateJson(tool.inputSchema, input);
    if (issues.length > 0) {
      throw new Error(
        `offline rule "${rule.name}" called ${call.name} with an invalid input: ${formatIssues(issues)}`,
      );
    }
    // derived from the conversation, so a replayed turn names its calls as the first run did
    const id = `toolu_offline_${hashJson([ctx.seed, index, call.name, input]).slice(0, 24)}`;
    return { type: 'tool_use', id, name: call.name, input };
  });
  const content: (TextBlock | ToolUseBlock)[] = [
    ...(text === '' ? [] : [{ type: 'text' as const, text }]),
    ...uses,
  ];
  return {
    content,
    stopReason: uses.length > 0 ? 'tool_use' : 'end_turn',
    usage: {
      inputTokens: requestWords(ctx.request),
      outputTokens: content.reduce((sum, block) => sum + blockWords(block), 0),
    },
    model: 'offline',
  };
}

function inputOrThrow(rule: OfflineRule, ctx: OfflineContext, tool: string): Json {
  try {
    return ctx.inputFor(tool);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(`offline rule "${rule.name}" called ${tool} without an input, and ${message}`, {
      cause: error,
    });
  }
}

/**
 * Usage counts words, not tokens: the offline model has no tokenizer, and a word count is at least
 * a true count of something. Photos count nothing, since nothing reads them.
 */
function requestWords(request: ModelRequest): number {
  const tools = request.tools.reduce((sum, tool) => sum + toolWords(tool), 0);
  const messages = request.messages.reduce(
    (sum, message) => sum + message.content.reduce((inner, block) => inner + blockWords(block), 0),
    0,
  );
  return countWords(request.system) + tools + messages;
}

/** Tool specs are declared once and offered on every call: each is counted once. */
const toolWordCounts = new WeakMap<ToolSpec, number>();

function toolWords(tool: ToolSpec): number {
  let words = toolWordCounts.get(tool);
  if (words === undefined) {
    words = countWords(`${tool.name} ${tool.description} ${jsonText(tool.inputSchema)}`);
    toolWordCounts.set(tool, words);
  }
  return words;
}

function blockWords(block: ContentBlock): number {
  switch (block.type) {
    case 'text':
      return countWords(block.text);
    case 'image':
      return 0;
    case 'tool_use':
      return countWords(`${block.name} ${jsonText(block.input)}`);
    case 'tool_result':
      return countWords(block.content);
  }
}

/** JSON laid out one member per line, so each key and value counts as a word rather than all as one. */
function jsonText(value: Json): string {
  return JSON.stringify(value, null, 1);
}

function aborted(): Result<ModelReply, ModelError> {
  return err({ code: 'aborted', message: 'the turn was cancelled before the offline reply finished' });
}

/** Lets pending callbacks (an abort among them) run before the next word. */
function nextTick(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
