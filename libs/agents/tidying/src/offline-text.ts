import type { Json } from '@sweatpants/domain';
import { COUNTED, THE_REST } from '@sweatpants/agent-runtime/offline';
import {
  counted,
  kindOfIt,
  fineButSome,
  ofTheOnes,
  ONE_APART,
  partBeforeTheRest,
  partOf,
  withTheFirstNamed,
} from './offline-parts';
import { listedThings, LYING_ABOUT, NOT_A_THING, thingSaidOf } from './offline-things';
import { movedTo, NOT_MOVED, placeIn } from './offline-places';
import { choiceIn } from './offline-choice';
import { purposeIn } from './offline-purpose';
import { ALL_DONE, RESTART, STOP, TIRED, UNDO, UNDONE } from './offline-session-words';

/**
 * What the offline model reads out of a tidying message, by keyword: a deterministic stand-in for
 * extraction, good enough to walk the whole flow without a model. What it guesses from a thing's
 * or a room's name alone is ./offline-guesses'.
 */

/**
 * A thing named with its article ("the lamp", "a coffee mug"). Not what a thing is for ("for my
 * laptop"), and not a part of the one in question ("some of them", "the rest").
 */
const ARTICLE =
  /(?<!\bfor\s)(?<!\b(?:things|stuff|ones|items|anything|something|everything)\s)\b(?:a|an|the|my|this|that|some|these|those)\s+(?!(?:of|rest|other|others|same|goes|go|stays?|belongs?|is|are|was|were|has|have)\b)([a-z][a-z ]*?)(?=\s+(?:goes|go|gets?|stays?|belongs?|is|are|was|were|can|could|might|may|would|should|will|must|needs?|has|have|to|in|on|into|and|which|that|for|from|first|now|then|next|please|instead|again|too|back|i|we|you|live|lives|today|tonight|tomorrow|later|soon)\b|[,.!?]|$)/;

/** A thing named bare before what is done with it: "lamp stays where it is", "books go on the shelf". */
const SUBJECT =
  /^(?!(?:the|my|a|an|this|that|these|those|some|one|two|three|four|five|both|most|half|it|they|all|everything|everything else)\b)([a-z]+(?: [a-z]+)?)\s+(?:stays?|goes|go|belongs?|(?:is|are) (?:now |already )?back)\b/;

/** The thing such words name first; null when they lead with no thing ("it stays", "everything goes"). */
function subjectOf(t: string): string | null {
  const thing = SUBJECT.exec(t)?.[1];
  return thing && !NOT_MOVED.test(thing) && !NOT_A_THING.test(thing) ? thing : null;
}

/** "One" of the thing in question ("one I use for pens so it stays"): a part kept apart. */
/** Short words that ask the coach something ("undo that", "go back"): never a thing's name. */
const COMMAND =
  /^(?:undo|redo|go|wait|stop|help|what|why|how|no|nope|yes|back|again|sorry|thanks|done|next|later|repeat|show|tell|explain|where|when|who|which)\b/;
/** Short words about the person ("I'm back", "me again"): never a thing's name. */
const ABOUT_THEM = /\b(?:i|i'm|im|me|we|we're|us)\b/;
/** Words that are not about the space: a greeting, thanks, a filler. */
const SMALL_TALK =
  /^(?:hi|hello|hey|hiya|thanks|thank you|cheers|sorry|good (?:morning|afternoon|evening)|hmm+|um+|uh+|oh)(?:\s+there)?[.!]*$/;
/**
 * A question about the world rather than a thing here (seed 000's own tangent: "wait, what is the
 * weather like today?"): nothing in it is an item. One that asks where a thing goes, or about a
 * thing ("what about the lamp?"), is not one of these.
 */
const WORLD_QUESTION =
  /^(?:(?:wait|hmm+|oh|so|by the way)[,.]?\s+)?(?:what(?:'s|\s+is|\s+was)|how(?:'s|\s+is|\s+was)|who|when|why|is it|will it|do you|can you|did you)\b(?!.*\b(?:go|goes|belongs?|keep|put|about|with)\b).*\?$/;
