import type { Json } from '@sweatpants/domain';
import { waitingQuestionIn } from '../aside-note';
import { SET_QUESTION_ASIDE } from '../set-question-aside';
import { stops } from './off-script-rule';
import { formPartIn } from './form-words';
import { asksSomething, besidesFetching, REFUSES } from './text';
import type { OfflineContext } from './offline-context';
import type { OfflineRule } from './offline-rule';

/**
 * Changing one's mind about the thing a question is about ("actually I'll keep the cot", "never
 * mind the lamp", "forget it"): that question is set aside, as "Skip this" would.
 */
const KEEPS_IT =
  /\b(?:i'?ll keep (?:it|them|that|those|the\b)|i(?:'m| am) keeping (?:it|them|the\b)|never ?mind (?:it|that|this|the\b)|forget (?:it|that|this|about it|the\b)|not (?:giving|donating) (?:it|them|that|the\b) away)/i;

/** The thing a change of mind names ("I'll keep the cot, my sister…" → keeps "the cot"). */
const MIND_CHANGED_ABOUT =
  /\b(keep(?:ing)?|never ?mind|forget(?: about)?|giving|donating)\s+(the\s+[a-z][a-z' -]*?)(?=\s*(?:[,.;!?]|\b(?:and|away|for|after|then|now)\b|$))/i;

/** What is said once a question is set aside: the thing kept or left, when the words named one. */
function setAsideSentence(said: string, all: boolean): string {
  if (all) return '(offline) All right, we stop here.';
  const named = MIND_CHANGED_ABOUT.exec(said);
  if (!named?.[2]) return '(offline) All right, I leave that question.';
  const thing = named[2].toLowerCase();
  return /^keep/i.test(named[1] ?? '')
    ? `(offline) All right, you keep ${thing}; I leave that question.`
    : `(offline) All right, we leave ${thing}.`;
}

/** What offline cannot make of words that tell something at each kind of question. */
const CANNOT_READ: Record<string, string> = {
  location: "Offline I can't look a place up by its name.",
  form: "Offline I can't fill the form in from your words.",
};

/** What a person is asked to do at each kind of question, said back when they typed instead. */
const HOW_TO_ANSWER: Record<string, string> = {
  location:
    'I can only look near you with the rough location your device shares: tap “Share my location”, or “Skip this” and I will say what I can without it.',
  form: 'Fill in the form below and submit it, or tap “Skip this” to go on without it.',
  confirm: 'Tap Yes or No below, or “Skip this”.',
  'clipboard-write': 'Tap the button below to copy it, or “Skip this”.',
};

/**
 * The offline reading of a side quest's words that stop ("I'm done" typed at a form): the question
 * is set aside (../set-question-aside), with every other the agent asks this turn, and a sentence
 * says so. Words that refuse a device question ("I'd rather not" at the location), or change one's
 * mind about the thing asked about ("actually I'll keep the cot"), set that one aside. An agent lists it among its rules where its own reading of such words does not come first.
 */
export const setQuestionAsideRule: OfflineRule = {
  name: 'offline runtime: words that stop, said at a question, set the question aside',
  when: (ctx) =>
    ctx.offers(SET_QUESTION_ASIDE) &&
    (ctx.resultOf(SET_QUESTION_ASIDE) !== undefined ||
      stops(ctx.lastSaid) ||
      refusesDevice(ctx) ||
      KEEPS_IT.test(ctx.lastSaid)),
  reply: (ctx) => {
    const done = ctx.resultOf(SET_QUESTION_ASIDE);
    if (!done) return { calls: [{ name: SET_QUESTION_ASIDE, input: { all: stops(ctx.lastSaid) } }] };
    const all =
      typeof done.input === 'object' &&
      done.input !== null &&
      'all' in done.input &&
      done.input['all'] === true;
    // (the words are in an earlier message than the tool's result this reply follows)
    return { text: setAsideSentence(ctx.recentUserText, all) };
  },
};

/**
 * The offline reply to other words said at a waiting question, which neither answer it nor stop:
 * offline there is nothing more to say of them than how to answer the question, which comes back
 * right after. An agent lists it before rules that would take the words as a new request.
 */
export const waitingQuestionRule: OfflineRule = {
  name: 'offline runtime: other words said at a waiting question point back to it',
  when: (ctx) =>
    ctx.offers(SET_QUESTION_ASIDE) &&
    ctx.lastSaid !== '' &&
    waitingQuestionIn(ctx.request.system) !== undefined,
  reply: (ctx) => {
    const question = waitingQuestionIn(ctx.request.system);
    const how = HOW_TO_ANSWER[question?.type ?? ''] ?? 'Answer it below, or tap “Skip this”.';
    // a question gets "I can't answer"; words that fill part of a form are told what they left
    // out; other words that tell something ("one of the cushions is torn") are not lost on the
    // person, only not read into the question's fields offline
    const unread = question?.schema ? unreadFields(question.schema, ctx.lastSaid) : [];
    // ("can someone pick it up?" asks nothing back: it says yes to being collected)
    const cannot = asksSomething(besidesFetching(ctx.lastSaid))
      ? "I can't answer that offline."
      : unread.length > 0
        ? `From your words I could not tell: ${unread.join(' ')}`
        : (CANNOT_READ[question?.type ?? ''] ?? "Offline I can't take an answer from your words.");
    return { text: `(offline) ${cannot} ${how}` };
  },
};

/**
 * The required fields of a form that words filling part of it left out ("in good condition" at
 * a form that also asks how many bags): none when they filled nothing, or all of it.
 */
function unreadFields(schema: { [key: string]: Json }, said: string): string[] {
  return formPartIn(schema, said)?.unread ?? [];
}

function refusesDevice(ctx: OfflineContext): boolean {
  const question = waitingQuestionIn(ctx.request.system);
  return question?.type === 'location' && REFUSES.test(ctx.lastSaid);
}
