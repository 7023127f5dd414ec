import { createAgent, modelIsBusy, summariseAs, type AgentDefinition } from '@sweatpants/agent-runtime';
import { ConciergeStateSchema, type Json } from '@sweatpants/domain';
import { call, type Operation } from 'effection';
import { ActivityStoreContext } from './activity-store';

import {
  classifyPendingTool,
  failure,
  queryActivities,
  queryPeople,
  updateActivities,
} from './activity-tools';
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
    followHead,
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

/**
 * The activities this conversation changed, brought in line with HEAD as a runner opens there: a
 * rewind past a pick puts its items back as they were, a recover applies it again (see
 * ./activity-changes).
 */
function* followHead(state: Json, conversationId: string): Operation<void> {
  const holding = ConciergeStateSchema.safeParse(state).data?.changes;
  if (!holding) return;
  const store = yield* ActivityStoreContext.expect();
  const followed = yield* call(() => store.followHead(conversationId, holding));
  if (!followed.ok) throw new Error(failure('follow HEAD', followed.error));
}

/** What a runner drives for the concierge. */
export const conciergeAgent: AgentDefinition = Concierge.definition;
