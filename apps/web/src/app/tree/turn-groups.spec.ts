import type { TreeNode } from '@sweatpants/domain';

import { TurnFixture } from '../../testing/turn-fixture';
import { boxWords, foldedStepWords } from './group-words';
import { type TurnGroup, type TurnTree, turnGroups } from './turn-groups';

/** The boxes top-down, depth first, as "kind: words (+steps)". */
function outline(tree: TurnTree): string[] {
  const lines: string[] = [];
  const visit = (id: string, indent: string) => {
    const group = tree.groups.get(id) as TurnGroup;
    const steps = group.steps.length ? ` +${group.steps.length}` : '';
    lines.push(`${indent}${group.kind}: ${boxWords(group, { you: 'u-1' }).line}${steps}`);
    for (const child of group.children) visit(child, `${indent}  `);
  };
  for (const root of tree.roots) visit(root, '');
  return lines;
}

/** Every node is in exactly one box, and a box's nodes are a stretch of one branch. */
function expectPartition(nodes: readonly TreeNode[], tree: TurnTree): void {
  const seen = new Map<string, string>();
  for (const group of tree.groups.values()) {
    for (const [i, node] of group.nodes.entries()) {
      expect(seen.has(node.id)).toBe(false);
      seen.set(node.id, group.id);
      if (i > 0) expect(node.parentId).toBe(group.nodes[i - 1]?.id);
    }
    const first = group.nodes[0] as TreeNode;
    const parent = group.parent === null ? null : tree.groups.get(group.parent);
    expect(parent ? parent.nodes.at(-1)?.id : null).toBe(first.parentId);
  }
  expect(seen.size).toBe(nodes.length);
  for (const node of nodes) expect(tree.boxOf.get(node.id)).toBe(seen.get(node.id));
}

