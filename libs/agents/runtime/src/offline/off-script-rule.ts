import type { Disposition, Json } from '@sweatpants/domain';
import { INTERPRET_QUESTION_LINE, INTERPRET_TOOL } from '../model';
import { formAnswerIn, formPartIn } from './form-words';
import { COUNTED, EMPHATIC_NO, keywords, MOSTLY, MOSTLY_NOT, THE_REST, YES_WORDS } from './text';
import { asSchema } from './json-schema';
import type { OfflineRule } from './offline-rule';

/**
 * The offline model's reading of words typed while a question waits (the runtime's off-script
 * request, see runtime/off-script.ts): plain keyword rules, the same every time. Words that name
 * an option answer a choice: its letter as the card shows it or its id ("B", "b for all of
 * these", "option c", "go with A"), or the option's own words; so do a disposition or a yes/no,
 * and words that fill a form in ("good condition, one box"; ./form-words).
 * Words typed for a "Something else" option that reveals a free-text question answer that. A
 * question of the user's own ("wait, where do cables go?", "what does tier 2 mean?"), wanting to
 * stop ("I'm done"), or anything it cannot place is a tangent, so the asker's side quest reads it.
 */
export const interpretOffScriptRule: OfflineRule = {
  name: 'offline runtime: read off-script words against the question',
  when: (ctx) => ctx.offers(INTERPRET_TOOL),
  reply: (ctx) => {
    const question = questionOf(ctx.request.system);
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

interface Question {
  type: string;
  message?: string;
  payload: { [key: string]: Json };
  /** a form's fields */
  schema?: Json;
}

function questionOf(system: string): Question | null {
  const line = new RegExp(`^${INTERPRET_QUESTION_LINE}(.+)$`, 'm').exec(system)?.[1];
  if (!line) return null;
  try {
    const parsed = JSON.parse(line) as Question;
    return typeof parsed.type === 'string' && parsed.payload && typeof parsed.payload === 'object'
      ? parsed
      : null;
  } catch {
    return null;
  }
}

/** The answer the words give, shaped for the question, or null for a tangent. */
function answerIn(question: Question, text: string): { [key: string]: Json } | null {
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
function formPartOf(question: Question, text: string): { [key: string]: Json } | null {
  const schema = question.type === 'form' ? asSchema(question.schema) : undefined;
  if (schema === undefined || text === '' || asksBack(text) || stops(text)) return null;
  return formPartIn(schema, text)?.values ?? null;
}

/** A question of the user's own is a tangent, whatever else it mentions. */
const asksBack = (text: string) => text.includes('?');
/** A yes/no question about stopping ("Done for now?", "Shall we wrap up?"). */
const asksToStop = (message: string) => /\b(done|stop|finish|wrap)/i.test(message);
/** Wanting to stop ("I'm done", "that's enough", "never mind") answers no question: a tangent. */
export const stops = (text: string): boolean =>
  /^\s*(?:ok(?:ay)?,?\s+)?(?:i'?m done|i am done|stop|enough|that(?:'?s| is) (?:all|enough)|never ?mind|let'?s stop|done for (?:today|now))\b/i.test(
    text,
  );
const said = (text: string, words: readonly string[]) =>
  words.some((w) => new RegExp(`\\b${w}\\b`, 'i').test(text));

interface Option {
  id: string;
  label: string;
}

/** What may follow a letter or id that picks an option: punctuation, the end, or a few words. */
const PICK_TAIL = String.raw`(?=\s*[).,:;!\-–—]|\s+(?:for|please|all|is|it|then|thanks|thank)\b|\s*$)`;
/** A letter or an id: one letter or digit, or a word such as "archive" or "function-2". */
const TOKEN = String.raw`([a-z0-9](?:[\w-]*[a-z0-9])?)`;
/** "B", "b for all of these", "B) please", "archive it is": the words lead with the option. */
const LEADING = new RegExp(`^\\s*(?:option\\s+)?${TOKEN}${PICK_TAIL}`, 'i');
/** "option c", "I'll pick B", "let's go with A": the words name it after a verb of choosing. */
const NAMING = new RegExp(`\\b(?:option|pick|choose|go with|make it)\\s+${TOKEN}${PICK_TAIL}`, 'gi');
/**
 * "the first one", "second", "go with the last option": an option by its place on the card. The
 * whole words are the pick, or follow a verb of choosing, so "First, a question" picks nothing.
 */
const ORDINAL = String.raw`(?:the\s+)?(first|second|third|fourth|fifth|last)(?:\s+(?:one|option))?`;
const BY_PLACE = new RegExp(
  String.raw`^\s*(?:(?:i'?ll\s+)?(?:pick|choose|take|go with|make it)\s+)?${ORDINAL}\s*(?:please)?[.!]*\s*$`,
  'i',
);
const PLACES = ['first', 'second', 'third', 'fourth', 'fifth'];

/** The letter a card shows before its label: "A. Keep in inbox", "B) Note it". */
const SHOWN_LETTER = /^\s*\(?([a-z0-9])\s*[).:]\s+/i;

/**
 * The option that typed words pick by its letter or id, the way a person answers a lettered card:
 * "B", "b for all of these", "B) please", "option c", "let's go with A", "archive it is", or by
 * its place on the card ("the first one", "the last option"). The
 * letter is the one the card shows before its label ("A. Keep in inbox"); when no label shows
 * one, a letter counts the options from A. A sentence that merely starts with the article ("a
 * coffee mug") picks nothing, and neither do words that name two options ("A or C").
 *
 * @example
 * const cards = [{ id: 'A', label: 'A. Keep in inbox' }, { id: 'B', label: 'B. Archive' }];
 * optionNamedIn('b for all of these', cards)?.id; // 'B'
 */
export function optionNamedIn<O extends Option>(text: string, options: readonly O[]): O | undefined {
  const names = new Map<string, O>();
  const shown = options.map((o) => SHOWN_LETTER.exec(o.label)?.[1]?.toLowerCase());
  // Weakest first, so that what the card shows wins: a position, then an id, then its letter.
  if (shown.every((letter) => letter === undefined))
    options.slice(0, 26).forEach((o, i) => names.set(String.fromCharCode(97 + i), o));
  for (const o of options) names.set(o.id.toLowerCase(), o);
  options.forEach((o, i) => {
    const letter = shown[i];
    if (letter) names.set(letter, o);
  });
  const place = BY_PLACE.exec(text)?.[1]?.toLowerCase();
  if (place !== undefined) return place === 'last' ? options.at(-1) : options[PLACES.indexOf(place)];
  const named = new Set<O>();
  const lead = LEADING.exec(text)?.[1];
  const first = lead === undefined ? undefined : names.get(lead.toLowerCase());
  if (first) named.add(first);
  for (const m of text.matchAll(NAMING)) {
    const option = m[1] === undefined ? undefined : names.get(m[1].toLowerCase());
    if (option) named.add(option);
  }
  return named.size === 1 ? [...named][0] : undefined;
}

/** The one option whose words the text gives ("keep in inbox", "tier 2"), if exactly one. */
function optionInWords<O extends Option>(text: string, options: readonly O[]): O | undefined {
  const words = text
    .toLowerCase()
    .replace(/[.!]+$/, '')
    .trim();
  const matches = options.filter((o) => {
    const label = o.label.replace(SHOWN_LETTER, '').toLowerCase().trim();
    return (
      (label.length >= 3 && containsPhrase(words, label)) ||
      (words.length >= 3 && containsPhrase(label, words))
    );
  });
  return matches.length === 1 ? matches[0] : undefined;
}

/** Words that narrow a pick to part of what the question is about ("but", "except"). */
const QUALIFIED = /\b(?:but|except|apart from|other than)\b/i;

/** Words that turn a pick around ("don't archive them"): no option is read from them. */
const NEGATED = /\b(?:no|not|don'?t|do not|never|rather not|instead of)\b/i;

/**
 * The one option whose label holds a meaningful word of a short reply ("archive them" at "Tier 1
 * (auto-archive)", "note it" at "Note it, don't surface"), when no other label holds any of them.
 * A word every option shares ("tier") picks nothing; nor does a reply that says no, or a sentence.
 */
function optionByKeyword<O extends Option>(text: string, options: readonly O[]): O | undefined {
  if (NEGATED.test(text) || text.trim().split(/\s+/).length > 6) return undefined;
  const said = keywords(text);
  const holding = options.filter((o) => {
    const label = keywords(o.label.replace(SHOWN_LETTER, ''));
    return said.some((word) => label.includes(word));
  });
  return holding.length === 1 ? holding[0] : undefined;
}

/**
 * "just archive them all, I never read those": a pick by a word of its label in the first clause,
 * the rest a reason that names no option (one that does, "archive them, and note the bank one",
 * is no single pick).
 */
function optionByFirstClause<O extends Option>(text: string, options: readonly O[]): O | undefined {
  const [first, ...rest] = clausesOf(text);
  if (!first || rest.length === 0) return undefined;
  const picked = optionByKeyword(first, options);
  const namesAnother = rest.some(
    (part) => optionByKeyword(part, options) !== undefined || optionNamedIn(part, options) !== undefined,
  );
  return picked && !namesAnother ? picked : undefined;
}

/** Whether `phrase` occurs in `text` as whole words. */
function containsPhrase(text: string, phrase: string): boolean {
  const escaped = phrase.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?:^|[^\\p{L}\\p{N}])${escaped}(?:$|[^\\p{L}\\p{N}])`, 'u').test(text);
}

function chooseAnswer(payload: Question['payload'], text: string): { [key: string]: Json } | null {
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
  const decidesMore = clausesOf(text)
    .slice(1)
    .some((part) => decidesAThing(part));
  if (decidesMore) return null;
  const named =
    QUALIFIED.test(text) || picksSeveral(text, options)
      ? undefined
      : (optionNamedIn(text, options) ??
        optionInWords(text, options) ??
        optionByKeyword(text, worded) ??
        optionByFirstClause(text, worded));
  if (named) return { choiceId: named.id };
  // Words for the option that asks for words of one's own ("Something else" → "a reading corner"),
  // unless they say where a thing goes ("the mugs go to the kitchen"): that is said aside.
  const open = options.find((o) => reveals[o.id]?.type === 'free-text');
  return open && placeIn(text) === null && !stops(text) && !describesThings(text)
    ? { choiceId: open.id, revealed: { text } }
    : null;
}

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

function dispositionAnswer(payload: Question['payload'], text: string): { [key: string]: Json } | null {
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
  if (!first || dispositionIn(first, choices) === null) return false;
  return rest.some((part) => decidesAThing(part, choices));
}

/**
 * A part of a reply that leads with a thing of its own, or names the rest of the one asked about,
 * or some of it by how many, and says what becomes of it ("the lamp goes in the bin", "bin the
 * rest", "one I use for pens so it stays").
 */
const decidesAThing = (part: string, choices: readonly Choice[] = []) =>
  (ANOTHER_THING.test(part) || THE_REST.test(part) || COUNTED.test(part)) &&
  (dispositionIn(part, choices) !== null || PLACED.test(part));

const ANOTHER_THING = /^(?:the|my|these|those|this|that)\s+[a-z]/i;

/** A thing and its place, the verb left to the part before: "…, the dirty ones in the laundry basket". */
const PLACED =
  /^(?:the|my|these|those|this|that)\s+[a-z ]+?\s+(?:in|on|into|onto|to|by|under|inside)\s+(?:the|my|a|an|its|their|our)\s+[a-z]/i;

/** The parts of a reply, split where one clause hands over to the next. */
const clausesOf = (text: string) => text.split(/\s*(?:[,;]|\band\b|\bthen\b|\bwhile\b)\s*/i).filter(Boolean);

function dispositionIn(text: string, choices: readonly Choice[]): Disposition | null {
  if (said(text, ['not sure', 'not now', 'later', 'skip', "don't know", 'dunno', 'no idea']))
    return { kind: 'skip' };
  // Words of one of the card's own choices ("keep it here", "file it"): that choice.
  const labelled = choices.map((c, i) => ({ id: String(i), label: c.label ?? '' }));
  const named = optionInWords(text, labelled);
  if (named) return choices[Number(named.id)]?.disposition ?? null;
  if (said(text, ['trash', 'bin', 'throw', 'garbage', 'toss', 'rubbish', 'junk'])) return { kind: 'trash' };
  if (said(text, ['donate', 'give away', 'charity'])) return { kind: 'donate' };
  if (said(text, ['recycle', 'recycling'])) return { kind: 'recycle' };
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
  return null;
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
    /\b(?:put|goes|go|belongs|move|take|keep|stays?|lives|hangs?)\b.*?\b(in|on|to|into|by|under|at|inside|behind|beside)\s+(.+)$/i.exec(
      text,
    );
  if (!placed?.[1] || !placed[2]) return null;
  const where = placed[2].replace(/[.!]+$/, '').trim();
  const preposition = placed[1].toLowerCase();
  return preposition === 'to' ? where.replace(/^(?:the|my|a)\s+/i, '') : `${preposition} ${where}`;
}

/**
 * A spot named on its own, as the answer to where a thing goes: "on the nightstand", "in the
 * wardrobe". (Only at a proposal for a thing: elsewhere "in the evenings" is no place.)
 */
function spotAlone(text: string): string | null {
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
