import type { Json } from '@sweatpants/domain';
import { INTERPRET_QUESTION_LINE, INTERPRET_TOOL } from '../model';
import { formAnswerIn, formPartIn } from './form-words';
import {
  asksBack,
  asksBackOfAForm,
  clausesOf,
  EMPHATIC_NO,
  MOSTLY,
  MOSTLY_NOT,
  said,
  THE_REST,
  YES_WORDS,
} from './text';
import { decidesAThing, dispositionAnswer, placeIn } from './disposition-words';
import {
  optionByFirstClause,
  optionByKeyword,
  optionInWords,
  optionNamedIn,
  QUALIFIED,
  type Option,
} from './option-words';
import { asSchema } from './json-schema';
import { meantWord } from './typos';
import type { OfflineRule } from './offline-rule';

/**
 * The offline model's reading of words typed while a question waits (the runtime's off-script
 * request, see runtime/off-script.ts): plain keyword rules, the same every time. Words that name
 * an option answer a choice: its letter as the card shows it or its id ("B", "b for all of
 * these", "option c", "go with A"), or the option's own words; so do a disposition or a yes/no,
 * and words that fill a form in ("good condition, one box"; ./form-words). A location named in words
 * is an agent's to read (offline it needs a list of places).
 * Words typed for a "Something else" option that reveals a free-text question answer that. A
 * question of the user's own ("wait, where do cables go?", "what does tier 2 mean?"), wanting to
 * stop ("I'm done"), or anything it cannot place is a tangent, so the asker's side quest reads it.
 */
export const interpretOffScriptRule: OfflineRule = {
  name: 'offline runtime: read off-script words against the question',
  when: (ctx) =>
    ctx.offers(INTERPRET_TOOL) && !AGENTS_TO_READ.has(questionToRead(ctx.request.system)?.type ?? ''),
  reply: (ctx) => {
    const question = questionToRead(ctx.request.system);
    const text = ctx.userText.trim();
    const content = question ? answerIn(question, text) : null;
    // words that fill in part of a form say which fields they give, so it comes back with them
    const given = question && !content ? formPartOf(question, text) : null;
    const input: Json = content
      ? { answers: true, content }
      : given
        ? { answers: false, content: given }
        : { answers: false };
    return { calls: [{ name: INTERPRET_TOOL, input }] };
  },
};

/**
 * Questions whose words the runtime cannot read offline, but an agent's rules may: a location by
 * the town it names ("I'm in Leeds") wants a list of places. What no rule reads is said aside
 * (`unreadOffScriptRule`).
 */
const AGENTS_TO_READ: ReadonlySet<string> = new Set(['location']);

/**
 * Words typed at a question that no rule read (an agent's rules go between this and the runtime's
 * reading): said aside, so the asker's side quest reads them.
 */
export const unreadOffScriptRule: OfflineRule = {
  name: 'offline runtime: words no rule read at a question are said aside',
  when: (ctx) => ctx.offers(INTERPRET_TOOL),
  reply: () => ({ calls: [{ name: INTERPRET_TOOL, input: { answers: false } }] }),
};

/** A question the runtime asks the model to read typed words against. */
export interface QuestionToRead {
  type: string;
  message?: string;
  payload: { [key: string]: Json };
  /** a form's fields */
  schema?: Json;
}

/** The question an off-script reading asks about, from its request's system prompt; null for other requests. */
export function questionToRead(system: string): QuestionToRead | null {
  const line = new RegExp(`^${INTERPRET_QUESTION_LINE}(.+)$`, 'm').exec(system)?.[1];
  if (!line) return null;
  try {
    const parsed = JSON.parse(line) as QuestionToRead;
    return typeof parsed.type === 'string' && parsed.payload && typeof parsed.payload === 'object'
      ? parsed
      : null;
  } catch {
    return null;
  }
}

/** The answer the words give, shaped for the question, or null for a tangent. */
function answerIn(question: QuestionToRead, text: string): { [key: string]: Json } | null {
  if (text === '') return null;
  switch (question.type) {
    case 'choose':
      return chooseAnswer(question.payload, text);
    case 'propose-disposition':
      return dispositionAnswer(question.payload, text);
    case 'confirm':
      // "I'm done" says yes to "Done for now?", and nothing to "Is the kettle in good condition?".
      return stops(text) && !asksToStop(question.message ?? '') ? null : confirmAnswer(text);
    case 'free-text':
      return asksBack(text) || stops(text) ? null : { text };
    case 'form': {
      const schema = asSchema(question.schema);
      return schema === undefined || asksBackOfAForm(text) || stops(text) ? null : formAnswerIn(schema, text);
    }
    default:
      return null;
  }
}

/** The fields words give a form they do not fill in; null for other questions, or none given. */
function formPartOf(question: QuestionToRead, text: string): { [key: string]: Json } | null {
  const schema = question.type === 'form' ? asSchema(question.schema) : undefined;
  if (schema === undefined || text === '' || asksBackOfAForm(text) || stops(text)) return null;
  return formPartIn(schema, text)?.values ?? null;
}

/** A yes/no question about stopping ("Done for now?", "Shall we wrap up?"). */
const asksToStop = (message: string) => /\b(done|stop|finish|wrap)/i.test(message);
/**
 * Wanting to stop ("I'm done", "that's enough", "never mind") answers no question: a tangent.
 * "never mind the lamp" minds one thing only: no stop.
 */
