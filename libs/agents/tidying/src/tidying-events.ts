import {
  DispositionSchema,
  JsonSchema,
  TidyingPhaseSchema,
  toJson,
  toJsonObject,
  type Disposition,
  type Json,
  type TreeNode,
} from '@sweatpants/domain';
import type { Operation } from 'effection';
import * as z from 'zod';
import { Run } from '@sweatpants/agent-runtime';
import { parseExtract, type Extract, type PhotoAnalysis } from './observation';
import type { NonEmpty, Phase } from './session-state';
import type { Action, SortedToo } from './tidying-action';
import {
  allOf,
  assignmentOf,
  mkAnxietyTrigger,
  mkCategoryName,
  mkItemName,
  mkLocation,
  type CategoryName,
} from './tidying-types';

/**
 * The twelve events of seed 002, each written to the tree as an `event` node whose payload is
 * `{type: '<event name>', ...data}`. The session state is the fold of these (see the reducer),
 * so they carry everything a transition needs, in plain JSON.
 */
export type TidyingEvent =
  | { type: 'user-input-received'; text: string }
  | { type: 'response-generated'; text: string }
  | { type: 'photo-analyzed'; summary: string; analysis: Json; nodeId: string | null }
  | { type: 'situation-classified'; summary: string; extract: Json; nodeId: string | null }
  | { type: 'action-taken'; action: Json; nextPhase: Phase; extract: Json }
  | { type: 'phase-changed'; from: Phase; to: Phase }
  | { type: 'session-ended'; itemsProcessed: number }
  | { type: 'item-proposed'; item: string; choices: string[] }
  | { type: 'user-confirmed'; item: string; disposition: Disposition }
  | { type: 'user-corrected'; item: string; disposition: Disposition }
  | { type: 'function-chosen'; function: string }
  | { type: 'session-confirmed-done' };

/**
 * An event as read back from the tree: written by recordEvent, so this only confirms the shape,
 * and a node that is not one of them (never expected) is not taken for one.
 */
const TidyingEventSchema: z.ZodType<TidyingEvent> = z.discriminatedUnion('type', [
  z.object({ type: z.literal('user-input-received'), text: z.string() }),
  z.object({ type: z.literal('response-generated'), text: z.string() }),
  z.object({
    type: z.literal('photo-analyzed'),
    summary: z.string(),
    analysis: JsonSchema,
    nodeId: z.string().nullable(),
  }),
  z.object({
    type: z.literal('situation-classified'),
    summary: z.string(),
    extract: JsonSchema,
    nodeId: z.string().nullable(),
  }),
  z.object({
    type: z.literal('action-taken'),
    action: JsonSchema,
    nextPhase: TidyingPhaseSchema,
    extract: JsonSchema,
  }),
  z.object({ type: z.literal('phase-changed'), from: TidyingPhaseSchema, to: TidyingPhaseSchema }),
  z.object({ type: z.literal('session-ended'), itemsProcessed: z.number() }),
  z.object({ type: z.literal('item-proposed'), item: z.string(), choices: z.array(z.string()) }),
  z.object({ type: z.literal('user-confirmed'), item: z.string(), disposition: DispositionSchema }),
  z.object({ type: z.literal('user-corrected'), item: z.string(), disposition: DispositionSchema }),
  z.object({ type: z.literal('function-chosen'), function: z.string() }),
  z.object({ type: z.literal('session-confirmed-done') }),
]);

export type TidyingEventType = TidyingEvent['type'];

export const TIDYING_EVENT_TYPES: readonly TidyingEventType[] = [
  'user-input-received',
  'response-generated',
  'photo-analyzed',
  'situation-classified',
  'action-taken',
  'phase-changed',
  'session-ended',
  'item-proposed',
  'user-confirmed',
  'user-corrected',
  'function-chosen',
  'session-confirmed-done',
];
const EVENT_TYPES: ReadonlySet<string> = new Set(TIDYING_EVENT_TYPES);

/**
 * Writes an event under HEAD, or, replaying a turn, takes the one its first run wrote. Returns
 * the node.
 */
export function* recordEvent(event: TidyingEvent): Operation<TreeNode> {
  const run = yield* Run.expect();
  const recorded = run.journal.take(
    'event',
    `the ${event.type} event`,
    (n) => n.payload['type'] === event.type,
  );
  if (recorded) return recorded;
  const [node] = yield* run.journal.append([
    { kind: 'event', payload: toJsonObject(event), authorId: run.authorId },
  ]);
  if (!node) throw new Error(`the ${event.type} event was not written`);
  return node;
}

/** The tidying event a node records, if it is one. */
export function tidyingEventOf(node: TreeNode): TidyingEvent | null {
  if (node.kind !== 'event') return null;
  const type = node.payload['type'];
  if (typeof type !== 'string' || !EVENT_TYPES.has(type)) return null;
  const parsed = TidyingEventSchema.safeParse(node.payload);
  return parsed.success ? parsed.data : null;
}

/** The event whose `type` is T (the builtin `Extract` is this file's extraction, not the type helper). */
type EventOf<T extends TidyingEventType> = TidyingEvent extends infer E
  ? E extends { type: T }
    ? E
    : never
  : never;

/**
 * The latest event of `type` on `path`, read back; null when there is none. Only nodes of that
 * type are parsed, so looking back over a long session costs a field read per node.
 */
export function latestEvent<T extends TidyingEventType>(
  path: readonly TreeNode[],
  type: T,
): EventOf<T> | null {
  for (let i = path.length - 1; i >= 0; i--) {
    const node = path[i] as TreeNode;
    if (node.kind !== 'event' || node.payload['type'] !== type) continue;
    const event = tidyingEventOf(node);
    if (event?.type === type) return event as EventOf<T>;
  }
  return null;
}

