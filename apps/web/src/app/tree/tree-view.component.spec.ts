import { BreakpointObserver } from '@angular/cdk/layout';
import { TestBed } from '@angular/core/testing';
import type { TreeListingNode } from '@sweatpants/domain';
import { of } from 'rxjs';

import { fixtureId, treeFixture } from '../../testing/tree-fixture';
import { TurnFixture } from '../../testing/turn-fixture';
import { TreeViewComponent } from './tree-view.component';
import { useAgents } from '../conversations/agents-fixture';

/** The words a box says, as its accessible name is computed from them. */
const words = (element: Element) =>
  Array.from(element.querySelectorAll('text'), (text) => text.textContent ?? '')
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

async function render(
  nodes: TreeListingNode[],
  head: string,
  { readonly = false, phone = false }: { readonly?: boolean; phone?: boolean } = {},
) {
  TestBed.configureTestingModule({
    providers: [
      {
        provide: BreakpointObserver,
        useValue: { isMatched: () => phone, observe: () => of({ matches: phone, breakpoints: {} }) },
      },
    ],
  });
  useAgents();
  const fixture = TestBed.createComponent(TreeViewComponent);
  fixture.componentRef.setInput('nodes', nodes);
  fixture.componentRef.setInput('headPath', new Set(nodes.filter((n) => n.onHead).map((n) => n.id)));
  fixture.componentRef.setInput('head', head);
  fixture.componentRef.setInput('readonly', readonly);
  fixture.componentRef.setInput('you', 'u-1');
  const moves: string[] = [];
  fixture.componentInstance.moveHead.subscribe((id) => moves.push(id));
  fixture.detectChanges();
  await fixture.whenStable();
  const element = fixture.nativeElement as HTMLElement;
  const g = (id: string) => element.querySelector(`g[data-node-id="${id}"]`) as SVGGElement;
  const update = async () => {
    fixture.detectChanges();
    await fixture.whenStable();
    await settle();
    fixture.detectChanges();
  };
  const button = (root: ParentNode, text: string) =>
    Array.from(root.querySelectorAll('button')).find((b) => b.textContent?.includes(text)) as
      HTMLButtonElement | undefined;
  return { fixture, element, moves, g, update, button };
}

/** A conversation with an edit: my desk → (a lamp | a desk lamp), HEAD on the edit. */
function edited() {
  const f = new TurnFixture();
  const first = f.turn(f.root(), 'my desk is a mess', 'What is the first thing you see?');
  const old = f.turn(first.end, 'a lamp', 'Keep the lamp on the desk?');
  const now = f.turn(first.end, 'a desk lamp with a broken switch', 'Trash it?');
  return { nodes: f.listing(now.end), first, old, now };
}

