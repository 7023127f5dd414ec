import { createHash } from 'node:crypto';

import type { Json, Photo } from '@sweatpants/domain';

import type { ContentBlock, ModelMessage, ModelRequest, ToolSpec } from '../model';
import { inputFor, type InputHints } from './input-synthesis';
import { canonicalJson, keywords, keywordsAsSaid, mentions } from './text';

/** A tool's result as a rule sees it: joined to the call it answers. */
export interface OfflineToolResult {
  toolUseId: string;
  /** the tool that was called; '' when no earlier tool_use has this id */
  name: string;
  /** what the tool was called with; null when the call is not in the conversation */
  input: Json;
  content: string;
  /** `content` parsed, when it is JSON (tools usually answer JSON) */
  data: Json | undefined;
  isError: boolean;
}

/** The photos in the last user message; the offline model cannot see them, only count them. */
export interface OfflinePhotos {
  count: number;
  mediaTypes: Photo['mediaType'][];
}

/**
 * What a rule knows about the turn, read from the request. Everything here is a function of the
 * request alone, so a rule that only reads the context answers the same request the same way.
 */
export interface OfflineContext {
  readonly request: ModelRequest;
  /** the text blocks of the last user message, joined by newlines; '' when it has none */
  readonly userText: string;
  /**
   * the last text block of the last user message: the words said at a question when they follow,
   * in one message, the words whose turn asked it (its call, still waiting, is not in the history)
   */
  readonly lastSaid: string;
  /** `keywords(userText)` */
  readonly userKeywords: readonly string[];
  /**
   * the text of the most recent user message that has any, so that a rule answering tool results
   * (whose message usually has no text) still knows what the user asked
   */
  readonly recentUserText: string;
  /** whether the last user message carries tool results */
  readonly hasToolResults: boolean;
  /** the last user message's tool results, in order */
  readonly toolResults: readonly OfflineToolResult[];
  /** the last result in the last user message for `tool`, if any */
  resultOf(tool: string): OfflineToolResult | undefined;
  /** the tools offered this turn, by name */
  readonly tools: ReadonlyMap<string, ToolSpec>;
  /** whether `tool` is offered this turn: most rules start by asking */
  offers(tool: string): boolean;
  /** the photos of the last user message, counted */
  readonly photos: OfflinePhotos;
  /** see `keywords` in ./text */
  keywords(text: string): string[];
  /** see `mentions` in ./text */
  mentions(text: string, words: readonly string[]): boolean;
  /** `mentions(userText, words)` */
  userMentions(words: readonly string[]): boolean;
  /**
   * One of `options`, chosen by the conversation: the same conversation always picks the same one,
   * a conversation one message longer may pick another. Give each pick in a rule its own `salt` so
   * that two picks in one turn do not move together.
   */
  pick<T>(options: readonly T[], salt?: string): T;
  /**
   * A valid input for an offered tool (see `inputFor` in ./input-synthesis). `hints.words`
   * defaults to the keywords of `recentUserText`, as the user wrote them.
   */
  inputFor(tool: string, hints?: InputHints): Json;
  /** hex sha-256 of the conversation (the messages), from which picks and tool_use ids derive */
  readonly seed: string;
}

/**
 * Reads `request` into the context rules answer from, once per request: every rule asked gets the
 * same one.
 *
 * @example
 * const ctx = createOfflineContext(request);
 * const reply = rule.when && !rule.when(ctx) ? undefined : rule.reply(ctx);
 */
