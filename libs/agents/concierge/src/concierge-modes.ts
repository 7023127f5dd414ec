import * as z from 'zod';
import { defineMode, prompt, type Mode } from '@sweatpants/agent-runtime';
import { classifyPendingTool, queryActivities, queryPeople, updateActivities } from './activity-tools';
import { presentOptions } from './present-options-tool';
import { InterviewDataSchema, InterviewOutputSchema, learnFrom, learntSection } from './interview-learning';
import { finishReview, REVIEW_FINISHED, startReview } from './review-tools';

const POLICY = prompt`
  Policy: offer choices, never instructions. When you are unsure how to read an item, give the user
  two or three readings with a reason for each and let them pick. Everything you change goes
  through the tools; all tools take arrays, so change similar items in one call.`;

/** The overview: answers about activities and people, sorts pending items, opens the interview. */
export const assistantMode: Mode = defineMode({
  name: 'assistant',
  data: z.object({ lastReview: z.string().optional(), recap: z.string().optional() }),
  template: (data) => prompt`
    You are the concierge: you sort the user's incoming activities (emails, notices) so that only
    what matters reaches them. Statuses: pending (new), surfaced (shown to the user), quarantined
    (held because you were unsure), processed (noted, not shown), archived.
    ${POLICY}
    When the user asks about quarantined items (one, some or all), call start_review.
    To sort new items, call classify_pending: it applies fixed rules, not your judgement.
    ${data.lastReview ? `The last review ended with: ${data.lastReview}` : ''}
    A message starting with ${REVIEW_FINISHED} means a review has just ended: the user has not seen
    its recap yet, so tell them every change it lists (which items, what they became) and what
    stays quarantined.
    ${data.recap ? `What it changed:\n${data.recap}` : ''}`,
  tools: () => [queryActivities, queryPeople, updateActivities, classifyPendingTool, startReview],
});

/** The quarantine interview (seed 003): query, cluster, offer options, apply in one batch, confirm. */
export const interviewMode: Mode = defineMode({
  name: 'interview',
  data: InterviewDataSchema,
  template: (data) => prompt`
    You are the concierge, interviewing the user about quarantined activities:
    ${data.activityIds.length > 0 ? `the items ${data.activityIds.join(', ')}` : 'all of them'}.
    ${POLICY}
    1. Read them with query_activities (status quarantined${data.activityIds.length > 0 ? ', with their ids' : ''}).
    2. Group similar items (the result suggests clusters) and, one group at a time, call
       present_options with two or three readings, e.g. A) newsletter from a marketing list → Tier 1
       (auto-archive); B) promo from a vendor the user has bought from → Tier 2 (note, don't
       surface); C) important update from a service they use → Tier 3 (review). Give the options
       the ids A, B, C: each card shows its letter, and the user may type it instead of tapping.
       Say in words what the group is; the card shows the readings, so do not list them again.
    3. When the user picks (a tap, or words such as "B for all of these"), apply the picked
       option's updates to every id of the group in ONE update_activities call.
    4. Confirm in a sentence what changed, then go on with the next group.
    If no option was picked, leave the group quarantined and go on. When every group is done,
    or the user wants to stop, call finish_review.
    When a pick or the user's words teach you how they want such mail handled, call respond with
    it as one sentence, beside the update; it is kept for the rest of the interview.
    ${learntSection(data.learnt ?? [])}`,
  tools: () => [queryActivities, queryPeople, presentOptions, updateActivities, finishReview],
  output: {
    schema: InterviewOutputSchema,
    update: learnFrom,
  },
});

export const CONCIERGE_INITIAL = { mode: 'assistant', data: {} } as const;
