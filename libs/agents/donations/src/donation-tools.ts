import {
  askForm,
  createTool,
  elicit,
  notify,
  type AgentToolCall,
  type Tool,
} from '@sweatpants/agent-runtime';
import type { Json } from '@sweatpants/domain';
import { Err, Ok } from 'effection';
import * as z from 'zod';
import { DropOffDirectory, KindSchema, PointSchema } from './drop-off-directory';
import { kindOf } from './item-kind';

/** What the helper uses of the tidying coach, handed over by the program that registers both. */
export interface CoachTools {
  /** the coach's guess at an item's pile: `{ guess: 'donate' | 'trash' | …, pile, … }` */
  guessPile: AgentToolCall;
}

const Copied = z.object({ success: z.boolean() });
const CoachGuessSchema = z.object({ guess: z.string().nullable(), pile: z.string() });

/** Dispositions that mean "not fit to give away": a charity shop would have to throw it out. */
const NOT_FOR_GIVING = new Set(['trash', 'recycle']);

/** The helper's tools, by the name other agents call them with. */
export interface DonationTools {
  readonly checkItem: Tool;
  readonly describeDonation: Tool;
  readonly findDropOff: Tool;
  readonly copyDirections: Tool;
  readonly [name: string]: Tool;
}

/** The helper's tools; `check_item` asks the coach through `coach`. */
export function donationTools(coach: CoachTools): DonationTools {
  const checkItem = createTool('check_item')
    .description(
      'Ask the tidying coach whether an item is fit to give away, and find the kind of place that takes it. Call this first for each item.',
    )
    .parameter(
      z.object({ item: z.string().trim().min(1).max(200).describe('the item, as the person named it') }),
    )
    .execute(function* ({ item }) {
      const outcome = yield* coach.guessPile({ item });
      if (outcome.kind !== 'success')
        return Err(new Error(`the tidying coach could not say: ${describe(outcome)}`));
      const coachSays = CoachGuessSchema.safeParse(outcome.value);
      if (!coachSays.success) return Err(new Error('the tidying coach answered something unexpected'));
      const { guess, pile } = coachSays.data;
      return Ok({
        item,
        kind: kindOf(item),
        coach: { guess, pile },
        donatable: guess === null || !NOT_FOR_GIVING.has(guess),
      });
    });

  const describeDonation = createTool('describe_donation')
    .description('Ask the person, with a short form, what condition the item is in and how much there is.')
    .parameter(z.object({ item: z.string().trim().min(1).max(200) }))
    .execute(function* ({ item }) {
      const answer = yield* askForm(
        `A little about the ${item}, so I find a place that will take it`,
        z.object({
          condition: z.enum(['like new', 'good', 'worn']).describe('What condition is it in?'),
          bags: z.number().int().min(1).max(10).describe('How many bags or boxes?'),
          collection: z.boolean().describe('Would you rather it were collected?'),
        }),
      );
      switch (answer.action) {
        case 'accept':
          return Ok({ item, described: true, ...answer.content });
        case 'invalid':
          return Err(new Error(`the form came back incomplete: ${answer.problems.join('; ')}`));
        default:
          return Ok({ item, described: false, answer: answer.action });
      }
    });

  const findDropOff = createTool('find_drop_off')
    .description(
      "Ask for the person's rough location, then search the drop-off directory for places near them that take this kind of item.",
    )
    .parameter(z.object({ item: z.string().trim().min(1).max(200), kind: KindSchema }))
    .execute(function* ({ item, kind }) {
      // The browser says what it is doing while the device finds itself (a phone's GPS can take
      // a while); the helper tells the person it is waiting on their device, not on itself.
      const statuses: string[] = [];
      const answer = yield* elicit({
        type: 'location',
        message: `Share roughly where you are, to find places near you that take the ${item}?`,
        payload: { accuracy: 'low' },
        onProgress: (progress) => {
          const status = (progress as { status?: Json }).status;
          if (typeof status === 'string') statuses.push(status);
        },
      });
      if (answer.action !== 'accept') return Ok({ item, located: false, answer: answer.action });
      const near = PointSchema.parse(answer.content);
      const directory = yield* DropOffDirectory.attach();
      const search = yield* directory.invoke('search', { near, kind, limit: 3 });
      let next = yield* search.next();
      while (!next.done) {
        const { list, checked, total } = next.value;
        yield* notify(`Checked the ${list}`, { value: checked, total });
        next = yield* search.next();
      }
      const { directory: name, places } = next.value;
      return Ok({ item, kind, located: true, deviceReported: statuses, directory: name, places });
    });

  const copyDirections = createTool('copy_directions')
    .description("Offer to copy a place's name and address to the person's clipboard.")
    .parameter(
      z.object({ text: z.string().trim().min(1).max(500).describe('what to copy: the name and address') }),
    )
    .execute(function* ({ text }) {
      const answer = yield* elicit({
        type: 'clipboard-write',
        message: 'Copy the address?',
        payload: { text },
      });
      const copied = answer.action === 'accept' && Copied.safeParse(answer.content).data?.success === true;
      return Ok({ text, copied });
    });

  return { checkItem, describeDonation, findDropOff, copyDirections };
}

function describe(outcome: { kind: 'error'; message: string } | { kind: 'break'; text: string }): string {
  return outcome.kind === 'error' ? outcome.message : outcome.text;
}
