import type { OfflineContext } from '@sweatpants/agent-runtime/offline';
import { toJson, type Json } from '@sweatpants/domain';
import * as z from 'zod';
import { ConditionSchema, KindSchema, PlaceSchema, PointSchema } from './drop-off-directory';

/**
 * What the helper's own tools answered, read back from the conversation for the offline model:
 * this turn's results (since the person last wrote) decide its next step, and earlier ones say
 * what it already knows (the things it looked for, where the person is).
 */

/** `check_item`'s answer. */
export const CheckedSchema = z.object({
  item: z.string(),
  kind: KindSchema,
  donatable: z.boolean(),
  condition: z.enum(['good', 'poor']).nullable().optional(),
  instead: z.string().optional(),
});
export type Checked = z.infer<typeof CheckedSchema>;

/** `describe_donation`'s answer. */
export const DescribedSchema = z.object({
  item: z.string(),
  described: z.boolean(),
  collection: z.boolean().optional(),
  condition: ConditionSchema.optional(),
});
export type Described = z.infer<typeof DescribedSchema>;

/** `find_drop_off`'s answer: located with what is near, or not located at all. */
export const FoundSchema = z.union([
  z.object({
    item: z.string(),
    kind: KindSchema,
    located: z.literal(true),
    near: PointSchema,
    collection: z.boolean(),
    /** collection was asked for, no service reaches: `places` are places to take it instead */
    noCollection: z.literal(true).optional(),
    area: z.string().optional(),
    places: z.array(PlaceSchema),
    nearestKm: z.number().optional(),
  }),
  z.object({ item: z.string(), located: z.literal(false) }),
]);
export type Found = z.infer<typeof FoundSchema>;
/** A search that knew where the person is. */
export type Located = Extract<Found, { located: true }>;

/** `copy_directions`'s answer. */
export const CopiedSchema = z.object({ text: z.string(), copied: z.boolean() });

/** One of the helper's tool results, joined to its call. */
interface Result {
  /** the index of the person's message the result follows: results of one turn share it */
  turn: number;
  name: string;
  data: Json | undefined;
  isError: boolean;
}

/** The helper's tool results, split at the person's last words. */
export interface Results {
  /** since the person last wrote: what this turn has done so far */
  thisTurn: readonly Result[];
  /** before that, in earlier turns */
  earlier: readonly Result[];
  /**
   * the words this turn began with ("a sofa, I'd rather it were collected"), not those typed at
   * its questions since ("like new, please pick it up" at one thing's form says nothing of the rest)
   */
  opening: string;
}

/**
 * The tool results of the conversation, split at the last message the person began a turn with:
 * one with words in it and no tool results. Words typed at a question (a form filled in words)
 * travel with the results of the calls that asked, in the same message: they go on this turn.
 *
 * @example
 * const { thisTurn } = resultsOf(ctx);
 * const checks = read(thisTurn, 'check_item', CheckedSchema);
 */
export function resultsOf(ctx: OfflineContext): Results {
  const names = new Map<string, string>();
  const all: Result[] = [];
  let turn = -1;
  let opening = '';
  ctx.request.messages.forEach((message, i) => {
    const words = message.content.flatMap((b) => (b.type === 'text' && b.text.trim() !== '' ? [b.text] : []));
    const begins =
      message.role === 'user' && words.length > 0 && !message.content.some((b) => b.type === 'tool_result');
    if (begins) {
      turn = i;
      opening = words.join('\n');
    }
    for (const block of message.content) {
      if (block.type === 'tool_use') names.set(block.id, block.name);
      if (block.type !== 'tool_result') continue;
      all.push({
        turn,
        name: names.get(block.toolUseId) ?? '',
        data: parseJson(block.content),
        isError: block.isError ?? false,
      });
    }
  });
  return {
    thisTurn: all.filter((r) => r.turn === turn),
    earlier: all.filter((r) => r.turn !== turn),
    opening,
  };
}

/** The results of the last turn in `results` that has any of `tool`'s. */
export function lastTurnOf(results: readonly Result[], tool: string): Result[] {
  const last = results.filter((r) => r.name === tool).at(-1);
  return last === undefined ? [] : results.filter((r) => r.turn === last.turn);
}

/** The results of `tool` that read as `schema`, in order; an error or an unreadable one is left out. */
export function read<T>(results: readonly Result[], tool: string, schema: z.ZodType<T>): T[] {
  return results.flatMap((r) => {
    if (r.name !== tool || r.isError) return [];
    const parsed = schema.safeParse(r.data);
    return parsed.success ? [parsed.data] : [];
  });
}

/** Whether `tool` answered in `results` at all, even with an error. */
export const answered = (results: readonly Result[], tool: string): boolean =>
  results.some((r) => r.name === tool);

function parseJson(text: string): Json | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    return toJson(parsed);
  } catch {
    return undefined;
  }
}
