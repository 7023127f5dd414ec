import { call } from 'effection';
import * as z from 'zod';
import { ask, createTool, Run, ToolError, ToolSuccess, type Tool } from '@sweatpants/agent-runtime';
import { ActivityStoreContext } from './activity-store';
import { failure } from './activity-tools';
import { cardOptions } from './option-framing';
import { reviewEnd } from './review-tools';
import { stopSaidAside } from './set-aside';
import { OpenCards } from './side-quest';
import { ActivityIdsSchema, UpdatesInputSchema } from './tool-inputs';

const PRESENT_OPTIONS = 'present_options';

const OptionSchema = z.object({
  id: z.string().min(1).max(8).describe('a short letter: A, B, C (its card shows it before the label)'),
  label: z.string().min(1).describe('the reading, e.g. "Promo from a vendor you\'ve bought from → Tier 2"'),
  reason: z.string().min(1).describe('why this reading could be right, for these items'),
  updates: UpdatesInputSchema.describe('what update_activities would apply if the user picks it'),
});

/**
 * The quarantine interview's question (seed 003): two or three readings of a group of quarantined
 * activities, offered as a `choose` elicit whose options carry their reasons. Each card shows the
 * letter the user is asked to type ("B. Promo from a vendor…"). The user taps one, or types: the
 * runtime has the model read typed words against the card (seed 004), so words that answer it
 * ("b", "B for all of these", "option c", an option's own words) come back as that pick, and
 * anything else ("wait, what does tier 2 mean?") is a side quest: answered, then the same card is
 * asked again. No answer (a timeout, a dismissal) is seed 002's fallback for Choose, an empty
 * choice: the items stay quarantined.
 */
export const presentOptions: Tool = createTool(PRESENT_OPTIONS)
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

    // In a side quest the card that sent the user there is still open: it comes back after it.
    const open = yield* OpenCards.expect();
    if (open)
      return ToolError(
        `present_options: the card "${open.message}" is still open and is asked again after this reply; answer the user's words without a new card`,
      );

    const asked = yield* ask(
      {
        type: 'choose',
        message,
        payload: { options: cards.map((o) => ({ id: o.id, label: o.shown, description: o.reason })) },
      },
      { choiceId: '' },
    );
    // A reading of typed words may name the option by the letter its card shows ("b").
    const choiceId = asked.content.choiceId.toLowerCase();
    const picked =
      cards.find((o) => o.id.toLowerCase() === choiceId) ??
      cards.find((o) => o.letter.toLowerCase() === choiceId);
    if (picked) {
      return ToolSuccess({ choice: picked.id, label: picked.shown, activity_ids, updates: picked.updates });
    }
    // Words reach the tool only where no side quest can run (no runner installed one).
    const said = asked.response?.action === 'other' ? asked.response.content.text : undefined;
    if (said !== undefined)
      return ToolSuccess({
        choice: '',
        said,
        activity_ids,
        note: 'The user answered in their own words and named no single option: read what they said.',
      });
    // "I'm done" typed at the card: the side quest set it aside, and the review ends here.
    const run = yield* Run.expect();
    const path = run.journal.path();
    // This call is the last of its name that asked a card: one refused in the side quest asked none.
    const asker = path.findLastIndex(
      (n, i) =>
        n.kind === 'tool_call' && n.payload['name'] === PRESENT_OPTIONS && path[i + 1]?.kind === 'elicit',
    );
    const stop = stopSaidAside(path.slice(asker + 1));
    if (stop) return yield* reviewEnd(stop.summary);
    // Words typed at the card picked for some of its items by sender, and those were applied.
    const now = yield* call(() => store.queryActivities({ ids: activity_ids, limit: activity_ids.length }));
    const left = now.ok ? now.value.filter((a) => a.status === 'quarantined').map((a) => a.id) : activity_ids;
    if (left.length < activity_ids.length)
      return ToolSuccess({
        choice: '',
        applied_in_words: activity_ids.filter((id) => !left.includes(id)),
        remaining_ids: left,
        note:
          left.length > 0
            ? 'Their words applied options to some of these items; offer the rest again (present_options for remaining_ids).'
            : 'Their words applied options to every one of these items: go on with the next group.',
      });
    return ToolSuccess({
      choice: '',
      activity_ids,
      fallback: true,
      note: 'No option was picked (no answer in time, or dismissed): the items stay quarantined; go on.',
    });
  });
