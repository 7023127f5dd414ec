import {
  compactAtTokens,
  createAgent,
  defineMode,
  modelIsBusy,
  modeReducer,
  prompt,
  summariseAs,
  type CreatedAgent,
} from '@sweatpants/agent-runtime';
import * as z from 'zod';
import { NEAR_KM } from './directory-search';
import { donationTools, type CoachTools, type DonationTools } from './donation-tools';
import { offerPlace } from './place-offer';
import { MAX_ITEMS_AT_ONCE } from './said-items';
import { demoDirectory, useDirectory, type DirectoryImplementation } from './drop-off-directory';

const INITIAL = { mode: 'helping', data: null };

/** The model that writes the helper's summaries, on Claude. */
export const SUMMARY_MODEL = 'claude-haiku-4-5';

/**
 * The donation helper: the person names the things they want to give away, in a sentence of
 * their own; for each it consults the tidying coach's rule of thumb on whether it is fit to give
 * (asking the person when only its age is in doubt), asks a little about it with a form, asks
 * roughly where the person is once, searches a directory for drop-off places or, when they would
 * rather, collection services near them (each list it checks shown as it goes), says where each
 * thing can go (or plainly that it knows nothing near) and then offers to copy the address. Written only with the runtime's public API; the
 * coach's tool comes from the program, so this library imports no other agent.
 *
 * @example
 * const Donations = createDonations({ guessPile: Tidying.tools.guessPile });
 * new AgentCatalog().use({ definition: Donations.definition, about, offlineRules: DONATIONS_OFFLINE_RULES });
 */
export function createDonations(
  coach: CoachTools,
  options: { directory?: DirectoryImplementation } = {},
): CreatedAgent<DonationTools & { offerPlace: typeof offerPlace }> {
  const tools = donationTools(coach);
  // offer_place is for other agents that hand the helper a thing: its own model is not offered it.
  return createAgent(
    { ...tools, offerPlace },
    {
      name: 'donations',
      modes: [
        defineMode({
          name: 'helping',
          data: z.null(),
          template: () => prompt`
          You are the donation helper: you help a person give away things they no longer need,
          kindly and briefly, in your own voice. When they tell of a loss (someone who died, whose
          home they are clearing), say you are sorry first, in a few plain words.
          Read a message as the things in it, as a person would: "I have a bag of kids clothes and
          some old books to give away" names two things, "kids clothes" and "old books". Never
          treat the whole sentence as a thing's name. Deal with each thing by its name, together
          where you can (one location for all of them).
          For each thing call check_item. It consults the tidying coach's rule of thumb: that is
          advice for you, not a voice. Never speak as or for the coach ("the coach would…") and
          never call yourself the coach. Old is not broken: when whether a thing is fit to give
          depends on its condition, ask (check_item asks about old or used things) rather than
          assume. If a thing cannot be given away, say so gently and suggest recycling instead;
          when check_item says instead "safety" (a car seat, a helmet), say why: its history cannot
          be vouched for; when it says "unsafe for a child" (a high chair with a missing strap),
          say it is not safe for another child as it is, and could be given once mended; when it
          says "pharmacy" (medicines), say any pharmacy takes them back, never the bin or the sink.
          Otherwise call describe_donation, passing what the person already told you (its
          condition, that they want it collected), then find_drop_off with the thing's kind and
          its condition as described (worn things are not sent to shops that resell), passing
          near when they already shared where they are.
          Honour collection: when the person would rather it were collected or picked up (said in
          words or in the form), call find_drop_off with collection true and name the service it
          finds, or say plainly that you know no collection near them. Never offer a drop-off
          instead of your own accord: only when find_drop_off says no service collects there and
          found places to take it (noCollection), say so first, then where to take it.
          Only places within ${NEAR_KM} km are near. When find_drop_off finds none near, say
          plainly that you know no place near them and what they could do instead; never call a
          far place near, and any distance you mention is the one it found.
          Say where before offering to copy: your reply names the place, its address, how far it
          is and when it is open, and only then, in the same message after those words, call
          copy_directions with its name and address. Never invent places: only name what
          find_drop_off found.
        `,
          tools: () => Object.values(tools),
        }),
      ],
      initial: INITIAL,
      state: modeReducer('donations', INITIAL),
      // A model may take the things one call at a time: a check, a form and a search for each of
      // the things one message may name, then the words with the copy, and the reply after it.
      maxSteps: 3 * MAX_ITEMS_AT_ONCE + 2,
      chatPrompt: () => ({ message: 'What would you like to give away?', placeholder: 'e.g. a winter coat' }),
      plugins: [
        useDirectory(options.directory ?? demoDirectory),
        // A helper's conversation needs only its recent items: compacted long before the default.
        compactAtTokens(20_000),
        // Its conversations are short lists of items and places: a small model summarises them well.
        summariseAs(
          'You compact a conversation between a person and their donation helper, for the helper to ' +
            'continue from. Keep: each item they wanted to give away, whether it was fit to give, ' +
            'whether they wanted it collected, where it was to go (or that nothing known was near), ' +
            'and anything still to find a place for. Plain text, short.',
          { model: SUMMARY_MODEL },
        ),
      ],
      fallbackReply: (error) =>
        modelIsBusy(error)
          ? 'The model is busy right now, so I could not look that up. What you said is kept; tell me the item again in a minute.'
          : `I couldn't look that up just now (${error.code}). Tell me the item again in a moment.`,
    },
  );
}
