import { TestBed } from '@angular/core/testing';

import { fixtureId, treeFixture } from '../../testing/tree-fixture';
import { TreeViewComponent } from './tree-view.component';

async function render(readonly = false) {
  const nodes = treeFixture();
  const fixture = TestBed.createComponent(TreeViewComponent);
  fixture.componentRef.setInput('nodes', nodes);
  fixture.componentRef.setInput('headPath', new Set(nodes.filter((n) => n.onHead).map((n) => n.id)));
  fixture.componentRef.setInput('head', fixtureId('d2'));
  fixture.componentRef.setInput('readonly', readonly);
  const moves: string[] = [];
  fixture.componentInstance.moveHead.subscribe((id) => moves.push(id));
  fixture.detectChanges();
  const element = fixture.nativeElement as HTMLElement;
  // elk lays out asynchronously
  for (let i = 0; i < 50 && !element.querySelector('svg'); i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    fixture.detectChanges();
  }
  const g = (name: string) => element.querySelector(`g[data-node-id="${fixtureId(name)}"]`) as SVGGElement;
  return { fixture, element, moves, g };
}

describe('TreeViewComponent', () => {
  it('lays out every node and every parent edge as SVG', async () => {
    const { element } = await render();
    expect(element.querySelectorAll('g.node')).toHaveLength(7);
    expect(element.querySelectorAll('path.edge')).toHaveLength(6);
    for (const path of Array.from(element.querySelectorAll('path.edge'))) {
      expect(path.getAttribute('d')).toMatch(/^M[\d.]+,[\d.]+( L[\d.]+,[\d.]+)+$/);
    }
  });

  it('places children below parents and the two branches side by side', async () => {
    const { g } = await render();
    const pos = (name: string) => {
      const m = /translate\(([\d.]+),([\d.]+)\)/.exec(g(name).getAttribute('transform') ?? '');
      return { x: Number(m?.[1]), y: Number(m?.[2]) };
    };
    expect(pos('a1').y).toBeGreaterThan(pos('00').y);
    expect(pos('c1').y).toBe(pos('c2').y);
    expect(pos('c1').x).not.toBe(pos('c2').x);
  });

  it('highlights the HEAD path and marks HEAD', async () => {
    const { element, g } = await render();
    const onPath = Array.from(element.querySelectorAll('g.node--head-path')).map((n) =>
      n.getAttribute('data-node-id'),
    );
    expect(onPath).toEqual(['00', 'a1', 'b1', 'c2', 'd2'].map(fixtureId));
    expect(g('d2').classList).toContain('node--head');
    expect(g('d2').textContent).toContain('HEAD');
    expect(g('d2').querySelector('desc')?.textContent).toBe('on the HEAD path');
    expect(element.querySelectorAll('path.edge--head')).toHaveLength(4);
  });

  it('inspects a clicked node without moving HEAD, then moves HEAD on request', async () => {
    const { fixture, element, moves, g } = await render();
    g('d1').dispatchEvent(new MouseEvent('click'));
    fixture.detectChanges();
    const inspector = element.querySelector('.inspector')!;
    expect(inspector.textContent).toContain('Lamp: keep it on the desk?');
    expect(g('d1').getAttribute('aria-pressed')).toBe('true');
    expect(moves).toEqual([]);
    (
      Array.from(inspector.querySelectorAll('button')).find((b) =>
        b.textContent?.includes('Move HEAD here'),
      ) as HTMLButtonElement
    ).click();
    expect(moves).toEqual([fixtureId('d1')]);
  });

  it('selects with the keyboard', async () => {
    const { fixture, element, g } = await render();
    expect(g('c1').getAttribute('tabindex')).toBe('0');
    g('c1').dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter' }));
    fixture.detectChanges();
    expect(element.querySelector('.inspector')?.textContent).toContain('the lamp');
  });

  it('offers no HEAD move when read-only or already at HEAD', async () => {
    const { fixture, element, g } = await render(true);
    g('d1').dispatchEvent(new MouseEvent('click'));
    fixture.detectChanges();
    expect(element.querySelector('.inspector')?.textContent).not.toContain('Move HEAD here');
  });
});
