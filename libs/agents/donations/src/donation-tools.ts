import {
  askForm,
  createTool,
  elicit,
  Err,
  Ok,
  ToolCallError,
  type AgentToolCall,
  type Tool,
} from '@sweatpants/agent-runtime';
import * as z from 'zod';
import { NEAR_KM, searchDirectory } from './directory-search';
import { ConditionSchema, KindSchema, PointSchema } from './drop-off-directory';
import { comesInBags, kindOf } from './item-kind';
import { listOf } from './donation-replies';
import {
  conditionInDoubt,
  isPlural,
  MAX_ITEMS_AT_ONCE,
  forThePharmacy,
  electrical,
  recycledOnly,
  safetyFirst,
  unsafeForAChild,
} from './said-items';

/** The coach's guess at an item's pile, as the helper reads it. */
export interface CoachGuess {
  /** what the coach would propose ('donate', 'trash', …), null when it has no guess */
  guess: string | null;
  pile: string;
  alternatives?: string[];
}

/** What the helper uses of the tidying coach, handed over by the program that registers both. */
export interface CoachTools {
  /** the coach's `guess_pile` tool (`Tidying.tools.guessPile`), typed as the helper calls it */
  guessPile: AgentToolCall<{ item: string }, CoachGuess>;
}

const Copied = z.object({ success: z.boolean() });
const Confirmed = z.object({ value: z.boolean() });

/** Dispositions that mean "not fit to give away": a charity shop would have to throw it out. */
const NOT_FOR_GIVING = new Set(['trash', 'recycle']);

/**
 * The short form about an item, its questions in words that agree with it ("What condition are
 * they in?" of kids clothes); the questions the person has already answered are left out.
 */
function descriptionForm(item: string) {
  const [it, is] = isPlural(item) ? ['they', 'are'] : ['it', 'is'];
  return z.object({
    condition: ConditionSchema.describe(`What condition ${is} ${it} in?`),
    bags: z.number().int().min(1).max(10).describe('How many bags or boxes?'),
    collection: z.boolean().describe(`Would you rather ${it} were collected?`),
  });
}
/** What a described item's form gives, whichever words it asked in. */
const DescriptionForm = descriptionForm('item');

/**
 * Where a thing no one can be given goes instead: an electrical to a recycling point (never the
 * bin), else the recycling when the coach's rule says so, else its guess.
 */
