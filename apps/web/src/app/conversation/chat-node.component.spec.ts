import { TestBed } from '@angular/core/testing';
import type { TreeNode } from '@sweatpants/domain';

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
  it('renders a user bubble with its photos', () => {
    const { element } = render(
      node('user', { text: 'my desk', photos: [{ mediaType: 'image/png', data: 'AQID' }] }),
    );
    expect(element.querySelector('.bubble--user')?.textContent).toContain('my desk');
    expect(element.querySelector('img')?.getAttribute('src')).toBe('data:image/png;base64,AQID');
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

  it('draws notify as a progress bar, tool calls collapsed, mode as a divider', () => {
    const progress = render(
      node('notify', { message: 'Looking', progress: 2, total: 5 }),
    ).element.querySelector('progress');
    expect(progress?.getAttribute('max')).toBe('5');
    expect(progress?.value).toBe(2);
    const tool = render(node('tool_call', { name: 'propose_disposition' })).element.querySelector('details');
    expect(tool?.open).toBe(false);
    expect(tool?.textContent).toContain('Used propose_disposition');
    const divider = render(node('mode', { from: 'surveying', to: 'sorting' })).element.querySelector(
      '[role=separator]',
    );
    expect(divider?.textContent).toContain('surveying → sorting');
  });

  it('expands a summary and links to what it covers', () => {
    const summary = node('summary', {
      text: 'Sorted a mug.',
      covers: { fromId: 'f'.repeat(64), toId: 'e'.repeat(64), count: 6 },
    });
    const { fixture, element } = render(summary);
    const inspected: string[] = [];
    fixture.componentInstance.inspect.subscribe((id) => inspected.push(id));
    expect(element.querySelector('summary')?.textContent).toContain('Summary of 6 earlier steps');
    (element.querySelector('details button') as HTMLButtonElement).click();
    expect(inspected).toEqual(['e'.repeat(64)]);
  });

  it('shows "‹ 2/3 ›" for a node with siblings and emits the sibling to switch to', () => {
    const { fixture, element } = render(node('user', { text: 'hi' }), {
      siblings: { ids: ['x', 'y', 'z'], index: 1 },
    });
    const switched: string[] = [];
    fixture.componentInstance.switchTo.subscribe((id) => switched.push(id));
    expect(element.querySelector('.count')?.textContent?.replace(/\s+/g, '')).toBe('Branch2/3');
    (element.querySelector('[aria-label="Previous branch"]') as HTMLButtonElement).click();
    (element.querySelector('[aria-label="Next branch"]') as HTMLButtonElement).click();
    expect(switched).toEqual(['x', 'z']);
  });
});
