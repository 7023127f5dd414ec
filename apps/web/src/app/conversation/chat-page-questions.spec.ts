import { BreakpointObserver } from '@angular/cdk/layout';
import { TestBed } from '@angular/core/testing';
import { provideRouter } from '@angular/router';
import { of } from 'rxjs';
import type { AgentInfo, Conversation, ElicitRequest, TreeListingNode, TreeNode } from '@sweatpants/domain';

import { FakeSocket } from '../../testing/fake-socket';
import { ApiService } from '../core/api.service';
import { SessionService } from '../core/session.service';
import { SocketClientService } from '../core/socket-client.service';
import { AgentsService } from '../conversations/agents.service';
import { ChatPageComponent } from './chat-page.component';
import { ConversationStore } from './conversation-store.service';
import { A_USER } from '../../testing/signed-in';

/** The chat page while questions from several agents wait at once (the donation helper inside the coach's turn). */

const id = (name: string) => name.padEnd(64, '0');
const node = (
  name: string,
  parent: string | null,
  depth: number,
  kind: TreeNode['kind'],
  payload: object,
  agent = 'tidying',
) =>
  ({
    id: id(name),
    conversationId: 'c1',
    parentId: parent ? id(parent) : null,
    depth,
    kind,
    payload,
    authorId: kind === 'user' || kind === 'response' ? 'u-1' : `agent:${agent}`,
    createdAt: new Date(Date.UTC(2026, 0, 1, 12, depth)).toISOString(),
  }) as TreeNode;

const coachAsks: ElicitRequest<'choose'> = {
  elicitId: 'q-coach',
  type: 'choose',
  message: 'Where does the lamp live?',
  payload: { options: [{ id: 'desk', label: 'On the desk' }] },
  askedBy: 'tidying',
};
const helperAsks: ElicitRequest<'confirm'> = {
  elicitId: 'q-helper',
  type: 'confirm',
  message: 'Shall I look for places near you that take the old lamp?',
  payload: { default: true },
  askedBy: 'donations',
};
const path: TreeNode[] = [
  node('00', null, 0, 'root', { conversationId: 'c1' }),
  node('a1', '00', 1, 'user', { text: 'two lamps on my desk' }),
  node('b1', 'a1', 2, 'elicit', coachAsks),
  node('c1', 'b1', 3, 'elicit', helperAsks, 'donations'),
];
const agent = (name: string, title: string, speaker: string): AgentInfo => ({
  name,
  title,
  description: `${title}.`,
  speaker,
  needs: [],
  intro: 'Hello.',
  placeholder: 'Say something',
});

async function setup(pending: ElicitRequest[], options: { agentsKnown?: boolean; phone?: boolean } = {}) {
  const conversation: Conversation = {
    id: 'c1',
    agent: 'tidying',
    title: 'Desk',
    ownerId: 'u-1',
    head: id('c1'),
    status: 'waiting',
    pendingElicit: pending[0] ?? null,
    pendingElicits: pending,
    model: 'offline',
    createdAt: '2026-01-01T12:00:00.000Z',
    updatedAt: '2026-01-01T12:03:00.000Z',
  };
  const api = {
    conversation: jest.fn().mockResolvedValue(conversation),
    state: jest.fn().mockResolvedValue({ at: id('c1'), agent: 'tidying', state: { phase: 'sorting' } }),
    owner: {
      path: jest.fn().mockResolvedValue({ nodes: path }),
      tree: jest.fn().mockResolvedValue(
        path.map((n, i): TreeListingNode => ({
          ...n,
          childIds: path[i + 1] ? [path[i + 1]!.id] : [],
          onHead: true,
        })),
      ),
    },
  };
  let answers = 0;
  // The server records each answer as a response node under HEAD.
  const socket = new FakeSocket((event, payload) => {
    if (event === 'conversation:join') return { ok: true, conversation };
    if (event === 'elicit:response') {
      const { elicitId, action, content } = payload as { elicitId: string; action: string; content?: object };
      answers += 1;
      const parent = answers === 1 ? 'c1' : 'd1';
      return {
        ok: true,
        node: node(`d${answers}`, parent, 3 + answers, 'response', { elicitId, action, content }),
      };
    }
    return { ok: false, error: { code: 'invalid_request', message: 'unexpected' } };
  });
  // The page's width as the breakpoints report it: a phone's, or a desktop's.
  const width = { observe: () => of({ matches: !!options.phone }), isMatched: () => !!options.phone };
  TestBed.configureTestingModule({
    providers: [
      ConversationStore,
      { provide: ApiService, useValue: api },
      { provide: BreakpointObserver, useValue: width },
      provideRouter([]),
    ],
  });
  TestBed.inject(SessionService).start({
    token: 't',
    user: A_USER,
  });
  TestBed.inject(SocketClientService).useFactory(() => socket.asSocket());
  const agents = () =>
    TestBed.inject(AgentsService).use([
      agent('tidying', 'Tidying coach', 'the coach'),
      agent('donations', 'Donation helper', 'the helper'),
    ]);
  if (options.agentsKnown !== false) agents();
  const store = TestBed.inject(ConversationStore);
  await store.open('c1', false);
  const fixture = TestBed.createComponent(ChatPageComponent);
  fixture.autoDetectChanges();
  await fixture.whenStable();
  const element = fixture.nativeElement as HTMLElement;
  const settle = async () => {
    for (let i = 0; i < 3; i++) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      await fixture.whenStable();
    }
  };
  /** Each card as the person reads it: who asks (if said), then the question. */
  const cards = () =>
    Array.from(element.querySelectorAll('app-elicit-card')).map((card) => ({
      card,
      asker: card.querySelector('.elicit__asker')?.textContent?.trim() ?? null,
      question: card.querySelector('h2')?.textContent?.trim(),
    }));
  const button = (card: Element, label: string) =>
    Array.from(card.querySelectorAll('button')).find((b) => b.textContent?.trim() === label)!;
  return { element, socket, store, settle, cards, button, agents };
}

