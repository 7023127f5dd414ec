import type { ElicitRequest, TreeNode } from '@sweatpants/domain';

import { chatItems } from './chat-items';

let n = 0;
function node(kind: TreeNode['kind'], payload: Record<string, unknown>, parent: TreeNode | null): TreeNode {
  n += 1;
  return {
    id: String(n).padStart(64, '0'),
    conversationId: 'c',
    parentId: parent?.id ?? null,
    depth: parent ? parent.depth + 1 : 0,
    kind,
    payload,
    authorId: 'x',
    createdAt: new Date(n * 1000).toISOString(),
  } as TreeNode;
}

describe('chatItems', () => {
  const root = node('root', { conversationId: 'c' }, null);
  const ask = node(
    'elicit',
    { elicitId: 'e1', type: 'confirm', message: 'Ready?', payload: { default: true } },
    root,
  );
  const said = node('response', { elicitId: 'e1', action: 'accept', content: { value: true } }, ask);
  const chat = node('elicit', { elicitId: 'chat-x', type: 'chat', message: '', payload: {} }, said);
  const answer = node('response', { elicitId: 'chat-x', action: 'accept', content: { text: 'hi' } }, chat);

  it('hides the root, pairs an elicit with its answer and hides the response node', () => {
    const items = chatItems([root, ask, said], null);
    expect(items).toEqual([{ node: ask, answer: said }]);
  });

  it('shows the chat answer as the message unless a user node repeats it', () => {
    expect(chatItems([root, ask, said, chat, answer], null).map((i) => i.node)).toEqual([ask, answer]);
    const user = node('user', { text: 'hi' }, answer);
    expect(chatItems([root, ask, said, chat, answer, user], null).map((i) => i.node)).toEqual([ask, user]);
  });

  it('shows words typed under a question as a message after it, and the question asked again after the tangent', () => {
    const other = node(
      'response',
      { elicitId: 'e1', action: 'other', content: { text: 'wait, cables?' } },
      ask,
    );
    const side = node('assistant', { text: '', purpose: 'interpret-off-script' }, other);
    const reply = node('assistant', { text: 'Cables go in the drawer.' }, side);
    const again = node(
      'elicit',
      { elicitId: 'e2', type: 'confirm', message: 'Ready?', payload: { default: true }, resumes: 'e1' },
      reply,
    );
    const path = [root, ask, other, side, reply, again];
    expect(chatItems(path, null)).toEqual([
      { node: ask, answer: other },
      { node: other, answer: null },
      { node: reply, answer: null },
      { node: again, answer: null },
    ]);
    const pending: ElicitRequest = {
      elicitId: 'e2',
      type: 'confirm',
      message: 'Ready?',
      payload: { default: true },
      resumes: 'e1',
    };
    expect(chatItems(path, pending).map((i) => i.node)).toEqual([ask, other, reply]);
  });

  it('leaves the pending elicit to its card', () => {
    const pending: ElicitRequest = {
      elicitId: 'e1',
      type: 'confirm',
      message: 'Ready?',
      payload: { default: true },
    };
    expect(chatItems([root, ask], pending)).toEqual([]);
    expect(chatItems([root, ask], null)).toEqual([{ node: ask, answer: null }]);
  });
});
