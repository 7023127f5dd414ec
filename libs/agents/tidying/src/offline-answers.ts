import type { OfflineContext } from '@sweatpants/agent-runtime/offline';
import { choicesFor } from './offline-guesses';
import { allSaid, countsOf, line, saidNow, spaceSaid, thenAsk } from './offline-prompt';
import { isPlural } from './landed-words';
import { CARD_WAITING } from './tidying-action';

/**
 * The offline coach's answers to questions asked aside, at the prompt or at a card: about the
 * session ("how many are left?"), or advice about the card's thing ("what should I do with them?").
 */

/**
 * A question at the prompt, answered from the session block where it asks about the session
 * ("how many are left?", "what have I sorted so far?"); the next thing follows either way, unless
 * it was asked at a card, which comes back below the answer.
 */
export function answerFromTheSession(ctx: OfflineContext): string {
  const then = thenAsk(ctx, 'What did you pick up next?');
  const answer =
    sessionAnswer(ctx, saidNow(ctx) ?? '') ??
    adviceAtTheCard(ctx, saidNow(ctx) ?? '') ??
    `The offline model cannot answer that one: Claude could.${then ? '' : ' Back to where we were.'}`;
  return `(offline) ${answer} ${then}`.trim();
}

/** Asking the coach what to do with a thing: "what should I do with them?", "where would you put it?". */
const ASKS_ADVICE =
  /\b(?:what (?:should|shall|would|do|could) (?:i|we|you) do with|where (?:should|shall|would|do|could) (?:i|we|you) (?:put|keep|take)|what would you do|what do you (?:think|suggest|reckon)|any (?:ideas|suggestions))\b/;

/**
 * Advice asked at a card ("what should I do with them?" at the mugs'): the coach's own first
 * guess for the thing, which is the card's first choice, said with how to take it.
 */
function adviceAtTheCard(ctx: OfflineContext, asked: string): string | null {
  const about = new RegExp(`^${CARD_WAITING}: yes, about the (.+?) \\(`, 'm').exec(ctx.request.system)?.[1];
  if (!about || !ASKS_ADVICE.test(asked.toLowerCase())) return null;
  const [guess] = choicesFor(about, spaceSaid(ctx), allSaid(ctx));
  if (!guess) return null;
  return `My guess for the ${about} is the card's first choice, “${guess.label}”: tap it, or tell me where ${isPlural(about) ? 'they go' : 'it goes'} instead.`;
}

/** What the session block says to a question about the session, or null when it asks of none. */
export function sessionAnswer(ctx: OfflineContext, asked: string): string | null {
  if (/\b(?:left|remaining|to go|still)\b|\bwhat(?:'s| is)? next\b/.test(asked)) {
    const toGo = line(ctx, 'Still to go');
    return toGo ? `Still to go: ${toGo}.` : 'Nothing you have named is still to go.';
  }
  if (
    /\b(?:sorted|done|so far|how many|piles?|out|binned|trash|how am i doing|how(?:'s| is) it going|progress|where (?:was i|were we|are we|am i|did (?:i|we) (?:leave off|get to))|lost (?:my|our|the) place)\b/.test(
      asked,
    )
  ) {
    const piles = line(ctx, 'Piles');
    const going = line(ctx, 'Going out of this space');
    return `So far: ${countsOf(ctx).processed} sorted${piles ? ` (${piles})` : ''}${going ? `; going out: ${going}` : ''}.`;
  }
  return null;
}
