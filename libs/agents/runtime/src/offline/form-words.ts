import type { Json } from '@sweatpants/domain';
import { asSchema, type JsonSchema, schemaTypes, validateJson } from './json-schema';
import { EMPHATIC_NO, keywords, mentions, tokens, YES_WORDS } from './text';

/**
 * The offline reading of words typed at a form ("they're in good condition, just one box"): each
 * field read by its type in the form's JSON schema, the way a person would fill it in from them.
 *
 * - a field of named values (`enum`) takes the one value the words name ("good");
 * - number fields take the numbers said, digits or words, in the form's order ("one box" → 1);
 * - a yes/no field is yes when the words name it ("collected" for "Would you rather it were
 *   collected?"), or say a plain yes when it is the form's one yes/no question; no otherwise, as
 *   its unticked box would be;
 * - a field of free words cannot be told from the rest of the sentence, so it is never filled.
 *
 * The reading is an answer only when it fills the form as submitted would (every required field,
 * each valid); otherwise null, and the words are the person's own, said aside.
 *
 * @example
 * formAnswerIn(describeForm, "they're in good condition, just one box");
 * // { condition: 'good', bags: 1, collection: false }
 */
export function formAnswerIn(schema: JsonSchema, text: string): { [key: string]: Json } | null {
  const reading = readForm(schema, text);
  return reading && reading.unread.length === 0 && validateJson(schema, reading.values).length === 0
    ? reading.values
    : null;
}

/**
 * What words give of a form they do not fill in ("good condition" at a form that also asks how
 * many bags): the values said, a yes/no field only when it is a yes, and the required fields left
 * out; null when they give nothing.
 */
export function formPartIn(schema: JsonSchema, text: string): FormReading | null {
  const reading = readForm(schema, text);
  if (reading === null) return null;
  const values = Object.fromEntries(Object.entries(reading.values).filter(([, value]) => value !== false));
  return Object.keys(values).length > 0 ? { values, unread: reading.unread } : null;
}

/** A form read from words: the values found, and the required fields they gave no value for. */
export interface FormReading {
  values: { [key: string]: Json };
  /** each required field with no value in the words, by its question ("How many bags or boxes?") */
  unread: string[];
}

/** The form's fields read from `text` as `formAnswerIn` reads them; null for a schema of no fields. */
export function readForm(schema: JsonSchema, text: string): FormReading | null {
  if (typeof schema === 'boolean') return null;
  const properties = schema['properties'];
  if (properties === null || typeof properties !== 'object' || Array.isArray(properties)) return null;
  const required = Array.isArray(schema['required']) ? schema['required'] : [];
  const fields = Object.entries(properties).flatMap(([name, value]) => {
    const field = asSchema(value);
    return field === undefined || typeof field === 'boolean' ? [] : [{ name, field }];
  });
  const values: { [key: string]: Json } = {};
  const numbers = numbersIn(text);
  // With one yes/no question on the form, a plain "yes" answers it ("yes please, it won't fit in my car").
  const yesNo = fields.filter(({ field }) => (schemaTypes(field) ?? []).includes('boolean'));
  const plainYes = yesNo.length === 1 && saysPlainYes(text);
  for (const { name, field } of fields) {
    const named = field['enum'];
    const types = schemaTypes(field) ?? [];
    if (Array.isArray(named)) {
      const value = valueNamed(named, text);
      if (value !== undefined) values[name] = value;
    } else if (types.includes('integer') || types.includes('number')) {
      const value = numbers.shift();
      if (value !== undefined) values[name] = value;
    } else if (types.includes('boolean')) {
      values[name] = plainYes || saysYesTo(name, field, text);
    }
  }
  const unread = fields
    .filter(({ name }) => required.includes(name) && !(name in values))
    .map(({ name, field }) => (typeof field['description'] === 'string' ? field['description'] : name));
  return { values, unread };
}

/**
 * What people say for a few values forms often offer: "decent" is "good", "barely used" is "like
 * new", "tatty" is "worn". Read only where the form offers the value. Not "ok" or "old": they
 * lead a sentence or colour a thing ("it's old but works") more often than they grade it.
 */