function unfitTo(item: string, guess: string | null, alternatives: readonly string[] = []): string {
  if (electrical(item)) return 'recycling point';
  return guess === 'recycle' || alternatives.includes('recycle') ? 'recycle' : (guess ?? 'trash');
}

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
      'Check whether one thing is fit to give away, and find the kind of place that takes it. Call it once for each thing the person names, with the thing\'s own name ("old books", not their whole sentence). It consults the tidying coach\'s rule of thumb (advice for you: never speak as or for the coach); when the only doubt is the thing\'s age or use ("old", "used"), it asks the person about its condition instead of assuming old means unfit.',
    )
    .parameter(
      z.object({
        item: z.string().trim().min(1).max(200).describe('one thing, as the person named it: "kids clothes"'),
        condition: z
          .enum(['good', 'poor'])
          .optional()
          .describe(
            '"good" when the person already said so ("an old kettle that still works"), "poor" when they said it no longer works ("a microwave that doesn\'t heat anymore"): not asked again',
          ),
      }),
    )
    .execute(function* ({ item, condition }) {
      let coachSays: CoachGuess;
      try {
        coachSays = yield* coach.guessPile({ item });
      } catch (error) {
        if (!(error instanceof ToolCallError)) throw error;
        return Err(new Error(`the tidying coach's rule of thumb could not say: ${error.message}`));
      }
      const { guess, pile, alternatives = [] } = coachSays;
      const checked = { item, kind: kindOf(item), coach: { guess, pile } };
      // medicines: a pharmacy takes them back, whatever their condition
      if (forThePharmacy(item)) return Ok({ ...checked, donatable: false, instead: 'pharmacy' });
      // batteries, bulbs, paint: never given, whatever the coach's guess or their condition
      if (recycledOnly(item)) return Ok({ ...checked, donatable: false, instead: 'recycling point' });
      // car seats, helmets: no one can vouch for their history, so no charity passes them on
      if (safetyFirst(item)) return Ok({ ...checked, donatable: false, instead: 'safety' });
      // a high chair with a missing strap: whatever the coach's guess, not safe for another child as it is
      if (unsafeForAChild(item)) return Ok({ ...checked, donatable: false, instead: 'unsafe for a child' });
      // the person said it no longer works: no charity passes it on, and an electrical is never binned
      if (condition === 'poor')
        return Ok({ ...checked, donatable: false, condition, instead: unfitTo(item, guess, alternatives) });
      const unfit = guess !== null && NOT_FOR_GIVING.has(guess);
      // fit to give: what the person said of its condition ("a microwave that still works") goes
      // on with it, so the form does not ask it again
      if (!unfit) return Ok({ ...checked, donatable: true, ...(condition ? { condition } : {}) });
      // The coach's rule reads "old" as worn out; an old book can be a good one. Only the person
      // knows, so the helper asks rather than turn it away.
      if (!conditionInDoubt(item)) return Ok({ ...checked, donatable: false, instead: unfitTo(item, guess) });
      if (condition === 'good') return Ok({ ...checked, donatable: true, condition });
      const answer = yield* elicit({
        type: 'confirm',
        message: `${isPlural(item) ? 'Are' : 'Is'} the ${item} in good condition?`,
        payload: { default: true },
      });
      const good = answer.action === 'accept' ? Confirmed.safeParse(answer.content).data?.value : undefined;
      if (good === undefined) return Ok({ ...checked, donatable: true, condition: null });
      if (good) return Ok({ ...checked, donatable: true, condition: 'good' });
      return Ok({
        ...checked,
        donatable: false,
        condition: 'poor',
        instead: unfitTo(item, guess, alternatives),
      });
    });

  const describeDonation = createTool('describe_donation')
    .description(
      'Ask the person, with a short form, what condition one thing is in, how much there is and whether they would rather it were collected. Pass what they already said (condition, collection) so it is not asked again.',
    )
    .parameter(
      z.object({
        item: z.string().trim().min(1).max(200),
        condition: ConditionSchema.optional().describe('the condition the person already gave'),
        collection: z.boolean().optional().describe('true when the person already asked for collection'),
        bags: z
          .number()
          .int()
          .min(1)
          .max(10)
          .optional()
          .describe('how many bags or boxes the person already said ("a bag of kids clothes": 1)'),
      }),
    )
    .execute(function* ({ item, condition, collection, bags }) {
      const form = descriptionForm(item).omit({
        ...(condition === undefined ? {} : { condition: true }),
        ...(collection === undefined ? {} : { collection: true }),
        // a sofa or a bike comes as it is, not in bags or boxes; and what was said is not asked
        ...(comesInBags(item) && bags === undefined ? {} : { bags: true }),
      });
      const answer = yield* askForm(
        `A little about the ${item}, so I find a place that will take ${isPlural(item) ? 'them' : 'it'}`,
        form,
      );
      switch (answer.action) {
        case 'accept': {
          // what the form asked, over what the person had already said
          const given = DescriptionForm.partial().parse(answer.content);
          const known = {
            condition: given.condition ?? condition,
            collection: given.collection ?? collection,
            bags: given.bags ?? bags,
          };
          // JSON has no undefined: what is not known is left out
          return Ok({
            item,
            described: true,
            ...(known.bags === undefined ? {} : { bags: known.bags }),
            ...(known.condition === undefined ? {} : { condition: known.condition }),
            ...(known.collection === undefined ? {} : { collection: known.collection }),
          });
        }
        case 'invalid':
          return Err(new Error(`the form came back incomplete: ${answer.problems.join('; ')}`));
        default:
          return Ok({ item, described: false, answer: answer.action });
      }
    });

  const findDropOff = createTool('find_drop_off')
    .description(
      `Search the directory for places near the person that take this kind of thing: drop-off places, or with collection: true services that come and collect (use it whenever the person would rather it were collected or picked up). Asks for their rough location unless you pass where they are (near): a point they already shared, or the town they said they are in. Only places within ${NEAR_KM} km come back as near; when none are, say plainly that you know no place near them. When no service that collects reaches them, it looks for places to take it instead (noCollection: true): say so, then where to take it.`,
    )
    .parameter(
      z.object({
        item: z.string().trim().min(1).max(200),
        kind: KindSchema,
        near: PointSchema.optional().describe(
          'where the person is: the point an earlier search knew, or the centre of the town they said they are in',
        ),
        collection: z.boolean().optional().describe('true: services that collect, not places to take it'),
        condition: ConditionSchema.optional().describe(
          'as the person described it: worn things are not sent to shops that resell, only to banks and reuse centres',
        ),
        also: z
          .array(z.string().trim().min(1).max(200))
          .max(MAX_ITEMS_AT_ONCE)
          .optional()
          .describe(
            'the other things the location is asked for, to take to a place, so the question names them all',
          ),
        alsoCollected: z
          .array(z.string().trim().min(1).max(200))
          .max(MAX_ITEMS_AT_ONCE)
          .optional()
          .describe('the other things the location is asked for that the person would rather were collected'),
      }),
    )
    .execute(function* ({
      item,
      kind,
      near: known,
      collection = false,
      condition,
      also = [],
      alsoCollected = [],
    }) {
      // The browser says what it is doing while the device finds itself (a phone's GPS can take
      // a while); the helper tells the person it is waiting on their device, not on itself.
      const statuses: string[] = [];
      let near = known;
      if (!near) {
        const answer = yield* elicit({
          type: 'location',
          message: locationQuestion(
            collection ? [item, ...alsoCollected] : alsoCollected,
            collection ? also : [item, ...also],
          ),
          payload: { accuracy: 'low' },
          onProgress: (progress) => {
            const status =
              typeof progress === 'object' && progress !== null && !Array.isArray(progress)
                ? progress['status']
                : undefined;
            if (typeof status === 'string') statuses.push(status);
          },
        });
        if (answer.action !== 'accept') return Ok({ item, located: false, answer: answer.action });
        near = PointSchema.parse(answer.content);
      }
      const { directory, area, places, nearestKm, noCollection, ...found } = yield* searchDirectory(
        near,
        kind,
        collection,
        condition,
      );
      return Ok({
        item,
        kind,
        located: true,
        near,
        collection: found.collection,
        ...(noCollection ? { noCollection } : {}),
        deviceReported: statuses,
        directory,
        ...(area === undefined ? {} : { area }),
        nearKm: NEAR_KM,
        places,
        ...(nearestKm === undefined ? {} : { nearestKm }),
      });
    });

  const copyDirections = createTool('copy_directions')
    .description(
      "Offer to copy a place's name and address to the person's clipboard. Only once your reply has said where it is (name, address, distance, opening): write that text first, then call this.",
    )
    .parameter(
      z.object({
        text: z
          .string()
          .trim()
          .min(1)
          .max(500)
          .describe('what to copy: the name and address, a line each place'),
      }),
    )
    .execute(function* ({ text }) {
      const answer = yield* elicit({
        type: 'clipboard-write',
        message: text.includes('\n') ? 'Copy the addresses?' : 'Copy the address?',
        payload: { text },
      });
      const copied = answer.action === 'accept' && Copied.safeParse(answer.content).data?.success === true;
      return Ok({ text, copied });
    });

  return { checkItem, describeDonation, findDropOff, copyDirections };
}

/**
 * The location question, naming what each search is for: "services near you that collect the
 * sofa, and places that take the bike", as the person asked for each.
 */
function locationQuestion(collected: readonly string[], taken: readonly string[]): string {
  const collect = collected.length > 0 ? `services near you that collect ${listOf(collected)}` : '';
  const take = taken.length > 0 ? `places ${collect ? '' : 'near you '}that take ${listOf(taken)}` : '';
  return `Share roughly where you are, to find ${[collect, take].filter(Boolean).join(', and ')}?`;
}
