import {
  asksSomething,
  setQuestionAsideRule,
  waitingQuestionRule,
  type OfflineContext,
  type OfflineReply,
  type OfflineRule,
  type OfflineToolCall,
} from '@sweatpants/agent-runtime/offline';
import { listOf, notForGiving, whereTheyGo } from './donation-replies';
import { townAtLocationRule, wordsAtLocationRule } from './offline-location';
import { placeNamedIn } from './place-names';
import type { Condition, Kind, Point } from './drop-off-directory';
import { kindOf } from './item-kind';
import { bagsOf, isPlural, itemsIn, saidBroken, saidGood, tellsOfALoss, wantsCollection } from './said-items';
import {
  answered,
  CheckedSchema,
  CopiedSchema,
  DescribedSchema,
  FoundSchema,
  lastTurnOf,
  read,
  resultsOf,
  type Checked,
  type Found,
  type Located,
  type Results,
} from './turn-reading';

/**
 * How the helper answers with no API key: the same walk a model is asked to take, for every
 * thing the person named at once (check each, a short form for each that can be given, one
 * location for all, a search for each, where they go said first and the copy offered after),
 * decided from the results of its own tools so far, so the whole flow runs offline and in tests.
 */

/** One thing to search for, and how the person wants to part with it. */
interface ToFind {
  item: string;
  kind: Kind;
  collection: boolean;
  condition?: Condition;
}

