import { createHash } from 'node:crypto';

import type { Json } from '@sweatpants/domain';

/**
 * Words too common to say anything about what the user means. Apostrophes are dropped before the
 * lookup, so "don't" is listed as "dont".
 */
const STOP_WORDS = new Set(
  (
    'a about above after again all also am an and any are as at be because been before being below ' +
    'between both but by can could did do does doing dont down during each few for from further get ' +
    'got had has have having he her here hers herself him himself his how i id if im in into is it ' +
    'its itself ive just let lets me more most my myself no nor not now of off on once only or other ' +
    'our ours ourselves out over own really same she should so some such than that thats the their ' +
    'theirs them themselves then there these they this those through to too under until up very was ' +
    'we were what when where which while who whom why will with would you your yours yourself ' +
    'yourselves ok okay please thanks thank yes yeah hi hello hey um uh like want need think'
  ).split(' '),
);

/**
 * Words for part of the thing asked about: the rest of it once a part is decided apart ("keep the
 * bills, bin the rest"), and some of it told by how many ("two go to the kitchen, one stays").
 */
export const THE_REST = /(?:^|\b(?:all )?the )(?:rest|others|remainder)\b|\beverything else\b/i;

/** Not wanting to share what a device question asks ("I'd rather not", "no thanks", "keep it private"). */
export const REFUSES =
  /^\s*(?:no\b|nope\b|nah\b|i'?d rather not|rather not|i'?d prefer not|prefer not|i don'?t want to|don'?t want to|not (?:sharing|comfortable)|keep (?:it|that) private|no thanks)/i;

/** Someone else would have the thing: "someone else might", "somebody could use it". */
export const SOMEONE_ELSE = /\b(?:someone|somebody)(?: else)? (?:could|might|would|can|will)\b/i;
export const COUNTED =
  /^(?:one|two|three|four|five|both|most|half|a couple|a few)(?: of (?:them|these|those))?\b/i;

/**
 * A yes said outright ("yep", "sure", "absolutely"). Not "ok": that also starts a sentence that
 * goes on to say something else ("ok so it's worn"), so only readings that take the whole reply as
 * a yes (a proposal, a yes/no question) add it.
 */
export const YES_WORDS = ['yes', 'yeah', 'yep', 'yup', 'sure', 'definitely', 'absolutely'] as const;

/**
 * A yes said as people say it about a thing ("mostly, a few have stains", "torn but otherwise
 * fine"), and a no ("not really", "falling apart").
 */
export const MOSTLY = [
  'mostly',
  'mainly',
  'pretty much',
  'more or less',
  'fine',
  'good',
  'great',
  'like new',
];
export const MOSTLY_NOT = [
  'not really',
  'not good',
  'not great',
  'not fine',
  'worn out',
  'falling apart',
  'broken',
];

/** "definitely not", "absolutely not", "of course not": a no, though it starts like a yes. */
export const EMPHATIC_NO = /\b(?:definitely|absolutely|certainly|of course)\s+not\b/i;

/** Words that ask something: a question mark, or a question's first word. */
const ASKS =
  /\?|^\s*(?:what|why|how|who|whose|when|where|which|is|are|can|could|do|does|did|will|would|should)\b/i;

/**
 * Whether the words ask something rather than tell it.
 *
 * @example
 * asksSomething('what does collected mean'); // true
 * asksSomething("it's quite worn"); // false
 */
export const asksSomething = (text: string): boolean => ASKS.test(text);

/**
 * Singular of a plural, by rule rather than dictionary: it only has to make "books" and "book", or
 * "boxes" and "box", meet; a wrong stem on an odd word ("bus" → "bu") costs nothing as long as both
 * sides of a comparison go through the same function.
 *
 * @example
 * stem('boxes'); // 'box'
 * stem('libraries'); // 'library'
 */
export function stem(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (/(?:ss|x|ch|sh|z)es$/.test(word) && word.length > 4) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !/(?:ss|us|is)$/.test(word)) return word.slice(0, -1);
  return word;
}

