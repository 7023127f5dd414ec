import {
  ConciergeModeSchema,
  ConciergeStateSchema,
  type ConciergeReview,
  type ConciergeState,
  type ReviewDecision,
  type ReviewItem,
  type StateReducer,
  type TreeNode,
  summaryStateKey,
} from '@sweatpants/domain';
import * as z from 'zod';
import { RESPOND_TOOL } from '@sweatpants/agent-runtime';
import { InterviewOutputSchema, withLesson } from './interview-learning';
import { activitiesClassifiedOf, activitiesUpdatedOf, type ActivitiesUpdated } from './review-events';

export const INITIAL_CONCIERGE_STATE: ConciergeState = {
  mode: 'assistant',
  reviewing: [],
  lastChoice: null,
  updated: 0,
  review: null,
  changes: [],
};

const emptyReview = (): ConciergeReview => ({ items: [], done: 0, total: 0, learnt: [] });

/**
 * The concierge's state as a fold of the path (DESIGN.md): the mode from `mode` nodes, the items
 * on the table from present_options calls, the user's last pick and the count of updated
 * activities from the tools' results, and the interview's review: its items from what the
 * interview's queries read, each one's decision from the activities-updated events, and what it
 * learnt from the interview's structured output. Rewinding the conversation rewinds all of it.
 */
export const conciergeState: StateReducer<ConciergeState> = {
  name: 'concierge',
  // 2: the review; 3: what it learnt; 4: the changes that hold. Older snapshots are ignored; a
  // summary that kept only an older state is upgraded below.
  version: 4,
  initial: INITIAL_CONCIERGE_STATE,
  apply: (state, node) => {
    switch (node.kind) {
      case 'mode': {
        const mode = ConciergeModeSchema.safeParse(node.payload['to']);
        if (!mode.success) return state;
        // A new interview starts a new review; the overview keeps the last one, as it ended.
        const review = mode.data === 'interview' ? emptyReview() : state.review;
        return { ...state, mode: mode.data, reviewing: [], review };
      }
      case 'tool_call':
        if (node.payload['name'] !== 'present_options') return state;
        return { ...state, reviewing: stringsOf(objectOf(node.payload['input'])['activity_ids']) };
      case 'tool_result':
        return applyResult(state, node);
      case 'event': {
        const classified = activitiesClassifiedOf(node);
        if (classified) return { ...state, changes: [...state.changes, classified.change] };
        const event = activitiesUpdatedOf(node);
        if (!event) return state;
        const changes = event.change ? [...state.changes, event.change] : state.changes;
        const review = state.mode === 'interview' ? decide(state.review, event) : state.review;
        return { ...state, review, changes };
      }
      case 'summary':
        return fromOlderVersion(state, node);
      default:
        return state;
    }
  },
};

/** What query_activities returns, as far as the review needs it. */
const QueriedSchema = z.object({
  activities: z.array(
    z.object({
      id: z.string(),
      status: z.string(),
      subject: z.string(),
      sender: z.string(),
      senderName: z.string(),
    }),
  ),
});

/** A tool_result of a tool that succeeded: its name and what it answered. */
const SucceededSchema = z.object({
  name: z.string(),
  outcome: z.object({ kind: z.literal('success'), value: z.unknown() }),
});

