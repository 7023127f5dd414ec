import { TestBed } from '@angular/core/testing';
import { provideRouter } from '@angular/router';
import {
  type Conversation,
  type ElicitRequest,
  queuedNode,
  type TreeListingNode,
  type TreeNode,
} from '@sweatpants/domain';

import { FakeSocket } from '../../testing/fake-socket';
import { ApiService } from '../core/api.service';
import { SessionService } from '../core/session.service';
import { SocketClientService } from '../core/socket-client.service';
import { ChatPageComponent } from './chat-page.component';
import { ConversationStore } from './conversation-store.service';
import { A_USER } from '../../testing/signed-in';

const id = (name: string) => name.padEnd(64, '0');
const node = (name: string, parent: string | null, depth: number, kind: TreeNode['kind'], payload: object) =>
  ({
    id: id(name),
    conversationId: 'c1',
    parentId: parent ? id(parent) : null,
    depth,
    kind,
    payload,
    authorId: kind === 'user' || kind === 'response' ? 'u-1' : 'agent:tidying',
    createdAt: new Date(Date.UTC(2026, 0, 1, 12, depth)).toISOString(),
  }) as TreeNode;

const ask: ElicitRequest<'choose'> = {
  elicitId: 'q1',
  type: 'choose',
  message: 'What do you need to DO in this space?',
  payload: {
    options: [
      { id: 'function-1', label: 'working' },
      { id: 'function-2', label: 'sleeping' },
    ],
  },
};
const path: TreeNode[] = [
  node('00', null, 0, 'root', { conversationId: 'c1' }),
  node('a1', '00', 1, 'user', { text: 'my desk is a mess' }),
  node('b1', 'a1', 2, 'assistant', { text: 'First: what do you need to DO in this space?' }),
  node('c1', 'b1', 3, 'elicit', ask),
];
const conversation: Conversation = {
  id: 'c1',
  agent: 'tidying',
  title: 'Desk',
  ownerId: 'u-1',
  head: id('c1'),
  status: 'waiting',
  pendingElicit: ask,
  pendingElicits: [ask],
  model: 'offline',
  createdAt: '2026-01-01T12:00:00.000Z',
  updatedAt: '2026-01-01T12:03:00.000Z',
};

/** What a test's server answers to a client event, before the defaults below. */
type Answer = (payload: unknown) => object;

async function setup(answers: Partial<Record<string, Answer>> = {}) {
  const api = {
    conversation: jest.fn().mockResolvedValue(conversation),
    state: jest.fn().mockResolvedValue({ at: id('c1'), agent: 'tidying', state: { phase: 'surveying' } }),
    rewind: jest.fn().mockResolvedValue({ head: id('b1') }),
    owner: {
      reflog: jest.fn().mockResolvedValue({ entries: [{ id: 'r1' }] }),
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
  // The server takes words typed under a question as its off-script answer (PROTOCOL.md).
  const socket = new FakeSocket((event, payload) => {
    const answer = answers[event];
    if (answer) return answer(payload);
    if (event === 'conversation:join') return { ok: true, conversation };
    if (event === 'message:send') {
      const { text } = payload as { text: string };
      const answer = node('d1', 'c1', 4, 'response', { elicitId: 'q1', action: 'other', content: { text } });
      return { ok: true, node: answer };
    }
    return { ok: false, error: { code: 'invalid_request', message: 'unexpected' } };
  });
  TestBed.configureTestingModule({
    providers: [ConversationStore, { provide: ApiService, useValue: api }, provideRouter([])],
  });
  TestBed.inject(SessionService).start({
    token: 't',
    user: A_USER,
  });
  TestBed.inject(SocketClientService).useFactory(() => socket.asSocket());
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
  const composer = () => element.querySelector('app-chat-elicit textarea') as HTMLTextAreaElement;
  const type = async (text: string) => {
    composer().value = text;
    composer().dispatchEvent(new Event('input'));
    await fixture.whenStable();
  };
  const pressEnter = async (init: KeyboardEventInit = {}) => {
    composer().dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, ...init }));
    await settle();
  };
  return { fixture, element, store, socket, composer, type, pressEnter, settle };
}

/**
 * jsdom has no ResizeObserver: while `run` runs, a fake one, whose callbacks the test calls as the
 * browser would on a layout. Hands `run` the observers made, with what each observes.
 */
