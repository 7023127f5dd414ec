import { toJson } from '@sweatpants/domain';
import type { OfflineContext, OfflineRule } from '@sweatpants/agent-runtime/offline';
import { learntIn } from './interview-learning';
import { CARD_AGAIN, STRANGER } from './offline-aside';
import { letteredLabel, optionLetters } from './option-framing';
import { lastQueried, lesson } from './offline-read';
import { cardOfferIn, openCardIn, type CardOffer } from './side-quest';

/** A letter that picks an option in part of a message: "B for Trailgear", "Bookbarn is A", "option c". */
const PART_LETTER =
  /(?:\boption\s+([a-z0-9])\b|\b([A-Z0-9])(?=\s+for\b|\s*(?:[,.;!]|$))|(?:\bis|\bas|→|:|=)\s*([A-Z0-9])\b)/;

/**
 * A pick per sender typed at a card ("B for Trailgear, A for Bookbarn", or by the options' own
 * words: "archive the Trailgear ones, note Bookbarn"), or per item named by its subject ("the
 * points one matters to me"), with "the others" for the card's items no other part named: each
 * option is applied to the items named with it, in a batch each; the card then comes back for the
 * items left (./side-quest). Null unless every part that names a letter names items of the card
 * too, and no item gets two letters.
 */
function picksBySender(ctx: OfflineContext): {
  picks: { option: CardOffer['options'][number]; ids: string[] }[];
  /** senders said to be strangers ("bookbarn I've never heard of"), picked for by no part */
  strangers: string[];
} | null {
  // The card's own call is not in a side quest's history (it has no result yet): its note says it.
  const offer = cardOfferIn(ctx.request.system);
  const items = lastQueried(ctx)?.activities.filter((a) => offer?.activity_ids.includes(a.id)) ?? [];
  if (!offer || items.length === 0) return null;
  const letters = optionLetters(offer.options.map((o) => o.id));
  const picks = new Map<string, string[]>();
  const taken = new Set<string>();
  const strangers: string[] = [];
  /** the option for "the others": the items no other part named */
  let others: CardOffer['options'][number] | undefined;
  /** items named bare ("the shell sale and bookbarn are junk"), picked for by the part after */
  let carried: typeof items = [];
  // at a card of one sender's mail, what is said of "it" or "those" is said of all of it
  const oneSender = new Set(items.map(senderOf)).size === 1;
  for (const part of ctx.userText.split(/\s*(?:[,;]|\bbut\b|\band\b|\bwhile\b)\s*/i)) {
    const m = PART_LETTER.exec(part);
    const letter = (m?.[1] ?? m?.[2] ?? m?.[3])?.toUpperCase();
    const option = letter
      ? offer.options[letters.indexOf(letter)]
      : (optionByWord(part, offer.options) ?? optionByKind(part, offer.options));
    const named = mostNamed(
      part,
      items.filter((a) => namesSender(part, senderOf(a)) || namesSubject(part, a.subject, items)),
    );
    if (!letter && !option && named.length > 0 && BARE.test(part) && !STRANGER.test(part)) {
      carried = [...carried, ...named];
      continue;
    }
    // ("they're all junk", "bin them all": said of every item of the card)
    const ofAll = oneSender || ALL_OF_THEM.test(part);
    const from = option ? [...carried, ...(named.length === 0 && ofAll && !letter ? items : named)] : named;
    carried = [];
    if (from.length === 0 && THE_OTHERS.test(part)) {
      if (letter && !option) return null;
      others = option ?? others;
      continue;
    }
    // a sender said to be a stranger is most likely a marketing list: said so, not picked (what
    // kind of sender it is stays the person's to say)
    if (!letter && !option && STRANGER.test(part)) strangers.push(...from.map(senderOf));
    // a word of an option's label with no sender beside it ("archive them") picks for no one
    if (!letter && (!option || from.length === 0)) continue;
    if (!option || from.length === 0) return null;
    // an item picked for twice alike ("that's my bank, show me those") is picked once; two
    // readings for one item are no pick
    const already = picks.get(option.id) ?? [];
    if (from.some((a) => taken.has(a.id) && !already.includes(a.id))) return null;
    const fresh = from.filter((a) => !taken.has(a.id));
    for (const a of fresh) taken.add(a.id);
    picks.set(option.id, [...already, ...fresh.map((a) => a.id)]);
  }
  // "the others" are the others of the items the other parts named: alone, it names none.
  const left = items.filter((a) => !taken.has(a.id));
  if (others && taken.size > 0 && left.length > 0)
    picks.set(others.id, [...(picks.get(others.id) ?? []), ...left.map((a) => a.id)]);
  // In the order the person named them.
  return picks.size === 0
    ? null
    : {
        picks: [...picks].flatMap(([id, ids]) => {
          const option = offer.options.find((o) => o.id === id);
          return option ? [{ option, ids }] : [];
        }),
        strangers: [...new Set(strangers)],
      };
}

