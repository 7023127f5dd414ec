import type {
  ContentBlock,
  Message,
  RawMessageStreamEvent,
  StopReason,
  TextBlock,
  ToolUseBlock,
  Usage,
} from '@anthropic-ai/sdk/resources/messages';
import type { ErrorType } from '@anthropic-ai/sdk/resources/shared';

import type { Json } from '@sweatpants/domain';

/** A block of a scripted reply. */
export type FakeBlock =
  /** streamed as one text_delta per word (`'Hello world'` → `'Hello'`, `' world'`) */
  | { type: 'text'; text: string }
  /** the input streamed as `chunks` input_json_delta pieces (default 3) after an empty one, as the API does */
  | { type: 'tool_use'; id?: string; name: string; input: { [key: string]: Json }; chunks?: number };

/** What a reply reports it cost, as the API counts: input billed in full, written to and read from the cache. */
export interface FakeUsage {
  inputTokens: number;
  outputTokens: number;
  /** sent as `cache_creation_input_tokens`; default 0 */
  cacheWriteTokens?: number;
  /** sent as `cache_read_input_tokens`; default 0 */
  cacheReadTokens?: number;
}

/** One scripted answer to `POST /v1/messages`; `script` queues them and each request takes the next. */
export type FakeStep =
  | {
      kind: 'reply';
      content: FakeBlock[];
      /** default: 'tool_use' when the content has a tool call, else 'end_turn' */
      stopReason?: StopReason;
      /** default: the fake's own count, by its prompt cache (see FakePromptCache) */
      usage?: FakeUsage;
      /** default: the model the request named */
      model?: string;
    }
  | {
      /** an HTTP error with the API's error body, before any streaming starts */
      kind: 'error';
      status: number;
      /** default: the type the API uses for the status */
      type?: ErrorType;
      message?: string;
      /** sent as the `retry-after` header */
      retryAfterSeconds?: number;
      /** sent as the `retry-after-ms` header */
      retryAfterMs?: number;
    }
  | {
      /** a tool call whose streamed input does not parse as JSON; streaming requests only */
      kind: 'malformed_tool_input';
      name: string;
      id?: string;
      /** the text the input_json_delta chunks add up to */
      raw: string;
      /** default 'tool_use'; 'max_tokens' is a reply cut off in the middle of its tool call */
      stopReason?: StopReason;
    }
  | {
      /** text deltas with `delayMs` between them, for cancel tests; streaming requests only */
      kind: 'slow_stream';
      deltas: string[];
      delayMs: number;
    }
  | {
      /** a stream that starts, sends `textBefore` (if any), then the connection drops; streaming only */
      kind: 'dropped_stream';
      textBefore?: string;
    }
  | {
      /** a stream that starts, sends `textBefore` (if any) then an SSE `event: error`; streaming only */
      kind: 'stream_error';
      type: ErrorType;
      message?: string;
      textBefore?: string;
    };

/** The error `type` the API answers each status with. */
export function errorTypeFor(status: number): ErrorType {
  switch (status) {
    case 400:
      return 'invalid_request_error';
    case 401:
      return 'authentication_error';
    case 403:
      return 'permission_error';
    case 404:
      return 'not_found_error';
    case 429:
      return 'rate_limit_error';
    case 529:
      return 'overloaded_error';
    default:
      return status >= 500 ? 'api_error' : 'invalid_request_error';
  }
}

/** The API's error body: `{ type: 'error', error: { type, message } }`. */
export function errorBody(type: ErrorType, message: string): Json {
  return { type: 'error', error: { type, message } };
}

/** Numbers message and tool ids, per server, so every id in a test is distinct and predictable. */
export class FakeIds {
  private n = 0;
  next(prefix: 'msg' | 'toolu'): string {
    this.n += 1;
    return `${prefix}_fake_${String(this.n).padStart(4, '0')}`;
  }
}

