import { TestBed } from '@angular/core/testing';
import { provideRouter } from '@angular/router';
import type { Conversation, TreeListingNode, TreeNode } from '@sweatpants/domain';

import { FakeSocket } from '../../testing/fake-socket';
import { ApiService } from '../core/api.service';
import { SessionService } from '../core/session.service';
import { SocketClientService } from '../core/socket-client.service';
import { reloadAgentSteps } from './agent-steps';
import { ChatPageComponent } from './chat-page.component';
import { ConversationStore } from './conversation-store.service';
import { A_USER } from '../../testing/signed-in';
import { useAgents } from '../conversations/agents-fixture';

/** The chat as the user sees it: what was said in front, the agent's steps one switch away. */

const id = (name: string) => name.padEnd(64, '0');
const HASH = /[0-9a-f]{64}/;
let minute = 0;
function node(
  name: string,
  parent: TreeNode | null,
  kind: TreeNode['kind'],
  payload: object,
  authorId = 'agent:tidying',
): TreeNode {
  minute += 1;
  return {
    id: id(name),
    conversationId: 'c1',
    parentId: parent?.id ?? null,
    depth: parent ? parent.depth + 1 : 0,
    kind,
    payload,
    authorId,
    createdAt: new Date(Date.UTC(2026, 0, 1, 12, minute)).toISOString(),
  } as TreeNode;
}

const root = node('00', null, 'root', { conversationId: 'c1' });

/** One turn of the tidying coach, as the runtime writes it. */
function turn(parent: TreeNode, said: string, prefix: string): TreeNode[] {
  const user = node(`${prefix}1`, parent, 'user', { text: said }, 'u-1');
  const received = node(`${prefix}2`, user, 'event', { type: 'user-input-received', text: said });
  const classified = node(`${prefix}3`, received, 'event', {
    type: 'situation-classified',
    summary: 'describe',
    extract: { intent: 'describe', item: null },
    nodeId: user.id,
  });
  const acted = node(`${prefix}4`, classified, 'event', {
    type: 'action-taken',
    action: { tag: 'ask-function' },
    nextPhase: 'surveying',
    extract: {},
  });
  const silent = node(`${prefix}5`, acted, 'assistant', { text: '', content: [], stopReason: 'tool_use' });
  const call = node(`${prefix}6`, silent, 'tool_call', {
    toolUseId: 'toolu_1',
    name: 'ask_space_function',
    input: { options: ['working', 'sleeping'] },
  });
  const result = node(`${prefix}7`, call, 'tool_result', {
    toolUseId: 'toolu_1',
    name: 'ask_space_function',
    outcome: { kind: 'success', value: 'writing letters' },
  });
  const side = node(`${prefix}8`, result, 'assistant', {
    text: 'The user picked option b.',
    purpose: 'interpret-off-script',
  });
  const mode = node(`${prefix}9`, side, 'mode', { from: 'sorting', to: 'winding-down', data: {} });
  const synthetic = node(`${prefix}a`, mode, 'user', {
    text: '[Continue as: Sorting] Give one tiny first action, then propose dispositions.',
    synthetic: true,
  });
  const reply = node(`${prefix}b`, synthetic, 'assistant', { text: 'Start with the mugs.' });
  const notify = node(`${prefix}c`, reply, 'notify', { message: 'Sorted 1 of 3', progress: 1, total: 3 });
  return [user, received, classified, acted, silent, call, result, side, mode, synthetic, reply, notify];
}

function listing(nodes: TreeNode[]): TreeListingNode[] {
  return nodes.map((n) => ({
    ...n,
    childIds: nodes.filter((c) => c.parentId === n.id).map((c) => c.id),
    onHead: false,
  }));
}

