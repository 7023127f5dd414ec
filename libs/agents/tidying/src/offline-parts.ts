import type { Json } from '@sweatpants/domain';
import { COUNTED } from '@sweatpants/agent-runtime/offline';

/**
 * Parts of the thing in question, as the offline reading names them: told by how many ("two go to
 * the kitchen, one stays"), or by a word of their own ("the clean ones …, the dirty ones …"). Each
 * part kept apart gets a name of its own, never the thing's, so the session keeps it apart.
 */

type Extracted = { [key: string]: Json };

/** "one", "one of them": a single one of the thing in question. */
export const ONE_APART = /^one(?: of (?:them|these|those))?\b/;

/**
 * The reading of a clause told by how many: of the thing in question ("two go to the kitchen"),
 * or, for "one" of them, the part kept apart; as read when no thing is in question.
 */
export function counted(read: Extracted, clause: string, inQuestion: string | null): Extracted {
  if (!inQuestion || !COUNTED.test(clause) || typeof read['item'] === 'string') return read;
  return { ...read, item: ONE_APART.test(clause) ? partOf(inQuestion, clause) : inQuestion };
}

/** "the clean ones", "the broken one": some of the thing in question, told by a word of their own. */
const ONES = /^(?:([a-z]+)\s+)?ones?$/;

/**
 * "the clean ones go in the wardrobe, the dirty ones in the laundry basket" of the clothes: the
 * first part is the thing in question (decided as the card asked), a later one a part kept apart
 * by its word ("dirty clothes"), as "two go to the kitchen, one stays" is.
 */
export function ofTheOnes(read: Extracted, inQuestion: string | null): Extracted {
  const item = read['item'];
  return inQuestion && typeof item === 'string' && ONES.test(item) ? { ...read, item: inQuestion } : read;
}

/** "the ones that hurt can go", "the ones which are broken": a part told by what is said of it. */
const ONES_THAT =
  /^(?:the |those )?ones (?:that|which) ((?:are |is |don'?t |do not |no longer |never )?[a-z']+)\b/;

/**
 * The part of the thing in question a clause names before its rest is decided ("the dirty ones go
 * in the laundry, the rest in the wardrobe": dirty clothes; "the ones that hurt can go to charity,
 * keep the rest" of the shoes: shoes that hurt); null when the clause names no such part.
 */
export function partBeforeTheRest(clause: string, inQuestion: string | null): string | null {
  if (!inQuestion) return null;
  const what = ONES_THAT.exec(clause)?.[1];
  if (what) return `${inQuestion} that ${what}`;
  const kind = /^(?:the |those )?([a-z]+) ones\b/.exec(clause)?.[1];
  return kind && !/^(?:other|same)$/.test(kind) ? `${kind} ${inQuestion}` : null;
}

/** The part of the thing in question "the dirty ones" names: "dirty clothes"; null for other words. */
export function kindOfIt(item: unknown, inQuestion: string | null): string | null {
  const kind = typeof item === 'string' && inQuestion ? ONES.exec(item) : null;
  if (!kind || !inQuestion) return null;
  // "the chipped one" of the mugs is one mug: "chipped mug"
  const named = typeof item === 'string' && item.endsWith('ones') ? inQuestion : singular(inQuestion);
  return kind[1] ? `${kind[1]} ${named}` : partOf(inQuestion, '');
}

/** "mugs" → "mug", "dishes" → "dish", "glasses" → "glass"; "clothes" and "stuff" stay. */
const singular = (thing: string): string =>
  /(?:clothes|stuff|[^s]ss)$/.test(thing)
    ? thing
    : thing.replace(/(?:(?<=(?:ss|sh|ch|x))es|(?<=[^s])s)$/, '');

/**
 * A name for one of the thing in question, kept apart: by what it is for when the words say
 * ("one I use for pens" of the mugs → "mug for pens"), else "one mug". Never the thing's own
 * name, so the session keeps it apart from the rest.
 */
export function partOf(thing: string, clause: string): string {
  const one = singular(thing);
  const use = /\bfor (?:my |the )?([a-z]+)\b/.exec(clause)?.[1];
  return use ? `${one} for ${use}` : `one ${one}`;
}

/**
 * "most of them are fine but …", "the cookbooks are fine, except …", said at the thing's card: the
 * thing in question stays, as "fine" says, and what follows the "but" names a part of it.
 */
const FINE_BUT =
  /^(?:(?:most|nearly all|almost all|all)(?: of (?:them|these|those|it))?|they|(?:the |these |those |my )?[a-z]+(?: [a-z]+)?)(?:\s+(?:are|is)|'re|'s) (?:all )?(?:fine|ok(?:ay)?|good|great|alright|all right|still good|in good (?:shape|condition))[,;]?\s*(?:but|except|though|only)\s+(.+?)[.!]*$/;

