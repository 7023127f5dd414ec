import { signal } from '@angular/core';
import { TestBed } from '@angular/core/testing';
import type { Compaction, TreeNode } from '@sweatpants/domain';

import { ApiService } from '../core/api.service';
import { CompactionPanelComponent } from './compaction-panel.component';
import { ConversationStore } from './conversation-store.service';

const id = (name: string) => name.padEnd(64, '0');
const node = (name: string, kind: TreeNode['kind'], payload: object) =>
  ({
    id: id(name),
    conversationId: 'c1',
    parentId: null,
    depth: 0,
    kind,
    payload,
    authorId: kind === 'user' ? 'u-1' : 'agent:tidying',
    createdAt: '2026-01-01T12:00:00.000Z',
  }) as TreeNode;

/** A path with `exchanges` of the user's messages, each with the coach's reply. */
const pathOf = (exchanges: number): TreeNode[] => [
  node('00', 'root', { conversationId: 'c1' }),
  ...Array.from({ length: exchanges }, (_, i) => [
    node(`u${i}`, 'user', { text: `item ${i}` }),
    node(`a${i}`, 'assistant', { text: `reply ${i}` }),
  ]).flat(),
];

function setup(exchanges: number, job: Compaction) {
  const store = {
    id: signal('c1'),
    path: signal(pathOf(exchanges)),
    refreshPath: jest.fn().mockResolvedValue(undefined),
    refreshTree: jest.fn().mockResolvedValue(undefined),
  };
  const api = {
    compact: jest.fn().mockResolvedValue({ jobId: job.jobId }),
    compactions: jest.fn().mockResolvedValue({ items: [job] }),
  };
  TestBed.configureTestingModule({
    providers: [
      { provide: ConversationStore, useValue: store },
      { provide: ApiService, useValue: api },
    ],
  });
  const fixture = TestBed.createComponent(CompactionPanelComponent);
  fixture.detectChanges();
  const element = fixture.nativeElement as HTMLElement;
  const button = () =>
    Array.from(element.querySelectorAll('button')).find((b) => b.textContent?.includes('Compact')) as
      HTMLButtonElement | undefined;
  return { fixture, element, button, store, api };
}

describe('CompactionPanelComponent', () => {
  afterEach(() => jest.useRealTimers());

  it('offers no Compact button while there is nothing to squash', () => {
    const { element, button, store, fixture } = setup(2, { jobId: 'j1', state: 'waiting' });
    expect(button()).toBeUndefined();
    expect(element.textContent).toContain('Nothing to summarise yet');
    // a summary already covers the earlier exchanges: still nothing new to squash
    store.path.set([
      ...pathOf(4).slice(0, 7),
      node('s1', 'summary', { text: 'so far' }),
      ...pathOf(2).slice(1),
    ]);
    fixture.detectChanges();
    expect(button()).toBeUndefined();
    store.path.set(pathOf(3));
    fixture.detectChanges();
    expect(button()).toBeDefined();
  });

  it('shows the reason when a compaction completes with nothing squashed', async () => {
    jest.useFakeTimers();
    const reason =
      'nothing to squash: the conversation is no longer than the 2 latest exchanges, which a compaction keeps';
    const { element, button, api, store, fixture } = setup(3, { jobId: 'j1', state: 'completed', reason });
    button()!.click();
    await jest.advanceTimersByTimeAsync(0);
    fixture.detectChanges();
    expect(api.compact).toHaveBeenCalledWith('c1');
    expect(element.textContent).toContain('Queued');
    await jest.advanceTimersByTimeAsync(1_600);
    fixture.detectChanges();
    const said = element.querySelector('.job')?.textContent?.replace(/\s+/g, ' ') ?? '';
    expect(said).toContain('Nothing was summarised');
    expect(said).toContain(
      'the conversation is no longer than the 2 latest exchanges, which a compaction keeps',
    );
    expect(said).not.toContain('nothing to squash');
    expect(store.refreshPath).toHaveBeenCalled();
    expect(button()!.disabled).toBe(false);
  });

  it('says how many steps a completed compaction summarised', async () => {
    jest.useFakeTimers();
    const { element, button, fixture } = setup(5, {
      jobId: 'j2',
      state: 'completed',
      summaryNodeId: id('s1'),
      covers: { fromId: id('u0'), toId: id('a2'), count: 6 },
    });
    button()!.click();
    await jest.advanceTimersByTimeAsync(1_600);
    fixture.detectChanges();
    const said = element.querySelector('.job')?.textContent?.replace(/\s+/g, ' ') ?? '';
    expect(said).toContain('Done — 6 steps summarised');
  });

  it('says only what it did once the summary leaves nothing new to squash', async () => {
    jest.useFakeTimers();
    const { element, button, fixture, store } = setup(5, {
      jobId: 'j3',
      state: 'completed',
      summaryNodeId: id('s1'),
      covers: { fromId: id('u0'), toId: id('a2'), count: 6 },
    });
    // The refreshed path: the summary, then the two exchanges a compaction keeps.
    store.refreshPath.mockImplementation(async () =>
      store.path.set([pathOf(0)[0]!, node('s1', 'summary', { text: 'so far' }), ...pathOf(2).slice(1)]),
    );
    button()!.click();
    await jest.advanceTimersByTimeAsync(1_600);
    fixture.detectChanges();
    const text = element.textContent?.replace(/\s+/g, ' ') ?? '';
    expect(text).toContain('Done — 6 steps summarised');
    expect(text).not.toContain('Nothing to summarise yet');
  });
});
