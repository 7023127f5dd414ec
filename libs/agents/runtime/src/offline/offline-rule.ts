import type { Json } from '@sweatpants/domain';

import type { OfflineContext } from './offline-context';

/**
 * One deterministic behaviour of the offline model. Rules are asked in order and the first that
 * answers wins, so an agent's rules go before the built-in defaults.
 *
 * @example
 * const askFunction: OfflineRule = {
 *   name: 'tidying: ask what the space is for',
 *   when: (ctx) => ctx.offers('ask_space_function') && !ctx.hasToolResults,
 *   reply: () => ({ text: 'What is this space for?', calls: [{ name: 'ask_space_function' }] }),
 * };
 */
export interface OfflineRule {
  /** names the rule in errors (and in `OfflineModel.answer`), so say what it does */
  name: string;
  /** whether the rule applies; when absent the rule is always asked */
  when?: (ctx: OfflineContext) => boolean;
  /** the answer, or undefined to pass the turn to the next rule */
  reply: (ctx: OfflineContext) => OfflineReply | undefined;
}

/** A rule's answer: text, tool calls, or both. The text comes first in the reply, as Claude writes it. */
export interface OfflineReply {
  text?: string;
  calls?: readonly OfflineToolCall[];
}

/** A call of an offered tool. */
export interface OfflineToolCall {
  name: string;
  /**
   * the tool's input, checked against its schema before it is sent; when absent the engine
   * synthesises one with `ctx.inputFor(name)`
   */
  input?: Json;
}
