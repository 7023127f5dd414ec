import type { ReflogEntry, TreeNode } from '@sweatpants/domain';

import { reflogSentence } from './reflog-sentence';

/** How the history tells an answer (in the words of the card that took it) and an agent's note to itself. */

const YOU = 'u-1';
const answer = (action: string, content?: object): TreeNode =>
  ({
    id: 'a'.repeat(64),
    conversationId: 'c1',
    parentId: 'b'.repeat(64),
    depth: 3,
    kind: 'response',
    payload: { elicitId: 'q1', action, ...(content ? { content } : {}) },
    authorId: YOU,
    createdAt: '2026-01-01T12:00:00.000Z',
  }) as TreeNode;

/** The append that put `node` at HEAD, by `actorId`. */
const appendOf = (node: TreeNode, actorId: string): ReflogEntry => ({
  id: 'r1',
  index: 1,
  ref: 'HEAD',
  oldHead: 'b'.repeat(64),
  newHead: node.id,
  action: 'append',
  actorId,
  message: `append: HEAD@{1} ${node.id}`,
  createdAt: '2026-01-01T12:00:00.000Z',
});

const told = (node: TreeNode): string =>
  reflogSentence(appendOf(node, YOU), { nodes: new Map([[node.id, node]]), you: YOU }).text;

describe('an answer in the history', () => {
  it('tells "Skip this" as skipped and "Cancel" as cancelled, as the card said them', () => {
    expect(told(answer('decline'))).toBe('You skipped the question');
    expect(told(answer('cancel'))).toBe('You cancelled the question');
  });

  it('quotes words typed instead of a tap', () => {
    expect(told(answer('other', { text: 'writing letters' }))).toBe("You said 'writing letters'");
  });
});

describe('an agent’s note to itself in the history', () => {
  const event = (payload: object): TreeNode =>
    ({ ...answer('accept'), kind: 'event', authorId: 'agent:tidying', payload }) as TreeNode;
  const ctx = { speakers: new Map([['tidying', 'the coach']]), agent: 'tidying' };
  const toldOf = (node: TreeNode) =>
    reflogSentence(appendOf(node, 'agent:tidying'), { nodes: new Map([[node.id, node]]), you: YOU, ...ctx });

  it('says what the step was, as the chat’s agent steps say it, never "noted something"', () => {
    expect(toldOf(event({ type: 'situation-classified', summary: 'item: cables' }))).toEqual({
      text: 'The coach worked out what you meant',
      detail: 'item: cables',
    });
    expect(toldOf(event({ type: 'user-input-received', text: 'the cables' })).text).toBe(
      'The coach read your message',
    );
    expect(toldOf(event({ type: 'review-started' })).text).toBe('The coach noted: review started');
  });

  it('tells the note written on switching mode as carrying on, not as something the coach said', () => {
    const note = (text: string) =>
      ({
        ...answer('accept'),
        kind: 'user',
        authorId: 'agent:tidying',
        payload: { text, synthetic: true },
      }) as TreeNode;
    expect(
      toldOf(note('[Continue as: Sorting] Give one tiny first action, then propose dispositions.')),
    ).toEqual({
      text: 'The coach carried on as sorting',
      detail: 'Give one tiny first action, then propose dispositions.',
    });
    expect(toldOf(note('Pick up where we were.')).text).toBe('The coach wrote a note to itself');
  });

  it('quotes the reply a response-generated event records', () => {
    expect(toldOf(event({ type: 'response-generated', text: 'Start small: pick up the mugs.' }))).toEqual({
      text: 'The coach wrote its reply',
      detail: 'Start small: pick up the mugs.',
    });
  });
});

describe('a move of HEAD in the history', () => {
  const node = (id: string, parentId: string | null, kind: string, text?: string): TreeNode =>
    ({
      id: id.repeat(64),
      conversationId: 'c1',
      parentId: parentId ? parentId.repeat(64) : null,
      depth: 0,
      kind,
      payload: text ? { text } : {},
      authorId: YOU,
      createdAt: '2026-01-01T12:00:00.000Z',
    }) as TreeNode;
  // root ← "my desk" ← "the mug goes…" (one branch) | "the mug stays" (its sibling)
  const nodes = [
    node('0', null, 'root'),
    node('1', '0', 'user', 'my desk is a mess'),
    node('2', '1', 'user', 'the mug goes to the kitchen'),
    node('3', '1', 'user', 'the mug stays here'),
  ];
  const moved = (from: string, to: string) =>
    reflogSentence(
      { ...appendOf(nodes[0]!, YOU), action: 'rewind', oldHead: from.repeat(64), newHead: to.repeat(64) },
      { nodes: new Map(nodes.map((n) => [n.id, n])), you: YOU },
    ).text;

  it('tells a move back along the branch as going back, and one across to a sibling as switching', () => {
    expect(moved('3', '1')).toBe("You went back to 'my desk is a mess'");
    expect(moved('3', '2')).toBe("You switched to the branch at 'the mug goes to the kitchen'");
  });
});