/** A whole message that only says to go on ("go", "ok, go on"): never an item. */
const GO_ON =
  /^(?:(?:ok(?:ay)?|yes|yep|sure|right|alright|fine)[,.!]*\s+)?(?:ok(?:ay)?|yes|yep|sure|go|go on|go ahead|next|next one|one more|another(?: one)?|ready|start|let'?s go|keep going|carry on|continue)[.!]*$/;
const ANXIETY =
  /\b(?:anxious|stressed|scared|worried|overwhelmed|panic\w*)\s+(?:about|by|of)\s+(?:the\s+|my\s+)?([a-z][a-z ]*?)(?=[,.!?]|$)/;

/** Losing heart, about the tidying itself rather than a thing: the coach checks in on their energy. */
const DISHEARTENED =
  /\b(?:what'?s|whats|what is) (?:even )?the point\b|\bpointless\b|\bwhy (?:even )?bother\b|\bhopeless\b|\bgive up\b|\b(?:be |get |gets )?messy again\b/;
/** How much of a thing there is, which is not its name: "a big pile of jumpers" is jumpers. */
const HEAP_OF =
  /^(?:(?:a|an|one|two|three|four|five|six|\d+|some|a few|a couple of)\s+)?(?:(?:big|huge|small|little|massive|whole)\s+)?(?:pile|stack|heap|mountain|load|bag|bin bag|box|sack|crate)(?:e?s)?\s+(?:full\s+)?of\s+/;

/** Where things lie, said after them: "on the floor", "by the door". */
const ON_THE = /\s+(?:on|in|under|by|all over)\s+(?:the|my|our)\s+[a-z]+$/;

/** "some of it is bills …, the rest …": a part of the thing in question named, before the rest. */
const PART_NAMED =
  /^(?:some|most|a few|a couple|half|part) of (?:it|them|these|those) (?:is|are) (?:just |all |mostly )?(?=[a-z]+(?: [a-z]+)*?\s*,\s*(?:and |but )?(?:the rest|the others|everything else)\b)/;

/** A part named, then the rest of the thing decided: "the bills, the rest is junk". */
const PART_THEN_REST = /^([a-z][a-z' ]*?)\s*[,;]\s*((?:and |but )?(?:all )?the (?:rest|others)\b.*)$/;

/**
 * "the bills, the rest is junk", "bills I need to pay, the rest can go": a part named before the
 * rest is decided is told apart from it, so it stays (when nothing else is said of it), and it is
 * a thing of its own, named as one ("the bills"); the words as they are otherwise.
 */
function partApart(t: string, phase: string): string {
  const [, part, rest] = PART_THEN_REST.exec(t) ?? [];
  // (not "one stays, …", some of it by how many, nor "I need some of them …", a sentence)
  if (
    !part ||
    !rest ||
    COUNTED.test(part) ||
    /^(?:i|we|you|he|she|it|they|them|all|everything|both|some)\b/.test(part)
  )
    return t;
  if (choiceIn(rest, placeIn(rest), phase) === null) return t;
  const named = /^(?:the|my|these|those) /.test(part) ? part : `the ${part}`;
  return `${choiceIn(part, placeIn(part), phase) === null ? 'keep ' : ''}${named}, ${rest}`;
}

/** Does not know which thing the coach means, or what it is (need_to_clarify). */
export const CONFUSED =
  /\b(idk what|i don'?t know what(?! to do)|no idea what|which one|which [a-z]+(?: [a-z]+)?\?|what do you mean|what are you talking about|what(?:'s| is) (?:that|this)\b|i can'?t (?:see|find) (?:it|that|the|any))/;
/** Asking the coach for ideas, naming no thing: "any ideas?", "suggestions?". */
const ASKS_FOR_IDEAS = /^(?:any |got any )?(?:ideas|suggestions|advice|tips)\b/;
/** Cannot decide about a thing (user_seems_stuck when the thing is named). */
const STUCK = /\b(stuck|can'?t decide|cannot decide|torn|(?:don'?t|do not) know what to do)\b/;
/**
 * Holding on to a thing for a day that may come ("it might fit again one day", "just in case",
 * "you never know"): the doubt decision support is for, unless the words also decide.
 */
const HESITANT =
  /\b(?:(?:might|may|could) (?:need|use|want|wear|fit|read|play|fix)\b.*\b(?:one day|someday|some day|again|eventually|later|in future|at some point)|just in case|you never know|but what if i need)\b/;

/** Words that sound stuck on the thing in question (user_seems_stuck), deciding nothing. */
export function soundsStuck(said: string): boolean {
  const t = said.toLowerCase();
  return STUCK.test(t) || (HESITANT.test(t) && choiceIn(t, placeIn(t), 'sorting') === null);
}
/** Puts the thing off, or gives up on knowing it: skip it (skip_item, while clarifying). */
export const SKIP = /\b(skip|leave it|forget it|never ?mind|no idea|don'?t know|dunno|idk|not sure|still)\b/;
/** Now sees the thing meant (resume_sorting, while clarifying). */
const FOUND =
  /\b(found it|got it|see it|i see|yes|yep|yeah|ok(?:ay)?|oh|ah|that one|right|i know|makes sense)\b/;

/** The thing a confused question names: "which mug?" → mug; "which one?" names none. */
function confusedAbout(t: string): string | null {
  const named =
    /\bwhich ([a-z][a-z ]*?)\s*(?:do you mean|are you talking about|\?|$)/.exec(t)?.[1] ??
    /\bmean by (?:the |that |this )?([a-z][a-z ]*?)\s*\??$/.exec(t)?.[1];
  return named && !/^(one|ones|thing|things|it)$/.test(named) ? named : null;
}

/**
 * The offline coach's description of a thing while clarifying starts with these words, so that
 * the reply to it can be read as being about that thing ("skip it", "found it").
 */
export const clarifyingOpening = (item: string) => `(offline) I mean the ${item}:`;

/** The thing the coach's last words describe, when they were a clarifying description. */
export function clarifiedIn(coachSaid: string | null): string | null {
  return /^\(offline\) I mean the ([^:\n]+):/.exec(coachSaid ?? '')?.[1]?.trim() ?? null;
}

type Extracted = { [key: string]: Json };

/** Words that say how sure a person is, said beside a thing and what becomes of it. */
const SURELY = /\b(?:obviously|definitely|of course|clearly|certainly|surely|absolutely)\b,?/g;
/** A filler said last ("just the usual junk really"), and whose a thing was ("my son's lego"): no part of a name. */
const FILLER_LAST = /(?<=\S\s+\S+\s+\S+),?\s+(?:really|honestly|tbh|to be honest|basically|i suppose)[.!]*$/;
/** A death told ("my dad died last year"): who died is no thing to sort. */
const A_LOSS_TOLD =
  /\b(?:my|our|her|his)\s+(?:[a-z]+\s+){0,2}?(?:died|passed\s+(?:away|on))\b[^,.;]*?(?=\s+(?:and|but|so)\s+|[,.;]|$)/;
const WHOSE =
  /\b(my|our|the)\s+(?:son|daughter|husband|wife|partner|boyfriend|girlfriend|mum|mom|dad|brother|sister|flatmate|housemate)'s\s+(?=[a-z])/g;
const NO_FACTS = { choice: null, place: null, function: null, anchors: null, anxiety: null };

/**
 * A reply to a clarifying description, about the thing described: put off (or still unknown),
 * or now seen. Null for anything else (a disposition, another thing), read the usual way.
 */
function replyToClarifying(t: string, item: string): Extracted | null {
  if (STOP.test(t) || ALL_DONE.test(t) || /\b(trash|bin|toss|throw|keep|goes|put|donate|recycle)\b/.test(t))
    return null;
  if (SKIP.test(t) || CONFUSED.test(t)) return { ...NO_FACTS, intent: 'decided', item, choice: 'unsure' };
  if (FOUND.test(t)) return { ...NO_FACTS, intent: 'continue', item };
  return null;
}

/**
 * The extract the offline model records for a message, as the extraction tool's input. The coach's
 * last words say what "it" is in a reply to a clarifying description.
 */
export function extractFromWords(
  text: string,
  phase: string,
  coachSaid: string | null = null,
  inQuestion: string | null = null,
): Extracted {
  // "the laptop obviously stays": how sure they are is no part of the thing's name
  const t = withTheFirstNamed(
    text
      .toLowerCase()
      .replace(SURELY, ' ')
      .replace(FILLER_LAST, '')
      .replace(A_LOSS_TOLD, '')
      .replace(WHOSE, '$1 ')
      .replace(/\s{2,}/g, ' ')
      .trim(),
  );
  const clarified = clarifiedIn(coachSaid);
  const reply = clarified ? replyToClarifying(t, clarified) : null;
  if (reply) return reply;
  if (SMALL_TALK.test(t) || WORLD_QUESTION.test(t))
    return {
      intent: 'continue',
      item: null,
      choice: null,
      place: null,
      function: null,
      anchors: null,
      anxiety: null,
    };

  if (DISHEARTENED.test(t)) return { ...NO_FACTS, intent: 'help', item: null, also: [] };

  const fineButPart = fineButSome(t, inQuestion, (words) => {
    const place = placeIn(words);
    const choice = choiceIn(words, place, phase);
    return choice === null ? null : { choice, place };
  });
  if (fineButPart) return fineButPart;

  // Two things decided at once: the first is this turn's, the second is sorted with it (or, with
  // no decision of its own, named to come next). "some of it is bills I need to pay, the rest is
  // junk": the part named is a thing of its own, decided as the words say, and the rest with it.
  const two = twoDecisions(partApart(t.replace(PART_NAMED, 'the '), phase), phase);
  if (two) {
    const [said, more] = two;
    const read = ofTheOnes(counted(extractFromWords(said, phase, coachSaid), said, inQuestion), inQuestion);
    const second = extractFromWords(more, phase);
    // "the ones that hurt can go to charity, keep the rest": the ones are a part kept apart
    const part = THE_REST.test(more) ? partBeforeTheRest(said, inQuestion) : null;
    const first = part ? { ...read, item: part } : read;
    // "keep the bills, bin the rest": the rest is the thing in question, less the part kept apart
    // (with no thing in question, the part alone is decided: never the rest's choice for it);
    // "two go to the kitchen, one stays": the one is a part of it with a name of its own
    const next = THE_REST.test(more)
      ? inQuestion
      : ONE_APART.test(more) && inQuestion
        ? partOf(inQuestion, more)
        : COUNTED.test(more)
          ? inQuestion
          : (kindOfIt(second['item'], inQuestion) ?? second['item']);
    if (typeof next !== 'string' || next === first['item']) return first;
    // in the survey, "…, but the lego stays" says what stays for sure: no decision of the first's
    const stays = second['anchors'];
    if (Array.isArray(stays) && typeof second['choice'] !== 'string') return { ...first, anchors: stays };
    // "the lamp stays, and the books": a thing alone is decided as the first was
    const decision = typeof second['choice'] === 'string' ? second : first;
    // ("…, the catalogues and flyers in the recycling": the flyers go with the catalogues)
    const withIt =
      Array.isArray(second['alsoDecided']) && next === second['item'] ? second['alsoDecided'] : [];
    if (typeof decision['choice'] === 'string')
      return {
        ...first,
        alsoDecided: [
          { item: next, choice: decision['choice'], place: decision['place'] ?? null },
          ...withIt,
        ],
      };
    const also = Array.isArray(first['also']) ? first['also'] : [];
    return { ...first, also: [...also, next] };
  }

  const place = placeIn(t);
  const fn = purposeIn(t);
  const anxiety = ANXIETY.exec(t)?.[1]?.trim() ?? null;
  const stop = STOP.test(t) || ALL_DONE.test(t);
  const tired = !stop && TIRED.test(t);
  const confused = !stop && !/\bskip\b/.test(t) && CONFUSED.test(t);
  const choice = confused ? null : choiceIn(t, place, phase);
  const goOn = GO_ON.test(t);
  const undo = !stop && choice === null && UNDO.test(t);
  const bare = t.replace(/^(?:a|an|the|my|this|that|some)\s+/, '');
  // "sleeping and reading": a few words that name what the space is for are no thing
  const bareIsThing = !bare.split(/\s*(?:,|\band\b|\bor\b)\s*/).some((part) => NOT_A_THING.test(part));
  // (not words that decide: "keep the lamp and the cable" lists no "keep the lamp")
  const listed = choice === null ? listedThings(t) : [];
  // A list is taken in the person's order: its first thing is the one in question.
  const named = undo
    ? (UNDONE.exec(t)?.[1] ?? null)
    : goOn || tired
      ? null
      : confused
        ? confusedAbout(t)
        : (listed[0] ??
          movedTo(t)?.thing ??
          subjectOf(t) ??
          // "old cables that nobody uses", "clothes I never wear": what is said of it is no name
          (choice === null ? thingSaidOf(t) : null) ??
          ARTICLE.exec(t)?.[1]?.trim() ??
          // "old receipts: bin"
          (choice !== null ? (/^([a-z][a-z ]{0,40}?)\s*:\s*\S/.exec(bare)?.[1] ?? null) : null) ??
          (choice !== null ||
          COMMAND.test(t) ||
          ABOUT_THEM.test(t) ||
          !bareIsThing ||
          soundsStuck(t) ||
          ASKS_FOR_IDEAS.test(t)
            ? null
            : bare.replace(HEAP_OF, '').replace(ON_THE, '').split(/\s+/).length <= 3
              ? // ("toys everywhere", "random stuff on the floor": where they lie is no part of
                // their name; "two boxes of books": how many boxes is none either)
                bare.replace(HEAP_OF, '').replace(ON_THE, '').replace(LYING_ABOUT, '') || bare
              : null));
  // "keep it on the shelf": the shelf is where it goes, not the thing in question
  const isThePlace = named !== null && place !== null && (named === place || place.endsWith(` ${named}`));
  // "it might fit again one day", at the jumper's card: stuck on the thing in question; and in
  // "the kids might play with it one day" the kids are who may want it, not a thing
  const stuck = soundsStuck(t);
  const someone = stuck && named !== null && t.includes(`${named} might`);
  const thing =
    named && !NOT_A_THING.test(named) && !isThePlace && !someone
      ? named.replace(/[.!?]+$/, '').replace(HEAP_OF, '') || named
      : null;
  const item = thing ?? (stuck ? inQuestion : null);
  // what stays for sure: said to stay, or named when the coach asked what stays (all of them then)
  const askedWhatStays = /\bdefinitely staying\b/i.test(coachSaid ?? '');
  const anchors =
    phase !== 'surveying' || !item
      ? null
      : askedWhatStays
        ? [item, ...listed.filter((other) => other !== item)]
        : /\b(keep|stays?|staying)\b/.test(t)
          ? [item]
          : null;
  const intent = RESTART.test(t)
    ? 'restart'
    : stop
      ? 'stop'
      : undo
        ? 'undo'
        : anxiety || tired
          ? 'help'
          : /\bskip\b/.test(t)
            ? 'decided'
            : confused || (stuck && thing)
              ? // the coach in the sorting mode hears the confusion, or the stuck item, and switches mode
                'item'
              : stuck || /\b(help|no idea)\b/.test(t)
                ? 'help'
                : choice
                  ? 'decided'
                  : // ("where to start" is no start: it asks for one)
                    goOn ||
                      /\b(let'?s go|(?<!where to )start|ready|begin|go on|next|yes|ok(?:ay)?|keep going|(?:i'?m|we'?re) back)\b/.test(
                        t,
                      )
                    ? 'start'
                    : item
                      ? 'item'
                      : 'continue';
  const also = item ? listed.filter((thing) => thing !== item) : [];
  // "the catalogues and flyers go in the recycling": the second thing goes with the first
  const [, first, second] = (choice !== null && item !== null && TWO_SUBJECTS.exec(t)) || [];
  const alsoDecided =
    first === item && second && !NOT_A_THING.test(second) ? [{ item: second, choice, place }] : [];
  // "nothing really", "it can all go", asked what stays: nothing stays for sure, and sorting begins
  const nothingStays =
    askedWhatStays &&
    phase === 'surveying' &&
    item === null &&
    (intent === 'continue' || intent === 'decided');
  return {
    intent: nothingStays ? 'start' : intent,
    item,
    also,
    choice: nothingStays ? null : choice,
    place,
    function: fn,
    anchors,
    anxiety,
    ...(alsoDecided.length > 0 ? { alsoDecided } : {}),
  };
}

/** Two things decided together: "the catalogues and flyers go in the recycling". */
const TWO_SUBJECTS =
  /^(?:the |my |these |those |all the )?([a-z]+(?: [a-z]+)?) and (?:the |my |all the )?([a-z]+(?: (?!(?:go|goes|can|should|straight|belongs?|stays?|in|on|into|to)\b)[a-z]+)?)\s+(?:go|goes|can go|should go|straight|belongs?|stays?|in|on|into|to)\b/;

/**
 * Words that decide two things, cut where the second starts ("the mug goes to the kitchen | the
 * receipts in the bin"): each side names a thing and decides it. Null for one decision.
 */
function twoDecisions(t: string, phase: string): [string, string] | null {
  const decides = (clause: string) =>
    (ARTICLE.test(clause) ||
      subjectOf(clause) !== null ||
      movedTo(clause) !== null ||
      THE_REST.test(clause) ||
      COUNTED.test(clause)) &&
    choiceIn(clause, placeIn(clause), phase) !== null;
  // "… on the shelf and the cables in the drawer": the second place says its verb by the first's
  // "the lamp stays, and the books": a thing alone takes the first's decision too
  const elided = (clause: string) =>
    ARTICLE.test(clause) &&
    (/^[a-z ]+?\s+(?:in|on|into|to|by)\s+\S/.test(clause) ||
      /^(?:the|my|a|an|some|these|those)\s+[a-z]+(?: [a-z]+)?[.!]?$/.test(clause));
  for (const cut of t.matchAll(/\s*(?:,|;|\band\b|\bbut\b|\bthen\b)\s*/g)) {
    const left = t.slice(0, cut.index);
    const right = t.slice(cut.index + cut[0].length);
    if (decides(left) && (decides(right) || elided(right))) return [left, right];
  }
  return null;
}
