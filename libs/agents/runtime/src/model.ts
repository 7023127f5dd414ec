import type { Json, Photo, Result } from '@sweatpants/domain';

/**
 * The one interface every model answers through: Claude (libs/agents/claude), and the offline
 * model (./offline) the product runs when there is no API key. The runtime wraps `complete` in an
 * effection operation and hands it the scope's AbortSignal, so cancel aborts the request.
 */
export interface Model {
  /**
   * 'claude' or 'offline', as `/api/health` and the client show it. The offline model answers
   * in-process, at no cost and the same every time, so a turn need not be stored before asking it.
   */
  readonly kind: 'claude' | 'offline';
  /** the model name sent to the provider, e.g. 'claude-sonnet-5-5'; 'offline' for the offline model */
  readonly name: string;
  /** one reply to `request`; a failure is an Err with its code, never a rejection */
  complete(request: ModelRequest, options: CompleteOptions): Promise<Result<ModelReply, ModelError>>;
}

/** How a turn listens to one model call: the cancel it can be stopped by, and the text as it streams. */
export interface CompleteOptions {
  /** aborted when the turn is cancelled: the request is dropped and `complete` answers `aborted` */
  signal: AbortSignal;
  /** each piece of streamed text as it arrives, for display only (the reply carries all of it) */
  onText?: (delta: string) => void;
}

/**
 * What a call cost, in tokens, as the provider bills it: input read fresh, input written to the
 * prompt cache (dearer) and read from it (much cheaper), and output. Recorded on the assistant node.
 */
export interface ModelUsage {
  /** input billed in full: what no cache breakpoint covered */
  inputTokens: number;
  outputTokens: number;
  /** input written to the prompt cache by this call; absent: none (or a model without a cache) */
  cacheWriteTokens?: number;
  /** input read from the prompt cache; absent: none */
  cacheReadTokens?: number;
}

/** One model call, in the runtime's own terms, which each Model translates to its provider's. */
export interface ModelRequest {
  /**
   * the rendered system prompt: what stays the same from call to call (a provider caches it), so
   * nothing that changes per call (the session's state, a timestamp) belongs here but in `notes`
   */
  system: string;
  messages: ModelMessage[];
  /**
   * What changes from call to call (the session's state, this turn's instruction): read with the
   * system prompt, but sent after the conversation, outside any cached prefix, so caching the
   * system prompt and the history stays possible. Claude gets it as the last user message's last
   * block; the offline model reads it as more of the system prompt.
   */
  notes?: string;
  /** the tools the model may call this turn; empty for none */
  tools: ToolSpec[];
  /** overrides the configured limit for this call */
  maxTokens?: number;
  /**
   * another model of the same provider to answer this call (a smaller one for summaries, say);
   * the client's configured model when absent. The offline model has only itself.
   */
  model?: string;
  /** a tool the model must call (a side call that only has one way to answer); by default it chooses */
  toolChoice?: string;
}

/** One side's turn of the conversation, as the Messages API takes them: the two sides alternate. */
export interface ModelMessage {
  role: 'user' | 'assistant';
  content: ContentBlock[];
}

/** What a message holds: text, photos, the model's tool calls and their results. */
export type ContentBlock = TextBlock | ImageBlock | ToolUseBlock | ToolResultBlock;

/** Text, either side's. */
export interface TextBlock {
  type: 'text';
  text: string;
}

/**
 * A photo, by reference: a stored blob (PROTOCOL.md's Photo). A model that looks at images reads
 * its bytes through the PhotoBytes it was given; the offline model only knows one is there.
 */
export interface ImageBlock {
  type: 'image';
  mediaType: Photo['mediaType'];
  sha256: string;
}

/** Reads a stored photo's bytes by its sha-256 (the api's blob store); null when there is none. */
export type PhotoBytes = (sha256: string) => Promise<Uint8Array | null>;

