import { SET_QUESTION_ASIDE } from '../set-question-aside';
import { stops } from './off-script-rule';
import type { OfflineRule } from './offline-rule';

/**
 * The offline reading of a side quest on words that stop ("I'm done" typed at a form): the question
 * is set aside (../set-question-aside), with every other the agent asked at once, and a sentence
 * says so. An agent lists it among its rules
 * where its own reading of such words does not come first.
 */
export const setQuestionAsideRule: OfflineRule = {
  name: 'offline runtime: words that stop, said at a question, set the question aside',
  when: (ctx) =>
    ctx.offers(SET_QUESTION_ASIDE) && (ctx.resultOf(SET_QUESTION_ASIDE) !== undefined || stops(ctx.lastSaid)),
  reply: (ctx) => {
    const done = ctx.resultOf(SET_QUESTION_ASIDE);
    if (!done) return { calls: [{ name: SET_QUESTION_ASIDE, input: { all: true } }] };
    const all =
      typeof done.input === 'object' && done.input !== null && 'all' in done.input && done.input['all'];
    return {
      text: all ? '(offline) All right, we stop here.' : '(offline) All right, I leave that question.',
    };
  },
};
