import { type AgentDefinition, summariseAs, createAgent, modelIsBusy } from '@sweatpants/agent-runtime';
import { handDonationsTo, type DonationHandOff } from './donation-hand-off';
import { askSpaceFunction, confirmDone, proposeDisposition } from './disposition-tools';
import { guessPile } from './guess-pile-tool';
import { functionOf, nextSeenOf, phaseOf } from './session-state';
import { sessionOf, tidyingReducer } from './tidying-reducer';
import { TIDYING_MODES } from './tidying-modes';
import { tidyingTurn } from './tidying-turn';

/** What a program may hand the coach: another agent's tool it uses. */
export interface TidyingOptions {
  /** the donation helper's offer about an item the coach proposes to donate */
  donations?: DonationHandOff;
}

/**
 * The tidying coach (seeds 000–002): an OODA turn of its own over seed 001's modes, its session
 * the fold of the path's tidying events. Handed the donation helper (`donations`), an item it
 * proposes to donate gets the helper's question alongside its card.
 *
 * @example
 * const Coach = createTidying({ donations: (input) => Donations.tools.offerPlace(input) });
 */
export function createTidying(options: TidyingOptions = {}) {
  return createAgent(
    // What other agents may ask of it: to place an item, to ask what a space is for, to confirm, and
    // its guess at an item's pile without asking anyone.
    { proposeDisposition, askSpaceFunction, confirmDone, guessPile },
    {
      name: 'tidying',
      modes: TIDYING_MODES,
      initial: { mode: 'surveying', data: {} },
      state: tidyingReducer,
      turn: tidyingTurn,
      chatPrompt: (json) => {
        const state = sessionOf(json);
        switch (phaseOf(state)) {
          case 'ended':
            return {
              message:
                'Session done. Tell me anything else you put away, or say "start over" for a new session.',
              placeholder: 'e.g. the lamp',
            };
          case 'surveying':
            return state.sessionStart === null
              ? {
                  message: 'Send a photo of the space you want to tidy',
                  placeholder: 'Add a photo, say what bugs you',
                }
              : functionOf(state) === null
                ? { message: 'Tell me about the space', placeholder: 'What do you need to do in it?' }
                : // what it is for is known: what stays for sure is asked next
                  {
                    message: "What's definitely staying in this space?",
                    placeholder: 'e.g. the desk and the lamp',
                  };
          case 'sorting': {
            const next = nextSeenOf(state);
            return next
              ? {
                  message: `Next: the ${next}? Say go, or tell me what you picked up.`,
                  placeholder: `go (the ${next}), or name a thing`,
                }
              : { message: 'What did you pick up?', placeholder: 'e.g. a coffee mug' };
          }
          case 'refining':
            return { message: 'What did you pick up?', placeholder: 'e.g. a coffee mug' };
          case 'splitting':
            return { message: 'Ready to go through the piles?', placeholder: 'say go, or stop' };
          case 'decision-support':
            return { message: 'What feels right for it?', placeholder: 'keep, trash, or not sure' };
        }
      },
      // What a coach picking the session up again from a summary needs.
      plugins: [
        ...(options.donations ? [handDonationsTo(options.donations)] : []),
        summariseAs(
          'You compact a tidying session between a person and their tidying coach, for the coach to ' +
            'continue from. Keep: what the space is for, each item sorted and the pile or place it ' +
            'went to, what is still undecided and why, and how the person is getting on. Plain text, ' +
            'a few short paragraphs.',
        ),
      ],
      fallbackReply: (error) =>
        modelIsBusy(error)
          ? "The model is busy right now, so I couldn't answer that. What you said is kept: say 'go on' in a minute and we carry on from there."
          : `I couldn't think that through just now (${error.code}). Pick up the nearest thing and tell me what it is.`,
    },
  );
}

/** The coach on its own, handed no other agent. */
export const Tidying = createTidying();

/** What a runner drives for the tidying coach. */
export const tidyingAgent: AgentDefinition = Tidying.definition;
