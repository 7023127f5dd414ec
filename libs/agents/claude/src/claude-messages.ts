import type {
  CacheControlEphemeral,
  ImageBlockParam,
  Message,
  MessageCreateParamsStreaming,
  MessageDeltaUsage,
  RawMessageStreamEvent,
  StopReason,
  TextBlockParam,
  Tool,
  ToolResultBlockParam,
  ToolUseBlockParam,
  Usage,
} from '@anthropic-ai/sdk/resources/messages';

import type { Json } from '@sweatpants/domain';

import type {
  ContentBlock,
  ImageBlock,
  ModelReply,
  ModelRequest,
  ModelUsage,
  TextBlock,
  ToolUseBlock,
} from '@sweatpants/agent-runtime';

/** The base64 bytes of each stored photo a request shows, by sha-256 (see ClaudeModel's PhotoBytes). */
export type PhotoData = ReadonlyMap<string, string>;

/** The sha-256 of every photo in a request, once each. */
export function photosIn(request: ModelRequest): string[] {
  const shas = request.messages.flatMap((m) =>
    m.content.flatMap((b) =>
      b.type === 'image' ? [b.sha256] : b.type === 'tool_result' ? (b.images ?? []).map((i) => i.sha256) : [],
    ),
  );
  return [...new Set(shas)];
}

/** Marks a prompt-cache breakpoint: the prefix up to and including the block is cached for 5 minutes. */
const BREAKPOINT = { type: 'ephemeral' } as const satisfies CacheControlEphemeral;

/** The block kinds we send, each of which can carry a cache breakpoint. */
type SentBlock = TextBlockParam | ImageBlockParam | ToolUseBlockParam | ToolResultBlockParam;
type SentMessage = { role: 'user' | 'assistant'; content: SentBlock[] };

/**
 * The Messages API request for a ModelRequest, streamed (ClaudeModel drops `stream` when told).
 * Each photo goes as its base64 bytes from `photos`; one whose bytes could not be read goes as a
 * line of text saying so, so the model knows a photo was there rather than seeing nothing.
 *
 * Prompt caching: the API caches the request's prefix (tools, then system, then messages) up to
 * each block marked with `cache_control`, and reads a prefix back when a later request repeats it
 * byte for byte. So the request carries at most four breakpoints: the last tool, the system
 * prompt, and two on the history (see `markHistory`). The request's `notes`, which change every
 * call, go after the last of them, so they never enter a cached prefix.
 */
export function toMessagesParams(
  request: ModelRequest,
  model: string,
  maxTokens: number,
  photos: PhotoData = new Map(),
): MessageCreateParamsStreaming {
  const messages = request.messages.map((m): SentMessage => ({
    role: m.role,
    content: m.content.map((block) => toContentParam(block, photos)),
  }));
  const tools = request.tools.map((t): Tool => ({
    name: t.name,
    description: t.description,
    input_schema: t.inputSchema,
  }));
  return {
    model,
    max_tokens: request.maxTokens ?? maxTokens,
    // The API refuses an empty system text, and "no system prompt" is what an empty one means.
    ...(request.system === ''
      ? {}
      : { system: [{ type: 'text', text: request.system, cache_control: BREAKPOINT }] }),
    messages: withNotes(markHistory(messages), request.notes),
    ...(tools.length === 0 ? {} : { tools: tools.map((t, i) => (i === tools.length - 1 ? marked(t) : t)) }),
    ...(request.toolChoice ? { tool_choice: { type: 'tool', name: request.toolChoice } } : {}),
    stream: true,
  };
}

/**
 * The history's two moving breakpoints: on the last message, and on the user message before it.
 * A runner's next call adds two messages (a tool call and its result within a turn; a reply and
 * the user's next message across turns), so that earlier breakpoint is where this call's last one
 * is now: the next call reads everything up to it from the cache and writes only the new pair.
 */
function markHistory(messages: SentMessage[]): SentMessage[] {
  const last = messages.length - 1;
  const previous = messages.findLastIndex((m, i) => i < last && m.role === 'user');
  return messages.map((m, i) =>
    (i === last || i === previous) && m.content.length > 0
      ? { ...m, content: m.content.map((b, j) => (j === m.content.length - 1 ? marked(b) : b)) }
      : m,
  );
}

