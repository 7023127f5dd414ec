import { foldPath, summaryStateKey, type Json, type TreeNode } from '@sweatpants/domain';
import { tidyingReducer } from '../src';

/**
 * A long session is compacted into a summary that keeps the tidying state folded over the nodes
 * it replaced. The piles must survive a reducer that has learnt to keep more since: a summary
 * written by an older version is read as this one, with what that version did not keep empty.
 */

const summary = (states: { [key: string]: Json }): TreeNode<'summary'> => ({
  id: '2'.repeat(64),
  conversationId: 'c1',
  parentId: null,
  depth: 0,
  kind: 'summary',
  payload: {
    text: 'earlier: the desk, mugs to the kitchen, keys kept',
    covers: { fromId: '0'.repeat(64), toId: '1'.repeat(64), count: 40 },
    states,
  },
  authorId: 'system',
  createdAt: '2026-11-20T12:00:00.000Z',
});

/** A sorting session as version 4 kept it: the keys kept here, the mugs out to the kitchen, no spots. */
const keptByVersion4 = {
  phase: 'sorting',
  piles: { belongs: ['keys'], out: ['mugs'], unsure: [] },
  destinations: { mugs: 'kitchen' },
  itemsProcessed: 2,
  room: 'office',
  seen: ['keys', 'mugs', 'papers'],
  anchors: [],
  function: 'working',
  phaseData: {
    phase: 'sorting',
    active: { function: 'working', anchors: [], lastAnxiety: null },
    currentItem: 'papers',
  },
  sessionStart: '2026-11-20T11:00:00.000Z',
  ended: false,
  sortedOrder: ['keys', 'mugs'],
} satisfies Json;

describe('the tidying state across a summary', () => {
  it('is the version the reducer says it is, so snapshots folded before parts came next are refolded', () => {
    expect(summaryStateKey(tidyingReducer)).toBe('tidying@6');
  });

  it('takes a summary written by version 4 with its piles, destinations and order, and no spots', () => {
    const state = foldPath(tidyingReducer, [summary({ 'tidying@4': keptByVersion4 })]);
    expect(state).toMatchObject({
      piles: { belongs: ['keys'], out: ['mugs'], unsure: [] },
      destinations: { mugs: 'kitchen' },
      spots: {},
      sortedOrder: ['keys', 'mugs'],
      seen: ['keys', 'mugs', 'papers'],
      phase: 'sorting',
    });
  });

  it("prefers the summary's state for this version when it kept one", () => {
    const now = { ...keptByVersion4, spots: { keys: 'on the hook by the door' } };
    const state = foldPath(tidyingReducer, [summary({ 'tidying@4': keptByVersion4, 'tidying@6': now })]);
    expect(state).toMatchObject({ spots: { keys: 'on the hook by the door' } });
  });

  it('passes the state through a summary that kept no tidying state it can read', () => {
    const state = foldPath(tidyingReducer, [summary({ 'tidying@4': { piles: 'not a session' } })]);
    expect(state).toEqual(tidyingReducer.initial);
  });
});
