import {
  log,
  QuestionsAsked,
  Run,
  setAsideAsked,
  type AgentPlugin,
  type AgentToolCall,
} from '@sweatpants/agent-runtime';
import type { Disposition } from '@sweatpants/domain';
import { all, createContext, type Operation } from 'effection';

/**
 * Another agent's tool the program hands the coach (the donation helper's `offer_place`): given an
 * item the coach proposes to donate, it asks the person its own short question about it. The coach
 * declares the call; the program hands it the real one, so this library imports no other agent.
 */
export type DonationHandOff = AgentToolCall<{ item: string }, unknown>;

/** The hand-off in force in a turn of the coach's, when the program gave one. */
export const DonationHandOffs = createContext<DonationHandOff | null>('tidying.donation-hand-off', null);

/**
 * The plugin that puts `handOff` in force at every turn of the coach's conversations.
 *
 * @example
 * createTidying({ donations: (input) => Donations.tools.offerPlace(input) });
 */
export function handDonationsTo(handOff: DonationHandOff): AgentPlugin {
  return {
    name: 'tidying: hands items to donate to the donation helper',
    *install() {
      yield* DonationHandOffs.set(handOff);
    },
  };
}

/**
 * The items whose helper question is still waiting, in the scope of the card that asked it: a card
 * asked about the same item before that one is answered (decision support's, after doubt said at
 * the first) asks no second helper question about it.
 */
const OffersWaiting = createContext<ReadonlySet<string>>('tidying.donation-offers-waiting', new Set());

/**
 * Asks the coach's card about `item`; when the coach's guess is to donate it and a helper was
 * handed over, the helper's question is asked alongside (both pending at once, answered in either
 * order) and the card's answer comes back once both are answered. What the card records once
 * answered (the item on its pile) is stored at once, so the person sees it while the helper's
 * question still waits, rather than at the next durability point after both. A card answered
 * otherwise than by giving the thing away (`given` says no: "I'll sell it on ebay") makes the
 * helper's offer moot: a question of its still waiting is set aside. A helper that fails leaves
 * the card alone.
 */
export function* withDonationOffer<T>(
  item: string,
  guess: Disposition,
  card: () => Operation<T>,
  given: (answer: T) => boolean,
): Operation<T> {
  const waiting = (yield* OffersWaiting.get()) ?? new Set<string>();
  const key = item.toLowerCase();
  const handOff = guess.kind === 'donate' && !waiting.has(key) ? yield* DonationHandOffs.expect() : null;
  if (!handOff) return yield* card();
  return yield* OffersWaiting.with(new Set([...waiting, key]), () =>
    cardAndOffer(item, handOff, card, given),
  );
}

function* cardAndOffer<T>(
  item: string,
  handOff: DonationHandOff,
  card: () => Operation<T>,
  given: (answer: T) => boolean,
): Operation<T> {
  const offered = new Set<string>();
  const [answer] = yield* all([
    (function* (): Operation<T> {
      const answer = yield* card();
      const run = yield* Run.expect();
      run.journal.startWriting();
      if (!given(answer)) setAsideAsked(run, offered);
      return answer;
    })(),
    (function* (): Operation<void> {
      try {
        yield* QuestionsAsked.with(offered, () => handOff({ item }));
      } catch (error) {
        yield* log('warn', 'tidying: the donation helper could not take the item', {
          item,
          message: error instanceof Error ? error.message : String(error),
        });
      }
    })(),
  ]);
  return answer;
}
