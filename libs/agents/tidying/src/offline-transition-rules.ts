import type { OfflineContext, OfflineRule } from '@sweatpants/agent-runtime/offline';
import * as z from 'zod';
import { actionOf, countsOf, fresh, isAct, line, photoSeen, saidNow } from './offline-prompt';
import { CONFUSED, SKIP, clarifyingOpening, soundsStuck } from './offline-text';
import { TIRED } from './offline-session-words';
import { describeItem } from './offline-guesses';

/**
 * Seed 001's transitions on the offline model: the coach hears, in what the user just said, that
 * they do not know which thing is meant (need_to_clarify), are stuck on the item in question
 * (user_seems_stuck) or are getting tired (time_to_wrap), and switches mode the way Claude would.
 * Then each mode does its work: clarifying describes the thing and resumes sorting once the user
 * sees it, or skips it; winding down asks whether they are done (confirm_done) before ending.
 */

// ─── Sorting: hearing that the conversation needs another mode ─────────────────────────────────

/** The item the sorting turn is about, from its prompt; null when the action names none. */
const itemInQuestion = (ctx: OfflineContext) =>
  actionOf(ctx) === 'ask-item-decision' ? line(ctx, 'Item') : null;

/** Sorting, the user asks which thing is meant ("which mug?", "idk what that is"): clarify it. */
export const noticeConfusion: OfflineRule = {
  name: 'tidying: the user does not know which thing is meant, so clarify it',
  when: (ctx) =>
    isAct(ctx) && ctx.offers('need_to_clarify') && fresh(ctx) && CONFUSED.test(saidNow(ctx) ?? ''),
  reply: (ctx) => {
    const item = itemInQuestion(ctx);
    if (!item) return undefined;
    return {
      calls: [{ name: 'need_to_clarify', input: { item, reason: `they cannot tell which ${item} I mean` } }],
    };
  },
};

/** Sorting, the user is stuck on the item in question: decision support for it. */
export const noticeStuck: OfflineRule = {
  name: 'tidying: the user is stuck on the item, so support the decision',
  when: (ctx) =>
    isAct(ctx) && ctx.offers('user_seems_stuck') && fresh(ctx) && soundsStuck(saidNow(ctx) ?? ''),
  reply: (ctx) => {
    const item = itemInQuestion(ctx);
    if (!item) return undefined;
    return {
      calls: [{ name: 'user_seems_stuck', input: { item, reason: 'they cannot decide about it' } }],
    };
  },
};

/** Sorting, the user is getting tired (without saying stop): wind down. */
export const noticeTired: OfflineRule = {
  name: 'tidying: the user is getting tired, so wind down',
  when: (ctx) => isAct(ctx) && ctx.offers('time_to_wrap') && fresh(ctx) && TIRED.test(saidNow(ctx) ?? ''),
  reply: () => ({
    text: '(offline) You have worked hard. Let us see whether to stop here.',
    calls: [{ name: 'time_to_wrap', input: { reason: 'they are getting tired' } }],
  }),
};

// ─── Clarifying ─────────────────────────────────────────────────────────────────────────────────

/** The thing being clarified, from the clarifying template; null when the mode has none. */
function clarifying(ctx: OfflineContext): string | null {
  const item = /clarifying which thing "([^"]+)" is/.exec(ctx.request.system)?.[1]?.trim();
  // a decided turn that asks what something is, with nothing in question, names no thing
  return item && item !== 'this item' ? item : null;
}

/**
 * The clarifying mode. On the turn need_to_clarify started: describe the thing (what kind of thing
 * it is, where the user mentioned it) and ask whether they see it; when the offline model knows
 * nothing to describe it by, it cannot say which thing it meant, so the thing is skipped. On the
 * user's reply to the description: skip it if they still do not know or say skip, otherwise it is
 * clear, and sorting resumes with it.
 */
export const clarify: OfflineRule = {
  name: 'tidying: describe the thing, then resume sorting or skip it',
  when: (ctx) => isAct(ctx) && ctx.offers('resume_sorting') && ctx.offers('skip_item'),
  reply: (ctx) => {
    const item = clarifying(ctx);
    const said = saidNow(ctx);
    if (!item) return { text: '(offline) What is it? Describe it in a few words.' };
    const skip = { name: 'skip_item', input: { item } };
    if (said !== null) {
      if (SKIP.test(said) || CONFUSED.test(said))
        return { text: `(offline) No problem: the ${item} can wait.`, calls: [skip] };
      return {
        text: `(offline) Good, now we both mean the same ${item}.`,
        calls: [{ name: 'resume_sorting', input: { note: 'they see it now' } }],
      };
    }
    const description = describeItem(item, photoSeen(ctx));
    if (!description)
      return {
        text: `(offline) I cannot point out the ${item}: the offline model cannot see the room. Let us leave it for later.`,
        calls: [skip],
      };
    return {
      text: `${clarifyingOpening(item)} ${description} Do you see it now? Say found it, or skip to leave it for later.`,
    };
  },
};

// ─── Winding down ───────────────────────────────────────────────────────────────────────────────

/** Winding down after time_to_wrap: ask whether they are done (and what to remember). */
export const askDone: OfflineRule = {
  name: 'tidying: ask whether the user is done for now',
  when: (ctx) => isAct(ctx) && ctx.offers('confirm_done') && fresh(ctx) && actionOf(ctx) !== 'summary',
  reply: (ctx) => {
    const { processed, unsure } = countsOf(ctx);
    const things = processed === 1 ? '1 thing' : `${processed} things`;
    const waiting = unsure > 0 ? ` ${unsure} unsure can wait for next time.` : '';
    return {
      text: `(offline) You sorted ${things} today.${waiting} Done for now?`,
      calls: [{ name: 'confirm_done', input: { question: 'Done for now?' } }],
    };
  },
};

/** confirm_done answered: end the session if they are done, otherwise keep going. */
export const afterDone: OfflineRule = {
  name: 'tidying: end the session once the user is done, or keep going',
  when: (ctx) => ctx.resultOf('confirm_done') !== undefined,
  reply: (ctx) => {
    const data = z
      .object({ done: z.boolean().optional(), note: z.string().optional() })
      .safeParse(ctx.resultOf('confirm_done')?.data).data;
    if (!data?.done || !ctx.offers('end_session'))
      return { text: '(offline) Then let us keep going. What did you pick up next?' };
    return {
      ...(data.note ? { text: `(offline) I will remember that: ${data.note}.` } : {}),
      calls: [{ name: 'end_session', input: {} }],
    };
  },
};

/** The rules for seed 001's transitions, asked before the coach's ordinary replies. */
export const TRANSITION_RULES: readonly OfflineRule[] = [
  afterDone,
  askDone,
  clarify,
  noticeConfusion,
  noticeStuck,
  noticeTired,
];