describe('ChatPageComponent with questions from several agents', () => {
  afterEach(() => localStorage.clear());

  it('gives the composer the focus once it can be typed in, when the chat prompt came while an answer was in flight', async () => {
    const { store, settle, element } = await setup([helperAsks]);
    // The last card's answer is in flight (its ack not back yet) when the agent's turn ends and
    // asks for the next message: the composer is still disabled then.
    store.busy.set(true);
    store.questions.replace([
      { elicitId: 'chat-1', type: 'chat', message: 'Anything else?', payload: {}, askedBy: 'donations' },
    ]);
    await settle();
    const box = element.querySelector('app-chat-elicit textarea') as HTMLTextAreaElement;
    expect(box.disabled).toBe(true);
    store.busy.set(false);
    await settle();
    expect(document.activeElement).toBe(box);
  });

  it('shows every pending question as its own card, oldest first, each saying which agent asks', async () => {
    const { element, cards } = await setup([coachAsks, helperAsks]);
    expect(cards().map(({ asker, question }) => ({ asker, question }))).toEqual([
      { asker: 'The tidying coach asks…', question: 'Where does the lamp live?' },
      {
        asker: 'The donation helper asks…',
        question: 'Shall I look for places near you that take the old lamp?',
      },
    ]);
    // A screen reader hears who asks with the question.
    const section = cards()[1]!.card.querySelector('section')!;
    const names = section
      .getAttribute('aria-labelledby')!
      .split(' ')
      .map((n) => element.querySelector(`#${n}`));
    expect(names.map((n) => n?.textContent?.trim())).toEqual([
      'The donation helper asks…',
      'Shall I look for places near you that take the old lamp?',
    ]);
    // The questions are the cards, not also lines in the log.
    expect(element.querySelector('ol.log')?.textContent).not.toContain('Where does the lamp live?');
  });

  it('on a phone, opens the newer card folded to its line so the oldest stays whole; answered, the next opens whole', async () => {
    const { settle, cards, button } = await setup([coachAsks, helperAsks], { phone: true });
    const folded = () =>
      cards().map(({ card }) => card.querySelector('.elicit__body')?.hasAttribute('hidden') ?? null);
    // Both questions are read, and only the oldest's choices take room: typed words answer it.
    expect(cards().map((c) => c.question)).toEqual([
      'Where does the lamp live?',
      'Shall I look for places near you that take the old lamp?',
    ]);
    expect(folded()).toEqual([false, true]);
    const unfold = cards()[1]!.card.querySelector<HTMLButtonElement>('.elicit__fold')!;
    expect(unfold.getAttribute('aria-label')).toBe('Show the question');
    // A tap shows it whole.
    unfold.click();
    await settle();
    expect(folded()).toEqual([false, false]);
    unfold.click();
    await settle();

    button(cards()[0]!.card, 'On the desk').click();
    await settle();
    // The helper's question, the only one left, opens whole.
    expect(cards().map((c) => c.question)).toEqual([
      'Shall I look for places near you that take the old lamp?',
    ]);
    expect(folded()).toEqual([false]);
  });

  it('on a desktop, opens every card whole', async () => {
    const { cards } = await setup([coachAsks, helperAsks]);
    expect(cards().map(({ card }) => card.querySelector('.elicit__body')?.hasAttribute('hidden'))).toEqual([
      false,
      false,
    ]);
  });

  it('answers the newest first: that card goes, the older stays in view with who asks it, then it is answered too', async () => {
    const { element, socket, store, settle, cards, button } = await setup([coachAsks, helperAsks]);
    button(cards()[1]!.card, 'Yes').click();
    await settle();
    expect(socket.emitted.at(-1)).toEqual({
      event: 'elicit:response',
      payload: { conversationId: 'c1', elicitId: 'q-helper', action: 'accept', content: { value: true } },
    });
    expect(cards().map(({ asker, question }) => ({ asker, question }))).toEqual([
      { asker: 'The tidying coach asks…', question: 'Where does the lamp live?' },
    ]);
    expect(store.questions.all()).toEqual([coachAsks]);
    // answered, the helper's question is in the chat, saying whose it was, and so is its reply
    socket.serverSends('node', {
      conversationId: 'c1',
      node: node('e1', 'd1', 5, 'assistant', { text: 'Two places near you take lamps.' }, 'donations'),
    });
    await settle();
    const said = (text: string) =>
      Array.from(element.querySelectorAll('ol.log app-chat-node')).find((n) => n.textContent?.includes(text));
    expect(said('Shall I look for places')?.querySelector('.author')?.textContent?.trim()).toBe(
      'Donation helper',
    );
    expect(said('Two places near you')?.querySelector('.author')?.textContent?.trim()).toBe(
      'Donation helper',
    );
    expect(said('two lamps on my desk')?.querySelector('.author')).toBeNull();
    // focus goes on to the card still waiting
    expect(document.activeElement).toBe(cards()[0]!.card.querySelector('section'));

    button(cards()[0]!.card, 'On the desk').click();
    await settle();
    expect(socket.emitted.at(-1)).toEqual({
      event: 'elicit:response',
      payload: { conversationId: 'c1', elicitId: 'q-coach', action: 'accept', content: { choiceId: 'desk' } },
    });
    expect(cards()).toEqual([]);
  });

  it('says under the cards whose question typed words answer: the oldest waiting', async () => {
    const { element, socket, settle, cards, button } = await setup([coachAsks, helperAsks]);
    const composer = () => element.querySelector('app-chat-elicit textarea') as HTMLTextAreaElement;
    expect(composer().placeholder).toBe('Answer the coach…');
    // The coach's card answered, the helper's is the one typed words answer.
    button(cards()[0]!.card, 'On the desk').click();
    await settle();
    expect(socket.emitted.at(-1)?.payload).toMatchObject({ elicitId: 'q-coach' });
    expect(composer().placeholder).toBe('Answer the helper…');
  });

  it('says who asks when another agent than the conversation’s asks alone', async () => {
    const { cards } = await setup([helperAsks]);
    expect(cards().map((c) => c.asker)).toEqual(['The donation helper asks…']);
  });

  it('names no agent by its registered name while the agents’ titles are still on their way', async () => {
    const { cards, agents, settle } = await setup([helperAsks], { agentsKnown: false });
    expect(cards().map((c) => c.asker)).toEqual(['The other assistant asks…']);
    agents();
    await settle();
    expect(cards().map((c) => c.asker)).toEqual(['The donation helper asks…']);
  });

  it('says nothing of who asks when only the conversation’s own agent asks', async () => {
    const { cards } = await setup([coachAsks]);
    expect(cards().map((c) => c.asker)).toEqual([null]);
  });

  it('adds a question another agent asks while one waits, and drops the one withdrawn', async () => {
    const { socket, settle, cards } = await setup([coachAsks]);
    socket.serverSends('elicit', { conversationId: 'c1', nodeId: id('c1'), ...helperAsks });
    // delivered twice: still one card
    socket.serverSends('elicit', { conversationId: 'c1', nodeId: id('c1'), ...helperAsks });
    await settle();
    expect(cards().map((c) => c.asker)).toEqual(['The tidying coach asks…', 'The donation helper asks…']);
    socket.serverSends('elicit:withdrawn', {
      conversationId: 'c1',
      elicitId: 'q-coach',
      reason: 'head moved',
    });
    await settle();
    expect(cards().map((c) => c.question)).toEqual([
      'Shall I look for places near you that take the old lamp?',
    ]);
  });
});
