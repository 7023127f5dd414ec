import { nextThingWords, putWords, takeWords, whereItLanded } from './landed-words';
import { isRightHere, isWithinSpace } from './pile-placement';
import type { NonEmpty } from './session-state';
import type { AnxietyTrigger, Assignment, CategoryName, ItemName, Location } from './tidying-types';

/**
 * A further thing the same words sorted, by name ("…and the lamp on the nightstand"): it lands on
 * its pile with the turn's own.
 */
export type SortedToo =
  | { tag: 'instruct-trash'; item: ItemName }
  | { tag: 'instruct-place'; location: Location; item: ItemName }
  | { tag: 'instruct-unsure'; item: ItemName };

/** What an instruction sorts besides its own thing. */
export interface Sorts {
  /** the further things the words sorted, by name */
  readonly alsoSorted?: readonly SortedToo[];
  /**
   * the thing in question, told all in its parts by these words ("bills on the side table, flyers
   * in the recycling" at the post's card): the parts are sorted, and the thing is no more to go
   */
  readonly partsOf?: ItemName;
}

/** What the coach does this turn (seed 000's Action.hs). */
export type Action =
  // questions (surveying)
  | { tag: 'ask-function' }
  | { tag: 'ask-anchors' }
  | { tag: 'ask-what-is-it' }
  // `reopened`: the person took back what they had decided for it ("undo that"): off its pile, asked again
  | { tag: 'ask-item-decision'; item: ItemName; reopened?: true }
  // instructions (sorting)
  | { tag: 'first-instruction' }
  | ({ tag: 'instruct-trash' } & Sorts)
  // `item`: the thing put there, so the words name it ("take the books to the shelf")
  | ({ tag: 'instruct-place'; location: Location; item?: ItemName } & Sorts)
  | ({ tag: 'instruct-unsure' } & Sorts)
  | { tag: 'instruct-next' }
  // splitting: never into zero categories
  | { tag: 'instruct-split'; categories: NonEmpty<CategoryName>; assignment: Assignment }
  // decision support
  | { tag: 'decision-aid'; item: ItemName }
  | { tag: 'energy-check' }
  // anxiety avoidance
  | { tag: 'pivot-away'; trigger: AnxietyTrigger; location: Location }
  // completion
  | { tag: 'ack-progress'; note: string }
  // a thing named again that is sorted already: where it went, from the session alone
  | { tag: 'already-sorted'; item: ItemName; pile: 'belongs' | 'out'; location: Location | null }
  | { tag: 'summary' }
  // a side quest (seed 004): something said aside while a question waits, answered before it returns
  | { tag: 'answer-aside' }
  // a question of their own at the prompt ("how many are left?"): answered, then the next thing
  | { tag: 'answer-question' }
  // said aside: what the waiting card asks about (an item, or what the space is for when `item` is
  // null), so the card is pointed to, not asked twice
  | { tag: 'back-to-card'; item: ItemName | null };

export type ActionTag = Action['tag'];

/**
 * The canned replies (seed 000's cannedResponse); every other action is the model's to word.
 * Where the seed asks "Next?", the next thing still to go is named when there is one; said aside
 * while a card waits (`waiting`), nothing is asked for next: the card comes back below the reply.
 * `nothingNamed`: no thing has been shown or named in the session yet.
 */
export function cannedResponse(
  action: Action,
  next: ItemName | null = null,
  waiting = false,
  nothingNamed = false,
): string | null {
  const then = (otherwise: string) => (waiting ? '' : next ? nextThingWords(next) : otherwise);
  switch (action.tag) {
    case 'instruct-trash':
      return `Trashed! ${sortedTooWords(action)}${then('Next?')}`.trim();
    case 'instruct-unsure':
      return `Unsure pile. ${sortedTooWords(action)}${then('Next?')}`.trim();
    case 'instruct-next':
      // ("go" before any thing is named: "What's next?" would ask what they have no idea of yet)
      return (
        then(nothingNamed ? 'Pick up the nearest thing and tell me what it is.' : "What's next?") || null
      );
    case 'already-sorted': {
      // out: where it is taken; belongs: its spot here
      const where = whereItLanded({
        item: action.item,
        pile: action.pile,
        ...(action.location
          ? { destination: action.location, disposition: { location: action.location } }
          : {}),
      });
      return `Already sorted: ${where.replace(/^The /, 'the ')} ${then('What did you pick up next?')}`.trim();
    }
    case 'back-to-card':
      return action.item
        ? `The card below asks about the ${action.item}: tap a choice, or type your own answer.`
        : 'First the card below: what do you need to do in this space? Tap a choice, or type your own answer.';
    default:
      return null;
  }
}

