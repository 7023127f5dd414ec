import { TestBed } from '@angular/core/testing';
import type { ReflogAction, ReflogEntry, TreeNode } from '@sweatpants/domain';

import { type ReflogRow, ReflogViewComponent } from './reflog-view.component';
import { useAgents } from '../conversations/agents-fixture';

/** Node ids as the api makes them: 64 hex characters. */
const id = (name: string): string => name.padEnd(64, 'f');
const YOU = '5b0f3c1e-2a4d-4c6e-8f10-1234567890ab';

const node = (name: string, parent: string | null, kind: TreeNode['kind'], payload: object, author = YOU) =>
  ({
    id: id(name),
    conversationId: 'c1',
    parentId: parent ? id(parent) : null,
    depth: 0,
    kind,
    payload,
    authorId: author,
    createdAt: '2026-01-01T12:00:00.000Z',
  }) as TreeNode;

/**
 *  00 → 11 'the old letters' → 22 'What about the mugs?' → 33 'coffee mug' → 44 'Mug: kitchen?'   (discarded)
 *                                                      └→ 55 'water bottle' → 66 'Bottle: bag?'  (HEAD)
 */
const nodes: TreeNode[] = [
  node('00', null, 'root', { conversationId: 'c1' }, 'agent:tidying'),
  node('11', '00', 'user', { text: 'the old letters' }),
  node(
    '22',
    '11',
    'elicit',
    { elicitId: 'q1', type: 'chat', message: 'What about the mugs?', payload: {} },
    'agent:tidying',
  ),
  node('33', '22', 'user', { text: 'coffee mug' }),
  node('44', '33', 'assistant', { text: 'Mug: kitchen?' }, 'agent:tidying'),
  node('55', '22', 'user', { text: 'water bottle' }),
  node('66', '55', 'assistant', { text: 'Bottle: bag?' }, 'agent:tidying'),
];
const tree = new Map(nodes.map((n) => [n.id, n]));
const onPath = new Set(['00', '11', '22', '55', '66'].map(id));

let seq = 0;
function entry(action: string, oldHead: string | null, newHead: string, actorId = YOU): ReflogEntry {
  seq += 1;
  return {
    id: `r${seq}`,
    index: seq,
    ref: 'HEAD',
    oldHead: oldHead ? id(oldHead) : null,
    newHead: id(newHead),
    action: action as ReflogAction,
    actorId,
    message: `${action}: HEAD@{${seq}} ${id(newHead)}`,
    createdAt: '2026-01-01T12:06:00.000Z',
  };
}

function render(entries: readonly ReflogRow[], inputs: Record<string, unknown> = {}) {
  useAgents();
  const fixture = TestBed.createComponent(ReflogViewComponent);
  fixture.componentRef.setInput('entries', entries);
  fixture.componentRef.setInput('nodes', tree);
  fixture.componentRef.setInput('onPath', onPath);
  fixture.componentRef.setInput('head', id('66'));
  fixture.componentRef.setInput('you', YOU);
  fixture.componentRef.setInput('agent', 'tidying');
  for (const [k, v] of Object.entries(inputs)) fixture.componentRef.setInput(k, v);
  const inspected: ReflogRow[] = [];
  const recovered: ReflogRow[] = [];
  fixture.componentInstance.inspect.subscribe((e) => inspected.push(e));
  fixture.componentInstance.recover.subscribe((e) => recovered.push(e));
  fixture.detectChanges();
  const element = fixture.nativeElement as HTMLElement;
  const items = Array.from(element.querySelectorAll('li.entry')) as HTMLElement[];
  const sentences = items.map((item) => item.querySelector('.sentence')?.textContent?.trim());
  const button = (item: HTMLElement, text: string) =>
    Array.from(item.querySelectorAll('button')).find((b) => b.textContent?.includes(text)) as
      HTMLButtonElement | undefined;
  return { element, items, sentences, button, inspected, recovered };
}

