import type { NodeKind, TreeNode } from '@sweatpants/domain';

import { stepWords } from './agent-step-words';

const node = (kind: NodeKind, payload: Record<string, unknown>): TreeNode =>
  ({
    id: 'a'.repeat(64),
    parentId: null,
    kind,
    payload,
    authorId: 'agent:concierge',
    depth: 1,
    createdAt: '2026-11-27T12:00:00.000Z',
  }) as unknown as TreeNode;

describe('an agent step in words', () => {
  it.each([
    ['present_options', 'Showed you options'],
    ['finish_review', 'Finished the review'],
    ['set_question_aside', 'Set the question aside'],
    ['some_new_tool', 'Used “some new tool”'],
  ])('titles a call of %s as "%s"', (name, title) => {
    expect(stepWords(node('tool_call', { toolUseId: 't1', name, input: {} })).title).toBe(title);
  });

  it('says a result that moved on, and one that failed, with the tool’s name in words', () => {
    expect(
      stepWords(node('tool_result', { name: 'present_options', outcome: { kind: 'break' } })).title,
    ).toBe('“present options” moved on');
    expect(
      stepWords(node('tool_result', { name: 'finish_review', outcome: { kind: 'error', message: 'no' } })),
    ).toEqual({ title: '“finish review” failed', detail: 'no' });
  });

  it('says how many activities the rules sorted, and which option a pick applied', () => {
    expect(
      stepWords(node('event', { type: 'activities-classified', activityIds: ['m1', 'm2'], change: 'c' })),
    ).toEqual({ title: 'Sorted 2 activities by the rules', detail: '' });
    expect(
      stepWords(
        node('event', {
          type: 'activities-updated',
          activityIds: ['m1'],
          updates: { status: 'archived' },
          option: { id: 'A', label: 'Archive them' },
        }),
      ),
    ).toEqual({ title: 'Updated 1 activity', detail: 'Archive them' });
  });
});
