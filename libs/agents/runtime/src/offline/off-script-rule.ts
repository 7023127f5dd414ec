import type { Disposition, Json } from '@sweatpants/domain';
import { INTERPRET_QUESTION_LINE, INTERPRET_TOOL } from '../model';
import { formAnswerIn, formPartIn } from './form-words';
import {
  clausesOf,
  COUNTED,
  EMPHATIC_NO,
  MOSTLY,
  MOSTLY_NOT,
  SOMEONE_ELSE,
  THE_REST,
  YES_WORDS,
} from './text';
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
      return schema === undefined || asksBack(text) || stops(text) ? null : formAnswerIn(schema, text);
    }
    default:
      return null;
  }
}

/** The fields words give a form they do not fill in; null for other questions, or none given. */
function formPartOf(question: QuestionToRead, text: string): { [key: string]: Json } | null {
  const schema = question.type === 'form' ? asSchema(question.schema) : undefined;
  if (schema === undefined || text === '' || asksBack(text) || stops(text)) return null;
  return formPartIn(schema, text)?.values ?? null;
}

/** A question of the user's own is a tangent, whatever else it mentions. */
const asksBack = (text: string) => text.includes('?');
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
const said = (text: string, words: readonly string[]) =>
  words.some((w) => new RegExp(`\\b${w}\\b`, 'i').test(text));

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

interface Choice {
  label?: string;
  disposition: Disposition;
}

const ROOMS = [
  'kitchen',
  'bathroom',
  'bedroom',
  'living room',
  'hallway',
  'garage',
  'closet',
  'office',
  'basement',
  'attic',
];

/** Where things are put away in a room, said alone at a card ("drawer", "the shelf"): that spot. */
const SPOTS = [
  'drawer',
  'shelf',
  'cupboard',
  'wardrobe',
  'cabinet',
  'basket',
  'box',
  'nightstand',
  'dresser',
];
/** Spots things go on, not in. */
const ON_SPOTS = new Set(['shelf', 'nightstand', 'dresser']);
/** What a card's answer may say done with the thing, spelt out. */
const DOINGS = ['recycle', 'donate', 'trash', 'charity', 'rubbish', 'garbage'];

function dispositionAnswer(payload: QuestionToRead['payload'], text: string): { [key: string]: Json } | null {
  if (asksBack(text)) return null;
  const choices = (Array.isArray(payload['choices']) ? payload['choices'] : []) as unknown as Choice[];
  if (decidesAnotherThing(text, choices)) return null;
  const disposition = dispositionIn(text, choices);
  if (!disposition) return null;
  const first = choices[0]?.disposition;
  const wasCorrection = JSON.stringify(first) !== JSON.stringify(disposition);
  return { disposition: disposition as unknown as Json, wasCorrection };
}

/**
 * Words that decide another thing as well ("the books stay on the shelf, and the lamp goes in the
 * bin"): more than the card's answer, so they are a tangent, which the asker reads whole, and
 * nothing the person decided is lost. A later part counts when it leads with a thing of its own
 * ("the lamp …"), not a spot ("…, on the shelf") or a remark ("…, it's fine").
 */
function decidesAnotherThing(text: string, choices: readonly Choice[]): boolean {
  const [first, ...rest] = clausesOf(text);
  if (!first) return false;
  // "most of them are fine but a few pairs hurt my feet": the few are a part told apart
  if (PART_TOLD_APART.test(first)) return true;
  // "some of it is bills I need to pay, the rest is junk": a part of it told apart, then the rest;
  // "bills on the side table, flyers in the recycling": parts of it, each with its place
  const decidesFirst =
    SOME_OF_IT.test(first) || BARE_PLACED.test(first) || dispositionIn(first, choices) !== null;
  if (decidesFirst && rest.some((part) => decidesAThing(part, choices))) return true;
  // "the bills I need to pay, the rest is junk": whatever leads, a rest decided after it makes the
  // lead a part of the thing told apart (kept, by the look of it), not all of it
  return !WHOLE.test(first) && rest.some((part) => THE_REST.test(part) && decidesAThing(part, choices));
}

