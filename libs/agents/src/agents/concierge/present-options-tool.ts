import { call } from 'effection';
import * as z from 'zod';
import { ask, createTool, SideQuests, ToolError, ToolSuccess, type Tool } from '../../runtime';
import { ActivityStoreContext } from './activity-store';
import { failure } from './activity-tools';
import { cardOptions, readChoice } from './option-framing';
import { ActivityIdsSchema, UpdatesInputSchema } from './tool-inputs';

const OptionSchema = z.object({
  id: z.string().min(1).max(8).describe('a short letter: A, B, C (its card shows it before the label)'),
  label: z.string().min(1).describe('the reading, e.g. "Promo from a vendor you\'ve bought from → Tier 2"'),
  reason: z.string().min(1).describe('why this reading could be right, for these items'),
  updates: UpdatesInputSchema.describe('what update_activities would apply if the user picks it'),
});

/**
 * The quarantine interview's question (seed 003): two or three readings of a group of quarantined
 * activities, offered as a `choose` elicit whose options carry their reasons. The user taps one or
 * types an answer ("B for all of these"); a typed answer comes back here rather than starting a
 * side quest, because answering in words is answering. No answer (a timeout, a dismissal) is
 * seed 002's fallback for Choose, an empty choice: the items stay quarantined. Each card shows the
 * letter the user is asked to type ("B. Promo from a vendor…"), and typing it picks that card.
 */
export const presentOptions: Tool = createTool('present_options')
  .description(
    'Offer the user 2-3 classification options for a group of similar quarantined activities, each with its reason (options, never instructions). Returns the picked option with its updates; then apply them with ONE update_activities call for all the ids.',
  )
  .input(
    z.object({
      activity_ids: ActivityIdsSchema,
      message: z.string().min(1).describe('what these items are, in a sentence'),
      options: z.array(OptionSchema).min(2).max(3),
    }),
  )
  .execute(function* ({ activity_ids, message, options }) {
    const ids = options.map((o) => o.id);
    // Ignoring case: "b" typed must name one option, and its card one letter.
    if (new Set(ids.map((id) => id.toLowerCase())).size !== ids.length)
      return ToolError('present_options: option ids must differ');
    const cards = cardOptions(options);
    const store = yield* ActivityStoreContext.expect();
    const known = yield* call(() => store.queryActivities({ ids: activity_ids, limit: activity_ids.length }));
    if (!known.ok) return ToolError(failure('present_options', known.error));
    const unknown = activity_ids.filter((id) => !known.value.some((a) => a.id === id));
    if (unknown.length > 0) return ToolError(`present_options: unknown activity ids ${unknown.join(', ')}`);

    const asked = yield* SideQuests.with(null, () =>
      ask(
        {
          type: 'choose',
          message,
          payload: { options: cards.map((o) => ({ id: o.id, label: o.shown, description: o.reason })) },
        },
        { choiceId: '' },
      ),
    );
    const said = asked.response?.action === 'other' ? asked.response.content.text : undefined;
    const choiceId = said === undefined ? asked.content.choiceId : (readChoice(said, ids) ?? '');
    const picked = cards.find((o) => o.id === choiceId);
    if (picked) {
      return ToolSuccess({
        choice: picked.id,
        label: picked.shown,
        activity_ids,
        updates: picked.updates,
        ...(said === undefined ? {} : { said }),
      });
    }
    if (said !== undefined)
      return ToolSuccess({
        choice: '',
        said,
        activity_ids,
        note: 'The user answered in their own words and named no single option: read what they said.',
      });
    return ToolSuccess({
      choice: '',
      activity_ids,
      fallback: true,
      note: 'No option was picked (no answer in time, or dismissed): the items stay quarantined; go on.',
    });
  });