/**
 * The notes as the last block of the last user message, after its breakpoint, so they are read
 * with the conversation but never cached. After an assistant message (a prefill, which the
 * runtime does not send today) they go as a user message of their own.
 */
function withNotes(messages: SentMessage[], notes: string | undefined): SentMessage[] {
  // the API refuses an empty text block, and empty notes say nothing
  if (notes === undefined || notes === '') return messages;
  const block: TextBlockParam = { type: 'text', text: notes };
  const last = messages.at(-1);
  return last?.role === 'user'
    ? [...messages.slice(0, -1), { ...last, content: [...last.content, block] }]
    : [...messages, { role: 'user', content: [block] }];
}

function marked<T extends { cache_control?: CacheControlEphemeral | null }>(block: T): T {
  return { ...block, cache_control: BREAKPOINT };
}

function toContentParam(block: ContentBlock, photos: PhotoData): SentBlock {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'image':
      return imageParam(block, photos);
    case 'tool_use':
      return { type: 'tool_use', id: block.id, name: block.name, input: block.input };
    case 'tool_result':
      return {
        type: 'tool_result',
        tool_use_id: block.toolUseId,
        // the images a tool returned follow its words, as the Messages API takes them
        content: block.images?.length
          ? [{ type: 'text', text: block.content }, ...block.images.map((image) => imageParam(image, photos))]
          : block.content,
        ...(block.isError === undefined ? {} : { is_error: block.isError }),
      };
  }
}

function imageParam(block: ImageBlock, photos: PhotoData): TextBlockParam | ImageBlockParam {
  const data = photos.get(block.sha256);
  return data === undefined
    ? { type: 'text', text: `(a ${block.mediaType} photo was sent here; it could not be loaded)` }
    : { type: 'image', source: { type: 'base64', media_type: block.mediaType, data } };
}

/**
 * What a call cost as ModelUsage. The cache counts are left out when they are zero (or the API
 * did not send them), so a record without caching stays as small as before.
 */
function usageOf(counts: {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}): ModelUsage {
  const write = counts.cache_creation_input_tokens ?? 0;
  const read = counts.cache_read_input_tokens ?? 0;
  return {
    inputTokens: counts.input_tokens,
    outputTokens: counts.output_tokens,
    ...(write > 0 ? { cacheWriteTokens: write } : {}),
    ...(read > 0 ? { cacheReadTokens: read } : {}),
  };
}

type BlockInProgress =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; json: string; startInput: unknown }
  /** thinking and server-tool blocks: we enable neither, so one that arrives is dropped */
  | { type: 'ignored' };

/**
 * Builds a ModelReply from the raw stream events, in the order they arrive. We read the raw
 * events rather than the SDK's MessageStream helper because the helper parses tool input as it
 * streams and fails the whole reply on input it cannot parse; here a bad input stays one block.
 */
export class ReplyAssembler {
  private readonly blocks = new Map<number, BlockInProgress>();
  private readonly done: { index: number; block: TextBlock | ToolUseBlock }[] = [];
  private model = '';
  private stopReason: StopReason | null = null;
  /** the counts as the API last reported them: message_start, then message_delta's (cumulative) ones */
  private readonly usage = {
    input_tokens: 0,
    output_tokens: 0,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
  };
  private stopped = false;

  /** @param onText called with each text delta, for display */
  constructor(private readonly onText: (delta: string) => void) {}

  add(event: RawMessageStreamEvent): void {
    switch (event.type) {
      case 'message_start':
        this.model = event.message.model;
        this.countUsage(event.message.usage);
        return;
      case 'content_block_start': {
        const b = event.content_block;
        this.blocks.set(
          event.index,
          b.type === 'text'
            ? { type: 'text', text: b.text }
            : b.type === 'tool_use'
              ? { type: 'tool_use', id: b.id, name: b.name, json: '', startInput: b.input }
              : { type: 'ignored' },
        );
        return;
      }
      case 'content_block_delta': {
        const block = this.blocks.get(event.index);
        if (block?.type === 'text' && event.delta.type === 'text_delta') {
          block.text += event.delta.text;
          this.onText(event.delta.text);
        } else if (block?.type === 'tool_use' && event.delta.type === 'input_json_delta') {
          block.json += event.delta.partial_json;
        }
        return;
      }
      case 'content_block_stop': {
        const block = this.blocks.get(event.index);
        this.blocks.delete(event.index);
        if (block?.type === 'text') this.done.push({ index: event.index, block });
        if (block?.type === 'tool_use') this.done.push({ index: event.index, block: finishToolUse(block) });
        return;
      }
      case 'message_delta':
        this.stopReason = event.delta.stop_reason ?? this.stopReason;
        this.countUsage(event.usage);
        return;
      case 'message_stop':
        this.stopped = true;
        return;
    }
  }

