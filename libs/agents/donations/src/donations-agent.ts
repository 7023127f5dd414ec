import {
  compactAtTokens,
  createAgent,
  defineMode,
  modeReducer,
  prompt,
  summariseAs,
  type CreatedAgent,
} from '@sweatpants/agent-runtime';
import * as z from 'zod';
import { donationTools, type CoachTools, type DonationTools } from './donation-tools';
import { demoDirectory, useDirectory, type DirectoryImplementation } from './drop-off-directory';

const INITIAL = { mode: 'helping', data: null };

/** The model that writes the helper's summaries, on Claude. */
export const SUMMARY_MODEL = 'claude-haiku-4-5';

/**
 * The donation helper: the person names something they want to give away; it asks the tidying
 * coach whether the thing is fit to give, asks a little about it with a form, asks roughly where
 * the person is, searches a drop-off directory near them (each list it checks shown as it goes)
 * and offers to copy the best place's address. Written only with the runtime's public API; the
 * coach's tool comes from the program, so this library imports no other agent.
 *
 * @example
 * const Donations = createDonations({ guessPile: Tidying.tools.guessPile });
 * new AgentCatalog().use({ definition: Donations.definition, about, offlineRules: DONATIONS_OFFLINE_RULES });
 */
export function createDonations(
  coach: CoachTools,
  options: { directory?: DirectoryImplementation } = {},
): CreatedAgent<DonationTools> {
  const tools = donationTools(coach);
  return createAgent(tools, {
    name: 'donations',
    modes: [
      defineMode({
        name: 'helping',
        data: z.null(),
        template: () => prompt`
          You help a person give away things they no longer need, one item at a time, kindly and
          briefly. For each item they name: call check_item; if the tidying coach says it is not
          fit to give away, say so gently and suggest recycling instead; otherwise call
          describe_donation, then find_drop_off with the item's kind, then copy_directions with the
          best place's name and address. Finish with one or two sentences: where to take it, how
          far it is and when it is open. Never invent places: only name what find_drop_off found.
        `,
        tools: () => Object.values(tools),
      }),
    ],
    initial: INITIAL,
    state: modeReducer('donations', INITIAL),
    // check, form, location and search, copy, then the reply, with room for one correction
    maxSteps: 8,
    chatPrompt: () => ({ message: 'What would you like to give away?', placeholder: 'e.g. a winter coat' }),
    plugins: [
      useDirectory(options.directory ?? demoDirectory),
      // A helper's conversation needs only its recent items: compacted long before the default.
      compactAtTokens(20_000),
      // Its conversations are short lists of items and places: a small model summarises them well.
      summariseAs(
        'You compact a conversation between a person and their donation helper, for the helper to ' +
          'continue from. Keep: each item they wanted to give away, whether it was fit to give, ' +
          'where it was to go, and anything still to find a place for. Plain text, short.',
        { model: SUMMARY_MODEL },
      ),
    ],
    fallbackReply: (error) =>
      `I couldn't look that up just now (${error.code}). Tell me the item again in a moment.`,
  });
}