/**
 * The one option whose action, in its label's brackets, a part names without a letter: "archive
 * the Trailgear ones" (auto-archive), "note Bookbarn" (note, don't surface). What kind of mail a
 * label says ("newsletter") is not taken as a pick: "Bookbarn is just a newsletter" says what it
 * is, not what to do. None when the part turns it around ("don't archive") or fits two options.
 */
function optionByWord(part: string, options: CardOffer['options']): CardOffer['options'][number] | undefined {
  if (NEGATED.test(part)) return undefined;
  const said = new Set(part.toLowerCase().split(/[^a-z]+/));
  const naming = options.filter((o) => actionWords(o.label).some((word) => said.has(word)));
  return naming.length === 1 ? naming[0] : undefined;
}

/**
 * What the person says a sender is to them, in the words of one option's reading: "I buy from
 * Trailgear a lot", "it's a shop I use" (a vendor you've bought from); "Bookbarn is just spam"
 * (a marketing list). Only a kind said outright: "never heard of them" is a hint, not a pick
 * (./offline-aside). None when the part turns it around or the kind fits two options.
 */
function optionByKind(part: string, options: CardOffer['options']): CardOffer['options'][number] | undefined {
  if (NEGATED.test(part)) return undefined;
  const kind = SAID_KINDS.find(({ said }) => said.test(part));
  if (!kind) return undefined;
  const naming = options.filter((o) => kind.label.test(o.label.split('→')[0] ?? ''));
  return naming.length === 1 ? naming[0] : undefined;
}

/** Kinds of sender as people say them, each with the words of the option's reading it is. */
const SAID_KINDS: readonly { said: RegExp; label: RegExp }[] = [
  {
    said: /\b(?:(?:i|we)\s+(?:\w+\s+)?(?:buy|bought|shop|order(?:ed)?)\s+(?:from|at|with)|(?:a\s+)?shops?\s+(?:i|we)\s+(?:\w+\s+)?(?:use|buy\s+from|shop\s+at)|(?:i|we)\s+(?:(?:actually|really|do|still)\s+)?use)\b/i,
    label: /\b(?:bought from|vendor)\b/i,
  },
  // ("bin them all", "none of it matters": what is never read is a marketing list's)
  {
    said: /\b(?:spam|junk|marketing|ads|adverts?|advertising|rubbish|useless|bin|delete|trash|chuck|get\s+rid\s+of|none\s+of\s+(?:it|them|these|this)\s+(?:matters?|is\s+important))\b/i,
    label: /\bmarketing list\b/i,
  },
  {
    said: /\b(?:(?:really\s+)?matters?\s+to\s+(?:me|us)|(?:is|are|it'?s)\s+(?:really\s+)?important|(?:i|we)\s+(?:(?:really|actually|do)\s+)?(?:(?:need|want)\s+to\s+see|care\s+about)|show\s+(?:me|us)\s+(?:those|them|it|these|this|that|their)|(?:it'?s|that'?s|they'?re|they\s+are)\s+(?:from\s+)?my\s+(?:bank|doctor|gp|dentist|school|council|landlord|insurer|insurance|pension|employer|accountant))\b/i,
    label: /\bimportant update\b/i,
  },
];

