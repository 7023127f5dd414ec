import type { NodeKind, TreeListingNode } from '@sweatpants/domain';

/**
 * A small tree:  root → u1 → a1 → u2 → a2   (the old branch)
 *                              └→ u2b → a2b (an edit of u2, newer; HEAD is a2b)
 */
export function treeFixture(): TreeListingNode[] {
  const id = (name: string) => name.padEnd(64, '0');
  const at = (n: number) => new Date(Date.UTC(2026, 0, 1, 12, n)).toISOString();
  const node = (
    name: string,
    parent: string | null,
    depth: number,
    kind: NodeKind,
    payload: Record<string, unknown>,
    minute: number,
    children: string[],
    onHead: boolean,
  ): TreeListingNode =>
    ({
      id: id(name),
      conversationId: 'c1',
      parentId: parent ? id(parent) : null,
      depth,
      kind,
      payload,
      authorId: kind === 'user' ? 'u-1' : 'agent:tidying',
      createdAt: at(minute),
      childIds: children.map(id),
      onHead,
    }) as TreeListingNode;
  return [
    node('00', null, 0, 'root', { conversationId: 'c1' }, 0, ['a1'], true),
    node('a1', '00', 1, 'user', { text: 'my desk is a mess' }, 1, ['b1'], true),
    node('b1', 'a1', 2, 'assistant', { text: 'Let us start with one thing.' }, 2, ['c1', 'c2'], true),
    node('c1', 'b1', 3, 'user', { text: 'the lamp' }, 3, ['d1'], false),
    node('d1', 'c1', 4, 'assistant', { text: 'Lamp: keep it on the desk?' }, 4, [], false),
    node('c2', 'b1', 3, 'user', { text: 'the mug' }, 5, ['d2'], true),
    node('d2', 'c2', 4, 'assistant', { text: 'Mug: kitchen?' }, 6, [], true),
  ];
}

export const fixtureId = (name: string): string => name.padEnd(64, '0');
