import { SET_QUESTION_ASIDE } from '../set-question-aside';
import { stops } from './off-script-rule';
import type { OfflineRule } from './offline-rule';

/**
 * The offline reading of a side quest on words that stop ("I'm done" typed at a form): the question
 * is set aside (../set-question-aside), and a sentence says so. An agent lists it among its rules
 * where its own reading of such words does not come first.
 */
export const setQuestionAsideRule: OfflineRule = {
  name: 'offline runtime: words that stop, said at a question, set the question aside',
  when: (ctx) =>
    ctx.offers(SET_QUESTION_ASIDE) && (ctx.resultOf(SET_QUESTION_ASIDE) !== undefined || stops(ctx.userText)),
  reply: (ctx) =>
    ctx.resultOf(SET_QUESTION_ASIDE)
      ? { text: '(offline) All right, I leave that question.' }
      : { calls: [{ name: SET_QUESTION_ASIDE, input: {} }] },
};
