import type { OfflineContext, OfflineRule } from '@sweatpants/agent-runtime/offline';
import * as z from 'zod';
import {
  actionOf,
  allSaid,
  thenAsk,
  fresh,
  isAct,
  line,
  openingWords,
  photoTarget,
  saidNow,
  spaceSaid,
} from './offline-prompt';
import { CONFUSED, extractFromWords, soundsStuck } from './offline-text';
import { TIRED } from './offline-session-words';
import { choicesFor, functionsFor, photoFromWords, withoutHedges } from './offline-guesses';
import { TRANSITION_RULES } from './offline-transition-rules';
import { ABOUT_THE_PHOTO } from './act';
import { answerFromTheSession, sessionAnswer } from './offline-answers';
import {
  isPlural,
  landedText,
  putWords,
  takeWords,
  thePlace,
  whereItLanded,
  type Landed,
} from './landed-words';
import { EXTRACT_TOOL, GROUP_TOOL, NO_WORDS, PHOTO_TOOL } from './perception';
import { categoriesFor, categoryOf } from './categories';
import { allOf, mkItemName } from './tidying-types';

/**
 * The tidying coach on the offline model: deterministic rules that walk the whole flow. Vision
 * becomes a guess from the words sent with the photo (and says so), extraction goes by keyword,
 * and each reply follows the action the loop decided, which the prompt names on its `Action:`
 * line. Every text starts with "(offline)" so nobody mistakes it for Claude. The transitions of
 * seed 001 (clarifying, decision support, winding down) are in offline-transition-rules.ts.
 */

const analysePhoto: OfflineRule = {
  name: 'tidying: photo analysis from the words sent with it',
  when: (ctx) => ctx.offers(PHOTO_TOOL),
  reply: (ctx) => {
    const photo = photoFromWords(ctx.userText);
    // a photo sent with no words: there is nothing to guess from, so nothing is guessed aloud
    if (ctx.userText.trim() === '' || ctx.userText.trim() === NO_WORDS)
      return {
        text:
          '(offline) This is the offline model: it cannot look at photos. ' +
          'Tell me what is in it as we go, and we will take the things one by one.',
        calls: [{ name: PHOTO_TOOL, input: { ...photo } }],
      };
    const seen = photo.visibleItems.length
      ? `I noted: ${photo.visibleItems.join(', ')}.`
      : 'Your words name no things yet; we will go through them one by one.';
    return {
      text:
        `(offline) This is the offline model: it cannot look at photos, so this is a guess from your words. ` +
        `A ${photo.chaosLevel} ${photo.roomType}. ${seen}`,
      calls: [{ name: PHOTO_TOOL, input: { ...photo } }],
    };
  },
};

const extract: OfflineRule = {
  name: 'tidying: extraction by keywords',
  when: (ctx) => ctx.offers(EXTRACT_TOOL),
  reply: (ctx) => {
    const phase = /Phase: ([a-z-]+)/.exec(ctx.request.system)?.[1] ?? 'surveying';
    const coachSaid = /^The coach last said: "(.*)"$/m.exec(ctx.request.system)?.[1] ?? null;
    const inQuestion =
      /^The thing in question: "(.*)"$/m.exec(ctx.request.system)?.[1] ??
      /^The coach's next thing: "(.*)"$/m.exec(ctx.request.system)?.[1] ??
      null;
    const read = extractFromWords(ctx.userText, phase, coachSaid, inQuestion);
    // while sorting, a named, undecided item (or, at "go", the coach's next thing) comes with its proposal, as
    // the guide asks of the model, unless the words sound confused, stuck or tired (the act call's
    // transition tools answer those), or ask about the photo (the act call looks at it again)
    const said = ctx.userText;
    const next = /^The coach's next thing: "(.*)"$/m.exec(ctx.request.system)?.[1];
    const named = read.intent === 'start' && next ? next : read.intent === 'item' ? read.item : null;
    const sorting = phase === 'sorting' || phase === 'refining';
    const proposal =
      sorting &&
      typeof named === 'string' &&
      !sortedAlready(ctx.request.system).has(named.toLowerCase()) &&
      read.choice === null &&
      !soundsStuck(said) &&
      ![CONFUSED, TIRED, ABOUT_THE_PHOTO].some((r) => r.test(said))
        ? { choices: choicesFor(named, spaceSaid(ctx), said), reason: 'a first guess' }
        : null;
    // a named item's card is readied with a first sentence to the person, as the guide asks
    return {
      ...(proposal ? { text: `(offline) The ${String(named)}: here is my guess.` } : {}),
      calls: [{ name: EXTRACT_TOOL, input: { ...read, proposal } }],
    };
  },
};

