import { foldPath, type Json, type NodeKind, type NodePayload, type TreeNode } from '@sweatpants/domain';
import { conciergeState, INITIAL_CONCIERGE_STATE } from '../src';

let depth = 0;
const node = <K extends NodeKind>(kind: K, payload: NodePayload<K>): TreeNode<K> => ({
  id: String(depth).padStart(64, '0'),
  conversationId: 'c1',
  parentId: null,
  depth: depth++,
  kind,
  payload,
  authorId: 'agent:concierge',
  createdAt: '2026-11-20T12:00:00.000Z',
});

const decided = (ids: string[], updates: Json, option: Json = null) =>
  node('event', { type: 'activities-updated', activityIds: ids, updates, option });

describe('the concierge state fold', () => {
  it('starts with no review, and a new interview starts an empty one', () => {
    expect(INITIAL_CONCIERGE_STATE.review).toBeNull();
    const state = foldPath(conciergeState, [node('mode', { from: 'assistant', to: 'interview' })]);
    expect(state.review).toEqual({ items: [], done: 0, total: 0, learnt: [] });
  });

  it('keeps the changes that hold on the path, in any mode, so a runner opened there can follow it', () => {
    const changed = (change: string | undefined) =>
      node('event', {
        type: 'activities-updated',
        activityIds: ['mail-101'],
        updates: { status: 'archived' },
        option: null,
        ...(change ? { change } : {}),
      });
    const state = foldPath(conciergeState, [
      changed('call-1'),
      node('mode', { from: 'assistant', to: 'interview' }),
      changed('call-2'),
      // recorded before changes were logged: nothing of it to follow
      changed(undefined),
    ]);
    expect(state.changes).toEqual(['call-1', 'call-2']);
  });

  it('counts an item changed in the interview without being read, and merges later changes', () => {
    const state = foldPath(conciergeState, [
      node('mode', { from: 'assistant', to: 'interview' }),
      decided(['mail-104'], { status: 'surfaced' }, { id: 'C', label: 'C. Important update' }),
      decided(['mail-104'], { classification: { autonomyTier: 3 } }),
    ]);
    expect(state.review).toEqual({
      items: [
        {
          id: 'mail-104',
          title: 'mail-104',
          from: '',
          decision: { optionId: null, label: null, status: 'surfaced', activityType: null, autonomyTier: 3 },
        },
      ],
      done: 1,
      total: 1,
      learnt: [],
    });
  });

  it('keeps what the interview learnt from its structured output, which a new interview forgets', () => {
    const learnt = (lesson: string) =>
      node('tool_result', {
        name: 'respond',
        toolUseId: `t-${depth}`,
        outcome: { kind: 'success', value: { learnt: lesson } },
      });
    const interview = [
      node('mode', { from: 'assistant', to: 'interview' }),
      learnt('Shop promos: Tier 2'),
      learnt(''),
      learnt('Shop promos: Tier 2'),
      learnt('Bank notices: show them'),
    ];
    expect(foldPath(conciergeState, interview).review?.learnt).toEqual([
      'Shop promos: Tier 2',
      'Bank notices: show them',
    ]);
    // Back in the overview the last review keeps it; the next interview starts with nothing learnt.
    const back = [...interview, node('mode', { from: 'interview', to: 'assistant' })];
    expect(foldPath(conciergeState, back).review?.learnt).toHaveLength(2);
    const again = [...back, node('mode', { from: 'assistant', to: 'interview' })];
    expect(foldPath(conciergeState, again).review?.learnt).toEqual([]);
    // Outside an interview a respond teaches the review nothing.
    expect(foldPath(conciergeState, [learnt('Shop promos: Tier 2')]).review).toBeNull();
  });

  it('ignores changes made outside an interview', () => {
    const state = foldPath(conciergeState, [decided(['mail-101'], { status: 'archived' })]);
    expect(state.review).toBeNull();
  });

  it('keeps the sorting by the rules as a change that holds, without deciding anything in the review', () => {
    const state = foldPath(conciergeState, [
      node('mode', { from: 'assistant', to: 'interview' }),
      node('event', {
        type: 'activities-classified',
        activityIds: ['mail-106', 'mail-107'],
        change: 'sort-1',
      }),
    ]);
    expect(state.changes).toEqual(['sort-1']);
    expect(state.review).toMatchObject({ items: [], done: 0 });
  });

  it('takes the state a summary kept under version 2, with nothing learnt', () => {
    const kept = {
      mode: 'interview',
      reviewing: [],
      lastChoice: null,
      updated: 0,
      review: { items: [], done: 0, total: 0 },
    };
    const summary = node('summary', {
      text: 'earlier',
      covers: { fromId: '1'.repeat(64), toId: '2'.repeat(64), count: 5 },
      states: { 'concierge@2': kept },
    });
    expect(foldPath(conciergeState, [summary])).toEqual({
      ...kept,
      review: { ...kept.review, learnt: [] },
      changes: [],
    });
  });

  it('takes the state a summary kept under version 3, with no change logged (none was)', () => {
    const kept = {
      mode: 'interview',
      reviewing: [],
      lastChoice: null,
      updated: 3,
      review: { items: [], done: 0, total: 0, learnt: ['promotions from vendors: noted'] },
    };
    const summary = node('summary', {
      text: 'earlier',
      covers: { fromId: '1'.repeat(64), toId: '2'.repeat(64), count: 5 },
      states: { 'concierge@3': kept },
    });
    expect(foldPath(conciergeState, [summary])).toEqual({ ...kept, changes: [] });
  });

  it('takes the state a summary kept under version 1, with no review', () => {
    const kept = { mode: 'interview', reviewing: ['mail-101'], lastChoice: null, updated: 2 };
    const summary = node('summary', {
      text: 'earlier',
      covers: { fromId: '1'.repeat(64), toId: '2'.repeat(64), count: 5 },
      states: { 'concierge@1': kept },
    });
    expect(foldPath(conciergeState, [summary])).toEqual({ ...kept, review: null, changes: [] });
  });
});