function applyResult(state: ConciergeState, node: TreeNode): ConciergeState {
  const succeeded = SucceededSchema.safeParse(node.payload);
  if (!succeeded.success) return state;
  const { name, outcome } = succeeded.data;
  const value = objectOf(outcome.value);
  if (name === 'present_options' && typeof value['choice'] === 'string' && value['choice'] !== '') {
    return {
      ...state,
      lastChoice: {
        optionId: value['choice'],
        label: typeof value['label'] === 'string' ? value['label'] : '',
        activityIds: stringsOf(value['activity_ids']),
      },
    };
  }
  if (name === 'update_activities') {
    const updated = new Set(stringsOf(value['activity_ids']));
    return {
      ...state,
      updated: state.updated + (typeof value['updated_count'] === 'number' ? value['updated_count'] : 0),
      reviewing: state.reviewing.filter((id) => !updated.has(id)),
    };
  }
  if (name === RESPOND_TOOL && state.mode === 'interview') {
    const output = InterviewOutputSchema.safeParse(outcome.value);
    if (!output.success) return state;
    const review = state.review ?? emptyReview();
    return { ...state, review: { ...review, learnt: withLesson(review.learnt, output.data) } };
  }
  if (name === 'query_activities' && state.mode === 'interview') {
    const queried = QueriedSchema.safeParse(outcome.value).data;
    if (!queried) return state;
    // The items under review are the quarantined ones the interview read, in the order read.
    const read = queried.activities
      .filter((a) => a.status === 'quarantined')
      .map((a) => ({ id: a.id, title: a.subject, from: a.senderName || a.sender }));
    const review = state.review ?? emptyReview();
    return { ...state, review: { ...withItems(review, read), learnt: review.learnt } };
  }
  return state;
}

function withItems(
  review: ConciergeReview,
  read: Omit<ReviewItem, 'decision'>[],
): Omit<ConciergeReview, 'learnt'> {
  const items = review.items.map((item) => {
    // An item decided before it was read (the model knew its id) gets its subject now.
    const fresh = item.from === '' ? read.find((r) => r.id === item.id) : undefined;
    return fresh ? { ...item, ...fresh } : item;
  });
  const known = new Set(items.map((i) => i.id));
  const added = read.filter((r) => !known.has(r.id)).map((r) => ({ ...r, decision: null }));
  return counted([...items, ...added]);
}

/**
 * A batch's decision on each of its items. A later change to an item keeps what earlier ones
 * applied and did not replace; the option is the latest change's.
 */
function decide(review: ConciergeReview | null, event: ActivitiesUpdated): ConciergeReview {
  const items = [...(review ?? emptyReview()).items];
  for (const id of event.activityIds) {
    const at = items.findIndex((i) => i.id === id);
    // Changed in the interview without being read in it: still one of its decisions.
    const item = items[at] ?? { id, title: id, from: '', decision: null };
    const before = item.decision;
    const decision: ReviewDecision = {
      optionId: event.option?.id ?? null,
      label: event.option?.label ?? null,
      status: event.updates.status ?? before?.status ?? null,
      activityType: event.updates.classification?.activityType ?? before?.activityType ?? null,
      autonomyTier: event.updates.classification?.autonomyTier ?? before?.autonomyTier ?? null,
    };
    if (at >= 0) items[at] = { ...item, decision };
    else items.push({ ...item, decision });
  }
  return { ...counted(items), learnt: review?.learnt ?? [] };
}

function counted(items: ReviewItem[]): Omit<ConciergeReview, 'learnt'> {
  return { items, done: items.filter((i) => i.decision !== null).length, total: items.length };
}

/**
 * A summary written by an older version keeps the state as that version folded it: a version 3
 * state is this one with no changes logged (none were, before version 4, so none is undone); a
 * version 2 state has nothing learnt; a version 1 state has no review either (the fold cannot see
 * the nodes the summary replaced).
 */
function fromOlderVersion(state: ConciergeState, node: TreeNode): ConciergeState {
  const states = objectOf(node.payload['states']);
  const older = ConciergeStateSchema.omit({ changes: true });
  for (const version of [3, 2]) {
    const kept = older.safeParse(states[summaryStateKey({ name: 'concierge', version })]);
    if (kept.success) return { ...kept.data, changes: [] };
  }
  const first = older
    .omit({ review: true })
    .safeParse(states[summaryStateKey({ name: 'concierge', version: 1 })]);
  return first.success ? { ...first.data, review: null, changes: [] } : state;
}

function objectOf(value: unknown): { [key: string]: unknown } {
  return isRecord(value) ? value : {};
}

function isRecord(value: unknown): value is { [key: string]: unknown } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function stringsOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}