export function extractJson(e: Extract): Json {
  return {
    intent: e.intent,
    item: e.item,
    // only when there are any: a reading of one thing records as it always did
    ...(e.also.length > 0 ? { also: [...e.also] } : {}),
    ...(e.alsoDecided.length > 0
      ? { alsoDecided: e.alsoDecided.map((d) => ({ item: d.item, choice: d.choice, place: d.place })) }
      : {}),
    choice: e.choice,
    place: e.place,
    function: e.function,
    anchors: e.anchors === null ? null : [...e.anchors],
    anxiety: e.anxiety,
  };
}

export function photoJson(p: PhotoAnalysis): Json {
  return {
    roomType: p.roomType,
    chaosLevel: p.chaosLevel,
    visibleItems: [...p.visibleItems],
    blockedFunction: p.blockedFunction,
    firstTarget: p.firstTarget,
  };
}

export function actionJson(action: Action): Json {
  return action.tag === 'instruct-split'
    ? { tag: action.tag, categories: [...action.categories] }
    : toJson(action);
}

const ActionWireSchema = z.object({
  tag: z.string(),
  // null for a card pointed back to that is about no item (the space's question)
  item: z.string().nullable().optional(),
  location: z.string().optional(),
  categories: z.array(z.string()).optional(),
  trigger: z.string().optional(),
  note: z.string().optional(),
  pile: z.enum(['belongs', 'out']).optional(),
  assignment: z.record(z.string(), z.string()).optional(),
  reopened: z.literal(true).optional(),
  alsoSorted: z.array(z.unknown()).optional(),
  partsOf: z.string().optional(),
});

/** An action read back from an event, through the smart constructors; null if it is not one. */
export function parseAction(value: unknown): Action | null {
  const parsed = ActionWireSchema.safeParse(value);
  if (!parsed.success) return null;
  const a = parsed.data;
  const item = mkItemName(a.item ?? '');
  const location = mkLocation(a.location ?? '');
  switch (a.tag) {
    case 'ask-function':
    case 'ask-anchors':
    case 'ask-what-is-it':
    case 'first-instruction':
    case 'instruct-next':
    case 'energy-check':
    case 'summary':
    case 'answer-aside':
    case 'answer-question':
      return { tag: a.tag };
    case 'instruct-trash':
    case 'instruct-unsure':
      return withSortedToo({ tag: a.tag }, a);
    case 'back-to-card':
      return { tag: a.tag, item: item.ok ? item.value : null };
    case 'ask-item-decision':
      return item.ok ? { tag: a.tag, item: item.value, ...(a.reopened ? { reopened: true } : {}) } : null;
    case 'decision-aid':
      return item.ok ? { tag: a.tag, item: item.value } : null;
    case 'instruct-place':
      if (!location.ok) return null;
      return withSortedToo(
        item.ok
          ? { tag: a.tag, location: location.value, item: item.value }
          : { tag: a.tag, location: location.value },
        a,
      );
    case 'instruct-split': {
      const [first, ...rest] = allOf(a.categories ?? [], mkCategoryName);
      if (!first) return null;
      const categories: NonEmpty<CategoryName> = [first, ...rest];
      return { tag: a.tag, categories, assignment: assignmentOf(a.assignment) };
    }
    case 'pivot-away': {
      const trigger = mkAnxietyTrigger(a.trigger ?? '');
      return trigger.ok && location.ok
        ? { tag: a.tag, trigger: trigger.value, location: location.value }
        : null;
    }
    case 'ack-progress':
      return { tag: a.tag, note: a.note ?? '' };
    case 'already-sorted':
      return item.ok && a.pile
        ? { tag: a.tag, item: item.value, pile: a.pile, location: location.ok ? location.value : null }
        : null;
    default:
      return null;
  }
}

/**
 * An instruction with the further things its words sorted, read back (one that does not parse is
 * left out), and the thing they were all the parts of.
 */
function withSortedToo<A extends Action>(
  action: A,
  wire: { alsoSorted?: readonly unknown[] | undefined; partsOf?: string | undefined },
): A {
  const alsoSorted = (wire.alsoSorted ?? []).flatMap((value) => sortedTooOf(value) ?? []);
  const partsOf = mkItemName(wire.partsOf ?? '');
  return {
    ...action,
    ...(alsoSorted.length > 0 ? { alsoSorted } : {}),
    ...(partsOf.ok ? { partsOf: partsOf.value } : {}),
  };
}

function sortedTooOf(value: unknown): SortedToo | null {
  const a = ActionWireSchema.safeParse(value).data;
  const item = mkItemName(a?.item ?? '');
  if (!a || !item.ok) return null;
  switch (a.tag) {
    case 'instruct-trash':
    case 'instruct-unsure':
      return { tag: a.tag, item: item.value };
    case 'instruct-place': {
      const location = mkLocation(a.location ?? '');
      return location.ok ? { tag: a.tag, location: location.value, item: item.value } : null;
    }
    default:
      return null;
  }
}

/** A decision read back from an `action-taken` event. */
export function parseDecisionEvent(
  event: TidyingEvent & { type: 'action-taken' },
): { action: Action; nextPhase: Phase; extract: Extract } | null {
  const action = parseAction(event.action);
  const extract = parseExtract(event.extract);
  const nextPhase = TidyingPhaseSchema.safeParse(event.nextPhase);
  return action && extract && nextPhase.success ? { action, nextPhase: nextPhase.data, extract } : null;
}

export const parseDisposition = (value: unknown): Disposition | null => {
  const parsed = DispositionSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
};