export function createOfflineContext(request: ModelRequest): OfflineContext {
  const lastUser = [...request.messages].reverse().find((message) => message.role === 'user');
  const blocks = lastUser?.content ?? [];
  const userText = textOf(blocks);
  const lastSaid = textOf(blocks.filter((block) => block.type === 'text').slice(-1));
  const recentUserText = [...request.messages]
    .reverse()
    .find((message) => message.role === 'user' && textOf(message.content) !== '');
  const recentText = recentUserText ? textOf(recentUserText.content) : '';
  const toolResults = resultsIn(blocks, request.messages);
  const tools = new Map(request.tools.map((tool) => [tool.name, tool]));
  const images = blocks.filter((block) => block.type === 'image');
  const seed = createHash('sha256').update(canonicalMessages(request.messages)).digest('hex');

  return {
    request,
    userText,
    lastSaid,
    userKeywords: keywords(userText),
    recentUserText: recentText,
    hasToolResults: toolResults.length > 0,
    toolResults,
    resultOf: (tool) => toolResults.filter((result) => result.name === tool).at(-1),
    tools,
    offers: (tool) => tools.has(tool),
    photos: { count: images.length, mediaTypes: images.map((image) => image.mediaType) },
    keywords,
    mentions,
    userMentions: (words) => mentions(userText, words),
    pick: <T>(options: readonly T[], salt = ''): T => {
      if (options.length === 0) throw new Error('pick needs at least one option');
      const draw = Number.parseInt(
        createHash('sha256').update(`${seed}:${salt}`).digest('hex').slice(0, 8),
        16,
      );
      return options[draw % options.length] as T;
    },
    inputFor: (name, hints = {}) => {
      const tool = tools.get(name);
      if (!tool)
        throw new Error(
          `${name} is not offered this turn (offered: ${[...tools.keys()].join(', ') || 'none'})`,
        );
      return inputFor(tool, { ...hints, words: hints.words ?? keywordsAsSaid(recentText) });
    },
    seed,
  };
}

/**
 * The words of `blocks`, with a phone's curly apostrophes as straight ones: the rules' patterns
 * ("i'?m done", "let'?s go") read "I’m done" as typed on a phone the same as "I'm done".
 */
function textOf(blocks: readonly ContentBlock[]): string {
  return blocks
    .flatMap((block) => (block.type === 'text' ? [block.text] : []))
    .join('\n')
    .replace(/[\u2018\u2019]/g, "'")
    .trim();
}

function resultsIn(blocks: readonly ContentBlock[], messages: readonly ModelMessage[]): OfflineToolResult[] {
  const calls = new Map<string, { name: string; input: Json }>();
  for (const message of messages) {
    for (const block of message.content) if (block.type === 'tool_use') calls.set(block.id, block);
  }
  return blocks.flatMap((block) => {
    if (block.type !== 'tool_result') return [];
    const call = calls.get(block.toolUseId);
    return [
      {
        toolUseId: block.toolUseId,
        name: call?.name ?? '',
        input: call?.input ?? null,
        content: block.content,
        data: parseJson(block.content),
        isError: block.isError ?? false,
      },
    ];
  });
}

function parseJson(text: string): Json | undefined {
  try {
    // JSON.parse only ever produces JSON values; the cast names that for the compiler
    return JSON.parse(text) as Json;
  } catch {
    return undefined;
  }
}

/** A message as JSON for hashing, photos by their digest so the canonical JSON stays small. */
/**
 * The messages as their canonical JSON (`canonicalJson` of each message's role and blocks, as plain
 * objects) written out by hand for the blocks' few fixed shapes, keys in sorted order: the seed
 * hashes the whole conversation on every request, and the generic walk, which sorts each object's
 * keys, cost more than choosing the reply. Its spec holds it to `canonicalJson`.
 */
export function canonicalMessages(messages: readonly ModelMessage[]): string {
  const written = messages.map(
    (message) =>
      `{"content":[${message.content.map(canonicalBlock).join(',')}],"role":${leaf(message.role)}}`,
  );
  return `[${written.join(',')}]`;
}

function canonicalBlock(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return `{"text":${leaf(block.text)},"type":"text"}`;
    case 'image':
      return `{"mediaType":${leaf(block.mediaType)},"sha256":${leaf(block.sha256)},"type":"image"}`;
    case 'tool_use':
      return `{"id":${leaf(block.id)},"input":${canonicalJson(block.input)},"name":${leaf(block.name)},"type":"tool_use"}`;
    case 'tool_result':
      return `{"content":${leaf(block.content)},"isError":${leaf(block.isError ?? false)},"toolUseId":${leaf(block.toolUseId)},"type":"tool_result"}`;
  }
}

/** A string or boolean as canonical JSON writes it (a missing one is null). */
function leaf(value: string | boolean | undefined): string {
  return value === undefined ? 'null' : JSON.stringify(value);
}