/** "a few pairs hurt my feet", "a couple that never fit": the few, told by what is said of them. */
const A_FEW =
  /^(a few|some|one|two|three|a couple|a handful|half)(?: of (?:them|these|those))?(?: (?:pairs?|ones?))?\s+(?:(?:that|which)\s+)?([a-z' ]+)$/;

/** "I never use the big one": one told by a word of its own, and by what is (not) done with it. */
const NOT_USED_ONE =
  /^(?:i|we) ((?:never|don'?t|do not|no longer|hardly ever|rarely) (?:use|wear|read|need|play with))\s+(?:the|that|this|those) (?:([a-z]+) )?(ones?)$/;

/** "the big one is broken", "the red ones don't fit": one told by a word of its own, and what it is. */
const THE_ONE_IS =
  /^(?:the|that|this|those) (?:([a-z]+) )?(ones?) ((?:is|are|doesn'?t|don'?t|never|no longer|can|could|should|goes|go) [a-z' ]+)$/;

/** Their words in the coach's mouth: "hurt my feet" → "hurt your feet". */
const inTheirWords = (said: string) => said.replace(/\bmy\b/g, 'your').replace(/\bme\b/g, 'you');

/**
 * The part of `thing` the words after "fine but" name: by what is said of it, in the coach's words
 * ("shoes that hurt your feet", "big cookbook that you never use"), or by its word alone when what
 * is said decides it ("the big one can go": "big cookbook"; "a few can go": "few cookbooks"); null
 * for other words.
 */
function partAfterFine(rest: string, thing: string): { said: string; part: string; named: string } | null {
  const [, howMany, few] = A_FEW.exec(rest) ?? [];
  // ("but one is cracked": one mug, not mugs)
  const them = howMany === 'one' ? singular(thing) : thing;
  if (few)
    return {
      said: few,
      part: `${them} that ${inTheirWords(few)}`,
      named: `${howMany === 'one' ? 'one' : 'few'} ${them}`,
    };
  const named = (kind: string | undefined, ones: string) =>
    `${kind ? `${kind} ` : ''}${ones === 'ones' ? thing : singular(thing)}`;
  const unused = NOT_USED_ONE.exec(rest);
  if (unused?.[1] && unused[3]) {
    const one = named(unused[2], unused[3]);
    return { said: unused[1], part: `${one} that you ${unused[1]}`, named: one };
  }
  const is = THE_ONE_IS.exec(rest);
  if (is?.[2] && is[3]) {
    const one = named(is[1], is[2]);
    return { said: is[3], part: `${one} that ${inTheirWords(is[3])}`, named: one };
  }
  return null;
}

/** What words decide for a thing, as the offline reading has it: null when they decide nothing. */
export type Decision = { choice: string; place: string | null };

/**
 * The reading of "most of them are fine but a few …" (or "… except the big one is broken") at a
 * thing's card: the thing in question stays, as "fine" says, and the part is a thing of its own to
 * come next, named by what is said of it in the coach's words; or, when what is said of the part
 * decides it ("but the big one can go"), decided so with it. Null for other words.
 */
export function fineButSome(
  t: string,
  inQuestion: string | null,
  decide: (words: string) => Decision | null,
): Extracted | null {
  const rest = inQuestion ? FINE_BUT.exec(t)?.[1] : undefined;
  const read = inQuestion && rest ? partAfterFine(rest, inQuestion) : null;
  if (!inQuestion || !read) return null;
  const decided = decide(read.said);
  return {
    intent: 'decided',
    item: inQuestion,
    also: decided ? [] : [read.part],
    choice: 'keep',
    place: null,
    function: null,
    anchors: null,
    anxiety: null,
    ...(decided ? { alsoDecided: [{ item: read.named, choice: decided.choice, place: decided.place }] } : {}),
  };
}

/** "toys first, …", "let's start with the books: …": a thing named to begin with, then what of it. */
const FIRST_LEAD =
  /^(?:ok(?:ay)?,?\s+)?(?:(?:let'?s\s+)?(?:do\s+)?(?:the\s+)?([a-z][a-z ]{0,30}?)\s+first|(?:let'?s\s+)?start(?:ing)?\s+with\s+(?:the\s+)?([a-z][a-z ]{0,30}?))\s*[,.;:]\s+(.+)$/;
/** A thing named alone to begin with: "toys first", "let's do the books first". */
const FIRST_ALONE =
  /^(?:ok(?:ay)?,?\s+)?(?:let'?s\s+)?(?:do\s+)?(?:the\s+)?((?![a-z ]*\b(?:it|them|that|this|me|you|i)\b)[a-z][a-z ]{0,30}?)\s+first[.!]*$/;
/** "most of them", "they": the thing named before, as what follows says it. */
const OF_THEM =
  /^(?:(?:most|all|some|a lot|lots|nearly all|almost all) of (?:them|it)\b|(?:they|them)(?=\s))/;

/**
 * Words that name a thing to begin with, then say of "them" what becomes of it ("toys first, most
 * of them can go to charity but the lego stays"), as they would have said it of the thing: "the
 * toys can go to charity but the lego stays". Other words as they are.
 */
export function withTheFirstNamed(t: string): string {
  // ("toys first" alone: the toys)
  const alone = FIRST_ALONE.exec(t)?.[1];
  if (alone) return `the ${alone}`;
  const lead = FIRST_LEAD.exec(t);
  const thing = lead?.[1] ?? lead?.[2];
  const rest = lead?.[3];
  return thing && rest && OF_THEM.test(rest) ? rest.replace(OF_THEM, `the ${thing}`) : t;
}