/**
 * Most of the thing asked about said of, but a part told apart: "most are fine but a few are
 * chipped", "they're fine but I never use the big one", "the cookbooks are fine except the red one".
 */
const PART_TOLD_APART =
  /^(?:most|nearly all|almost all)\b.*\b(?:but|except|though|only)\s+(?:a few|some|one|two|three|a couple|a handful|half)\b|\b(?:are|is|'re|'s)\s+(?:all\s+)?(?:fine|ok(?:ay)?|good|great|alright|all right)[,;]?\s+(?:but|except)\s+\S/i;

/** A lead that is the whole thing asked about ("bin it", "they stay"), not a part of it. */
const WHOLE =
  /^(?:(?:yes|yep|ok(?:ay)?|so|and|well)[,.]?\s+)?(?:it|they|them|all|everything|both)\b|^(?:bin|trash|keep|toss|recycle|donate|put|move|take)\b/i;

/** A thing named bare and where it goes, the verb left out: "bills on the side table". */
const BARE_PLACED =
  /^(?!(?:still|just|maybe|probably|all|it|they|them|mostly|only|right|back|over|up|down|out|keep|put|stays?|goes|go|leave)\b)[a-z]+(?: [a-z]+)?\s+(?:in|on|into|onto|to|by|under|inside)\s+(?:the|my|a|an|our)\s+[a-z]/i;

/** A part of the thing asked about, told apart first: "some of it is bills", "most of them are mine". */
const SOME_OF_IT = /^(?:some|most|a few|a couple|half|part|a lot|lots) of (?:it|them|these|those)\b/i;

/**
 * A part of a reply that leads with a thing of its own, or names the rest of the one asked about,
 * or some of it by how many, and says what becomes of it ("the lamp goes in the bin", "bin the
 * rest", "one I use for pens so it stays").
 */
const decidesAThing = (part: string, choices: readonly Choice[] = []) =>
  BARE_PLACED.test(part) ||
  ((ANOTHER_THING.test(part) || THE_REST.test(part) || COUNTED.test(part)) &&
    (dispositionIn(part, choices) !== null || PLACED.test(part)));

const ANOTHER_THING = /^(?:the|my|these|those|this|that)\s+[a-z]/i;

/** A thing and its place, the verb left to the part before: "…, the dirty ones in the laundry basket". */
const PLACED =
  /^(?:the|my|these|those|this|that)\s+[a-z ]+?\s+(?:in|on|into|onto|to|by|under|inside)\s+(?:the|my|a|an|its|their|our)\s+[a-z]/i;

/** Words that bin a thing: "bin it", "it's junk", "get rid of it", "the broken crayons can go". */
const BINNED =
  /\b(?:trash|bin|throw|garbage|toss|rubbish|junk|get rid of|chuck|ditch)\b|\b(?:can|could|should|may) (?:all )?go(?: away| now)?\s*[.!]*$/i;

