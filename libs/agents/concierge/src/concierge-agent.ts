import { createAgent, modelIsBusy, summariseAs, type AgentDefinition } from '@sweatpants/agent-runtime';
import { ConciergeStateSchema } from '@sweatpants/domain';

import { classifyPendingTool, queryActivities, queryPeople, updateActivities } from './activity-tools';
import { assistantMode, CONCIERGE_INITIAL, interviewMode } from './concierge-modes';
import { conciergeState } from './concierge-state';
import { conciergeAsideNote, conciergeTurn } from './side-quest';

/**
 * The concierge (seed 003): sorts the user's activities, and interviews them about the ones it
 * was unsure of, offering options and applying the pick to whole groups in one batch.
 */
export const Concierge = createAgent(
  // What other agents may ask of it: the user's activities and people, read and updated.
  {
    queryActivities,
    updateActivities,
    queryPeople,
    classifyPending: classifyPendingTool,
  },
  {
    name: 'concierge',
    modes: [assistantMode, interviewMode],
    initial: { ...CONCIERGE_INITIAL },
    state: conciergeState,
    // An interview of several groups is a query, then a question, an update and a confirmation each.
    maxSteps: 16,
    // The runtime's turn, told about the open card when it is a side quest (seed 004).
    turn: conciergeTurn,
    asideNote: conciergeAsideNote,
    chatPrompt: (state) => {
      const parsed = ConciergeStateSchema.safeParse(state);
      return parsed.success && parsed.data.mode === 'interview'
        ? { message: 'Pick an option, or say it in your own words.', placeholder: 'B for all of these' }
        : { message: 'What shall we sort?', placeholder: 'Review my quarantined items' };
    },
    plugins: [
      summariseAs(
        'You compact a review between a person and their concierge, for the concierge to continue ' +
          'from. Keep: which activities were classified and how, which groups are still to review, ' +
          'the choices the person made and the rules they stated for the rest. Plain text.',
      ),
    ],
    fallbackReply: (error) =>
      modelIsBusy(error)
        ? 'The model is busy right now, so I could not answer. Nothing was changed and what you said is kept; ask again in a minute.'
        : `Something went wrong on my side (${error.code}). Nothing was changed; please try again.`,
  },
);

/** What a runner drives for the concierge. */
export const conciergeAgent: AgentDefinition = Concierge.definition;