async function setup(path: TreeNode[], tree: TreeNode[] = path, pathAt: TreeNode[] = []) {
  const conversation: Conversation = {
    id: 'c1',
    agent: 'tidying',
    title: 'Desk',
    ownerId: 'u-1',
    head: path.at(-1)!.id,
    status: 'idle',
    pendingElicit: null,
    pendingElicits: [],
    model: 'offline',
    createdAt: '2026-01-01T12:00:00.000Z',
    updatedAt: '2026-01-01T12:30:00.000Z',
  };
  const api = {
    conversation: jest.fn().mockResolvedValue(conversation),
    state: jest.fn().mockResolvedValue({ at: conversation.head, agent: 'tidying', state: {} }),
    owner: {
      path: jest.fn((_id: string, at?: string) => Promise.resolve({ nodes: at ? pathAt : path })),
      tree: jest.fn().mockResolvedValue(listing(tree)),
    },
  };
  const socket = new FakeSocket((event) =>
    event === 'conversation:join'
      ? { ok: true, conversation }
      : { ok: false, error: { code: 'invalid_request', message: 'unexpected' } },
  );
  TestBed.configureTestingModule({
    providers: [ConversationStore, { provide: ApiService, useValue: api }, provideRouter([])],
  });
  TestBed.inject(SessionService).start({
    token: 't',
    user: A_USER,
  });
  TestBed.inject(SocketClientService).useFactory(() => socket.asSocket());
  useAgents();
  await TestBed.inject(ConversationStore).open('c1', false);
  const fixture = TestBed.createComponent(ChatPageComponent);
  fixture.autoDetectChanges();
  const element = fixture.nativeElement as HTMLElement;
  const settle = async () => {
    for (let i = 0; i < 3; i++) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      await fixture.whenStable();
    }
  };
  await settle();
  const log = () => element.querySelector('ol.log') as HTMLElement;
  const text = () => log().textContent?.replace(/\s+/g, ' ') ?? '';
  const bubbles = (kind: 'user' | 'assistant') =>
    Array.from(log().querySelectorAll(`.bubble--${kind} :is(.text, app-markdown-text)`)).map((b) =>
      b.textContent?.trim(),
    );
  const toggle = () => log().querySelector<HTMLInputElement>('input[role=switch]')!;
  const flip = async () => {
    toggle().click();
    await settle();
  };
  return { element, api, log, text, bubbles, toggle, flip, settle };
}