  /** The reply, or why the stream does not make one (it ended early, or without a stop reason). */
  finish(): { ok: true; reply: ModelReply } | { ok: false; message: string } {
    if (!this.stopped) return { ok: false, message: 'the stream ended before message_stop' };
    if (this.stopReason === null) return { ok: false, message: 'the stream carried no stop_reason' };
    return {
      ok: true,
      reply: {
        content: [...this.done].sort((a, b) => a.index - b.index).map((d) => d.block),
        stopReason: toStopReason(this.stopReason),
        usage: usageOf(this.usage),
        model: this.model,
      },
    };
  }

  /**
   * Newer API versions repeat the cumulative input and cache counts in message_delta; a count
   * there wins when present, and one left null keeps what message_start said.
   */
  private countUsage(counts: Usage | MessageDeltaUsage): void {
    this.usage.output_tokens = counts.output_tokens;
    if (counts.input_tokens != null) this.usage.input_tokens = counts.input_tokens;
    if (counts.cache_creation_input_tokens != null)
      this.usage.cache_creation_input_tokens = counts.cache_creation_input_tokens;
    if (counts.cache_read_input_tokens != null)
      this.usage.cache_read_input_tokens = counts.cache_read_input_tokens;
  }
}

/** The reply in a whole (non-streamed) Message: its text and tool calls, in order. */
export function replyOfMessage(message: Message): ModelReply {
  const content = message.content.flatMap((b): (TextBlock | ToolUseBlock)[] => {
    if (b.type === 'text') return [{ type: 'text', text: b.text }];
    if (b.type === 'tool_use')
      return [{ type: 'tool_use', id: b.id, name: b.name, input: asJson(b.input) ?? {} }];
    // thinking and server-tool blocks: we enable neither (as in ReplyAssembler)
    return [];
  });
  return {
    content,
    stopReason: toStopReason(message.stop_reason ?? 'end_turn'),
    usage: usageOf(message.usage),
    model: message.model,
  };
}

/**
 * The tool call with its input parsed. Input that is not JSON (the model can emit it, rarely,
 * e.g. when cut off by max_tokens) does not fail the reply: the block keeps the raw text as
 * `{ "__malformed": "<raw text>" }`, and the runtime answers it with a tool error so the model can
 * try again, rather than the whole turn failing.
 */
function finishToolUse(block: Extract<BlockInProgress, { type: 'tool_use' }>): ToolUseBlock {
  const { id, name } = block;
  if (block.json.trim() === '') {
    // no deltas: the input came whole in content_block_start (or the tool takes no input)
    return { type: 'tool_use', id, name, input: asJson(block.startInput) ?? {} };
  }
  const input = parseJson(block.json);
  return { type: 'tool_use', id, name, input: input === undefined ? { __malformed: block.json } : input };
}

function parseJson(text: string): Json | undefined {
  try {
    // JSON.parse only ever produces JSON values, so the cast states a fact
    return JSON.parse(text) as Json;
  } catch {
    return undefined;
  }
}

function asJson(value: unknown): Json | undefined {
  // the SDK types a parsed event's fields as unknown; re-serialising checks they are plain JSON
  return value === undefined ? undefined : parseJson(JSON.stringify(value));
}

function toStopReason(reason: StopReason): ModelReply['stopReason'] {
  switch (reason) {
    case 'end_turn':
    case 'tool_use':
    case 'max_tokens':
    case 'stop_sequence':
    case 'refusal':
    case 'pause_turn':
      return reason;
    case 'model_context_window_exceeded':
      // the reply was cut off by a length limit, which is what max_tokens tells the runtime
      return 'max_tokens';
    default:
      // a reason newer than this SDK's types: the message did complete, so treat it as a turn end
      return 'end_turn';
  }
}