describe('TreeViewComponent', () => {
  afterEach(() => {
    document.querySelectorAll('.cdk-overlay-container').forEach((c) => (c.innerHTML = ''));
  });

  it('draws one box per message, not per node, with the steps folded into it counted', async () => {
    const { nodes, first } = edited();
    const { element, g } = await render(nodes, nodes.at(-1)?.id as string);
    const svg = element.querySelector('svg');
    expect(svg?.getAttribute('role')).toBe('group');
    expect(svg?.getAttribute('aria-label')).toContain('Conversation tree');
    expect(nodes).toHaveLength(22);
    expect(element.querySelectorAll('svg g.node')).toHaveLength(7);
    expect(element.querySelectorAll('path.edge')).toHaveLength(6);
    const reply = g(first.reply);
    expect(reply.getAttribute('role')).toBe('button');
    // Named by its visible words (axe: the name holds the visible text), in reading order.
    expect(reply.getAttribute('aria-label')).toBeNull();
    expect(words(reply)).toBe('The coach What is the first thing you see? +5 steps');
    expect(words(g(first.user))).toBe('You my desk is a mess');
    expect(element.textContent).toContain('6 messages · 22 steps');
  });

  it('highlights the HEAD path box by box and marks HEAD', async () => {
    const { nodes, first, now } = edited();
    const { element, g } = await render(nodes, now.end);
    const onPath = Array.from(element.querySelectorAll('svg g.node--head-path')).map((n) =>
      n.getAttribute('data-node-id'),
    );
    expect(onPath).toEqual([nodes[0]?.id, first.user, first.reply, now.user, now.reply]);
    expect(g(now.reply).classList).toContain('node--head');
    expect(g(now.reply).textContent).toContain('You are here');
    expect(words(g(now.reply))).toBe('The coach Trash it? +5 steps You are here');
    expect(g(now.reply).querySelector('desc')?.textContent).toBe('in the chat now');
    expect(element.querySelectorAll('path.edge--head')).toHaveLength(4);
  });

  it('inspects a clicked box beside the tree: its words, its steps in words, no JSON or ids', async () => {
    const { nodes, old } = edited();
    const { element, g, update, moves, button } = await render(nodes, nodes.at(-1)?.id as string);
    g(old.reply).dispatchEvent(new MouseEvent('click', { bubbles: true }));
    await update();
    const side = element.querySelector('aside.side') as HTMLElement;
    const text = side.textContent ?? '';
    expect(side.querySelector('h2')?.textContent).toBe('The coach’s reply');
    expect(text).toContain('Keep the lamp on the desk?');
    expect(text).toContain('The coach ·');
    expect(text).toContain('On another branch');
    expect(text).toContain('5 steps folded into this box');
    for (const step of [
      'Read your message',
      'Worked out what you meant',
      'Decided what to do next',
      'Wrote its reply',
    ])
      expect(text).toContain(step);
    expect(text).not.toMatch(/[0-9a-f]{40}/);
    expect(text).not.toContain('{');
    expect(g(old.reply).getAttribute('aria-pressed')).toBe('true');
    expect(moves).toEqual([]);

    // The raw nodes only on request.
    const raw = side.querySelector('details.raw') as HTMLDetailsElement;
    expect(raw.querySelector('pre')).toBeNull();
    raw.open = true;
    raw.dispatchEvent(new Event('toggle'));
    await update();
    expect(raw.querySelector('pre')?.textContent).toContain('"kind": "assistant"');

    button(side, 'Continue from here')?.click();
    expect(moves).toEqual([old.end]);
  });

  it('offers to switch to another branch’s latest message', async () => {
    const { nodes, old } = edited();
    const { element, g, update, moves, button } = await render(nodes, nodes.at(-1)?.id as string);
    g(old.user).dispatchEvent(new MouseEvent('click'));
    await update();
    button(element, 'Switch to this branch')?.click();
    expect(moves).toEqual([old.end]);
  });

  it('offers no HEAD move when read-only', async () => {
    const { nodes, old, now } = edited();
    const { element, g, update, button } = await render(nodes, now.end, { readonly: true });
    g(old.reply).dispatchEvent(new MouseEvent('click'));
    await update();
    expect(element.querySelector('aside h2')?.textContent).toBe('The coach’s reply');
    expect(button(element, 'Continue from here')).toBeUndefined();
    expect(button(element, 'Switch to this branch')).toBeUndefined();
  });

  it('offers no HEAD move on the box that holds HEAD', async () => {
    const { nodes, now } = edited();
    const { element, g, update, button } = await render(nodes, now.end);
    g(now.reply).dispatchEvent(new MouseEvent('click'));
    await update();
    expect(element.querySelector('aside')?.textContent).toContain('You are here');
    expect(button(element, 'Continue from here')).toBeUndefined();
  });

  it('is one tab stop; arrow keys walk the boxes and Enter or Space inspects', async () => {
    const { nodes, first, old, now } = edited();
    const { element, g, update } = await render(nodes, now.end);
    const stops = Array.from(element.querySelectorAll('g.node')).filter(
      (n) => n.getAttribute('tabindex') === '0',
    );
    expect(stops.map((n) => n.getAttribute('data-node-id'))).toEqual([now.reply]);

    const key = async (id: string, k: string) => {
      g(id).dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true }));
      await update();
    };
    await key(now.reply, 'ArrowUp');
    expect(document.activeElement).toBe(g(now.user));
    expect(g(now.user).getAttribute('tabindex')).toBe('0');
    await key(now.user, 'ArrowRight');
    expect(document.activeElement).toBe(g(old.user));
    await key(old.user, 'ArrowUp');
    expect(document.activeElement).toBe(g(first.reply));
    await key(first.reply, 'ArrowDown');
    expect(document.activeElement).toBe(g(now.user));

    await key(now.user, 'ArrowRight');
    await key(old.user, 'Enter');
    expect(element.querySelector('aside h2')?.textContent).toBe('Your message');
    expect(element.querySelector('aside')?.textContent).toContain('a lamp');
    await key(old.user, 'ArrowUp');
    await key(first.reply, ' ');
    expect(element.querySelector('aside h2')?.textContent).toBe('The coach’s reply');
    await key(first.reply, 'Escape');
    expect(element.querySelector('aside h2')).toBeNull();
    expect(element.querySelector('aside')?.textContent).toContain('Select a box');
  });

  it('acts where focus is going when keys come faster than focus moves', async () => {
    const { nodes, first, now } = edited();
    const { element, g, update } = await render(nodes, now.end);
    for (const k of ['ArrowUp', 'ArrowUp', 'Enter'])
      g(now.reply).dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true }));
    await update();
    expect(document.activeElement).toBe(g(first.reply));
    expect(element.querySelector('aside h2')?.textContent).toBe('The coach’s reply');
  });

  it('jumps to HEAD', async () => {
    const { nodes, first, now } = edited();
    const { element, g, update, button } = await render(nodes, now.end);
    g(first.user).dispatchEvent(new KeyboardEvent('keydown', { key: 'Home', bubbles: true }));
    await update();
    button(element, 'Jump to where you are')?.click();
    await update();
    expect(document.activeElement).toBe(g(now.reply));
  });

  it('still reads the small fixture: every message a box, the branches side by side', async () => {
    const nodes = treeFixture();
    const { element, g } = await render(nodes, fixtureId('d2'));
    expect(element.querySelectorAll('g.node')).toHaveLength(7);
    const pos = (name: string) => {
      const m = /translate\(([\d.]+),([\d.]+)\)/.exec(g(fixtureId(name)).getAttribute('transform') ?? '');
      return { x: Number(m?.[1]), y: Number(m?.[2]) };
    };
    expect(pos('a1').y).toBeGreaterThan(pos('00').y);
    expect(pos('c1').y).toBe(pos('c2').y);
    expect(pos('c2').x).toBeLessThan(pos('c1').x);
  });

  describe('on a phone', () => {
    it('opens the inspector next to the tapped box, and Escape closes it back to the box', async () => {
      const { nodes, old, now } = edited();
      const { element, g, update, moves, button } = await render(nodes, now.end, { phone: true });
      expect(element.querySelector('aside')).toBeNull();
      g(old.reply).dispatchEvent(new MouseEvent('click'));
      await update();
      const panel = document.querySelector('.cdk-overlay-container app-tree-inspector') as HTMLElement;
      expect(panel).not.toBeNull();
      const dialog = panel.querySelector('[role="dialog"]') as HTMLElement;
      expect(dialog.getAttribute('aria-labelledby')).toBe(panel.querySelector('h2')?.id);
      expect(panel.textContent).toContain('Keep the lamp on the desk?');
      expect(panel.textContent).toContain('Wrote its reply');
      expect(document.activeElement).toBe(panel.querySelector('h2'));
      button(panel, 'Continue from here')?.click();
      expect(moves).toEqual([old.end]);

      dialog.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
      await update();
      expect(document.querySelector('.cdk-overlay-container app-tree-inspector')).toBeNull();
      expect(document.activeElement).toBe(g(old.reply));
    });
  });
});