async function withFakeResizeObservers(
  run: (observed: readonly { targets: Element[]; callback: () => void }[]) => Promise<void>,
): Promise<void> {
  const observed: { targets: Element[]; callback: () => void }[] = [];
  (globalThis as { ResizeObserver?: unknown }).ResizeObserver = class {
    readonly targets: Element[] = [];
    constructor(readonly callback: () => void) {
      observed.push(this);
    }
    observe(target: Element): void {
      this.targets.push(target);
    }
    disconnect(): void {
      this.targets.length = 0;
    }
  };
  try {
    await run(observed);
  } finally {
    delete (globalThis as { ResizeObserver?: unknown }).ResizeObserver;
  }
}

describe('ChatPageComponent', () => {
  afterEach(() => localStorage.clear());

  it('keeps the composer under a pending question card, enabled, saying typing answers it', async () => {
    const { element, composer } = await setup();
    // The card ends the chat's scrolling pane, whole; the composer is in the dock under the pane.
    const card = element.querySelector('.pane app-elicit-card');
    expect(card?.querySelector('h2')?.textContent).toBe('What do you need to DO in this space?');
    const form = element.querySelector('.dock app-chat-elicit');
    expect(form).not.toBeNull();
    expect(card!.compareDocumentPosition(form!) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(element.querySelectorAll('textarea')).toHaveLength(1);
    expect(composer().disabled).toBe(false);
    expect(composer().placeholder).toBe('Or type your answer…');
    // The question is the card, not also a line in the log.
    expect(element.querySelector('ol.log')?.textContent).not.toContain('What do you need to DO');
  });

  it('sends what is typed there with message:send on Enter; the card goes, the words are the user’s message', async () => {
    const { element, socket, store, composer, type, pressEnter } = await setup();
    await type('writing letters');
    await pressEnter({ shiftKey: true });
    expect(socket.emitted.some((e) => e.event === 'message:send')).toBe(false);
    await pressEnter();
    expect(socket.emitted.at(-1)).toEqual({
      event: 'message:send',
      payload: { conversationId: 'c1', text: 'writing letters' },
    });
    expect(socket.emitted.some((e) => e.event === 'elicit:response')).toBe(false);
    expect(store.pending()).toBeNull();
    expect(element.querySelector('app-elicit-card')).toBeNull();
    // The agent reads the words now: the composer is emptied, and open (more words are queued).
    expect(composer().disabled).toBe(false);
    expect(composer().value).toBe('');
    expect(composer().placeholder).toBe('Write a message');
    const bubbles = Array.from(element.querySelectorAll('ol.log .bubble--user')).map((b) =>
      b.textContent?.trim(),
    );
    expect(bubbles).toEqual(['my desk is a mess', 'writing letters']);
    const log = element.querySelector('ol.log')!.textContent!;
    expect(log).toContain('What do you need to DO in this space?');
    expect(log).not.toContain('Something else');
    expect(log).not.toContain('not answered');
  });

  it('shows a question asked again after a tangent as the card again, composer still under it', async () => {
    const { element, socket, type, pressEnter, settle, composer } = await setup();
    await type('wait, where do cables go?');
    await pressEnter();
    socket.serverSends('node', {
      conversationId: 'c1',
      node: node('e1', 'd1', 5, 'assistant', { text: 'Cables go in the drawer.' }),
    });
    const again = { ...ask, elicitId: 'q2', resumes: 'q1' };
    socket.serverSends('node', { conversationId: 'c1', node: node('f1', 'e1', 6, 'elicit', again) });
    socket.serverSends('elicit', { conversationId: 'c1', nodeId: id('f1'), ...again });
    socket.serverSends('status', { conversationId: 'c1', status: 'waiting' });
    await settle();
    const card = element.querySelector('app-elicit-card')!;
    expect(card.textContent).toContain('Back to this question');
    expect(card.querySelector('h2')?.textContent).toBe('What do you need to DO in this space?');
    expect(composer().disabled).toBe(false);
    const items = Array.from(element.querySelectorAll('ol.log > li')).map((li) =>
      li.textContent?.replace(/\s+/g, ' ').trim(),
    );
    expect(items.at(-3)).toContain('What do you need to DO in this space?');
    expect(items.at(-2)).toContain('wait, where do cables go?');
    expect(items.at(-1)).toContain('Cables go in the drawer.');
  });

  it('follows the newest message, but not while the user reads further up: then it offers to jump', async () => {
    const { element, type, pressEnter } = await setup();
    const pane = element.querySelector<HTMLElement>('.pane')!;
    // The chat is far taller than its pane and the user scrolled up near its top.
    Object.defineProperty(pane, 'scrollHeight', { value: 5000, configurable: true });
    Object.defineProperty(pane, 'clientHeight', { value: 600, configurable: true });
    pane.scrollTop = 100;
    pane.dispatchEvent(new Event('scroll'));
    await type('writing letters');
    await pressEnter();
    expect(pane.scrollTop).toBe(100);
    const jump = Array.from(element.querySelectorAll('button')).find((b) =>
      b.textContent?.includes('Jump to latest'),
    );
    expect(jump).toBeDefined();
    jump!.click();
    expect(pane.scrollTop).toBe(5000);
  });

  it('offers no jump when the chat shrank to where the person reads (a rewind), and follows again', async () => {
    const { element, type, pressEnter } = await setup();
    const pane = element.querySelector<HTMLElement>('.pane')!;
    Object.defineProperty(pane, 'scrollHeight', { value: 5000, configurable: true });
    Object.defineProperty(pane, 'clientHeight', { value: 600, configurable: true });
    pane.scrollTop = 100;
    pane.dispatchEvent(new Event('scroll'));
    // The chat is now no longer than what the pane shows from there.
    Object.defineProperty(pane, 'scrollHeight', { value: 700, configurable: true });
    await type('writing letters');
    await pressEnter();
    expect(Array.from(element.querySelectorAll('button')).some((b) => b.textContent?.includes('Jump'))).toBe(
      false,
    );
    expect(pane.scrollTop).toBe(700);
  });

  it('after a rewind the person confirmed, follows the chat to where they went back to, wherever they had scrolled up to reach it', async () => {
    const { fixture, element, settle } = await setup();
    const pane = element.querySelector<HTMLElement>('.pane')!;
    Object.defineProperty(pane, 'scrollHeight', { value: 5000, configurable: true });
    Object.defineProperty(pane, 'clientHeight', { value: 600, configurable: true });
    pane.scrollTop = 100;
    pane.dispatchEvent(new Event('scroll'));

    await (fixture.componentInstance as unknown as { rewindTo(id: string): Promise<void> }).rewindTo(
      id('b1'),
    );
    await settle();

    expect(pane.scrollTop).toBe(5000);
    expect(Array.from(element.querySelectorAll('button')).some((b) => b.textContent?.includes('Jump'))).toBe(
      false,
    );
    expect(element.textContent).toContain('You went back to');
  });

  it('shows a question card taller than the pane from its question, and follows it to its end once the person reads on in it', async () => {
    // jsdom has no layout: the card's and pane's boxes as a phone would lay them out.
    await withFakeResizeObservers(async (observed) => {
      const { element } = await setup();
      const pane = element.querySelector<HTMLElement>('.pane')!;
      const card = element.querySelector<HTMLElement>('app-elicit-card.pending')!;
      const observer = observed.find((o) => o.targets.includes(pane))!;
      Object.defineProperty(pane, 'scrollHeight', { value: 3000, configurable: true });
      Object.defineProperty(pane, 'clientHeight', { value: 600, configurable: true });
      pane.getBoundingClientRect = () => ({ top: 0 }) as DOMRect;
      // The card begins 2000 px down the chat and is 900 px tall: more than the pane shows.
      let height = 900;
      card.getBoundingClientRect = () => ({ top: 2000 - pane.scrollTop, height }) as DOMRect;

      observer.callback();
      expect(pane.scrollTop).toBe(2000 - 24);
      // Laid out again (the sidebar, a photo), its question stays in view.
      observer.callback();
      expect(pane.scrollTop).toBe(2000 - 24);

      // The person scrolls on to read its options: from then on it is followed to its end.
      pane.scrollTop = 2300;
      pane.dispatchEvent(new Event('scroll'));
      observer.callback();
      expect(pane.scrollTop).toBe(3000);

      // A card the pane shows whole is followed to its end, as any message.
      height = 400;
      pane.scrollTop = 0;
      observer.callback();
      expect(pane.scrollTop).toBe(3000);
    });
  });

  it('follows the chat when it grows with nothing new in it (the sidebar came in, a photo loaded)', async () => {
    await withFakeResizeObservers(async (observed) => {
      const { element, fixture } = await setup();
      const pane = element.querySelector<HTMLElement>('.pane')!;
      const content = element.querySelector('.pane__content')!;
      const observer = observed.find((o) => o.targets.includes(content) && o.targets.includes(pane));
      expect(observer).toBeDefined();
      Object.defineProperty(pane, 'scrollHeight', { value: 3000, configurable: true });
      Object.defineProperty(pane, 'clientHeight', { value: 600, configurable: true });
      observer!.callback();
      expect(pane.scrollTop).toBe(3000);

      // Not while the user reads further up.
      pane.scrollTop = 100;
      pane.dispatchEvent(new Event('scroll'));
      Object.defineProperty(pane, 'scrollHeight', { value: 4000, configurable: true });
      observer!.callback();
      expect(pane.scrollTop).toBe(100);
      fixture.destroy();
      expect(observer!.targets).toEqual([]);
    });
  });

  it('asks a question in words on its card, answered in the one box there is: the composer, Enter sends', async () => {
    const { element, socket, store, composer, type, pressEnter, settle } = await setup();
    const inWords: ElicitRequest<'free-text'> = {
      elicitId: 'q3',
      type: 'free-text',
      message: 'What is this space for?',
      payload: { placeholder: 'e.g. working, reading' },
    };
    socket.serverSends('elicit', { conversationId: 'c1', nodeId: id('c1'), ...inWords });
    store.questions.replace([inWords]);
    await settle();
    const card = element.querySelector('app-elicit-card')!;
    expect(card.querySelector('h2')?.textContent).toBe('What is this space for?');
    expect(card.querySelector('textarea, input')).toBeNull();
    expect(element.querySelectorAll('textarea')).toHaveLength(1);
    expect(composer().placeholder).toBe('e.g. working, reading');
    await type('reading');
    await pressEnter();
    expect(socket.emitted.at(-1)).toEqual({
      event: 'message:send',
      payload: { conversationId: 'c1', text: 'reading' },
    });
  });

  it('shows a message sent while the agent works as queued, after the chat, and withdraws it back into the composer', async () => {
    const waiting = {
      id: id('q1'),
      text: 'and the papers',
      authorId: 'u-1',
      createdAt: '2026-01-01T12:05:00.000Z',
    };
    const { element, socket, store, composer, type, pressEnter, settle } = await setup({
      'message:send': () => ({ ok: true, node: queuedNode(waiting, 'c1', { id: id('c1'), depth: 3 }) }),
      'message:withdraw': () => ({ ok: true }),
    });
    store.questions.replace([]);
    store.status.set('running');
    await settle();
    // The agent at work: the composer stays open, and what is sent waits for it.
    expect(composer().disabled).toBe(false);
    await type('and the papers');
    await pressEnter();
    expect(composer().value).toBe('');
    const items = element.querySelectorAll('ol.log > li');
    const last = items[items.length - 1]!;
    expect(last.classList).toContain('queued');
    expect(last.textContent).toContain('and the papers');
    expect(last.textContent).toContain('Queued — the agent reads this next');
    // Not a message on the path: no bubble of the person's for it, no node in the store.
    expect(element.querySelectorAll('ol.log .bubble--user')).toHaveLength(1);
    expect(store.path().some((n) => n.id === waiting.id)).toBe(false);

    const withdraw = last.querySelector<HTMLButtonElement>('button[aria-label="Withdraw queued message"]')!;
    expect(withdraw.textContent?.trim()).toBe('Withdraw');
    withdraw.click();
    await settle();
    expect(socket.emitted.at(-1)).toEqual({
      event: 'message:withdraw',
      payload: { conversationId: 'c1', nodeId: waiting.id },
    });
    expect(element.querySelector('ol.log .queued')).toBeNull();
    // Its words are not lost: back in the empty composer, to edit or send again.
    expect(composer().value).toBe('and the papers');
  });

  it('says a queued message is read once the agent is done asking while a question card waits', async () => {
    const { element, store, settle } = await setup();
    store.status.set('waiting');
    store.questions.replace([
      {
        elicitId: 'e-card',
        type: 'confirm',
        message: 'Is the lamp staying?',
        payload: { default: true },
      },
    ]);
    store.queue.replace([
      { id: id('q1'), text: 'and the papers', authorId: 'u-1', createdAt: '2026-01-01T12:05:00.000Z' },
    ]);
    await settle();
    const queued = element.querySelector('ol.log li.queued')!;
    expect(queued.textContent).toContain('Queued — the agent reads this once it is done asking');
    expect(queued.textContent).not.toContain('reads this next');
  });
});