export const stops = (text: string): boolean =>
  /^\s*(?:ok(?:ay)?,?\s+)?(?:i'?m done|i am done|stop|enough|that(?:'?s| is) (?:all|enough)|never ?mind(?!\s+(?:it|them|that|this|those|these|the|about|my)\b)|let'?s stop|done for (?:today|now))\b/i.test(
    text,
  );

function chooseAnswer(payload: QuestionToRead['payload'], text: string): { [key: string]: Json } | null {
  // "wait, what does tier 2 mean?", "B?": a question of the user's own, answered before the card.
  if (asksBack(text)) return null;
  const listed: unknown[] = Array.isArray(payload['options']) ? payload['options'] : [];
  const options = listed.filter(
    (o): o is Option =>
      typeof (o as Partial<Option> | null)?.id === 'string' &&
      typeof (o as Partial<Option> | null)?.label === 'string',
  );
  const reveals = (payload['reveals'] ?? {}) as { [id: string]: { type?: string } };
  const worded = options.filter((o) => reveals[o.id]?.type !== 'free-text');
  // "B for the Trailgear ones but Bookbarn is a newsletter": a pick for part of what the card
  // asks about is no answer for all of it; it is said aside, so nothing is applied to the rest.
  // "sleeping mostly, and the clothes go in the wardrobe": more than a pick, said aside too, as
  // are words of one's own that do the same ("it's where I work, the laptop obviously stays").
  // "the points one matters to me, the others are just ads": a pick for one of them and another
  // for the rest is no answer for all of it either.
  const decidesMore = clausesOf(text)
    .slice(1)
    .some((part) => decidesAThing(part) || THE_REST.test(part));
  if (decidesMore) return null;
  const open = options.find((o) => reveals[o.id]?.type === 'free-text');
  // "eating, and the kids do homework here": a pick and something more of the same kind answer
  // the option that takes words of one's own, whole, so what was added is not lost
  if (open && addsMore(text, worded)) return { choiceId: open.id, revealed: { text } };
  const named =
    QUALIFIED.test(text) || picksSeveral(text, options)
      ? undefined
      : (optionNamedIn(text, options) ??
        optionInWords(text, options) ??
        optionByKeyword(text, worded) ??
        optionByFirstClause(text, worded) ??
        optionMistyped(text, worded));
  if (named) return { choiceId: named.id };
  // Words for the option that asks for words of one's own ("Something else" → "a reading corner"),
  // unless they say where a thing goes ("the mugs go to the kitchen"): that is said aside.
  return open && placeIn(text) === null && !stops(text) && !describesThings(text)
    ? { choiceId: open.id, revealed: { text } }
    : null;
}

/** "wroking" for "working": one word typed with a slip of the keys, the one option it nearly names. */
function optionMistyped(text: string, options: readonly Option[]): Option | undefined {
  const alone = /^\s*([a-z]+)[.!]*\s*$/i.exec(text)?.[1];
  const words = options.flatMap((o) => o.label.toLowerCase().split(/[^a-z]+/));
  const meant = alone ? meantWord(alone, words) : undefined;
  return meant ? optionByKeyword(meant, options) : undefined;
}

/**
 * "eating, and the kids do homework here", "sleeping and reading": after a first part that picks
 * an option, one that names something else done (an "-ing", "do", "use") or a few words of their
 * own that are no remark ("and that is about it", "I guess", "mostly", "please").
 */
function addsMore(text: string, options: readonly Option[]): boolean {
  const [first, ...rest] = clausesOf(text);
  if (!first || optionByKeyword(first, options) === undefined) return false;
  return rest.some(
    (part) =>
      optionByKeyword(part, options) === undefined &&
      (DOING.test(part) || (part.split(/\s+/).length <= 3 && !REMARK.test(part) && !/ly$/i.test(part))),
  );
}

/** Words that say something is done: "do homework", "using the laptop", "working". */
const DOING = /\b(?:(?!(?:no|some|any|every)thing\b)[a-z]{2,}ing|do|does|use|uses)\b/i;
/** A remark after a pick, no more of it: "that's it", "I guess", "please", "to be honest". */
const REMARK =
  /^(?:i|i'm|it|it's|that|that's|this|those|them|they|so|please|thanks|thank you|to be honest|honestly|really|too|as well|for now|i guess|i think|mostly|mainly|obviously|of course)\b/i;

/**
 * "B for Trailgear, A for Bookbarn": a different option for each part of what the card asks
 * about, so no one answer for all of it (said aside, like a qualified pick).
 */
function picksSeveral(text: string, options: readonly Option[]): boolean {
  const picked = clausesOf(text)
    .map((part) => optionNamedIn(part, options)?.id)
    .filter((id) => id !== undefined);
  return new Set(picked).size > 1;
}

/**
 * Words that say what is there ("there's a laptop, three mugs…", "I have a lamp and some papers"):
 * an answer of one's own to a question is not told as what there is, so they are said aside.
 */
const describesThings = (text: string) =>
  /^\s*(?:(?:well|so|ok(?:ay)?),?\s+)?(?:there(?:'s| is| are)|i(?: have|'ve got| got)|it has|we have)\b/i.test(
    text,
  );

function confirmAnswer(text: string): { [key: string]: Json } | null {
  if (asksBack(text)) return null;
  if (
    said(text, ['no', 'nope', 'not yet', 'keep going', 'continue', ...MOSTLY_NOT]) ||
    EMPHATIC_NO.test(text)
  )
    return { value: false };
  if (said(text, [...YES_WORDS, 'ok', 'okay', 'done', 'stop', ...MOSTLY])) return { value: true };
  return null;
}