const SAID_FOR_VALUE: { readonly [value: string]: readonly string[] } = {
  good: ['decent', 'fine', 'great', 'good nick', 'nice'],
  'like new': [
    'as new',
    'brand new',
    'barely used',
    'hardly used',
    'never used',
    'mint',
    'pristine',
    'unused',
  ],
  worn: ['tatty', 'battered', 'shabby', 'scruffy', 'well used', 'used a lot', 'worn out', 'rough'],
};

/**
 * The one value of `named` the words give as whole words; none, or two different, gives none. A
 * value named as it is beats one only said in other words ("pretty worn, and collection would be
 * great": worn, not good).
 */
function valueNamed(named: readonly Json[], text: string): Json | undefined {
  return (
    oneNamed(named, text, (value) => [value]) ??
    oneNamed(named, text, (value) => [value, ...(SAID_FOR_VALUE[value.toLowerCase()] ?? [])])
  );
}

/** The one value whose `words` the text says; none, or two different, gives none. */
function oneNamed(
  named: readonly Json[],
  text: string,
  words: (value: string) => readonly string[],
): Json | undefined {
  const found = named.filter((value) => typeof value === 'string' && mentions(text, words(value)));
  // "like new" also mentions "new": the longer value said is the one meant
  const meant = found.filter(
    (value) =>
      !found.some(
        (other) =>
          other !== value &&
          String(other).length > String(value).length &&
          mentions(String(other), [String(value)]),
      ),
  );
  return meant.length === 1 ? meant[0] : undefined;
}

const NUMBER_WORDS = [
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
];

/**
 * The numbers said, in order, in digits or words: "2", "2.5", "two". A number before "of" counts
 * some of something else ("one of them has a stain"), so it is not one.
 */
function numbersIn(text: string): number[] {
  const found = text.toLowerCase().match(/(?:\d+(?:\.\d+)?(?![\d.])|\b[a-z]+\b)(?!\s+of\b)/g) ?? [];
  return found.flatMap((word) => {
    if (/^\d/.test(word)) return [Number(word)];
    const at = NUMBER_WORDS.indexOf(word);
    return at < 0 ? [] : [at + 1];
  });
}

/** Words that turn a yes into a no when they come just before it ("not collected", "no pick-up"). */
const NEGATION = /\b(?:no|not|don'?t|do not|doesn'?t|without|never|rather not)\b(?:\s+\S+){0,3}\s*$/i;

/**
 * Whether the words say yes to a yes/no field: they name what it asks (a keyword of its name or
 * its description, "collection" and "collected" alike), not just after a no.
 */
function saysYesTo(name: string, field: { readonly [keyword: string]: Json }, text: string): boolean {
  const description = typeof field['description'] === 'string' ? field['description'] : '';
  const asked = keywords(`${name.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/_/g, ' ')} ${description}`)
    .filter((word) => word.length >= 5 && !VAGUE.has(word))
    .map(root);
  const said = tokens(
    text.replace(OTHER_WORDS, (_, verb: string) => OTHER_WORDS_FOR[verb.toLowerCase()] ?? verb),
  );
  return said.some((word, at) => {
    if (!asked.some((wanted) => root(word) === wanted)) return false;
    return !NEGATION.test(said.slice(Math.max(0, at - 4), at).join(' '));
  });
}

/** A yes said outright, not just after a no ("no, yes it is" aside): "yes please", "yeah", "sure". */
function saysPlainYes(text: string): boolean {
  if (EMPHATIC_NO.test(text)) return false;
  const said = tokens(text);
  return said.some(
    (word, at) => YES.has(word) && !NEGATION.test(said.slice(Math.max(0, at - 4), at).join(' ')),
  );
}
const YES = new Set<string>(YES_WORDS);

/** Asks a form puts one way and people another: "picked up" for "collected". */
const OTHER_WORDS_FOR: Record<string, string> = {
  pick: 'collect',
  picked: 'collected',
  picking: 'collecting',
};
const OTHER_WORDS = /\b(pick(?:ed|ing)?)(?:\s+(?:it|them|this|these|that|those))?[\s-]*up\b/gi;

/** Words of a question that say how it is asked, not what: "would you rather it were collected?". */
const VAGUE = new Set(['rather', 'prefer', 'would', 'could', 'should', 'there', 'which', 'whether', 'about']);

/** "collection", "collected", "collecting" and "collect" meet. */
const root = (word: string): string => word.replace(/(?:ion|ed|ing|s)$/, '');