/** The content blocks of a reply as the non-streaming JSON answer carries them. */
export function replyBlocks(content: FakeBlock[], ids: FakeIds): (TextBlock | ToolUseBlock)[] {
  return content.map((b) =>
    b.type === 'text'
      ? { type: 'text', text: b.text, citations: null }
      : {
          type: 'tool_use',
          id: b.id ?? ids.next('toolu'),
          name: b.name,
          input: b.input,
          caller: { type: 'direct' },
        },
  );
}

export function defaultStopReason(content: FakeBlock[]): StopReason {
  return content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn';
}

/** A whole Message; `message_start` carries one with empty content and no stop reason yet. */
export function message(
  id: string,
  model: string,
  content: ContentBlock[],
  stopReason: StopReason | null,
  usage: FakeUsage,
): Message {
  return {
    id,
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: stopReason,
    stop_sequence: null,
    stop_details: null,
    container: null,
    diagnostics: null,
    usage: fullUsage(usage),
  };
}

function fullUsage(u: FakeUsage): Usage {
  return {
    input_tokens: u.inputTokens,
    output_tokens: u.outputTokens,
    cache_creation_input_tokens: u.cacheWriteTokens ?? 0,
    cache_read_input_tokens: u.cacheReadTokens ?? 0,
    // the fake caches for 5 minutes only, as a breakpoint without a `ttl` asks
    cache_creation: { ephemeral_5m_input_tokens: u.cacheWriteTokens ?? 0, ephemeral_1h_input_tokens: 0 },
    inference_geo: null,
    output_tokens_details: null,
    server_tool_use: null,
    service_tier: 'standard',
    speed: null,
  };
}

/** The events for one content block: start, deltas, stop. */
export function blockEvents(index: number, block: FakeBlock, ids: FakeIds): RawMessageStreamEvent[] {
  if (block.type === 'text') {
    const words = block.text.match(/\s*\S+|\s+$/g) ?? [block.text];
    return [
      { type: 'content_block_start', index, content_block: { type: 'text', text: '', citations: null } },
      ...words.map((text): RawMessageStreamEvent => textDelta(index, text)),
      { type: 'content_block_stop', index },
    ];
  }
  const id = block.id ?? ids.next('toolu');
  return toolUseEvents(index, id, block.name, splitInto(JSON.stringify(block.input), block.chunks ?? 3));
}

/** A tool_use block whose input arrives as these partial_json pieces, first an empty one. */
export function toolUseEvents(
  index: number,
  id: string,
  name: string,
  pieces: string[],
): RawMessageStreamEvent[] {
  return [
    {
      type: 'content_block_start',
      index,
      content_block: { type: 'tool_use', id, name, input: {}, caller: { type: 'direct' } },
    },
    ...['', ...pieces].map((partial_json): RawMessageStreamEvent => ({
      type: 'content_block_delta',
      index,
      delta: { type: 'input_json_delta', partial_json },
    })),
    { type: 'content_block_stop', index },
  ];
}

export function textDelta(index: number, text: string): RawMessageStreamEvent {
  return { type: 'content_block_delta', index, delta: { type: 'text_delta', text } };
}

/** A text block opened with its first words, as a reply that goes on to fail starts. */
export function textOpening(text: string): RawMessageStreamEvent[] {
  return [
    { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '', citations: null } },
    textDelta(0, text),
  ];
}

/** The closing events: stop reason and final usage (cumulative, as newer API versions send it), then message_stop. */
export function endEvents(stopReason: StopReason, usage: FakeUsage): RawMessageStreamEvent[] {
  return [
    {
      type: 'message_delta',
      delta: { stop_reason: stopReason, stop_sequence: null, stop_details: null, container: null },
      usage: {
        input_tokens: usage.inputTokens,
        output_tokens: usage.outputTokens,
        cache_creation_input_tokens: usage.cacheWriteTokens ?? 0,
        cache_read_input_tokens: usage.cacheReadTokens ?? 0,
        output_tokens_details: null,
        server_tool_use: null,
      },
    },
    { type: 'message_stop' },
  ];
}

/** `text` cut into `n` pieces of about equal length (fewer when it is shorter than `n`). */
export function splitInto(text: string, n: number): string[] {
  const size = Math.max(1, Math.ceil(text.length / Math.max(1, n)));
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
  return pieces;
}