/** "they're all junk", "bin them all", "the lot": what a part says is said of every item of the card. */
const ALL_OF_THEM =
  /\b(?:(?:them|they(?:'re|\s+are)?|these|those)\s+all|all\s+(?:of\s+)?(?:them|these|those|it)|everything(?!\s+else)|the\s+lot|every\s+one(?:\s+of\s+them)?)\b/i;

/** "the others", "the rest", "everything else": the card's items no other part named. */
const THE_OTHERS =
  /\b(?:the\s+others?|the\s+other\s+(?:ones?|two|three|four)|the\s+rest|everything\s+else)\b/i;

/**
 * Whether words name an item by its subject, as people point to one mail among a few: "the points
 * one", "the one about the rain shells". Each word said must be in its subject and the words in no
 * other item's of the card, so "the week one" names none when two subjects say "week".
 */
function namesSubject(words: string, subject: string, items: readonly { subject: string }[]): boolean {
  const said = SUBJECT_NAMED.exec(words);
  const named = (said?.[1] ?? said?.[2] ?? '')
    .toLowerCase()
    .split(/[^a-z0-9%]+/)
    .filter((w) => w.length >= 3 && w !== 'the');
  if (named.length === 0) return false;
  const says = (text: string) => named.every((w) => new RegExp(`\\b${w}`, 'i').test(text));
  return says(subject) && items.filter((a) => says(a.subject)).length === 1;
}

/** "the points one", "the rain shells ones", "the one about points", "the mail about the sale". */
const SUBJECT_NAMED =
  /\bthe\s+([a-z0-9%][\w%' ]{1,40}?)\s+(?:one|ones|mail|email|message|sale|offer|deal|promo|discount|reminder)\b|\bthe\s+(?:one|mail|email|message)\s+about\s+(?:the\s+|my\s+|your\s+)?([a-z0-9%]+)/i;

/** "… → Tier 2 (note, don't surface)" → ["note"]: the bracket's actions, not the ones it turns down. */
function actionWords(label: string): string[] {
  const bracket = /\(([^)]*)\)\s*$/.exec(label)?.[1] ?? '';
  return bracket
    .toLowerCase()
    .split(/\s*,\s*/)
    .filter((action) => !NEGATED.test(action))
    .flatMap((action) => action.split(/[^a-z]+/))
    .filter((word) => word.length >= 4);
}

/** Words that turn a pick around. */
const NEGATED = /\b(?:no|not|don'?t|do not|doesn'?t|does not|isn'?t|never|rather not)\b/i;

/** A part that is no more than a name or two ("the shell sale", "bookbarn"): what is said of it comes next. */
const BARE = /^\s*(?:\S+\s+){0,3}\S+\s*$/;

/** A sender as the card names it: its name, else its address. */
export const senderOf = (a: { sender: string; senderName?: string | null }) => a.senderName || a.sender;

/** The items whose sender the words name, most closely ("the bookbarn ones", "trailgear rewards"). */
export function sendersNamedIn<T extends { sender: string; senderName?: string | null }>(
  words: string,
  items: readonly T[],
): T[] {
  return mostNamed(
    words,
    items.filter((a) => namesSender(words, senderOf(a))),
  );
}

/**
 * The one option whose reading the words say, by its action ("archive them") or by the kind of
 * sender ("I want to see those", "it's just spam"); none when they say none, or turn it around.
 */
export function readingSaidIn(
  words: string,
  options: CardOffer['options'],
): CardOffer['options'][number] | undefined {
  return optionByWord(words, options) ?? optionByKind(words, options);
}

/**
 * The items a part names most closely: "I use trailgear rewards" names Trailgear Rewards, not
 * Trailgear too, though "trailgear" is in it; "the Trailgear ones" names both.
 */
function mostNamed<T extends { sender: string; senderName?: string | null }>(part: string, named: T[]): T[] {
  const words = (text: string) =>
    text
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter(Boolean);
  const said = new Set(words(part));
  // "Trailgear Rewards" said whole holds "Trailgear": the shorter name is no second sender named
  const holds = (outer: string, inner: string) =>
    ` ${words(outer).join(' ')} `.includes(` ${words(inner).join(' ')} `);
  return named.filter((a) => {
    const name = senderOf(a);
    return !named.some((b) => {
      const other = senderOf(b);
      return other.length > name.length && words(other).every((w) => said.has(w)) && holds(other, name);
    });
  });
}

/** Whether words name a sender: any word of its name of four letters or more ("Trailgear" for "Trailgear Rewards"). */
function namesSender(words: string, sender: string): boolean {
  return sender
    .split(/[^a-z0-9]+/i)
    .filter((w) => w.length >= 4)
    .some((w) => new RegExp(`\\b${w}\\b`, 'i').test(words));
}

export const splitPickAside: OfflineRule = {
  name: 'concierge: a pick per sender typed at a card applies each option to its senders’ items',
  when: (ctx) => !ctx.hasToolResults && openCardIn(ctx.request.system) !== undefined,
  reply: (ctx) => {
    const bySender = picksBySender(ctx);
    if (!bySender) return undefined;
    const { picks, strangers } = bySender;
    const read = lastQueried(ctx)?.activities ?? [];
    const said = picks.map(({ option, ids }) => {
      const senders = [
        ...new Set(ids.map((id) => read.find((a) => a.id === id)).map((a) => a?.senderName || a?.sender)),
      ];
      return `${letterOf(ctx, option.id)} for ${senders.join(', ')}`;
    });
    const list = cardOfferIn(ctx.request.system)?.options.find((o) => /marketing list/i.test(o.label));
    const hint =
      strangers.length > 0 && list
        ? ` ${strangers.join(', ')}: mail from a sender you never signed up for is most likely a marketing list (${letterOf(ctx, list.id)}).`
        : '';
    return {
      text: `(offline) ${said.join('; ')}: applying ${picks.length === 1 ? 'it' : 'them'}.${hint}`,
      calls: picks.flatMap(({ option, ids }) => [
        { name: 'update_activities', input: toJson({ activity_ids: ids, updates: option.updates }) },
        lesson(ctx, letteredLabel(letterOf(ctx, option.id), option.label), ids),
      ]),
    };
  },
};

/** "same as before", "the same again", "ditto": the reading picked last in this review, once more. */
const SAME_AGAIN =
  /^(?:(?:the\s+)?same(?:\s+(?:as\s+(?:before|last\s+time|the\s+last\s+(?:one|ones|group|card)|(?:those|them|the\s+others?))|again|here|for\s+(?:this|these|them|it)))?|ditto)[.!]*$/i;

export const samePickAside: OfflineRule = {
  name: 'concierge: "same as before" typed at a card applies the reading picked last to all of it',
  when: (ctx) =>
    !ctx.hasToolResults &&
    openCardIn(ctx.request.system) !== undefined &&
    SAME_AGAIN.test(ctx.userText.trim()),
  reply: (ctx) => {
    const offer = cardOfferIn(ctx.request.system);
    // The lesson the last pick taught: "A. Newsletter from a marketing list → … for mail from …".
    const last = learntIn(ctx.request.system).at(-1)?.split(' for mail from ')[0];
    const option = offer?.options.find((o) => letteredLabel(letterOf(ctx, o.id), o.label) === last);
    if (!offer || !option || !last) {
      return {
        text: `(offline) There is no earlier pick in this review to go by. ${CARD_AGAIN}`,
      };
    }
    const ids = offer.activity_ids;
    return {
      text: `(offline) ${letterOf(ctx, option.id)} again, as before: applying it.`,
      calls: [
        { name: 'update_activities', input: toJson({ activity_ids: ids, updates: option.updates }) },
        lesson(ctx, last, ids),
      ],
    };
  },
};

/** The letter the open card shows for an option. */
function letterOf(ctx: OfflineContext, id: string): string {
  const ids = cardOfferIn(ctx.request.system)?.options.map((o) => o.id) ?? [];
  return optionLetters(ids)[ids.indexOf(id)] ?? id;
}
