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
 * "most of them are fine but a few pairs hurt my feet", said at the shoes' card: the most are the
 * thing in question, and the few a part of it told by what is said of them.
 */
const MOST_BUT_A_FEW =
  /^(?:most|nearly all|almost all)(?: of (?:them|these|those|it))? (?:are|is) (?:fine|ok(?:ay)?|good|great|alright|all right|still good|in good (?:shape|condition))[,;]?\s*(?:but|except|though|only)\s+(?:a few|some|one|two|three|a couple|a handful)(?: of (?:them|these|those))?(?: (?:pairs?|ones?))?\s+(?:(?:that|which)\s+)?([a-z' ]+?)[.!]*$/;

/**
 * The reading of "most of them are fine but a few …" at a thing's card: the thing in question
 * stays, as "fine" says, and the few are a thing of their own to come next, named by what is said
 * of them in the coach's words ("shoes that hurt your feet"). Null for other words, and for a few
 * already decided ("but a few can go"), which the usual reading takes.
 */
export function mostButAFew(
  t: string,
  inQuestion: string | null,
  decides: (words: string) => boolean,
): Extracted | null {
  const said = inQuestion ? MOST_BUT_A_FEW.exec(t)?.[1] : undefined;
  if (!inQuestion || !said || decides(said)) return null;
  const theirs = said.replace(/\bmy\b/g, 'your').replace(/\bme\b/g, 'you');
  return {
    intent: 'decided',
    item: inQuestion,
    also: [`${inQuestion} that ${theirs}`],
    choice: 'keep',
    place: null,
    function: null,
    anchors: null,
    anxiety: null,
  };
}