describe('turnGroups', () => {
  it('makes a simple turn two boxes: the message, and the reply with the steps that led to it', () => {
    const f = new TurnFixture();
    const root = f.root();
    const { end } = f.turn(root, 'my desk is a mess', 'Start with one thing.');
    const nodes = f.listing(end);
    const tree = turnGroups(nodes, { head: end });
    expect(outline(tree)).toEqual([
      'start: The conversation starts here',
      '  user: my desk is a mess',
      '    assistant: Start with one thing. +5',
    ]);
    const reply = tree.groups.get(tree.boxOf.get(end) as string) as TurnGroup;
    expect(reply.steps.map((n) => foldedStepWords(n).title)).toEqual([
      'Read your message',
      'Worked out the next step without a reply',
      'Worked out what you meant',
      'Decided what to do next',
      'Wrote its reply',
    ]);
    expectPartition(nodes, tree);
  });

  it('folds the end of a turn into the reply, and the next turn’s steps into the next reply', () => {
    const f = new TurnFixture();
    const first = f.turn(f.root(), 'a lamp', 'Keep it?');
    const second = f.turn(first.end, 'a mug', 'Kitchen?');
    const tree = turnGroups(f.listing(second.end), { head: second.end });
    expect(tree.boxOf.get(first.end)).toBe(first.reply);
    expect(tree.groups.get(second.user)?.nodes.map((n) => n.id)).toEqual([second.user]);
    expect(tree.groups.get(second.reply)?.steps).toHaveLength(5);
  });

  it('keeps an edit’s branch point under the hidden event that ended the reply before', () => {
    const f = new TurnFixture();
    const first = f.turn(f.root(), 'my desk', 'What is the first thing?');
    const old = f.turn(first.end, 'a lamp', 'Keep the lamp?');
    // An edit: a sibling of "a lamp" under the reply's response-generated event.
    const edited = f.turn(first.end, 'a desk lamp', 'Trash the desk lamp?');
    const nodes = f.listing(edited.end);
    const tree = turnGroups(nodes, { head: edited.end });
    expect(outline(tree)).toEqual([
      'start: The conversation starts here',
      '  user: my desk',
      '    assistant: What is the first thing? +5',
      '      user: a lamp',
      '        assistant: Keep the lamp? +5',
      '      user: a desk lamp',
      '        assistant: Trash the desk lamp? +5',
    ]);
    expect(tree.groups.get(first.reply)?.children).toEqual([old.user, edited.user]);
    expectPartition(nodes, tree);
  });

  it('splits a box at a regenerate’s branch point under hidden nodes, so both replies show', () => {
    const f = new TurnFixture();
    const root = f.root();
    const user = f.user(root, 'a chair');
    const read = f.add(user, 'event', { type: 'user-input-received', text: 'a chair' });
    // The first answer, then another from the same input read (the fork is on a hidden node).
    const a = f.reply(f.add(read, 'assistant', { text: '' }), 'Sit on it?');
    const b = f.reply(
      f.add(f.add(read, 'mode', { from: 'sorting', to: 'deciding' }), 'assistant', { text: '' }),
      'Donate it?',
    );
    const nodes = f.listing(b.end);
    const tree = turnGroups(nodes, { head: b.end });
    expect(outline(tree)).toEqual([
      'start: The conversation starts here',
      '  user: a chair +1',
      '    assistant: Sit on it? +2',
      '    assistant: Donate it? +3',
    ]);
    expect(tree.groups.get(user)?.children).toEqual([a.reply, b.reply]);
    expectPartition(nodes, tree);
  });

  it('shows a branch that has no message yet as a box of its steps', () => {
    const f = new TurnFixture();
    const user = f.user(f.root(), 'a chair');
    const first = f.reply(f.steps(user, 'a chair'), 'Sit on it?');
    // A regenerate from the message, still running: only steps so far.
    const running = f.add(
      f.add(user, 'event', { type: 'user-input-received', text: 'a chair' }),
      'assistant',
      {
        text: '',
      },
    );
    const tree = turnGroups(f.listing(running), { head: running });
    expect(outline(tree)).toEqual([
      'start: The conversation starts here',
      '  user: a chair',
      '    assistant: Sit on it? +5',
      '    steps: Read your message +2',
    ]);
    expect(tree.groups.get(user)?.children[0]).toBe(first.reply);
  });

  it('makes a compaction summary a box, beside the range it replaced', () => {
    const f = new TurnFixture();
    const root = f.root();
    const one = f.turn(root, 'a lamp', 'Keep it?');
    const two = f.turn(one.end, 'a mug', 'Kitchen?');
    // Squash-and-rebase: the summary replaces the range under the root; the tail is rebased onto it.
    const summary = f.add(
      root,
      'summary',
      { text: 'We sorted a lamp and a mug.', covers: { fromId: one.user, toId: two.end, count: 16 } },
      'agent:compactor',
    );
    const three = f.turn(summary, 'a book', 'Shelf?');
    const nodes = f.listing(three.end);
    const tree = turnGroups(nodes, { head: three.end });
    expect(outline(tree)).toEqual([
      'start: The conversation starts here',
      '  user: a lamp',
      '    assistant: Keep it? +5',
      '      user: a mug',
      '        assistant: Kitchen? +5',
      '  summary: We sorted a lamp and a mug.',
      '    user: a book',
      '      assistant: Shelf? +5',
    ]);
    expect(boxWords(tree.groups.get(summary) as TurnGroup, { you: 'u-1' }).title).toBe(
      'Summary of the earlier conversation',
    );
    expectPartition(nodes, tree);
  });

  it('shows a question with its answer as one box, and words typed beside it as the user’s', () => {
    const f = new TurnFixture();
    const user = f.user(f.root(), 'a mug');
    const call = f.add(f.steps(user, 'a mug'), 'tool_call', {
      name: 'propose_disposition',
      input: { item: 'mug' },
    });
    const ask = (elicitId: string, parent: string) =>
      f.add(parent, 'elicit', {
        elicitId,
        type: 'confirm',
        message: 'Does the mug go to the kitchen?',
        payload: { default: true },
      });
    const q1 = ask('e1', call);
    const a1 = f.add(q1, 'response', { elicitId: 'e1', action: 'accept', content: { value: true } }, 'u-1');
    const done = f.add(a1, 'tool_result', { name: 'propose_disposition', outcome: { kind: 'success' } });
    const q2 = ask('e2', f.reply(done, 'Kitchen it is.').end);
    const offScript = f.add(
      q2,
      'response',
      { elicitId: 'e2', action: 'other', content: { text: 'wait, which mug?' } },
      'u-1',
    );
    const nodes = f.listing(offScript);
    const tree = turnGroups(nodes, { head: offScript });
    expect(outline(tree)).toEqual([
      'start: The conversation starts here',
      '  user: a mug',
      '    question: Does the mug go to the kitchen? ↳ Yes +5',
      '      assistant: Kitchen it is. +2',
      '        question: Does the mug go to the kitchen?',
      '          user: wait, which mug?',
    ]);
    expect(tree.groups.get(q1)?.answer?.id).toBe(a1);
    expectPartition(nodes, tree);
  });

  it('makes the answer to the chat question the user’s message, the question itself a step', () => {
    const f = new TurnFixture();
    const { end } = f.turn(f.root(), 'hello', 'What room?');
    const chat = f.add(end, 'elicit', { elicitId: 'c1', type: 'chat', message: '', payload: {} });
    const said = f.add(
      chat,
      'response',
      { elicitId: 'c1', action: 'accept', content: { text: 'the hall' } },
      'u-1',
    );
    const tree = turnGroups(f.listing(said), { head: said });
    const reply = tree.groups.get(tree.boxOf.get(end) as string) as TurnGroup;
    expect(reply.steps.map((n) => foldedStepWords(n).title).slice(-2)).toEqual([
      'Wrote its reply',
      'Waited for your message',
    ]);
    expect(tree.groups.get(said)?.kind).toBe('user');
    expect(boxWords(tree.groups.get(said) as TurnGroup, { you: 'u-1' }).line).toBe('the hall');
  });

  it('folds mode switches, notes the agent wrote in the user’s place and side calls', () => {
    const f = new TurnFixture();
    const user = f.user(f.root(), 'I am tired');
    let at = f.add(user, 'mode', { from: 'sorting', to: 'winding-down' });
    at = f.add(at, 'user', { text: '[Continue as: Winding down] Wrap up.', synthetic: true });
    at = f.add(at, 'assistant', { text: '{"intent":"rest"}', purpose: 'interpret' });
    const { reply } = f.reply(at, 'Let us stop here.');
    // HEAD on the reply, its `response-generated` past it: no message follows, so one box still.
    const tree = turnGroups(f.listing(reply), { head: reply });
    expect(outline(tree)).toEqual([
      'start: The conversation starts here',
      '  user: I am tired',
      '    assistant: Let us stop here. +4',
    ]);
    expect(tree.groups.get(reply)?.steps.map((n) => foldedStepWords(n).title)).toEqual([
      'Mode: sorting → winding down',
      'Carried on as winding down',
      'Read what you said beside the question',
      'Wrote its reply',
    ]);
  });

  it('ends a box at HEAD, so what lies past it is a box of its own', () => {
    const f = new TurnFixture();
    const { user, reply, end } = f.turn(f.root(), 'a lamp', 'Keep it?');
    const read = f.get(user).childIds[0] as string;
    const tree = turnGroups(f.listing(read), { head: read });
    expect(tree.boxOf.get(read)).toBe(user);
    expect(tree.boxOf.get(end)).toBe(reply);
    expect(tree.groups.get(reply)?.parent).toBe(user);
  });

  it('keeps a long session of 2,000 nodes to one box per message', () => {
    const f = new TurnFixture();
    let at = f.root();
    let messages = 0;
    while (f.nodes.length < 2000 - 15) {
      // A turn with a question: message, steps, reply, question and answer, steps, reply.
      const t = f.turn(at, `item ${messages}`, `Here is a guess for item ${messages}.`);
      const proposed = f.add(f.add(t.end, 'tool_call', { name: 'propose_disposition' }), 'event', {
        type: 'item-proposed',
      });
      const q = f.add(proposed, 'elicit', {
        elicitId: `e${messages}`,
        type: 'confirm',
        message: `Keep item ${messages}?`,
        payload: {},
      });
      const a = f.add(
        q,
        'response',
        { elicitId: `e${messages}`, action: 'accept', content: { value: true } },
        'u-1',
      );
      at = f.reply(
        f.add(f.add(a, 'event', { type: 'user-confirmed' }), 'tool_result', { name: 'x' }),
        'Kept.',
      ).end;
      messages += 4;
    }
    const nodes = f.listing(at);
    expect(nodes.length).toBeGreaterThan(1900);
    const tree = turnGroups(nodes, { head: at });
    // the start, and one box per message: far fewer boxes than nodes
    expect(tree.groups.size).toBe(messages + 1);
    expect(tree.groups.size).toBeLessThan(nodes.length / 3.5);
    expectPartition(nodes, tree);
  });

  it('shows a subagent’s abandoned attempt as its own branch, named by the subagent, beside the one kept', () => {
    const f = new TurnFixture();
    const user = f.user(f.root(), 'a chair, could someone pick it up?');
    const call = f.add(user, 'tool_call', { toolUseId: 't1', name: 'find_drop_off', input: {} });
    const by = 'agent:directory';
    const tried = { agent: 'directory', label: 'services that collect' };
    let left = f.add(call, 'event', { type: 'fork', ...tried }, by);
    left = f.add(left, 'tool_call', { toolUseId: 'd1', name: 'search_directory', input: {} }, by);
    f.add(left, 'tool_result', { toolUseId: 'd1', name: 'search_directory', outcome: {} }, by);
    const back = { type: 'fork-return', ...tried, reason: 'no service that collects reaches' };
    let kept = f.add(call, 'event', back, by);
    kept = f.add(kept, 'event', { type: 'fork', agent: 'directory', label: 'places to take it instead' }, by);
    const { end } = f.reply(kept, 'Take it to Camden Reuse Centre.');
    const nodes = f.listing(end);
    const tree = turnGroups(nodes, { head: end });
    expect(outline(tree)).toEqual([
      'start: The conversation starts here',
      '  user: a chair, could someone pick it up? +1',
      '    steps: services that collect +3',
      '    assistant: Take it to Camden Reuse Centre. +3',
    ]);
    const attempt = tree.groups.get(tree.boxOf.get(left) as string) as TurnGroup;
    expect(boxWords(attempt, { you: 'u-1' })).toMatchObject({
      who: 'The directory',
      tag: 'The directory tried',
      title: 'The directory’s attempt',
    });
    const reply = tree.groups.get(tree.boxOf.get(end) as string) as TurnGroup;
    expect(reply.steps.map((n) => foldedStepWords(n))).toEqual([
      { title: 'Went back from services that collect', detail: 'no service that collects reaches' },
      { title: 'Tried places to take it instead', detail: 'by the directory' },
      { title: 'Wrote its reply', detail: '' },
    ]);
    expectPartition(nodes, tree);
  });
});