describe('ReflogViewComponent', () => {
  it.each([
    ['edit', entry('edit', '44', '55'), "You edited 'coffee mug' → 'water bottle'"],
    ['rewind', entry('rewind', '44', '11'), "You went back to 'the old letters'"],
    ['rewind to the root', entry('rewind', '11', '00'), 'You went back to the start'],
    ['regenerate', entry('regenerate', '66', '55'), 'You asked for another answer'],
    ['recover', entry('recover', '66', '44'), 'You recovered an earlier branch'],
    ['cancel', entry('cancel', '66', '66'), 'You stopped the coach'],
    [
      'append (a question)',
      entry('append', '11', '22', 'agent:tidying'),
      "The coach asked 'What about the mugs?'",
    ],
    ['append (a reply)', entry('append', '55', '66', 'agent:tidying'), 'The coach replied'],
    ['append (a message)', entry('append', '22', '33'), "You said 'coffee mug'"],
    ['compact', entry('compact', '66', '66', 'agent:tidying'), 'The conversation was summarised'],
    ['fork', entry('fork', '00', '11'), "Forked from another conversation, up to 'the old letters'"],
    ['create', entry('create', null, '00'), 'You started the conversation'],
  ])('tells %s in words', (_name, row, sentence) => {
    const { sentences } = render([row]);
    expect(sentences).toEqual([sentence]);
  });

  it('names the actor: the concierge, a known person, else someone', () => {
    const rows = [
      // a node this page does not know: told from the actor alone
      entry('append', null, '77', 'agent:concierge'),
      entry('rewind', '44', '11', 'u-alice'),
      entry('rewind', '44', '11', 'u-bob'),
    ];
    const { sentences } = render(rows, { names: new Map([['u-alice', 'Alice']]) });
    expect(sentences).toEqual([
      'The concierge replied',
      "Alice went back to 'the old letters'",
      "Someone went back to 'the old letters'",
    ]);
  });

  it('says how a move was made when it was not in these clients: through MCP, or with a token', () => {
    const viaMcp = {
      ...entry('append', '22', '33'),
      message: `append: user "coffee mug" (via MCP, token 'laptop')`,
    };
    const script = { ...entry('rewind', '44', '11'), message: "rewind: to HEAD~2 (with token 'ci')" };
    const { sentences } = render([viaMcp, script]);
    expect(sentences).toEqual([
      "You said 'coffee mug' via MCP, token 'laptop'",
      "You went back to 'the old letters' with token 'ci'",
    ]);
  });

  it('quotes what the coach replied under the sentence', () => {
    const { items } = render([entry('append', '55', '66', 'agent:tidying')]);
    expect(items[0]!.querySelector('.detail')?.textContent).toContain('Bottle: bag?');
  });

  it('shows no hashes or UUIDs, only the time; the ids stay in a tooltip', () => {
    const rows = [entry('edit', '44', '55'), entry('append', '22', '33'), entry('recover', '66', '44')];
    const { element, items } = render(rows);
    const text = element.textContent ?? '';
    expect(text).not.toMatch(/[0-9a-f]{12,}/i);
    expect(text).not.toContain(YOU);
    expect(text).not.toContain('HEAD@');
    expect(items[0]!.querySelector('time')?.getAttribute('datetime')).toBe('2026-01-01T12:06:00.000Z');
    expect(items[0]!.querySelector('.sentence')?.getAttribute('title')).toContain(id('55').slice(0, 12));
  });

  it('marks entries off the current path as recoverable, and recovers them', () => {
    const rows = [entry('append', '55', '66', 'agent:tidying'), entry('append', '33', '44', 'agent:tidying')];
    const { items, button, inspected, recovered } = render(rows);
    // on HEAD's path: not recoverable
    expect(items[0]!.classList).not.toContain('entry--discarded');
    expect(items[0]!.textContent).not.toContain('recoverable');
    expect(button(items[0]!, 'Recover')).toBeUndefined();
    expect(items[0]!.textContent).toContain('The conversation is here now');
    // a discarded branch
    expect(items[1]!.classList).toContain('entry--discarded');
    expect(items[1]!.textContent).toContain('Discarded branch: recoverable');
    button(items[1]!, 'Inspect')!.click();
    button(items[1]!, 'Recover this branch')!.click();
    expect(inspected.map((e) => e.id)).toEqual([rows[1]!.id]);
    expect(recovered.map((e) => e.id)).toEqual([rows[1]!.id]);
  });

  it('after a rewind, offers Recover once for the branch left, and marks it as the branch you just left', () => {
    const rows = [
      entry('append', '55', '66', 'agent:tidying'),
      entry('append', '22', '55'),
      entry('rewind', '44', '22'),
      entry('append', '33', '44', 'agent:tidying'),
      entry('append', '22', '33'),
    ];
    const { items, button } = render(rows);
    expect(items.map((item) => button(item, 'Recover this branch') !== undefined)).toEqual([
      false,
      false,
      false,
      true,
      false,
    ]);
    expect(items[3]!.textContent).toContain('The branch you just left');
    expect(items[4]!.classList).toContain('entry--discarded');
    expect(items[4]!.textContent).not.toContain('recoverable');
    expect(items.filter((item) => item.textContent?.includes('just left'))).toHaveLength(1);
  });

  it('does not offer recover for an ancestor of HEAD', () => {
    const { items, button } = render([entry('rewind', '66', '11')]);
    expect(button(items[0]!, 'Recover')).toBeUndefined();
    expect(items[0]!.textContent).not.toContain('recoverable');
  });

  it('read-only (admin): marks discarded branches but offers no recover; names conversations by title', () => {
    const audit = [entry('append', '33', '44', 'agent:tidying')].map((e) => ({
      ...e,
      conversationId: '0b7c1d2e-3f40-4a5b-8c6d-7e8f9a0b1c2d',
      ownerId: 'a9b8c7d6-e5f4-4321-8765-43210fedcba9',
    }));
    const { element, items, button } = render(audit, {
      readonly: true,
      showConversation: true,
      you: 'admin-1',
      titles: new Map([[audit[0]!.conversationId, 'Attic']]),
    });
    expect(items[0]!.textContent).toContain('Discarded branch: recoverable');
    expect(button(items[0]!, 'Recover')).toBeUndefined();
    expect(items[0]!.textContent).toContain("in 'Attic'");
    // the time, then the conversation, set apart as words are
    expect(items[0]!.querySelector('.meta')?.textContent).toMatch(/[AP]M\s· in 'Attic'/);
    expect(element.textContent).not.toContain(audit[0]!.conversationId);
    expect(element.textContent).not.toContain(audit[0]!.ownerId);
  });

  it("read-only (admin): another user's moves read as the owner's, and their conversation says whose", () => {
    const owner = 'a9b8c7d6-e5f4-4321-8765-43210fedcba9';
    const audit = [entry('rewind', '44', '11', owner), entry('append', null, '77', owner)].map((e) => ({
      ...e,
      conversationId: '0b7c1d2e-3f40-4a5b-8c6d-7e8f9a0b1c2d',
      ownerId: owner,
    }));
    const { sentences, items } = render(audit, { readonly: true, showConversation: true, you: 'admin-1' });
    expect(sentences).toEqual(["The owner went back to 'the old letters'", 'The owner added a message']);
    expect(items[0]!.querySelector('.meta')?.textContent).toContain("another user's");
  });

  it('tells a move, not the stop it made first; a Stop of its own is told', () => {
    const stop = (name: string, parent: string, before?: string) =>
      node(name, parent, 'cancel', before ? { by: YOU, before } : { by: YOU });
    const withStops = new Map([
      ...tree,
      ...[stop('77', '66', 'regenerate'), stop('88', '66')].map((n) => [n.id, n] as const),
    ]);
    const rows = [entry('regenerate', '77', '55'), entry('cancel', '66', '77'), entry('cancel', '66', '88')];
    const { sentences } = render(rows, { nodes: withStops });
    expect(sentences).toEqual(['You asked for another answer', 'You stopped the coach']);
  });
});
