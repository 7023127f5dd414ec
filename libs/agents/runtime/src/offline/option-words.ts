import { clausesOf, keywords } from './text';

/**
 * Which option of a card words name, the way a person answers one: by the letter the card shows or
 * an id ("B", "b for all of these", "option c"), by its place ("the first one"), by its own words
 * ("keep in inbox") or by a word of its label alone ("archive them"). Read by the offline model's
 * reading of words typed at a choice or a proposal (./off-script-rule).
 */

export interface Option {
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
export function optionInWords<O extends Option>(text: string, options: readonly O[]): O | undefined {
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
export const QUALIFIED = /\b(?:but|except|apart from|other than)\b/i;

/** Words that turn a pick around ("don't archive them"): no option is read from them. */
const NEGATED = /\b(?:no|not|don'?t|do not|never|rather not|instead of)\b/i;

/**
 * The one option whose label holds a meaningful word of a short reply ("archive them" at "Tier 1
 * (auto-archive)", "note it" at "Note it, don't surface"), when no other label holds any of them.
 * A word every option shares ("tier") picks nothing; nor does a reply that says no, or a sentence.
 */
export function optionByKeyword<O extends Option>(text: string, options: readonly O[]): O | undefined {
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
export function optionByFirstClause<O extends Option>(text: string, options: readonly O[]): O | undefined {
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
