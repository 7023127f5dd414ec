import type { ElicitRequest, TreeNode } from '@sweatpants/domain';

import { showAgentSteps } from './agent-steps';
import { type ChatItem, chatItems } from './chat-items';

let n = 0;
function node(
  kind: TreeNode['kind'],
  payload: Record<string, unknown>,
  parent: TreeNode | null,
  authorId = 'x',
): TreeNode {
  n += 1;
  return {
    id: String(n).padStart(64, '0'),
    conversationId: 'c',
    parentId: parent?.id ?? null,
    depth: parent ? parent.depth + 1 : 0,
    kind,
    payload,
    authorId,
    createdAt: new Date(n * 1000).toISOString(),
  } as TreeNode;
}

/** The items after the root (the chat's start, where the "Show agent steps" switch is). */
const after = (items: ChatItem[]): ChatItem[] => items.slice(1);

describe('chatItems', () => {
  afterEach(() => showAgentSteps(false));

  const root = node('root', { conversationId: 'c' }, null);
  const ask = node(
    'elicit',
    { elicitId: 'e1', type: 'confirm', message: 'Ready?', payload: { default: true } },
    root,
  );
  const said = node('response', { elicitId: 'e1', action: 'accept', content: { value: true } }, ask);
  const chat = node('elicit', { elicitId: 'chat-x', type: 'chat', message: '', payload: {} }, said);
  const answer = node('response', { elicitId: 'chat-x', action: 'accept', content: { text: 'hi' } }, chat);

  it('starts with the root, pairs an elicit with its answer and hides the response node', () => {
    const items = chatItems([root, ask, said], []);
    expect(items).toEqual([
      { node: root, answer: null },
      { node: ask, answer: said },
    ]);
  });

  it('shows the chat answer as the message unless a user node repeats it', () => {
    expect(after(chatItems([root, ask, said, chat, answer], [])).map((i) => i.node)).toEqual([ask, answer]);
    const user = node('user', { text: 'hi' }, answer);
    expect(after(chatItems([root, ask, said, chat, answer, user], [])).map((i) => i.node)).toEqual([
      ask,
      user,
    ]);
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
    expect(after(chatItems(path, []))).toEqual([
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
    expect(after(chatItems(path, [pending])).map((i) => i.node)).toEqual([ask, other, reply]);
  });

  it('leaves the pending elicit to its card', () => {
    const pending: ElicitRequest = {
      elicitId: 'e1',
      type: 'confirm',
      message: 'Ready?',
      payload: { default: true },
    };
    expect(after(chatItems([root, ask], [pending]))).toEqual([]);
    expect(after(chatItems([root, ask], []))).toEqual([{ node: ask, answer: null }]);
  });

  describe('the agent’s steps', () => {
    const said = node('user', { text: 'my desk is a mess' }, root, 'u-1');
    const received = node('event', { type: 'user-input-received', text: 'my desk is a mess' }, said);
    const call = node('tool_call', { toolUseId: 't1', name: 'ask_space_function', input: {} }, received);
    const silent = node('assistant', { text: '', content: [] }, call);
    const result = node('tool_result', { toolUseId: 't1', name: 'ask_space_function' }, silent);
    const mode = node('mode', { from: 'sorting', to: 'winding-down' }, result, 'agent:tidying');
    const synthetic = node(
      'user',
      { text: '[Continue as: Sorting] Give one tiny first action.', synthetic: true },
      mode,
      'agent:tidying',
    );
    const side = node('assistant', { text: 'option b', purpose: 'interpret-off-script' }, synthetic);
    const reply = node('assistant', { text: 'What is this space for?' }, side);
    const progress = node('notify', { message: 'Looking at your photo' }, reply);
    const path = [root, said, received, call, silent, result, mode, synthetic, side, reply, progress];

    it('are hidden by default: the chat is what was said', () => {
      expect(after(chatItems(path, [])).map((i) => i.node)).toEqual([said, reply, progress]);
    });

    it('show with the switch on, in order; a side call never does', () => {
      const steps = after(chatItems(path, [], { steps: true })).map((i) => i.node);
      expect(steps).toEqual([said, received, call, silent, result, mode, synthetic, reply, progress]);
      expect(steps).not.toContain(side);
    });

    it('show progress notes in a row as the latest of them, where the run stands', () => {
      const lists = ['charity shops', 'textile banks', 'reuse centres'];
      const first = lists.map((list, i) => ({ message: `Checked the ${list}`, progress: i + 1, total: 3 }));
      let at: TreeNode = reply;
      const notes = [...first, ...first].map((payload) => (at = node('notify', payload, at)));
      const answer = node('assistant', { text: 'Take them to the reuse centre.' }, at);
      const shown = after(chatItems([root, said, reply, ...notes, answer], [])).map((i) => i.node);
      expect(shown).toEqual([said, reply, notes.at(-1), answer]);
    });

    it('leave the images a tool got in the chat, switch or not: the person sees what it got', () => {
      const photo = { sha256: 'd'.repeat(64), mediaType: 'image/png', bytes: 3 };
      const got = node(
        'tool_result',
        { toolUseId: 't2', name: 'everything_get-tiny-image', photos: [photo] },
        reply,
      );
      expect(after(chatItems([...path, got], [])).map((i) => i.node)).toEqual([said, reply, progress, got]);
    });

    it('follow the switch, kept in localStorage', () => {
      showAgentSteps(true);
      expect(localStorage.getItem('sweatpants.showAgentSteps')).toBe('true');
      expect(after(chatItems(path, []))).toHaveLength(9);
      showAgentSteps(false);
      expect(localStorage.getItem('sweatpants.showAgentSteps')).toBeNull();
      expect(after(chatItems(path, []))).toHaveLength(3);
    });
  });
});