/** The label of the prompt's line that says a card waits to come back below the reply. */
export const CARD_WAITING = 'Card waiting';

/** What the model is asked to do for an action, in a line of its system prompt. */
export function directive(action: Action): string {
  switch (action.tag) {
    case 'ask-function':
      return 'Ask what they need to DO in this space (call ask_space_function).';
    case 'ask-anchors':
      return 'Ask what is definitely staying in this space. One short question.';
    case 'ask-what-is-it':
      return 'Ask what the thing they mean is, or describe where it is so they can find it.';
    case 'ask-item-decision':
      return action.reopened
        ? `They took back what they had decided for "${action.item}": it is off its pile. Say so in a few words, then propose again what to do with it (call propose_disposition with your best guess first).`
        : `Propose what to do with "${action.item}" (call propose_disposition with your best guess first).`;
    case 'first-instruction':
      return 'Give one tiny, concrete first action that builds momentum. No questions.';
    case 'instruct-trash':
      return `Confirm it goes in the trash${andTheRest(action)}, then ask for the next thing.`;
    case 'instruct-place':
      return `Tell them to put ${action.item ? `the ${action.item}` : 'it'} at ${action.location}${andTheRest(action)}, then ask for the next thing.`;
    case 'instruct-unsure':
      return `Tell them to put it on the unsure pile${andTheRest(action)}, then ask for the next thing.`;
    case 'instruct-next':
      return 'Ask for the next thing.';
    case 'instruct-split':
      return `The unsure pile is big: split it into ${action.categories.join(', ')}. Say which pile is which.`;
    case 'decision-aid':
      return `They are stuck on "${action.item}". Reframe it through what the space is for; offer a choice.`;
    case 'energy-check':
      return 'Check their energy: keep going, or stop here? No judgement.';
    case 'pivot-away':
      return `Steer away from ${action.trigger}: suggest working on ${action.location} instead, gently.`;
    case 'ack-progress':
      return `Acknowledge their progress (${action.note}) in a sentence.`;
    case 'already-sorted':
      return `"${action.item}" is sorted already (${action.pile === 'belongs' ? 'it stays' : `it goes to ${action.location ?? 'its place'}`}): say so, then ask for the next thing.`;
    case 'answer-question':
      return 'They asked something: answer it in a sentence or two from the session above (its piles, what is still to go), without tools, then name the next thing still to go, if there is one.';
    case 'answer-aside':
      return 'While a question waits, they said something aside: answer it in a sentence or two, without tools. Their question comes back right after.';
    case 'back-to-card':
      return action.item
        ? `They named "${action.item}", which the waiting card asks about: point them to it, without tools.`
        : 'The waiting card asks what the space is for, which comes first: point them to it, without tools.';
    case 'summary':
      return 'Summarise the session from its recap: name each pile with its count and items, and where the out items go. Warm, brief.';
  }
}

/** The sentences that say where the further things went, each followed by a space; '' for none. */
export function sortedTooWords(action: { alsoSorted?: readonly SortedToo[] }): string {
  return (action.alsoSorted ?? []).map((sorted) => `${landedInWords(sorted)} `).join('');
}

/** No room known: a place that names a room, or somewhere away, is taken to; any other is a spot here. */
const UNKNOWN_SPACE = { room: null, function: null };

/** Where one further thing went, as the coach says it: "Take the lamp to the nightstand." */
export function landedInWords(sorted: SortedToo): string {
  switch (sorted.tag) {
    case 'instruct-trash':
      return whereItLanded({ item: sorted.item, pile: 'out', disposition: { kind: 'trash' } });
    case 'instruct-unsure':
      return whereItLanded({ item: sorted.item, pile: 'unsure' });
    case 'instruct-place':
      // a spot of this space ("the dirty ones in the sink"): put there, not taken to it
      return !isRightHere(sorted.location) && isWithinSpace(sorted.location, UNKNOWN_SPACE)
        ? putWords(`the ${sorted.item}`, sorted.location)
        : takeWords(`the ${sorted.item}`, sorted.location);
  }
}

/** The further things sorted, as the instruction that sorts the first of them and the rest with it. */
export function sortingInstruction(first: SortedToo, rest: readonly SortedToo[]): Action {
  const more = rest.length > 0 ? { alsoSorted: rest } : {};
  return first.tag === 'instruct-place' ? { ...first, ...more } : { tag: first.tag, ...more };
}

/** For the model: the further things sorted, which its words say too. */
function andTheRest(action: { alsoSorted?: readonly SortedToo[] }): string {
  const rest = action.alsoSorted ?? [];
  return rest.length === 0
    ? ''
    : ` and say in a few words that the rest is sorted as they said (${rest.map(landedInWords).join(' ')})`;
}
