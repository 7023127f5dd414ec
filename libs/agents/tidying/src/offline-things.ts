/**
 * Which things a message names, as the offline coach reads them: the things a list names, and the
 * words that name the space or what it is for rather than a thing in it. Reading what the message
 * decides of them is ./offline-text's.
 */

/**
 * Words that name the space or what it is for, never a thing in it: the room ("my bedroom is
 * chaos"), the mess, an activity ("sleeping and reading"), or none at all ("none of it", "not really").
 */
export const NOT_A_THING =
  /^(?:(?:my|the|this)\s+)?(?:(?:[a-z]+\s+)?(?:space|room|desk|counter|countertop|worktop|surface|floor|wardrobe|closet|cupboard|cabinet|dresser|drawers|shelves|bookshelf|bookcase)|storing(?: things)?|storage|mess|chaos|(?:[a-z]+\s+)?(?:bedroom|playroom|nursery|box ?room|store ?room|utility(?: room)?|conservatory|landing|porch|cellar)|kitchen|office|bathroom|lounge|hallway|garage|attic|loft|basement|study|flat|apartment|house|home|work|working|sleep|sleeping|read|reading|cook|cooking|relax|relaxing|studying|eating|playing|gaming|writing|guests?|visitors?|people|family|parents|in-?laws|friends|kids|children|mum|mom|dad|sister|brother|gran|nan|grandparents|none(?: of (?:it|them|this|that))?|nothing(?: much)?|not (?:much|really))$/;

/** Words a list, or a part of one, leads with before its things: "there's", "I've got". */
const THERE_IS = /^(?:(?:well|so|ok(?:ay)?),?\s+)?(?:there(?:'s| is| are)|i(?: have|'ve got)|we have)\s+/;

/**
 * Every thing a list names, in its order, as what there is may be told ("there's a laptop, three
 * mugs and a stack of papers" → laptop, mugs, papers; "my desk is a mess: cables, a mug and
 * receipts" → cables, mug, receipts): the coach takes the first, and the rest are still to come.
 * Empty for words that are not a list of things: a question ("wait, where do cables go?"), or
 * parts that are sentences.
 */
export function listedThings(t: string): string[] {
  // (one thing after a colon is a list too, when what comes before says how the space is: "the
  // hallway is a mess: shoes everywhere")
  // ("my desk: mugs", the space named alone before the colon)
  const oneAfterTheSpace =
    SPACE_THEN_COLON.test(t) || NOT_A_THING.test(/^([a-z]+(?: [a-z]+){0,2})\s*:\s*\S/.exec(t)?.[1] ?? '');
  if (t.includes('?') || (!/,|\band\b/.test(t) && !oneAfterTheSpace)) return [];
  // "ugh the kitchen counter. dishes, a toaster and menus": a sentence of its own says where, the
  // list follows in another; the things are those of the sentences that list them
  const sentences = t.split(/(?<=[a-z])[.!;]\s+(?=[a-z])/);
  if (sentences.length > 1) {
    const listed = sentences.flatMap(listedThings);
    if (listed.length > 0) return listed;
  }
  const told = t
    // what comes before a colon says what the list is of, as does a sentence before that ("ugh,
    // where to start, my desk is a mess: …")
    .replace(/^(?:[^:]*?[,.;]\s+)?[^:,.;]{1,60}:\s*/, '')
    // and so does the space that is covered in it ("my desk is covered in mugs, papers and a lamp")
    .replace(
      /^(?:[^:]*?[,.;]\s+)?[^:,.;]{1,60}?\b(?:is|are)\s+(?:(?:all|just|totally|completely)\s+)?(?:covered|full|buried|piled(?: high)?|cluttered|littered|strewn|overflowing|drowning)\s+(?:in|with|of|under)\s+/,
      '',
    )
    .replace(THERE_IS, '');
  const parts = told
    .split(/,|\band\b/)
    // ("the toys are everywhere, and there's a pile of shoes by the door": each part may say there is)
    .map((part) => nameIn(part.trim().replace(THERE_IS, '')))
    .filter((part) => part !== '');
  const interjection =
    /^(?:wait|hmm+|well|so|ok|okay|yes|no|oh|um+|uh+|actually|also|hey|hi|hello|sorry|thanks)$/.test(
      parts[0] ?? '',
    );
  // "my bedroom is a disaster, clothes everywhere, books and a guitar": the space said first
  // (a sentence of its own), then the list of what is in it
  const [first = '', ...rest] = parts;
  // ("my kids room is a disaster, toys everywhere, I don't even know where to start": what they
  // say of themselves after the things is no thing, and one thing after the space is a list too)
  const things = rest.slice(0, rest.length - trailingSpeech(rest));
  // ("the kids playroom, toys everywhere and a broken scooter": the space named alone, first)
  const spaceFirst = SAID_OF_THE_SPACE.test(first) || NOT_A_THING.test(first);
  if (spaceFirst && things.length >= 1 && things.every(isThing)) return things;
  const least = oneAfterTheSpace ? 1 : 2;
  return parts.length >= least && parts.every(isThing) && !interjection ? parts : [];
}