function dispositionIn(text: string, choices: readonly Choice[]): Disposition | null {
  if (said(text, ['not sure', 'not now', 'later', 'skip', "don't know", 'dunno', 'no idea']))
    return { kind: 'skip' };
  // Words of one of the card's own choices ("keep it here", "file it"): that choice.
  const labelled = choices.map((c, i) => ({ id: String(i), label: c.label ?? '' }));
  const named = optionInWords(text, labelled);
  if (named) return choices[Number(named.id)]?.disposition ?? null;
  // ("junk mail" and "bin bags" are things, not what is done with them)
  const plain = text.replace(/\b(?:junk|bin|rubbish|trash)\s+(?:mail|drawer|food|bags?|liners?)\b/gi, 'it');
  if (BINNED.test(plain)) return { kind: 'trash' };
  // "someone else might use it": given away
  if (said(text, ['donate', 'give away', 'charity']) || SOMEONE_ELSE.test(text)) return { kind: 'donate' };
  if (said(text, ['recycle', 'recycled', 'recycling'])) return { kind: 'recycle' };
  // "they're my partner's", "it belongs to my son": back to whoever it is, not a place called "son"
  const owner = OWNED_BY.exec(text);
  const who = owner?.[1] ?? owner?.[2];
  if (who) return { kind: 'place', location: `your ${who.toLowerCase()}` };
  const place = placeIn(text) ?? spotAlone(text);
  if (place) return { kind: 'place', location: place };
  // "keep it", "it stays", "leave it": the thing stays where it is, whatever the proposal was
  // (a person who keeps the mug did not mean the kitchen the card proposed).
  if (said(text, ['keep', 'keeping', 'stays', 'stay', 'leave it', 'belongs here']))
    return { kind: 'place', location: 'here' };
  // "yes", "ok", "sounds good": the proposal as it stands ("definitely not" is no such yes).
  if (EMPHATIC_NO.test(text)) return null;
  if (said(text, [...YES_WORDS, 'ok', 'okay', 'fine', 'sounds good', 'agreed']))
    return choices[0]?.disposition ?? null;
  // "kitchn", "recyle", "drawr": one word with a slip of the keys, read as the word it nearly is
  const alone = /^\s*([a-z]+)[.!]*\s*$/i.exec(text)?.[1];
  const labels = choices.flatMap((c) => (c.label ?? '').toLowerCase().split(/[^a-z]+/));
  const meant = alone ? meantWord(alone, [...labels, ...ROOMS, ...SPOTS, ...DOINGS]) : undefined;
  return meant ? dispositionIn(meant, choices) : null;
}

/**
 * Where the words put the thing: a room by its name ("kitchen"), where it goes to ("to the
 * shed" → "shed"), or a spot with its preposition kept ("put it on the nightstand" → "on the
 * nightstand", which says where in the room).
 */
function placeIn(text: string): string | null {
  const room = ROOMS.find((r) => said(text, [r]));
  if (room) return room;
  const placed =
    /\b(?:put|goes|go|belongs|move|take|keep|stays?|lives|hangs?)\b.*?\b(in|on|to|into|by|under|at|inside|behind|beside)\s+([^,;]+)/i.exec(
      text,
    );
  if (!placed?.[1] || !placed[2]) return null;
  // "in the shed really": a word after the place that colours the sentence is no part of it
  const where = placed[2]
    .replace(/[.!]+$/, '')
    .replace(TRAILING_FILLER, '')
    .trim();
  const preposition = placed[1].toLowerCase();
  return preposition === 'to' ? where.replace(/^(?:the|my|a)\s+/i, '') : `${preposition} ${where}`;
}

/** A thing said to be someone else's: "they're my partner's", "it belongs to my son". */
const OWNED_BY =
  /\b(?:(?:it'?s|its|they'?re|theyre|they are|it is|those are|that'?s|these are) (?:actually |all )?my ([a-z]+)'s\b|belongs? to my ([a-z]+)\b)/i;

/** Words after a place that colour the sentence: "really", "I guess", "for now". */
const TRAILING_FILLER =
  /(?:,?\s+(?:really|though|i guess|i think|i suppose|probably|mostly|anyway|honestly|actually|for now|now|already|again|too))+$/i;

/**
 * A spot named on its own, as the answer to where a thing goes: "on the nightstand", "in the
 * wardrobe". (Only at a proposal for a thing: elsewhere "in the evenings" is no place.)
 */
function spotAlone(text: string): string | null {
  // "drawer", "the shelf": a spot of the room named bare
  const bare = /^\s*(?:the\s+|my\s+)?([a-z]+?)s?\s*[.!]*\s*$/i.exec(text)?.[1]?.toLowerCase();
  if (bare && SPOTS.includes(bare)) return `${ON_SPOTS.has(bare) ? 'on' : 'in'} the ${bare}`;
  const spot =
    /^\s*(?:(?:just|maybe|probably|ok|okay)[,]?\s+)?((?:in|on|into|onto|under|inside|behind|beside|by|next to)\s+(?:the|my|a|its|our)\s+[a-z][a-z ]*?)\s*[.!]*\s*$/i.exec(
      text,
    );
  return spot?.[1]?.toLowerCase() ?? null;
}

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
