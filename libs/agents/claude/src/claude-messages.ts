import type {
  ContentBlockParam,
  Message,
  MessageCreateParamsStreaming,
  RawMessageStreamEvent,
  StopReason,
} from '@anthropic-ai/sdk/resources/messages';

import type { Json } from '@sweatpants/domain';

import type {
  ContentBlock,
  ModelReply,
  ModelRequest,
  TextBlock,
  ToolUseBlock,
} from '@sweatpants/agent-runtime';

/** The base64 bytes of each stored photo a request shows, by sha-256 (see ClaudeModel's PhotoBytes). */
export type PhotoData = ReadonlyMap<string, string>;

/** The sha-256 of every photo in a request, once each. */
export function photosIn(request: ModelRequest): string[] {
  const shas = request.messages.flatMap((m) =>
    m.content.flatMap((b) => (b.type === 'image' ? [b.sha256] : [])),
  );
  return [...new Set(shas)];
}

/**
 * The Messages API request for a ModelRequest, streamed (ClaudeModel drops `stream` when told).
 * Each photo goes as its base64 bytes from `photos`; one whose bytes could not be read goes as a
 * line of text saying so, so the model knows a photo was there rather than seeing nothing.
 */
export function toMessagesParams(
  request: ModelRequest,
  model: string,
  maxTokens: number,
  photos: PhotoData = new Map(),
): MessageCreateParamsStreaming {
  return {
    model,
    max_tokens: request.maxTokens ?? maxTokens,
    // The API refuses an empty system text, and "no system prompt" is what an empty one means.
    ...(request.system === '' ? {} : { system: request.system }),
    messages: request.messages.map((m) => ({
      role: m.role,
      content: m.content.map((block) => toContentParam(block, photos)),
    })),
    ...(request.tools.length === 0
      ? {}
      : {
          tools: request.tools.map((t) => ({
            name: t.name,
            description: t.description,
            input_schema: t.inputSchema,
          })),
        }),
    ...(request.toolChoice ? { tool_choice: { type: 'tool', name: request.toolChoice } } : {}),
    stream: true,
  };
}

function toContentParam(block: ContentBlock, photos: PhotoData): ContentBlockParam {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'image': {
      const data = photos.get(block.sha256);
      return data === undefined
        ? { type: 'text', text: `(a ${block.mediaType} photo was sent here; it could not be loaded)` }
        : { type: 'image', source: { type: 'base64', media_type: block.mediaType, data } };
    }
    case 'tool_use':
      return { type: 'tool_use', id: block.id, name: block.name, input: block.input };
    case 'tool_result':
      return {
        type: 'tool_result',
        tool_use_id: block.toolUseId,
        content: block.content,
        ...(block.isError === undefined ? {} : { is_error: block.isError }),
      };
  }
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
  private inputTokens = 0;
  private outputTokens = 0;
  private stopped = false;

  /** @param onText called with each text delta, for display */
  constructor(private readonly onText: (delta: string) => void) {}

  add(event: RawMessageStreamEvent): void {
    switch (event.type) {
      case 'message_start':
        this.model = event.message.model;
        this.inputTokens = event.message.usage.input_tokens;
        this.outputTokens = event.message.usage.output_tokens;
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
        this.outputTokens = event.usage.output_tokens;
        // newer API versions repeat the cumulative input count here; it wins when present
        if (event.usage.input_tokens != null) this.inputTokens = event.usage.input_tokens;
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
        usage: { inputTokens: this.inputTokens, outputTokens: this.outputTokens },
        model: this.model,
      },
    };
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
    usage: { inputTokens: message.usage.input_tokens, outputTokens: message.usage.output_tokens },
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