/** Who a person says something of a thing about: "clothes I never wear", "a bike she's outgrown". */
const WHO = "(?:(?:i|we|you|they|he|she)(?:'s|'ve|'re|'d)?|nobody|no one)";

/** A thing named with its article, then what someone says of it: "a toaster we never use". */
const SAID_OF_THE_NAMED = new RegExp(
  `^((?:a|an|the|my|some)\\s+[a-z' ]+?)\\s+(?:(?:that|which)\\s+)?${WHO}\\s+[a-z' ]+$`,
);
/** A thing named bare, then how little someone uses it: "clothes I never wear", "a bike she's outgrown". */
const SAID_OF_THE_BARE = new RegExp(
  `^(?!(?:[a-z]+ly|well|so|ok|okay|yes|no|oh|actually|also|and|but)\\b)([a-z'-]+(?:\\s+[a-z'-]+)?)\\s+${WHO}\\s+(?:(?:has|have)\\s+)?(?:never|don'?t|no longer|hardly|rarely|barely|can'?t|haven'?t|used to|won'?t|doesn'?t|outgr(?:own|ew)|gr(?:own|ew) out of)\\b[a-z' ]*$`,
);
/** What is said of a thing after its name, from "that" or whoever says it on. */
const WHAT_IS_SAID_OF_IT = new RegExp(`\\s+(?:(?:that|which)\\s+)?(?:that|which|${WHO})\\s.*$`);

/** Where things lie, said after them, which is no part of their name: "toys everywhere". */
export const LYING_ABOUT =
  /\s+(?:(?:is|are)\s+)?(?:everywhere|all over(?: the place)?|too|as well|lying around)$/;

/**
 * The name of a thing in a part of a list, without what is said of it: "receipts on my kitchen
 * table" is receipts, "a toaster we never use" a toaster, "a bunch of takeaway menus" takeaway menus.
 */
