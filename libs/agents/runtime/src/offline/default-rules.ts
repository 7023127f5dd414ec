import { RESPOND_TOOL } from '../model';
import type { OfflineContext, OfflineToolResult } from './offline-context';
import type { OfflineRule } from './offline-rule';
import { keywordsAsSaid } from './text';

/** Said whenever no agent rule answered, so nobody mistakes the offline model for Claude. */
export const OFFLINE_NOTICE =
  'This is the offline model: no API key is configured, so replies come from simple rules, not from Claude.';

/** A reply should stay short; the user sees at most this many of their words reflected. */
const MAX_REFLECTED = 8;

/**
 * After tool results: acknowledge them in a line, and end the turn through `respond` when the
 * mode has a structured output (its input synthesised from the user's words). The text goes
 * beside the call too, so the user is not left with an empty turn.
 */
export const acknowledgeToolResults: OfflineRule = {
  name: 'offline default: acknowledge tool results',
  when: (ctx) => ctx.hasToolResults,
  reply: (ctx) => {
    const text = `(offline) ${ctx.toolResults.map(summarise).join('; ')}.`;
    return ctx.offers(RESPOND_TOOL) ? { text, calls: [{ name: RESPOND_TOOL }] } : { text };
  },
};

/** When the mode has a structured output: a short line and a `respond` made from the user's words. */
export const respondFromKeywords: OfflineRule = {
  name: 'offline default: respond from keywords',
  when: (ctx) => ctx.offers(RESPOND_TOOL),
  reply: (ctx) => ({ text: reflect(ctx), calls: [{ name: RESPOND_TOOL }] }),
};

/** Otherwise: say plainly that this is the offline model, and what it heard. */
export const cannedReply: OfflineRule = {
  name: 'offline default: canned reply',
  reply: (ctx) => ({ text: `${reflect(ctx)} ${OFFLINE_NOTICE}` }),
};

/** The built-in rules, in the order the engine asks them, after every agent rule. */
export const DEFAULT_OFFLINE_RULES: readonly OfflineRule[] = [
  acknowledgeToolResults,
  respondFromKeywords,
  cannedReply,
];

function reflect(ctx: OfflineContext): string {
  const heard = keywordsAsSaid(ctx.userText).slice(0, MAX_REFLECTED);
  const opening =
    heard.length > 0
      ? `(offline) ${ctx.pick(['I noted', 'Noted', 'Got it'], 'reflect')}: ${heard.join(', ')}.`
      : `(offline) ${ctx.pick(["I'm listening.", 'Go on.', "I'm here."], 'reflect')}`;
  const { count } = ctx.photos;
  if (count === 0) return opening;
  const photos = count === 1 ? 'a photo' : `${count} photos`;
  return `${opening} I received ${photos}, but the offline model cannot look at them.`;
}

/** One result in a few words: which tool, whether it worked, the start of what it said. */
function summarise(result: OfflineToolResult): string {
  const tool = result.name || 'a tool';
  const preview = result.content.replace(/\s+/g, ' ').trim();
  const short = preview.length > 80 ? `${preview.slice(0, 79)}…` : preview;
  const outcome = result.isError ? `${tool} failed` : `${tool} answered`;
  return short ? `${outcome}: ${short}` : outcome;
}