/** The items the notes list as sorted already (`Sorted already: "kettle", "mugs"`), lower-cased. */
function sortedAlready(system: string): Set<string> {
  const listed = /^Sorted already: (.*)$/m.exec(system)?.[1] ?? '';
  return new Set(
    [...listed.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => String(JSON.parse(`"${m[1]}"`)).toLowerCase()),
  );
}

const groupByKind: OfflineRule = {
  name: 'tidying: the unsure pile grouped by kind',
  when: (ctx) => ctx.offers(GROUP_TOOL),
  reply: (ctx) => {
    const items = allOf(
      ctx.userText.split('\n').map((line) => line.replace(/^- /, '')),
      mkItemName,
    );
    const [first, ...rest] = items;
    // by kind, biggest first (ties in the kinds' order), as the split goes without a model
    const categories = first
      ? categoriesFor([first, ...rest]).map((name) => ({
          name,
          items: items.filter((i) => categoryOf(i) === name),
        }))
      : [];
    return { calls: [{ name: GROUP_TOOL, input: { categories } }] };
  },
};

const proposeForItem: OfflineRule = {
  name: 'tidying: propose a disposition for the item in question',
  when: (ctx) => isAct(ctx) && ctx.offers('propose_disposition') && fresh(ctx),
  reply: (ctx) => {
    const action = actionOf(ctx);
    const item = action === 'first-instruction' ? photoTarget(ctx) : line(ctx, 'Item');
    if (!item || !['ask-item-decision', 'first-instruction', 'decision-aid'].includes(action ?? ''))
      return undefined;
    const opening =
      action === 'first-instruction'
        ? `(offline) ${openingWords(ctx, true)}Start small: pick up the ${item}.`
        : action === 'decision-aid'
          ? `(offline) ${helpsWithTheSpace(item)} If not, ${isPlural(item) ? 'they' : 'it'} can go.`
          : line(ctx, 'Taken back')
            ? `(offline) Taken back: let's decide the ${item} again.`
            : `(offline) Here is my guess for the ${item}.`;
    return {
      text: opening,
      calls: [
        {
          name: 'propose_disposition',
          input: { item, choices: choicesFor(item, spaceSaid(ctx), allSaid(ctx)), reason: 'a first guess' },
        },
      ],
    };
  },
};

/** What propose_disposition answered, as the rules read it back. */
const LandedSchema: z.ZodType<Landed> = z.object({
  item: z.string().optional(),
  disposition: z.object({ kind: z.string().optional(), location: z.string().optional() }).optional(),
  fallback: z.boolean().optional(),
  pile: z.enum(['belongs', 'out', 'unsure']).optional(),
  destination: z.string().optional(),
  unsure: z.number().optional(),
  phase: z.string().optional(),
  next: z.string().optional(),
});

const afterDisposition: OfflineRule = {
  name: 'tidying: say where the item landed and what comes next',
  when: (ctx) => ctx.resultOf('propose_disposition') !== undefined,
  reply: (ctx) => {
    const data = LandedSchema.safeParse(ctx.resultOf('propose_disposition')?.data).data;
    if (!data || data.fallback)
      return { text: '(offline) No problem, we leave that one for later. What is next?' };
    // decision support: the stuck item is decided, so sorting goes on (seed 001's resume_sorting)
    if (ctx.offers('resume_sorting') && ctx.offers('propose_disposition'))
      return {
        text: `(offline) ${whereItLanded(data)}`,
        calls: [{ name: 'resume_sorting', input: { note: `the ${data.item ?? 'item'} is decided` } }],
      };
    return { text: `(offline) ${landedText(data)}` };
  },
};