/** Every word of `text`, lower-cased, without apostrophes, in order, repeats kept. */
function words(text: string): string[] {
  const found = text.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}'’]*/gu) ?? [];
  return found.map((word) => word.replace(/['’]/g, ''));
}

/** Every word of `text`, lower-cased and stemmed, in order, repeats kept. */
export function tokens(text: string): string[] {
  return words(text).map(stem);
}

/**
 * The words of `text` that carry meaning: lower-cased, stemmed, without stop-words or single
 * letters, each once, in the order they first appear.
 *
 * @example keywords('Where do the books and the lamp go?') // ['book', 'lamp', 'go']
 */
export function keywords(text: string): string[] {
  // stop-words are looked up before stemming: "does" would stem to "doe", which no list holds
  const meaningful = words(text).filter((word) => word.length > 1 && !STOP_WORDS.has(word));
  return [...new Set(meaningful.map(stem))];
}

/**
 * The keywords of `text` as the user wrote them (lower-cased, not stemmed), one per stem: for
 * reflecting back to the user, where "clothes" reads better than its stem.
 */
export function keywordsAsSaid(text: string): string[] {
  const byStem = new Map<string, string>();
  for (const word of words(text)) {
    if (word.length > 1 && !STOP_WORDS.has(word) && !byStem.has(stem(word))) byStem.set(stem(word), word);
  }
  return [...byStem.values()];
}

/**
 * Whether `text` mentions any of `words`. Both sides are tokenised the same way, so plurals meet
 * their singulars; a multi-word entry ("put away") matches only as consecutive words; stop-words
 * and single letters count here ("B for all of these" mentions "b").
 *
 * @example mentions('Toss the boxes', ['box', 'bag']) // true
 */
export function mentions(text: string, words: readonly string[]): boolean {
  const said = tokens(text);
  return words.some((entry) => {
    const phrase = tokens(entry);
    if (phrase.length === 0) return false;
    return said.some((_, start) => phrase.every((word, i) => said[start + i] === word));
  });
}

/** Hex sha-256 of the canonical JSON of `value` (object keys sorted), so equal content hashes equal. */
export function hashJson(value: Json): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex');
}

/** JSON with every object's keys sorted, so equal content is written alike. */
export function canonicalJson(value: Json): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key] ?? null)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * How many words `text` has: the offline model's stand-in for tokens in `usage`, since it has no
 * tokenizer and words are at least an honest count of something.
 */
export function countWords(text: string): number {
  // What `text.match(/\S+/g).length` counts, without building the array of words: the model
  // counts the whole request on every call.
  let words = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const space = isWhitespace(text.charCodeAt(i));
    if (!space && !inWord) words++;
    inWord = !space;
  }
  return words;
}

/** Whether a UTF-16 code unit is whitespace as a regular expression's `\s` means it. */
function isWhitespace(code: number): boolean {
  if (code <= 32) return code === 32 || (code >= 9 && code <= 13);
  if (code < 0xa0) return false;
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/**
 * `text` cut into word-sized pieces that concatenate back to exactly `text`: each piece is one word
 * with the whitespace before it, and leading whitespace rides with the first word.
 */
export function wordChunks(text: string): string[] {
  return text.split(/(?<=\S)(?=\s)/).filter((chunk) => chunk.length > 0);
}

/** The parts of a reply, split where one clause hands over to the next. */
export const clausesOf = (text: string): string[] =>
  text.split(/\s*(?:[,;]|\band\b|\bthen\b|\bwhile\b)\s*/i).filter(Boolean);

/** Whether `text` says any of `words` as whole words ("keep" in "keep it", not in "keeper"). */
export const said = (text: string, words: readonly string[]): boolean =>
  words.some((w) => new RegExp(`\\b${w}\\b`, 'i').test(text));

/** A question of the user's own is a tangent, whatever else it mentions. */
export const asksBack = (text: string): boolean => text.includes('?');

/** Asking for the thing to be fetched, as a question: "can someone pick it up?", "could you collect them?". */
const FETCH_ASKED =
  /(?:^|(?<=[.!?,;]\s*))(?:(?:and|so|but)\s+)?(?:can|could|would|will)\s+(?:someone|somebody|you|anyone|they)\s+(?:please\s+)?(?:pick|collect|come|fetch)\b[^?]*\?/gi;

/**
 * Whether words typed at a form ask something back, besides asking for the thing to be fetched:
 * "it's fine. can someone pick it up?" fills the form in (good, collected) rather than asks.
 */
export const asksBackOfAForm = (text: string): boolean => asksBack(besidesFetching(text));

/** The words besides any asking for the thing to be fetched ("can someone pick it up?"). */
export const besidesFetching = (text: string): string => text.replace(FETCH_ASKED, '.');
