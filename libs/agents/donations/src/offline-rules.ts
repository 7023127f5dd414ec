import type { OfflineContext, OfflineRule } from '@sweatpants/agent-runtime';
import * as z from 'zod';
import { PlaceSchema } from './drop-off-directory';
import { itemIn, kindOf } from './item-kind';

/**
 * How the helper answers with no API key: the same walk a model is asked to take (check with the
 * coach, the form, the location and the search, the copy, the reply), decided from the results
 * of its own tools, so the whole flow runs offline and in tests.
 */

const Checked = z.object({
  item: z.string(),
  kind: z.string(),
  donatable: z.boolean(),
  coach: z.object({ guess: z.string().nullable() }),
});
const Described = z.object({ item: z.string(), described: z.boolean() });
const Found = z.union([
  z.object({ item: z.string(), located: z.literal(false) }),
  z.object({ item: z.string(), kind: z.string(), located: z.literal(true), places: z.array(PlaceSchema) }),
]);
const Copied = z.object({ text: z.string(), copied: z.boolean() });

/** A tool's result in the last message, read with `schema`; undefined when absent or unreadable. */
function resultIn<T>(ctx: OfflineContext, tool: string, schema: z.ZodType<T>): T | undefined {
  const result = ctx.resultOf(tool);
  if (!result || result.isError) return undefined;
  const parsed = schema.safeParse(result.data);
  return parsed.success ? parsed.data : undefined;
}

/** The place the helper found last in this conversation, to say where the copied text leads. */
function lastPlaces(ctx: OfflineContext): z.infer<typeof PlaceSchema>[] {
  const names = new Map<string, string>();
  let places: z.infer<typeof PlaceSchema>[] = [];
  for (const message of ctx.request.messages)
    for (const block of message.content) {
      if (block.type === 'tool_use') names.set(block.id, block.name);
      if (block.type === 'tool_result' && names.get(block.toolUseId) === 'find_drop_off') {
        const parsed = Found.safeParse(safeJson(block.content));
        if (parsed.success && parsed.data.located) places = parsed.data.places;
      }
    }
  return places;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const NOT_FIT: Record<string, string> = {
  trash: 'the bin',
  recycle: 'recycling',
};

export const DONATIONS_OFFLINE_RULES: readonly OfflineRule[] = [
  {
    name: 'donations: ask the coach about the item named',
    when: (ctx) => ctx.offers('check_item') && !ctx.hasToolResults && ctx.userText.trim().length > 0,
    reply: (ctx) => ({ calls: [{ name: 'check_item', input: { item: itemIn(ctx.userText) } }] }),
  },
  {
    name: 'donations: a fit item gets the form, an unfit one a gentle no',
    when: (ctx) => ctx.resultOf('check_item') !== undefined,
    reply: (ctx) => {
      const checked = resultIn(ctx, 'check_item', Checked);
      if (!checked) return { text: 'I could not check that one. What is the item called?' };
      if (!checked.donatable) {
        const where = NOT_FIT[checked.coach.guess ?? ''] ?? 'recycling';
        return {
          text: `The coach would put the ${checked.item} in ${where}: charity shops can't sell broken or used-up things. Anything else you'd like to give away?`,
        };
      }
      return { calls: [{ name: 'describe_donation', input: { item: checked.item } }] };
    },
  },
  {
    name: 'donations: once described, look nearby',
    when: (ctx) => ctx.resultOf('describe_donation') !== undefined,
    reply: (ctx) => {
      const described = resultIn(ctx, 'describe_donation', Described);
      if (!described?.described)
        return { text: "No problem. Tell me whenever you'd like to find a place for something." };
      return {
        calls: [{ name: 'find_drop_off', input: { item: described.item, kind: kindOf(described.item) } }],
      };
    },
  },
  {
    name: 'donations: offer to copy the nearest place',
    when: (ctx) => ctx.resultOf('find_drop_off') !== undefined,
    reply: (ctx) => {
      const found = resultIn(ctx, 'find_drop_off', Found);
      if (!found) return { text: 'The directory did not answer. Shall we try again in a moment?' };
      if (!found.located)
        return {
          text: `Without a rough location I can't look nearby. Most charity shops take clean ${found.item === '' ? 'things' : found.item} in good condition; tell me another item whenever you like.`,
        };
      const [best] = found.places;
      if (!best) return { text: `I found nowhere in the directory that takes the ${found.item}, sorry.` };
      return { calls: [{ name: 'copy_directions', input: { text: `${best.name}, ${best.address}` } }] };
    },
  },
  {
    name: 'donations: say where to take it',
    when: (ctx) => ctx.resultOf('copy_directions') !== undefined,
    reply: (ctx) => {
      const copied = resultIn(ctx, 'copy_directions', Copied);
      const [best, next] = lastPlaces(ctx);
      if (!best) return { text: 'Done. Anything else to give away?' };
      // the directory rounds to 100 m: 0 means where they stand
      const far =
        best.km === 0
          ? 'right by you'
          : best.km < 1
            ? `${Math.round(best.km * 1000)} m away`
            : `${best.km} km away`;
      const lines = [
        `Take it to ${best.name}, ${best.address}: ${far}, open ${best.opening}.`,
        copied?.copied ? "I've copied the address for you." : `The address again: ${best.address}.`,
        ...(next ? [`If that's closed, ${next.name} also takes it.`] : []),
      ];
      return { text: lines.join(' ') };
    },
  },
];