const askFunction: OfflineRule = {
  name: 'tidying: ask what the space is for',
  when: (ctx) =>
    isAct(ctx) && ctx.offers('ask_space_function') && fresh(ctx) && actionOf(ctx) === 'ask-function',
  reply: (ctx) => ({
    // The card asks the question itself; the reply only leads into it.
    text: `(offline) ${openingWords(ctx, false)}First, one question about the space.`,
    calls: [{ name: 'ask_space_function', input: { options: functionsFor(roomOf(ctx)) } }],
  }),
};

/** The room the photo showed, else the one the words name ("my kitchen counter is a mess"). */
function roomOf(ctx: OfflineContext): string {
  return (
    /Photo: an? [a-z]+ ([a-z' ]+?);/.exec(ctx.request.system)?.[1] ??
    photoFromWords(ctx.recentUserText).roomType
  );
}

const afterFunction: OfflineRule = {
  name: 'tidying: begin sorting once the function is chosen',
  when: (ctx) => ctx.resultOf('ask_space_function') !== undefined,
  reply: (ctx) => {
    const data = z
      .object({ function: z.string().nullable().optional() })
      .safeParse(ctx.resultOf('ask_space_function')?.data).data;
    if (!data?.function) return { text: '(offline) Tell me in a few words what you need to do here.' };
    // "not sure, just walking through it I guess" is for walking through; "I don't know" alone
    // is for what such a room is mostly for, which the person can change by saying so
    const meant = withoutHedges(data.function);
    if (meant === '') {
      // the first of the options the card offered: what such a room is mostly for
      const asked = z
        .object({ options: z.array(z.string()) })
        .safeParse(ctx.resultOf('ask_space_function')?.input).data;
      const usual = asked?.options[0] ?? functionsFor(roomOf(ctx))[0] ?? 'what it is used for now';
      return {
        text: `(offline) That's all right: we'll take it as for ${usual} for now. Let's begin.`,
        calls: [{ name: 'begin_sorting', input: { function: usual } }],
      };
    }
    // what they said stays for sure ("the laptop obviously stays") is said back, not asked about
    const staying =
      z.object({ staying: z.array(z.string()) }).safeParse(ctx.resultOf('ask_space_function')?.data).data
        ?.staying ?? [];
    const stays = staying
      .map((thing) => ` The ${thing} ${isPlural(thing) ? 'stay' : 'stays'} for sure.`)
      .join('');
    return {
      // "working" reads as what the space is for; "I work here and study" is quoted as said.
      text: /^[a-z]+ing\b/i.test(meant)
        ? `(offline) Got it: this space is for ${meant}.${stays} Let's begin.`
        : `(offline) Got it, in your words: "${meant}".${stays} Let's begin.`,
      calls: [{ name: 'begin_sorting', input: { function: meant } }],
    };
  },
};

/**
 * The user said stop: end the session at once, then sum it up. (Wound down after time_to_wrap,
 * the session ends once they confirm they are done: see offline-transition-rules.ts.)
 */
const endSession: OfflineRule = {
  name: 'tidying: end the session and sum it up',
  when: (ctx) => isAct(ctx) && ctx.offers('end_session'),
  reply: (ctx) => {
    const result = ctx.resultOf('end_session');
    if (!result && actionOf(ctx) !== 'summary') return undefined;
    if (!result) return { text: '(offline) Let us wrap up.', calls: [{ name: 'end_session', input: {} }] };
    const data = z
      .object({ itemsProcessed: z.number().optional(), recap: z.string().optional() })
      .safeParse(result.data).data;
    return {
      text: `(offline) Session done: ${sorted(data?.itemsProcessed ?? 0)}. ${data?.recap ?? ''}. Well done.`,
    };
  },
};

/** The spot the session block says `item` is kept at in this space, if it is kept at one. */
function keptAt(ctx: OfflineContext, item: string): string | undefined {
  const kept = line(ctx, 'Kept in this space, at their spot') ?? '';
  return kept
    .split(', ')
    .map((entry) => entry.split(' → '))
    .find(([thing]) => thing === item)?.[1];
}

const REPLIES: Readonly<Record<string, (ctx: OfflineContext) => string>> = {
  'ask-function': () => '(offline) What do you need to DO in this space?',
  'ask-anchors': (ctx) => `(offline) ${openingWords(ctx, true)}What's definitely staying in this space?`,
  'ask-item-decision': (ctx) => `(offline) The ${line(ctx, 'Item') ?? 'thing'}: keep, trash, or not sure?`,
  'first-instruction': (ctx) =>
    `(offline) ${openingWords(ctx, true)}Start small: pick up the ${photoTarget(ctx) ?? 'nearest thing'} and tell me what it is.`,
  'instruct-place': (ctx) => {
    const location = line(ctx, 'Location') ?? undefined;
    // "donate them": said back of them, not it; "the books go on the shelf": the books, by name
    const item = line(ctx, 'Item');
    const it = item
      ? `the ${item}`
      : /\b(?:them|they|these|those)\b/.test(saidNow(ctx) ?? '')
        ? 'them'
        : 'it';
    const also = line(ctx, 'Also sorted');
    // said to stay at a spot of its own in this space ("the stapler stays on the desk"): it stays
    // there, not taken to it
    const kept =
      item !== null &&
      keptAt(ctx, item) !== undefined &&
      /\b(?:stays?|staying|keep|kept|leave)\b/.test(saidNow(ctx) ?? '');
    // a move already made ("the papers are back in the drawer now") is said done, not asked for
    const moved = item !== null && location !== undefined && MOVE_MADE.test(saidNow(ctx) ?? '');
    // a spot of its own in this space, said as where it goes ("coats go on the hooks"): put there
    const spot = item !== null ? keptAt(ctx, item) : undefined;
    const where = kept
      ? whereItLanded({ item, pile: 'belongs', disposition: { location: spot } })
      : moved
        ? `Good: the ${item} ${isPlural(item) ? 'are' : 'is'} in ${thePlace(location)}.`
        : spot !== undefined && location !== 'donation' && location !== 'recycling'
          ? putWords(it, spot)
          : takeWords(it, location);
    // "…, how am I doing?": what the session says of it follows
    const said = saidNow(ctx) ?? '';
    const asked = said.includes('?') ? sessionAnswer(ctx, said) : null;
    const then = thenAsk(ctx, 'Next?');
    return `(offline) ${where} ${also ? `${also} ` : ''}${asked ? `${asked} ` : ''}${then}`.trim();
  },
  'instruct-split': (ctx) =>
    `(offline) The unsure pile is big: let us split it into smaller piles (${line(ctx, 'Categories') ?? 'by kind'}). Say go when they are ready.`,
  'decision-aid': (ctx) => `(offline) ${helpsWithTheSpace(line(ctx, 'Item') ?? 'thing')}`,
  'energy-check': () => "(offline) How's your energy? Keep going, or stop here?",
  'pivot-away': (ctx) =>
    `(offline) Let's leave that for now and work on ${line(ctx, 'Location') ?? 'something easier'}.`,
  'ack-progress': (ctx) => `(offline) Nice progress: ${line(ctx, 'Note') ?? 'the space looks clear'}.`,
  summary: () => '(offline) Good work today.',
  'answer-aside': answerFromTheSession,
  'answer-question': answerFromTheSession,
};

/** Decision support's question: "Does the lamp help…", "Do the clothes help…". */
const helpsWithTheSpace = (item: string) =>
  `${isPlural(item) ? 'Do' : 'Does'} the ${item} help with what this space is for?`;

/** Words that tell of a move already made: "took the mugs to the kitchen", "the papers are back in the drawer". */
const MOVE_MADE =
  /\b(?:took|moved|brought|carried|returned|put (?:it|them|the [a-z ]+?) back|(?:is|are) (?:now |already )?back|(?:is|are) now|already)\b/;

const replyToAction: OfflineRule = {
  name: 'tidying: a short reply for the decided action',
  when: (ctx) => isAct(ctx) && fresh(ctx) && actionOf(ctx) !== null,
  reply: (ctx) => {
    const reply = REPLIES[actionOf(ctx) ?? ''];
    return reply ? { text: reply(ctx) } : undefined;
  },
};

/** The tidying coach's rules, asked before the offline model's defaults. */
export const TIDYING_OFFLINE_RULES: readonly OfflineRule[] = [
  analysePhoto,
  extract,
  groupByKind,
  afterFunction,
  afterDisposition,
  ...TRANSITION_RULES,
  endSession,
  askFunction,
  proposeForItem,
  replyToAction,
];

const sorted = (count: number) => (count === 1 ? '1 item sorted' : `${count} items sorted`);
