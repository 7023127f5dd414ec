import { ActivityUpdatesSchema, toJsonObject, type ActivityUpdates, type TreeNode } from '@sweatpants/domain';
import type { Operation } from 'effection';
import * as z from 'zod';
import { Run } from '@sweatpants/agent-runtime';
import { cardOptions } from './option-framing';
import { toActivityUpdates, UpdatesInputSchema } from './tool-inputs';

/** The event type update_activities records after a batch is applied. */
export const ACTIVITIES_UPDATED = 'activities-updated';

/**
 * A batch of activities changed, and which offered option that was (seed 003's decision). No
 * single node said both: the option is in present_options' call and result, the change in
 * update_activities' call, and a pick typed into the chat after the card was dismissed is in
 * neither. The fold of the review reads this event.
 */
export const ActivitiesUpdatedSchema = z.object({
  type: z.literal(ACTIVITIES_UPDATED),
  activityIds: z.array(z.string()),
  updates: ActivityUpdatesSchema,
  /** the option applied, as its card showed it; null when the change matched no offer */
  option: z.object({ id: z.string(), label: z.string() }).nullable(),
  /** the change as the store logged it (the call's node id), which holds while this event is on the path */
  change: z.string().nullable().default(null),
});
export type ActivitiesUpdated = z.infer<typeof ActivitiesUpdatedSchema>;

/** The activities-updated event a node records, if it is one. */
export function activitiesUpdatedOf(node: TreeNode): ActivitiesUpdated | undefined {
  return eventOf(node, ACTIVITIES_UPDATED, ActivitiesUpdatedSchema);
}

/** Writes the event under HEAD, or, replaying a turn, takes the one its first run wrote. */
export function* recordActivitiesUpdated(event: Omit<ActivitiesUpdated, 'type'>): Operation<void> {
  yield* recordEvent(ACTIVITIES_UPDATED, event);
}

/** The event type classify_pending records after it sorted activities by the rules. */
export const ACTIVITIES_CLASSIFIED = 'activities-classified';

/**
 * Activities sorted by the fixed rules, each group in its own batch but all under one call: the
 * change that holds while this event is on the path. Not a decision of the review (the rules made
 * it, not the person), so only the state's `changes` read it.
 */
export const ActivitiesClassifiedSchema = z.object({
  type: z.literal(ACTIVITIES_CLASSIFIED),
  activityIds: z.array(z.string()),
  change: z.string(),
});
export type ActivitiesClassified = z.infer<typeof ActivitiesClassifiedSchema>;

/** The activities-classified event a node records, if it is one. */
export function activitiesClassifiedOf(node: TreeNode): ActivitiesClassified | undefined {
  return eventOf(node, ACTIVITIES_CLASSIFIED, ActivitiesClassifiedSchema);
}

/** Writes the event under HEAD, or, replaying a turn, takes the one its first run wrote. */
export function* recordActivitiesClassified(event: Omit<ActivitiesClassified, 'type'>): Operation<void> {
  yield* recordEvent(ACTIVITIES_CLASSIFIED, event);
}

/** The event of `type` a node records, read by its schema; undefined for any other node. */
function eventOf<T>(node: TreeNode, type: string, schema: z.ZodType<T>): T | undefined {
  if (node.kind !== 'event' || node.payload['type'] !== type) return undefined;
  return schema.safeParse(node.payload).data;
}

function* recordEvent(type: string, event: object): Operation<void> {
  const run = yield* Run.expect();
  if (run.journal.take('event', `the ${type} event`, (n) => n.payload['type'] === type)) return;
  const payload = toJsonObject({ type, ...event });
  yield* run.journal.append([{ kind: 'event', payload, authorId: run.authorId }]);
}

const OfferSchema = z.object({
  activity_ids: z.array(z.string()),
  options: z.array(z.object({ id: z.string(), label: z.string(), updates: UpdatesInputSchema })),
});

/**
 * The offered option a batch update applies, read from the path: the latest present_options of
 * this interview that offered every one of `activityIds`; the option the user picked there, or
 * else the one option whose updates are exactly the ones applied (a letter typed after the card
 * was dismissed). Null when no offer fits.
 */
export function optionApplied(
  path: readonly TreeNode[],
  activityIds: readonly string[],
  applied: ActivityUpdates,
): { id: string; label: string } | null {
  for (let i = path.length - 1; i >= 0; i--) {
    const node = path[i];
    if (!node) continue;
    // An offer of an earlier interview (or none in this one) does not name this change.
    if (node.kind === 'mode') return null;
    if (node.kind !== 'tool_call' || node.payload['name'] !== 'present_options') continue;
    const offer = OfferSchema.safeParse(node.payload['input']).data;
    if (!offer || !activityIds.every((id) => offer.activity_ids.includes(id))) continue;
    const cards = cardOptions(offer.options);
    const picked = pickIn(path.slice(i + 1), String(node.payload['toolUseId']));
    const same = cards.filter((o) => canonical(toActivityUpdates(o.updates)) === canonical(applied));
    const option = cards.find((o) => o.id === picked) ?? (same.length === 1 ? same[0] : undefined);
    return option ? { id: option.id, label: option.shown } : null;
  }
  return null;
}

/** A present_options result that names the option picked. */
const PickedSchema = z.object({
  outcome: z.object({ kind: z.literal('success'), value: z.object({ choice: z.string().min(1) }) }),
});

/** The option id present_options returned for the call `toolUseId`, if the user picked one. */
function pickIn(after: readonly TreeNode[], toolUseId: string): string | undefined {
  const result = after.find((n) => n.kind === 'tool_result' && n.payload['toolUseId'] === toolUseId);
  return PickedSchema.safeParse(result?.payload).data?.outcome.value.choice;
}

/** JSON with its keys sorted, so two updates compare by content. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b)))
      : v,
  );
}