/** Words that close a turn rather than name a thing: "thanks", "that's all". */
const CLOSING =
  /^(?:(?:brilliant|amazing|great|perfect|lovely|awesome|fab|super|ok(?:ay)?|cool|right)[,!.]*\s+)?(?:thanks|thank\s+you|cheers|ok(?:ay)?|great|perfect|lovely|brilliant|amazing|bye|goodbye|no|nope|that's\s+(?:all|it|everything)|thats\s+(?:all|it|everything)|nothing(?:\s+else)?)\b/i;

const ASK_AGAIN =
  "I couldn't tell which things you mean. What would you like to give away? For example: a winter coat, some books.";

/** The helper's offline rules: one walk, its next step read from what its tools answered. */
export const DONATIONS_OFFLINE_RULES: readonly OfflineRule[] = [
  // "I'm done" typed at a question: it is set aside, not walked again from the things named; so is
  // the location, refused in words.
  setQuestionAsideRule,
  // The town typed at the location question answers it; other words there ("Reading", which
  // could be several) are told what it takes, never read as things to give away.
  townAtLocationRule,
  wordsAtLocationRule,
  // Other words typed at a question point back to it, unless they ask for something the walk
  // does: things to give away, or collection ("I'd rather it were collected"; not a question
  // about it: "what does collected mean?").
  {
    ...waitingQuestionRule,
    when: (ctx) =>
      (waitingQuestionRule.when?.(ctx) ?? true) &&
      itemsIn(ctx.lastSaid).length === 0 &&
      (asksSomething(ctx.lastSaid) || !wantsCollection(ctx.lastSaid)),
  },
  {
    name: 'donations: the next step for the things the person named',
    when: (ctx) => ctx.offers('check_item'),
    reply: (ctx) => nextStep(ctx, resultsOf(ctx)),
  },
];

function nextStep(ctx: OfflineContext, results: Results): OfflineReply {
  const { thisTurn } = results;
  const collect = wantsCollection(results.opening);
  if (answered(thisTurn, 'copy_directions')) {
    const copied = read(thisTurn, 'copy_directions', CopiedSchema).at(-1);
    if (!copied?.copied) return { text: "I've left your clipboard as it was." };
    return { text: `I've copied the ${copied.text.includes('\n') ? 'addresses' : 'address'} for you.` };
  }
  if (thisTurn.length === 0) return firstStep(ctx, results, collect);
  if (!answered(thisTurn, 'describe_donation') && !answered(thisTurn, 'find_drop_off'))
    return afterChecks(read(thisTurn, 'check_item', CheckedSchema), collect, results.opening);
  return findOrSay(results, toFind(results, collect));
}

/** The person's words: the things in them, or collection for what was looked for before. */
function firstStep(ctx: OfflineContext, results: Results, collect: boolean): OfflineReply {
  const items = itemsIn(ctx.recentUserText);
  if (items.length > 0)
    return {
      ...(tellsOfALoss(ctx.recentUserText) ? { text: "I'm sorry for your loss." } : {}),
      calls: items.map((item) => ({
        name: 'check_item',
        // what the person already said of it is not asked again
        input: { item, ...conditionSaid(ctx.recentUserText, item) },
      })),
    };
  if (!collect && CLOSING.test(ctx.recentUserText.trim()))
    return { text: "You're welcome. Tell me whenever there's something else you'd like to give away." };
  if (!collect) return { text: ASK_AGAIN };
  const wanted = toFind(results, true);
  if (wanted.length === 0)
    return {
      text: "What would you like collected? Tell me the things, and I'll look for a service near you that collects them.",
    };
  return findOrSay(results, wanted);
}

/** What the person said of a thing's condition right after naming it ("that still works", "that doesn't heat"). */
function conditionSaid(text: string, item: string): { condition?: 'good' | 'poor' } {
  if (saidBroken(text, item)) return { condition: 'poor' };
  return saidGood(text, item) ? { condition: 'good' } : {};
}

/** Each thing checked: a gentle no for those that cannot be given, the short form for the rest. */
function afterChecks(checks: readonly Checked[], collect: boolean, said: string): OfflineReply {
  if (checks.length === 0) return { text: 'I could not check that one. What is the item called?' };
  const unfit = notForGiving(checks.filter((c) => !c.donatable));
  const fit = checks.filter((c) => c.donatable);
  if (fit.length === 0) return { text: `${unfit} Anything else you'd like to give away?` };
  const calls = fit.map((c): OfflineToolCall => {
    const bags = bagsOf(said, c.item);
    return {
      name: 'describe_donation',
      input: {
        item: c.item,
        // what the person already said is not asked again
        ...(c.condition === 'good' ? { condition: 'good' } : {}),
        ...(collect ? { collection: true } : {}),
        ...(bags === undefined ? {} : { bags }),
      },
    };
  });
  return unfit === '' ? { calls } : { text: unfit, calls };
}

/**
 * What this turn is to look for: the things described (each as the person wants to part with
 * it), or, when the person only asked for collection, what the helper looked for last time.
 */
function toFind({ thisTurn, earlier }: Results, collect: boolean): ToFind[] {
  const checks = read(thisTurn, 'check_item', CheckedSchema);
  if (answered(thisTurn, 'check_item'))
    return read(thisTurn, 'describe_donation', DescribedSchema)
      .filter((d) => d.described)
      .map((d) => ({
        item: d.item,
        kind: checks.find((c) => c.item === d.item)?.kind ?? kindOf(d.item),
        collection: collect || d.collection === true,
        ...(d.condition === undefined ? {} : { condition: d.condition }),
      }));
  const before = read(lastTurnOf(earlier, 'find_drop_off'), 'find_drop_off', FoundSchema);
  const items = [...new Map(before.map((f) => [f.item, f])).values()];
  return items.map((f) => ({ item: f.item, kind: f.located ? f.kind : kindOf(f.item), collection: collect }));
}

/** Searches what is left to find (asking where the person is once), then says where it all goes. */
function findOrSay(results: Results, wanted: readonly ToFind[]): OfflineReply {
  const finds = read(results.thisTurn, 'find_drop_off', FoundSchema);
  if (wanted.length === 0 && finds.length === 0)
    return { text: "No problem. Tell me whenever you'd like to find a place for something." };
  const unlocated = finds.filter((f) => !f.located);
  if (unlocated.length > 0) return withoutLocation(wanted);
  const left = wanted.filter((w) => !finds.some((f) => f.item === w.item));
  const [first, ...rest] = left;
  if (first) {
    const near =
      pointIn(finds) ??
      pointIn(read(results.earlier, 'find_drop_off', FoundSchema)) ??
      townSaid(results.opening);
    const call = (w: ToFind, others: readonly ToFind[] = []): OfflineToolCall => {
      const also = others.filter((o) => !o.collection).map((o) => o.item);
      const alsoCollected = others.filter((o) => o.collection).map((o) => o.item);
      return {
        name: 'find_drop_off',
        input: {
          item: w.item,
          kind: w.kind,
          ...(near ? { near } : {}),
          ...(w.collection ? { collection: true } : {}),
          ...(w.condition === undefined ? {} : { condition: w.condition }),
          ...(also.length > 0 ? { also } : {}),
          ...(alsoCollected.length > 0 ? { alsoCollected } : {}),
        },
      };
    };
    if (near) return { calls: left.map((w) => call(w)) };
    // without a point, the first search asks for it (naming every thing it is for, as each is
    // wanted); the rest reuse it
    return { calls: [call(first, rest)] };
  }
  const where = whereTheyGo(finds.filter((f): f is Located => f.located));
  if (where.copy.length === 0) return { text: `${where.text} Anything else you'd like to give away?` };
  // where it is, said first; the offer to copy it comes after the words
  return { text: where.text, calls: [{ name: 'copy_directions', input: { text: where.copy.join('\n') } }] };
}

/**
 * What to do without a search: where things like these are usually taken, and for the ones the
 * person would rather have collected, how that is done, since a charity shop does not come to them.
 */
function withoutLocation(wanted: readonly ToFind[]): OfflineReply {
  const taken = wanted.filter((w) => !w.collection).map((w) => w.item);
  const collected = wanted.filter((w) => w.collection).map((w) => w.item);
  const thingsAre = (items: readonly string[]) => {
    const [only] = items;
    return `${listOf(items)} if ${items.length === 1 && only !== undefined && !isPlural(only) ? 'it is' : 'they are'}`;
  };
  const sentences = [
    "Without a rough location I can't look nearby.",
    wanted.length === 0 ? 'Most charity shops take things that are clean and in good condition.' : '',
    taken.length > 0 ? `Most charity shops take ${thingsAre(taken)} clean and in good condition.` : '',
    collected.length > 0
      ? `For ${listOf(collected)}, which you'd rather have collected: many charities collect for free, so book a collection with one near you.`
      : '',
    collected.some((item) => UPHOLSTERED.test(item))
      ? 'A sofa or an armchair is only taken with its fire-safety label still on.'
      : '',
    'Tell me another item whenever you like.',
  ];
  return { text: sentences.filter(Boolean).join(' ') };
}

/** Furniture a charity takes only with its fire-safety label (UK furniture fire-safety rules). */
const UPHOLSTERED = /\b(?:sofas?|settees?|couch(?:es)?|armchairs?|sofa ?beds?)\b/i;

/**
 * The town the person said they are in with the things ("I have a sofa, I'm in Leeds"): where to
 * look, without asking again; none when they named none, or one several towns share ("York").
 */
function townSaid(words: string): Point | undefined {
  for (const sentence of words.split(/(?<=[.?!])\s+|\n/)) {
    // each sentence whole ("near Camden Town, London"), then each of its parts, as a phone types
    // them ("got a scooter, im in manchester")
    for (const part of [sentence, ...sentence.split(/\s*,\s*/).slice(1)]) {
      const read = placeNamedIn(part.replace(/\?$/, ''));
      if (read?.kind === 'place') return { lat: read.place.lat, lng: read.place.lng };
    }
  }
  return undefined;
}

/** The last point a search in `finds` knew, so the person is asked where they are only once. */
function pointIn(finds: readonly Found[]): Point | undefined {
  return finds.flatMap((f) => (f.located ? [f.near] : [])).at(-1);
}
