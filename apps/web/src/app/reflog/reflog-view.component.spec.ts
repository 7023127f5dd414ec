import { TestBed } from '@angular/core/testing';
import type { ReflogEntry } from '@sweatpants/domain';

import { fixtureId } from '../../testing/tree-fixture';
import { type ReflogRow, ReflogViewComponent } from './reflog-view.component';

const entries: ReflogEntry[] = [
  {
    id: 'r3',
    index: 0,
    ref: 'HEAD',
    oldHead: fixtureId('d1'),
    newHead: fixtureId('d2'),
    action: 'edit',
    actorId: 'u-1',
    message: 'edit the lamp message',
    createdAt: '2026-01-01T12:06:00.000Z',
  },
  {
    id: 'r2',
    index: 1,
    ref: 'HEAD',
    oldHead: fixtureId('c1'),
    newHead: fixtureId('d1'),
    action: 'append',
    actorId: 'agent:tidying',
    message: '',
    createdAt: '2026-01-01T12:04:00.000Z',
  },
];

function render(inputs: Record<string, unknown> = {}) {
  const fixture = TestBed.createComponent(ReflogViewComponent);
  fixture.componentRef.setInput('entries', entries);
  fixture.componentRef.setInput(
    'previews',
    new Map([[fixtureId('d1'), 'assistant: Lamp: keep it on the desk?']]),
  );
  fixture.componentRef.setInput('head', fixtureId('d2'));
  for (const [k, v] of Object.entries(inputs)) fixture.componentRef.setInput(k, v);
  const inspected: ReflogRow[] = [];
  const recovered: ReflogRow[] = [];
  fixture.componentInstance.inspect.subscribe((e) => inspected.push(e));
  fixture.componentInstance.recover.subscribe((e) => recovered.push(e));
  fixture.detectChanges();
  const element = fixture.nativeElement as HTMLElement;
  const items = Array.from(element.querySelectorAll('li.entry')) as HTMLElement[];
  const button = (item: HTMLElement, text: string) =>
    Array.from(item.querySelectorAll('button')).find((b) => b.textContent?.includes(text)) as
      HTMLButtonElement | undefined;
  return { element, items, button, inspected, recovered };
}

describe('ReflogViewComponent', () => {
  it('lists HEAD moves newest first with action, HEAD@{n}, time, actor and a preview', () => {
    const { items } = render();
    expect(items).toHaveLength(2);
    expect(items[0]!.textContent).toContain('edited');
    expect(items[0]!.textContent).toContain('HEAD@{0}');
    expect(items[0]!.textContent).toContain('by u-1');
    expect(items[0]!.textContent).toContain('edit the lamp message');
    expect(items[0]!.querySelector('time')?.getAttribute('datetime')).toBe('2026-01-01T12:06:00.000Z');
    expect(items[1]!.textContent).toContain('appended');
    expect(items[1]!.textContent).toContain('Lamp: keep it on the desk?');
    // no preview known: the short node id instead
    expect(items[0]!.textContent).toContain(fixtureId('d2').slice(0, 12));
  });

  it('inspects any entry and recovers one HEAD is not at', () => {
    const { items, button, inspected, recovered } = render();
    expect(button(items[0]!, 'Recover')).toBeUndefined();
    expect(items[0]!.textContent).toContain('HEAD is here');
    button(items[1]!, 'Inspect')!.click();
    button(items[1]!, 'Recover')!.click();
    expect(inspected.map((e) => e.id)).toEqual(['r2']);
    expect(recovered.map((e) => e.id)).toEqual(['r2']);
  });

  it('offers no recover when read-only, and shows conversation and owner for the audit', () => {
    const audit = entries.map((e) => ({ ...e, conversationId: 'conv-42', ownerId: 'alice' }));
    const { items, button } = render({ readonly: true, showConversation: true, entries: audit });
    expect(button(items[1]!, 'Recover')).toBeUndefined();
    expect(items[1]!.textContent).toContain('conv-42');
    expect(items[1]!.textContent).toContain('of alice');
  });
});
