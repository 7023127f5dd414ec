import { DIALOG_DATA, DialogRef } from '@angular/cdk/dialog';
import { signal } from '@angular/core';
import { TestBed } from '@angular/core/testing';
import type { TreeNode } from '@sweatpants/domain';

import { TurnFixture } from '../../testing/turn-fixture';
import { ConversationStore } from './conversation-store.service';
import { PathInspectorComponent } from './path-inspector.component';

async function render(path: TreeNode[], readonly = false) {
  const rewinds: string[] = [];
  const closed: unknown[] = [];
  const store = {
    id: signal('c1'),
    readonly: signal(readonly),
    busy: signal(false),
    error: signal<string | null>(null),
    reader: { path: () => Promise.resolve({ nodes: path }) },
    rewind: (to: string) => {
      rewinds.push(to);
      return Promise.resolve(true);
    },
  };
  TestBed.configureTestingModule({
    providers: [
      { provide: DIALOG_DATA, useValue: { at: path.at(-1)?.id, title: 'Inspect' } },
      { provide: DialogRef, useValue: { close: (value?: unknown) => closed.push(value) } },
      { provide: ConversationStore, useValue: store },
    ],
  });
  const fixture = TestBed.createComponent(PathInspectorComponent);
  fixture.detectChanges();
  await fixture.whenStable();
  fixture.detectChanges();
  return { element: fixture.nativeElement as HTMLElement, rewinds, closed };
}

describe('PathInspectorComponent', () => {
  it('reads the path as messages, the agent’s steps folded under each, no JSON or ids', async () => {
    const f = new TurnFixture();
    const first = f.turn(f.root(), 'my desk is a mess', 'What is the first thing?');
    const second = f.turn(first.end, 'a lamp', 'Keep the lamp?');
    const path = f.listing(second.end).filter((n) => n.onHead);
    const { element } = await render(path);
    const items = Array.from(element.querySelectorAll('.path > li'));
    expect(items.map((li) => li.querySelector('.pill')?.textContent?.trim())).toEqual([
      'Start',
      'You',
      'Reply',
      'You',
      'Reply',
    ]);
    expect(items[2]?.querySelector('.text')?.textContent).toBe('What is the first thing?');
    expect(items[2]?.querySelector('summary')?.textContent).toBe('+5 steps');
    expect(items[3]?.querySelector('summary')).toBeNull();
    expect(items[4]?.querySelector('summary')?.textContent).toBe('+5 steps');
    expect(items[4]?.textContent).toContain('Wrote its reply');
    const text = element.textContent ?? '';
    expect(text).toContain('5 messages up to this point');
    expect(text).not.toMatch(/[0-9a-f]{12}/);
    expect(text).not.toContain('{');
  });

  it('moves HEAD to the end of the path on request, unless read-only', async () => {
    const f = new TurnFixture();
    const { end } = f.turn(f.root(), 'a chair', 'Keep it?');
    const path = f.listing(end);
    const { element, rewinds, closed } = await render(path);
    const move = Array.from(element.querySelectorAll('button')).find((b) =>
      b.textContent?.includes('Continue from here'),
    );
    move?.click();
    await Promise.resolve();
    expect(rewinds).toEqual([end]);
    expect(closed).toHaveLength(1);

    TestBed.resetTestingModule();
    const readonly = await render(path, true);
    expect(readonly.element.textContent).not.toContain('Continue from here');
  });
});
