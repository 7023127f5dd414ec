import type { OfflineContext } from '@sweatpants/agent-runtime/offline';
import { nextThingWords } from './landed-words';
import { EXTRACT_TOOL, PHOTO_TOOL } from './perception';
import { CARD_WAITING } from './tidying-action';
import type { GuessedSpace, SeenInPhoto } from './offline-guesses';
import { purposeIn } from './offline-purpose';

/**
 * What the tidying coach's offline rules read from a request: the lines of the act prompt (the
 * decided action, its item, the session block), and the question tools already answered.
 */

/** The value of a `Label: value` line of the system prompt. */
export const line = (ctx: OfflineContext, label: string): string | null =>
  new RegExp(`^${label}: (.+)$`, 'm').exec(ctx.request.system)?.[1]?.trim() ?? null;

/** The action the loop decided, from the prompt's `Action:` line. */
export const actionOf = (ctx: OfflineContext) => line(ctx, 'Action');

/** A reply in a mode (not the photo analysis or the extraction the loop asks for first). */
export const isAct = (ctx: OfflineContext) => !ctx.offers(PHOTO_TOOL) && !ctx.offers(EXTRACT_TOOL);

/** No question tool has answered yet this turn (a transition tool's result opens a new one). */
export const fresh = (ctx: OfflineContext) =>
  ['propose_disposition', 'ask_space_function', 'confirm_done', 'end_session'].every((t) => !ctx.resultOf(t));

/**
 * What the user just said, lower-cased; null on a turn a transition tool started (its synthetic
 * message is the loop's, not the user's), whose prompt has no "They just said" line.
 */
export const saidNow = (ctx: OfflineContext): string | null =>
  /^They just said: "(.*)"$/m.exec(ctx.request.system)?.[1]?.toLowerCase() ?? null;

/**
 * The photo's first target, or its first visible thing, from the prompt's session block, while it
 * is still to go: one the words already decided ("toys first, most of them can go to charity") is
 * not started on again, and the first thing still to go is.
 */
export function photoTarget(ctx: OfflineContext): string | null {
  const system = ctx.request.system;
  const target =
    /first target: ([^;\n]+)/.exec(system)?.[1]?.trim() ??
    /visible: ([^;,\n]+)/
      .exec(system)?.[1]
      ?.trim()
      .replace(/^nothing named$/, '') ??
    null;
  const toGo = /^Still to go: ([^\n]+)/m.exec(system)?.[1]?.split(', ');
  // (what they named themselves, when the photo showed nothing)
  return target && (!toGo || toGo.includes(target)) ? target : firstStillToGo(ctx);
}

/** The first thing seen or named that is on no pile yet, from the prompt's "Still to go" line. */
export const firstStillToGo = (ctx: OfflineContext): string | null =>
  /^Still to go: ([^,\n]+)/m.exec(ctx.request.system)?.[1]?.trim() ?? null;

/**
 * What a reply asks for after it: the next thing still to go, or `otherwise`; nothing while a card
 * waits to come back below it (the words were said aside).
 */
export function thenAsk(ctx: OfflineContext, otherwise: string): string {
  if (line(ctx, CARD_WAITING)) return '';
  const next = firstStillToGo(ctx);
  return next ? nextThingWords(next) : otherwise;
}

/** The room and the things the latest photo showed, from the session block. */
export function photoSeen(ctx: OfflineContext): SeenInPhoto | null {
  const photo = /^Photo: an? [a-z]+ ([a-z' ]+?); visible: ([^;\n]+)/m.exec(ctx.request.system);
  if (!photo?.[1] || !photo[2]) return null;
  const visible = photo[2] === 'nothing named' ? [] : photo[2].split(', ').map((v) => v.trim());
  return { room: photo[1], visible };
}

/**
 * The space as the prompt tells it: the room a photo showed (the act prompt's session block, or
 * the extraction's notes) and what it is for, when known.
 */
export function spaceSaid(ctx: OfflineContext): GuessedSpace {
  const room =
    photoSeen(ctx)?.room ??
    /^The photo shows an? [a-z]+ ([a-z' ]+?)\.$/m.exec(ctx.request.system)?.[1] ??
    null;
  // (a line of the act prompt's own, or said after the phase in the extraction's notes)
  const purpose = /\bWhat the space is for: ([^\n]*?)\.?$/m.exec(ctx.request.system)?.[1]?.trim() ?? null;
  return { room, purpose: purpose === 'not known yet' ? null : purpose };
}

/** All the person said in the messages the request carries, oldest first: what a guess may read of a thing. */
export const allSaid = (ctx: OfflineContext): string =>
  ctx.request.messages
    .filter((message) => message.role === 'user')
    .flatMap((message) => message.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])))
    .join('\n')
    .replace(/[\u2018\u2019]/g, "'");

/** The session's counts, from the session block: decided items and the unsure pile. */
export function countsOf(ctx: OfflineContext): { processed: number; unsure: number } {
  const processed = Number(line(ctx, 'Items processed') ?? 0);
  const unsure = Number(/^Piles: .*?(\d+) unsure$/m.exec(ctx.request.system)?.[1] ?? 0);
  return { processed, unsure };
}

/** A death told ("my dad died last year", "since mum passed away"): the coach is sorry first, and goes gently. */
const A_LOSS = /\b(?:died|passed\s+(?:away|on)|funeral|bereave\w*)\b/;

/** Shame about the mess ("I'm so embarrassed", "it's disgusting"): the coach meets it without judgement. */
const ASHAMED =
  /\b(?:embarrass\w*|ashamed|mortified|humiliat\w*|disgust\w*|gross|pig ?sty|so lazy|such a slob|hate (?:myself|how it looks))\b/;

/**
 * The words a session's first reply leads with: sorrow, when the person tells of a loss; no
 * judgement, when they are ashamed of the mess; and what the space is for, when their words said it (no card asked): "Got it: this space
 * is for having people over." Empty on a turn the loop started itself.
 */
export function openingWords(ctx: OfflineContext, purposeToo: boolean): string {
  const said = saidNow(ctx);
  if (said === null) return '';
  const reassured = A_LOSS.test(said)
    ? "I'm sorry about your loss. We'll go gently, one thing at a time, and anything you're not ready to decide can wait. "
    : ASHAMED.test(said)
      ? 'No judgement here: every space gets like this, and one small step at a time is enough. '
      : '';
  // said back when these words said it, once: not again at each question after
  const purpose = purposeToo && purposeIn(said.toLowerCase()) !== null ? spaceSaid(ctx).purpose : null;
  return `${reassured}${purpose ? `Got it: this space is for ${purpose}. ` : ''}`;
}
