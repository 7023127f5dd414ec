import { TestBed } from '@angular/core/testing';
import type { TreeNode } from '@sweatpants/domain';

import { ApiService } from '../core/api.service';
import { ChatNodeComponent } from './chat-node.component';

const base = {
  conversationId: 'c',
  parentId: 'p'.repeat(64),
  depth: 3,
  authorId: 'u',
  createdAt: '2026-01-01T12:00:00.000Z',
};
const node = (kind: TreeNode['kind'], payload: object): TreeNode =>
  ({ ...base, id: 'a'.repeat(64), kind, payload }) as TreeNode;

function render(n: TreeNode, inputs: Record<string, unknown> = {}) {
  const fixture = TestBed.createComponent(ChatNodeComponent);
  fixture.componentRef.setInput('node', n);
  for (const [k, v] of Object.entries(inputs)) fixture.componentRef.setInput(k, v);
  fixture.detectChanges();
  return { fixture, element: fixture.nativeElement as HTMLElement };
}

describe('ChatNodeComponent', () => {
  it('asks before rewinding: Keep going changes nothing, Go back rewinds', () => {
    const { fixture, element } = render(node('user', { text: 'my desk' }));
    const rewinds: string[] = [];
    fixture.componentInstance.rewind.subscribe((id) => rewinds.push(id));
    const openConfirm = () => {
      element.querySelector<HTMLButtonElement>('button.actions')?.click();
      fixture.detectChanges();
      const item = Array.from(document.querySelectorAll<HTMLButtonElement>('[role=menuitem]')).find(
        (b) => b.textContent?.trim() === 'Rewind to here',
      );
      item?.click();
      fixture.detectChanges();
      return element.querySelector('[role=alertdialog]');
    };
    const button = (name: string) =>
      Array.from(element.querySelectorAll<HTMLButtonElement>('[role=alertdialog] button')).find(
        (b) => b.textContent?.trim() === name,
      );
    expect(openConfirm()?.textContent).toContain('Go back to here?');
    button('Keep going')?.click();
    fixture.detectChanges();
    expect(rewinds).toEqual([]);
    expect(element.querySelector('[role=alertdialog]')).toBeNull();
    openConfirm();
    button('Go back')?.click();
    expect(rewinds).toEqual(['a'.repeat(64)]);
  });

  it('moves focus into the edit box when editing starts, in a bubble of the theme’s colours', async () => {
    const { fixture, element } = render(node('user', { text: 'my desk' }));
    const actions = element.querySelector<HTMLButtonElement>('button.actions')!;
    expect(actions.getAttribute('aria-label')).toBe('Actions for your message');
    actions.click();
    fixture.detectChanges();
    Array.from(document.querySelectorAll<HTMLButtonElement>('[role=menuitem]'))
      .find((b) => b.textContent?.trim() === 'Edit')
      ?.click();
    await fixture.whenStable();
    const box = element.querySelector('textarea');
    expect(box).not.toBeNull();
    expect(document.activeElement).toBe(box);
    expect(box!.selectionStart).toBe('my desk'.length);
    // Its buttons are not drawn on the accent colour (the Cancel there read at 1.07:1).
    expect(element.querySelector('.bubble')?.classList).toContain('bubble--editing');
    const cancel = Array.from(element.querySelectorAll<HTMLButtonElement>('button')).find(
      (b) => b.textContent?.trim() === 'Cancel',
    );
    expect(cancel?.classList).not.toContain('button--quiet');
    // Enter saves, as Enter sends in the composer; Shift+Enter stays a new line.
    const edits: { nodeId: string; text: string }[] = [];
    fixture.componentInstance.edit.subscribe((e) => edits.push(e));
    box!.value = 'my desk, tidied';
    box!.dispatchEvent(new Event('input'));
    box!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', shiftKey: true, bubbles: true }));
    expect(edits).toEqual([]);
    cancel?.click();
    await fixture.whenStable();
    expect(element.querySelector('textarea')).toBeNull();
    expect(document.activeElement).toBe(element.querySelector('button.actions'));
  });

  it('saves an edit on Enter, as the composer sends on Enter', async () => {
    const { fixture, element } = render(node('user', { text: 'my desk' }));
    const edits: { nodeId: string; text: string }[] = [];
    fixture.componentInstance.edit.subscribe((e) => edits.push(e));
    element.querySelector<HTMLButtonElement>('button.actions')?.click();
    fixture.detectChanges();
    Array.from(document.querySelectorAll<HTMLButtonElement>('[role=menuitem]'))
      .find((b) => b.textContent?.trim() === 'Edit')
      ?.click();
    await fixture.whenStable();
    const box = element.querySelector('textarea')!;
    box.value = 'my desk, tidied';
    box.dispatchEvent(new Event('input'));
    box.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    expect(edits).toEqual([{ nodeId: 'a'.repeat(64), text: 'my desk, tidied' }]);
  });

  it('moves focus to Keep going when asked to rewind, and back to the menu button after', async () => {
    const { fixture, element } = render(node('assistant', { text: 'Start with the mugs.' }));
    expect(element.querySelector('button.actions')?.getAttribute('aria-label')).toBe(
      'Actions for this reply',
    );
    element.querySelector<HTMLButtonElement>('button.actions')?.click();
    fixture.detectChanges();
    Array.from(document.querySelectorAll<HTMLButtonElement>('[role=menuitem]'))
      .find((b) => b.textContent?.trim() === 'Rewind to here')
      ?.click();
    await fixture.whenStable();
    expect(document.activeElement?.textContent?.trim()).toBe('Keep going');
    expect(element.querySelector('[role=alertdialog]')?.contains(document.activeElement)).toBe(true);
    (document.activeElement as HTMLButtonElement).click();
    await fixture.whenStable();
    expect(element.querySelector('[role=alertdialog]')).toBeNull();
    expect(document.activeElement).toBe(element.querySelector('button.actions'));
  });

  it('copies an offline reply without its "(offline)" label', async () => {
    const writeText = jest.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const { element } = render(node('assistant', { text: '(offline) Start small: pick up the mug.' }));
    Array.from(element.querySelectorAll<HTMLButtonElement>('button'))
      .find((b) => b.textContent?.includes('Copy'))
      ?.click();
    await Promise.resolve();
    expect(writeText).toHaveBeenCalledWith('Start small: pick up the mug.');
  });

  it('copies a message’s words and says so', async () => {
    const writeText = jest.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const { fixture, element } = render(node('assistant', { text: 'Start with the mugs.' }));
    const copy = Array.from(element.querySelectorAll<HTMLButtonElement>('button')).find((b) =>
      b.textContent?.includes('Copy'),
    );
    copy?.click();
    await Promise.resolve();
    fixture.detectChanges();
    expect(writeText).toHaveBeenCalledWith('Start with the mugs.');
    expect(element.textContent).toContain('Copied to the clipboard');
  });

  it('offers another answer to an agent reply from its menu, and only to a reply', () => {
    const menuItems = (n: TreeNode) => {
      const { fixture, element } = render(n);
      const asked: string[] = [];
      fixture.componentInstance.regenerate.subscribe((id) => asked.push(id));
      element.querySelector<HTMLButtonElement>('button.actions')?.click();
      fixture.detectChanges();
      const items = Array.from(document.querySelectorAll<HTMLButtonElement>('[role=menuitem]'));
      const names = items.map((b) => b.textContent?.trim());
      items.find((b) => b.textContent?.trim() === 'Regenerate reply')?.click();
      document.querySelectorAll('.cdk-overlay-container').forEach((c) => (c.innerHTML = ''));
      return { names, asked };
    };
    const reply = menuItems(node('assistant', { text: 'Start with the mugs.' }));
    expect(reply.names).toContain('Regenerate reply');
    expect(reply.asked).toEqual(['a'.repeat(64)]);
    expect(menuItems(node('user', { text: 'my desk' })).names).not.toContain('Regenerate reply');
  });

  it('renders a user bubble with its photos, fetched with the token and shown by an object URL revoked on destroy', async () => {
    const sha256 = 'b'.repeat(64);
    const blob = jest.fn().mockResolvedValue(new Blob([new Uint8Array([1, 2, 3])], { type: 'image/png' }));
    const revoked: string[] = [];
    Object.assign(URL, {
      createObjectURL: () => 'blob:photo-1',
      revokeObjectURL: (url: string) => revoked.push(url),
    });
    TestBed.configureTestingModule({ providers: [{ provide: ApiService, useValue: { blob } }] });
    const { fixture, element } = render(
      node('user', { text: 'my desk', photos: [{ sha256, mediaType: 'image/png', bytes: 3 }] }),
    );
    await fixture.whenStable();
    fixture.detectChanges();
    expect(element.querySelector('.bubble--user')?.textContent).toContain('my desk');
    expect(blob).toHaveBeenCalledWith(sha256);
    const img = element.querySelector('img');
    expect(img?.getAttribute('src')).toBe('blob:photo-1');
    expect(img?.getAttribute('alt')).toBe('Photo 1 you sent');
    fixture.destroy();
    expect(revoked).toEqual(['blob:photo-1']);
  });

  it('shows the images a tool got on the agent’s side, saying which tool they came from', async () => {
    const sha256 = 'c'.repeat(64);
    const blob = jest.fn().mockResolvedValue(new Blob([new Uint8Array([1, 2, 3])], { type: 'image/png' }));
    Object.assign(URL, { createObjectURL: () => 'blob:tool-1', revokeObjectURL: () => undefined });
    TestBed.configureTestingModule({ providers: [{ provide: ApiService, useValue: { blob } }] });
    const { fixture, element } = render(
      node('tool_result', {
        toolUseId: 't1',
        name: 'everything_get-tiny-image',
        outcome: { kind: 'success', value: 'Here is the image:\n[image image/png, shown to the person]' },
        photos: [{ sha256, mediaType: 'image/png', bytes: 3 }],
      }),
    );
    await fixture.whenStable();
    fixture.detectChanges();
    const figure = element.querySelector('figure.bubble--assistant');
    expect(figure?.querySelector('figcaption')?.textContent?.trim()).toBe('From “everything get tiny image”');
    expect(blob).toHaveBeenCalledWith(sha256);
    expect(figure?.querySelector('img')?.getAttribute('alt')).toBe('Image from “everything get tiny image”');
    fixture.destroy();
  });

  it('shows an elicit with the answer given', () => {
    const ask = node('elicit', {
      elicitId: 'e',
      type: 'confirm',
      message: 'Ready?',
      payload: { default: true },
    });
    const answer = node('response', { elicitId: 'e', action: 'accept', content: { value: true } });
    const { element } = render(ask, { answer });
    expect(element.querySelector('.question__message')?.textContent).toBe('Ready?');
    expect(element.querySelector('.question__answer')?.textContent).toContain('Yes');
  });

  it('shows words typed under a question (a response with action other) as the user’s own message', () => {
    const said = node('response', { elicitId: 'e', action: 'other', content: { text: 'writing letters' } });
    const { element } = render(said);
    expect(element.querySelector('.bubble--user .text')?.textContent).toBe('writing letters');
    expect(element.textContent).not.toContain('Something else');
  });

  it('offers to edit words typed under a question, from the words as typed, and never a tap’s answer', async () => {
    const openMenu = (n: TreeNode) => {
      const rendered = render(n);
      rendered.element.querySelector<HTMLButtonElement>('button.actions')?.click();
      rendered.fixture.detectChanges();
      const items = Array.from(document.querySelectorAll<HTMLButtonElement>('[role=menuitem]'));
      return { ...rendered, items, names: items.map((b) => b.textContent?.trim()) };
    };
    const typed = openMenu(
      node('response', { elicitId: 'e', action: 'other', content: { text: 'writing leters' } }),
    );
    expect(typed.names).toContain('Edit');
    const edits: { nodeId: string; text: string }[] = [];
    typed.fixture.componentInstance.edit.subscribe((e) => edits.push(e));
    typed.items.find((b) => b.textContent?.trim() === 'Edit')?.click();
    await typed.fixture.whenStable();
    const box = typed.element.querySelector('textarea')!;
    expect(box.value).toBe('writing leters');
    box.value = 'writing letters';
    box.dispatchEvent(new Event('input'));
    box.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    expect(edits).toEqual([{ nodeId: 'a'.repeat(64), text: 'writing letters' }]);
    document.querySelectorAll('.cdk-overlay-container').forEach((c) => (c.innerHTML = ''));

    const tapped = openMenu(node('response', { elicitId: 'e', action: 'accept', content: { value: true } }));
    expect(tapped.names).not.toContain('Edit');
  });

  it('leaves the answer line out of a question answered in the user’s own words', () => {
    const ask = node('elicit', {
      elicitId: 'e',
      type: 'choose',
      message: 'What do you need to DO in this space?',
      payload: { options: [{ id: 'a', label: 'working' }] },
    });
    const answer = node('response', { elicitId: 'e', action: 'other', content: { text: 'writing letters' } });
    const { element } = render(ask, { answer });
    expect(element.querySelector('.question__message')?.textContent).toBe(
      'What do you need to DO in this space?',
    );
    expect(element.querySelector('.question__answer')).toBeNull();
    expect(element.textContent).not.toContain('not answered');
  });

  it('draws notify as a progress bar, and the agent’s steps in words', () => {
    const progress = render(
      node('notify', { message: 'Looking', progress: 2, total: 5 }),
    ).element.querySelector('progress');
    expect(progress?.getAttribute('max')).toBe('5');
    expect(progress?.value).toBe(2);
    const said = (n: TreeNode) => render(n).element.textContent?.replace(/\s+/g, ' ').trim();
    expect(said(node('tool_call', { toolUseId: 't', name: 'ask_space_function', input: {} }))).toBe(
      'Asked what the space is for',
    );
    expect(said(node('mode', { from: 'sorting', to: 'winding-down' }))).toBe('Mode: sorting → winding down');
    const chosen = render(node('event', { type: 'function-chosen', function: 'writing letters' })).element;
    const step = chosen.querySelector<HTMLDetailsElement>('details.step');
    expect(step?.open).toBe(false);
    expect(step?.querySelector('summary')?.textContent).toBe('Chose what the space is for');
    expect(step?.textContent).toContain('writing letters');
    const classified = said(
      node('event', {
        type: 'situation-classified',
        summary: 'decide: mug',
        extract: { intent: 'decide', item: 'mug' },
        nodeId: 'b'.repeat(64),
      }),
    );
    expect(classified).toContain('Worked out what you meant');
    expect(classified).toContain('decide: mug');
    for (const text of [classified, chosen.textContent]) {
      expect(text).not.toMatch(/[{}]|[0-9a-f]{64}/);
    }
  });

  it('never shows the agent’s prompt to itself as the user’s message', () => {
    const { element } = render({
      ...node('user', { text: '[Continue as: Sorting] Give one tiny first action.', synthetic: true }),
      authorId: 'agent:tidying',
    });
    expect(element.querySelector('.bubble--user')).toBeNull();
    expect(element.querySelector('summary')?.textContent).toBe('Carried on as sorting');
    expect(element.textContent).not.toContain('[Continue as');
  });

  it('marks a summary as the agent’s memory, named as the conversation names it, its text one tap away, without the count of nodes', () => {
    const summary = node('summary', {
      text: 'Offline summary of 106 nodes (8 user, 44 event, 54 other) from 2026-01-01T12:00:00.000Z to 2026-01-01T12:30:00.000Z. The user wrote 8 messages.',
      covers: { fromId: 'f'.repeat(64), toId: 'e'.repeat(64), count: 106 },
    });
    const { element } = render(summary, { speaker: 'the coach' });
    const marker = element.querySelector<HTMLDetailsElement>('details.memory');
    expect(marker?.open).toBe(false);
    expect(marker?.querySelector('summary')?.textContent).toBe(
      'The coach’s memory of the above is a summary',
    );
    expect(marker?.querySelector('.text')?.textContent).toBe(
      'A summary written offline. The user wrote 8 messages.',
    );
    expect(element.textContent).not.toContain('106 nodes');
    const helper = render(summary, { speaker: 'the donation helper' });
    expect(helper.element.querySelector('details.memory summary')?.textContent).toBe(
      'The donation helper’s memory of the above is a summary',
    );
  });

  it('shows "‹ 2/3 ›" for a node with siblings and emits the sibling to switch to', () => {
    const { fixture, element } = render(node('user', { text: 'hi' }), {
      siblings: { ids: ['x', 'y', 'z'], index: 1 },
    });
    const switched: string[] = [];
    fixture.componentInstance.switchTo.subscribe((id) => switched.push(id));
    expect(element.querySelector('.count')?.textContent?.replace(/\s+/g, '')).toBe('Branch2/3');
    // Each switcher is a landmark named by its message, so two on a page are told apart.
    expect(element.querySelector('nav')?.getAttribute('aria-label')).toBe('Branches of your message “hi”');
    (element.querySelector('[aria-label="Previous branch"]') as HTMLButtonElement).click();
    (element.querySelector('[aria-label="Next branch"]') as HTMLButtonElement).click();
    expect(switched).toEqual(['x', 'z']);
  });
});