describe('the chat: the conversation in front, the machinery one tap away', () => {
  beforeEach(() => {
    localStorage.clear();
    reloadAgentSteps();
  });
  afterEach(() => {
    localStorage.clear();
    reloadAgentSteps();
  });

  const path = [root, ...turn(root, 'my desk is a mess', 'a')];

  it('shows what was said; the agent’s steps are hidden by default', async () => {
    const { text, bubbles, toggle, log } = await setup(path);
    expect(bubbles('user')).toEqual(['my desk is a mess']);
    expect(bubbles('assistant')).toEqual(['Start with the mugs.']);
    expect(text()).toContain('Sorted 1 of 3');
    expect(toggle().checked).toBe(false);
    expect(log().querySelector('label')?.textContent?.trim()).toBe('Show agent steps');
    for (const hidden of [
      'Read your message',
      'Asked what the space is for',
      'Mode:',
      'ask_space_function',
    ]) {
      expect(text()).not.toContain(hidden);
    }
    expect(log().querySelectorAll('.node--step')).toHaveLength(0);
    expect(text()).not.toMatch(HASH);
  });

  it('the switch reveals the steps, in words, and is kept in this browser', async () => {
    const { text, flip, toggle, log, bubbles } = await setup(path);
    await flip();
    expect(toggle().checked).toBe(true);
    expect(localStorage.getItem('sweatpants.showAgentSteps')).toBe('true');
    const steps = Array.from(log().querySelectorAll('.node--step')).map((s) =>
      (s.querySelector('summary') ?? s).textContent?.trim(),
    );
    expect(steps).toEqual([
      'Read your message',
      'Worked out what you meant',
      'Decided what to do next',
      'Worked out the next step without a reply',
      'Asked what the space is for',
      '“ask space function” done',
      'Mode: sorting → winding down',
      'Carried on as sorting',
    ]);
    // Said in words: no JSON, no node ids, no tool names as the code spells them.
    expect(text()).toContain('ask what the space is for');
    expect(text()).not.toMatch(HASH);
    expect(text()).not.toMatch(/[{}]|"\w+":|ask_space_function|toolu_/);
    // What was said is still there, in the same order.
    expect(bubbles('user')).toEqual(['my desk is a mess']);
    expect(bubbles('assistant')).toEqual(['Start with the mugs.']);
    await flip();
    expect(log().querySelectorAll('.node--step')).toHaveLength(0);
    expect(localStorage.getItem('sweatpants.showAgentSteps')).toBeNull();
  });

  it('opens with the steps shown when this browser chose so', async () => {
    localStorage.setItem('sweatpants.showAgentSteps', 'true');
    reloadAgentSteps();
    const { toggle, log } = await setup(path);
    expect(toggle().checked).toBe(true);
    expect(log().querySelectorAll('.node--step')).toHaveLength(8);
  });

  it('never shows the agent’s prompt to itself as the user’s message, steps shown or not', async () => {
    const { text, bubbles, flip } = await setup(path);
    expect(text()).not.toContain('Continue as');
    expect(text()).not.toContain('Give one tiny first action');
    await flip();
    expect(bubbles('user')).toEqual(['my desk is a mess']);
    expect(text()).not.toContain('[Continue as');
  });

  it('never shows a side call of the runtime’s, steps shown or not', async () => {
    const { text, flip } = await setup(path);
    expect(text()).not.toContain('The user picked option b.');
    await flip();
    expect(text()).not.toContain('The user picked option b.');
  });

  describe('after a compaction', () => {
    // Two turns were squashed into a summary; the third was rebased onto it (tree-store).
    const first = turn(root, 'my desk is a mess', 'a');
    const second = turn(first.at(-1)!, 'writing letters', 'b');
    const covered = [...first, ...second];
    const summary = node('s0', root, 'summary', {
      text: `Offline summary of ${covered.length} nodes (2 user, 6 event, 16 other) from 2026-01-01T12:01:00.000Z to 2026-01-01T12:24:00.000Z. The user wrote 2 messages: "my desk is a mess" / "writing letters".`,
      covers: { fromId: covered[0]!.id, toId: covered.at(-1)!.id, count: covered.length },
    });
    const tail = turn(summary, 'the mugs go to the kitchen', 'c');
    const head = [root, summary, ...tail];

    it('keeps the user’s messages in view, with a quiet marker that the coach remembers a summary', async () => {
      const { bubbles, text, log, api } = await setup(head, [root, ...covered, summary, ...tail]);
      expect(bubbles('user')).toEqual(['my desk is a mess', 'writing letters', 'the mugs go to the kitchen']);
      expect(bubbles('assistant')).toEqual([
        'Start with the mugs.',
        'Start with the mugs.',
        'Start with the mugs.',
      ]);
      const marker = log().querySelector<HTMLDetailsElement>('details.memory')!;
      expect(marker.querySelector('summary')?.textContent).toBe(
        'The coach’s memory of the above is a summary',
      );
      expect(marker.open).toBe(false);
      expect(marker.querySelector('.text')?.textContent).toContain('The user wrote 2 messages');
      // The marker sits under the messages it stands for, above what came after.
      const said = (words: string) =>
        Array.from(log().querySelectorAll('.bubble--user')).find((b) => b.textContent?.includes(words))!;
      expect(
        said('writing letters').compareDocumentPosition(marker) & Node.DOCUMENT_POSITION_FOLLOWING,
      ).toBeTruthy();
      expect(
        marker.compareDocumentPosition(said('the mugs')) & Node.DOCUMENT_POSITION_FOLLOWING,
      ).toBeTruthy();
      expect(text()).not.toMatch(/\d+ nodes|\d+ user, \d+ event/);
      expect(log().querySelectorAll('.node--step')).toHaveLength(0);
      // Read off the tree: nothing more was asked of the api.
      expect(api.owner.path).toHaveBeenCalledTimes(1);
    });

    it('asks the api for the path at the end of the range when the tree does not hold it', async () => {
      const { bubbles, api, log } = await setup(head, head, [root, ...covered]);
      expect(api.owner.path).toHaveBeenCalledWith('c1', covered.at(-1)!.id);
      expect(bubbles('user')).toEqual(['my desk is a mess', 'writing letters', 'the mugs go to the kitchen']);
      expect(log().querySelector('details.memory summary')?.textContent).toBe(
        'The coach’s memory of the above is a summary',
      );
    });

    it('shows the covered turns’ steps too when the switch is on, and still no side call or prompt', async () => {
      const { flip, log, text, bubbles } = await setup(head, [root, ...covered, summary, ...tail]);
      await flip();
      expect(log().querySelectorAll('.node--step')).toHaveLength(24);
      expect(bubbles('user')).toHaveLength(3);
      expect(text()).not.toContain('The user picked option b.');
      expect(text()).not.toContain('[Continue as');
    });
  });
});