/**
 * The model's view of a stored photo: a reference to its blob, which the model reads only if it
 * looks at images.
 *
 * @example
 * const images: ContentBlock[] = input.photos.map(imageOf);
 * const messages: ModelMessage[] = [{ role: 'user', content: [...images, { type: 'text', text }] }];
 */
export function imageOf(photo: Photo): ImageBlock {
  return { type: 'image', mediaType: photo.mediaType, sha256: photo.sha256 };
}

/** A call the model makes of an offered tool, with the input it chose. */
export interface ToolUseBlock {
  type: 'tool_use';
  /** the provider's id, which the matching tool_result names */
  id: string;
  name: string;
  input: Json;
}

/** What a tool returned, as the model reads it; `isError` for a result it should correct. */
export interface ToolResultBlock {
  type: 'tool_result';
  toolUseId: string;
  content: string;
  isError?: boolean;
  /** the images it returned, kept as photos, after its words */
  images?: ImageBlock[];
}

/** A tool as the model sees it: its input as a JSON schema (made from the tool's zod schema). */
export interface ToolSpec {
  name: string;
  description: string;
  inputSchema: { type: 'object'; [key: string]: Json };
}

/** A model's answer to one request, as the runtime records it on the assistant node. */
export interface ModelReply {
  /** text and tool calls, in the order the model produced them */
  content: (TextBlock | ToolUseBlock)[];
  stopReason: 'end_turn' | 'tool_use' | 'max_tokens' | 'stop_sequence' | 'refusal' | 'pause_turn';
  usage: ModelUsage;
  /** the model that answered, as the provider names it */
  model: string;
}

/**
 * Why a model call failed, after the model's own retries (429 and 529 are retried with backoff
 * before they surface here). The runtime turns each into the seed's fallback.
 */
export interface ModelError {
  code: ModelErrorCode;
  message: string;
  /** the HTTP status, when the provider answered with one */
  status?: number;
}

/**
 * Whether a model call failed because the model is busy (rate limited or overloaded after every
 * retry, and the fallback model too), not because of the request: a person is told plainly, and
 * what they said stays for when they go on.
 *
 * @example
 * fallbackReply: (error) => (modelIsBusy(error) ? 'Claude is busy right now…' : `I could not… (${error.code})`),
 */
export function modelIsBusy(error: { code: string }): boolean {
  return error.code === 'rate_limited' || error.code === 'overloaded';
}

/**
 * Whether a model call was refused before it was made because the person's budget is spent: its
 * message is what they are told, as it is.
 */
export function spendRefused(error: { code: string }): boolean {
  return error.code === 'over_budget';
}

/** The ways a model call fails; an agent's `fallbackReply` is told which. */
export type ModelErrorCode =
  /** 429 after the retries ran out */
  | 'rate_limited'
  /** 529 (or 5xx) after the retries ran out */
  | 'overloaded'
  /** 400: the request was wrong; retrying will not help */
  | 'invalid_request'
  /** 401/403: the API key is missing, wrong or not allowed */
  | 'authentication'
  /** the signal was aborted */
  | 'aborted'
  /** the provider could not be reached, or answered something unreadable */
  | 'unavailable'
  /**
   * the call was not made: the person's spend budget is used up (the host's spend limit). The
   * message is the plain words for them, what happened and when the budget resets; an agent made
   * with createAgent says it as its fallback reply.
   */
  | 'over_budget';

/**
 * The tool through which a model gives a turn's structured output: when a mode has an output
 * schema the runtime offers this tool with that schema as its input, and the model ends its turn
 * by calling it. Text beside it is what the user sees.
 */
export const RESPOND_TOOL = 'respond';

/**
 * The tool through which a model says how it read words the user typed while a question waited
 * (seed 004's off-script answer): whether they answer the question, and the answer if so. The
 * runtime offers it alone, in a request of its own.
 */
export const INTERPRET_TOOL = 'interpret_off_script';

/** The line of that request's system prompt that carries the question, as JSON (read back offline). */
export const INTERPRET_QUESTION_LINE = 'Question: ';