function nameIn(part: string): string {
  return (
    part
      .trim()
      .replace(/[.!]+$/, '')
      .replace(LYING_ABOUT, '')
      // where the things are is not their name: "receipts on my kitchen table"
      // where the things are, or came from, is not their name: "receipts on my kitchen table",
      // "mugs from the office"
      .replace(
        /\s+(?:on|in|under|across|around|by|next to|all over|over|from)\s+(?:the|my|our|a)\s+[a-z ]+$/,
        '',
      )
      // what a thing is full of is the thing to sort: "an umbrella stand full of broken umbrellas"
      .replace(
        /^[a-z' ]{1,40}?\s+(?:full of|stuffed with|packed with|crammed with|overflowing with)\s+(?=[a-z])/,
        '',
      )
      // "a toaster we never use": what is said of a thing is no part of its name (of a thing
      // named with its article: "honestly we never use it" names none)
      .replace(SAID_OF_THE_NAMED, '$1')
      // "clothes I never wear", "old bags we don't use": the same without the article, when
      // what follows says how little the thing is used ("honestly we never use it" names none)
      .replace(SAID_OF_THE_BARE, '$1')
      // "jeans that don't fit", "a lamp which flickers": what is said of it is no part of its name
      // ("a laundry basket that's overflowing")
      .replace(/^([a-z' -]+?)\s+(?:that|which)(?:'s\s|\s)[a-z' ]*$/, '$1')
      .replace(/^(?:a|an|the|my|some)\s+/, '')
      .replace(
        /^(?:\d+|two|three|four|five|six|seven|eight|nine|ten|a few|lots of|a lot of|loads of|heaps of|tons of|plenty of|a couple of)\s+/,
        '',
      )
      .replace(
        /^(?:(?:a\s+)?(?:stacks?|piles?|bunch(?:es)?|box(?:es)?|bags?|crates?|heaps?|loads?|couple)\s+of)\s+/,
        '',
      )
  );
}

/** How many parts at the end of a list are the person speaking of themselves: "I don't even know where to start". */
function trailingSpeech(parts: readonly string[]): number {
  let n = 0;
  while (n < parts.length && SPEAKS.test(parts[parts.length - 1 - n] ?? '')) n++;
  return n;
}

/** A part that is a person speaking of themselves or of how it feels, not a thing. */
const SPEAKS = /^(?:i|i'm|i've|i'd|we|we're|we've|it's|honestly|help|ugh)\b/;

/** Whether a part of a list, once named (see nameIn), names a thing: a few words, no pronoun, no purpose. */
const isThing = (part: string) =>
  part.split(/\s+/).length <= 3 &&
  !/^(?:i|i'm|we|you|it|it's|there|this|that|they|he|she|someone|somebody|something|anyone|anything|nobody|nothing|everyone|everything)\b/.test(
    part,
  ) &&
  !NOT_A_THING.test(part);

/**
 * The one thing words name with what is said of it ("clothes I never wear"), or null when they
 * name no thing that way.
 */
export function thingSaidOf(words: string): string | null {
  // (a question names no thing this way: "where do things that break go")
  if (
    words.includes('?') ||
    /^(?:where|what|when|why|how|who|which|do|does|did|is|are|can|should)\b/.test(words)
  )
    return null;
  // ("there's also a pile of clothes she's grown out of": a thing named after "there's also")
  const said = words.replace(/^(?:(?:and|also|oh|plus)\s+)*(?:there(?:'s| is| are)\s+)?(?:also\s+)?/, '');
  const cut = said.replace(WHAT_IS_SAID_OF_IT, '');
  if (cut === said) return null;
  // the name is what is left once what is said of it is cut off
  const name = nameIn(said);
  return name !== '' && name === nameIn(cut) && isThing(name) ? name : null;
}

/** The space said of first, then a colon: "the hallway is a mess: …", "my desk's a state: …". */
const SPACE_THEN_COLON =
  /^(?:(?:my|the|our|this)\s+)?([a-z]+(?:\s+[a-z]+)?(?:\s+(?:is|are|looks?)\s|'s\s)[^:,.;?]{0,40}):\s*\S/;

/**
 * A sentence about the space itself, its "my" already gone: "bedroom is a disaster", "desk's a
 * mess", "spare room looks awful" (not "it is", which speaks of a thing).
 */
const SAID_OF_THE_SPACE =
  /^(?!(?:i|it|this|that|there|they|he|she|we|you)\b)[a-z]+(?:\s+[a-z]+)?(?:\s+(?:is|are|looks?)\s|'s\s+(?:a|an|so|such|totally|completely|full|covered)\b)/;
