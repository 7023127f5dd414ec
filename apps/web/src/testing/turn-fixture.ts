import type { NodeKind, TreeListingNode } from '@sweatpants/domain';

const USER = 'u-1';
const AGENT = 'agent:tidying';

/**
 * Builds conversation trees shaped as the tidying agent writes them, for the tree's specs: a turn
 * is the user's message, then the agent's steps (the input read, a model call that only used tools,
 * a classification, an action), its reply, and a `response-generated` event. Ids are 64 hex-ish
 * characters, as the api's; times one second apart, in the order nodes are added.
 */
export class TurnFixture {
  readonly nodes: TreeListingNode[] = [];
  private count = 0;

  /** The root; its id. */
  root(): string {
    return this.add(null, 'root', { conversationId: 'c1' }, USER);
  }

  /** One node under `parent`; its id. */
  add(parent: string | null, kind: NodeKind, payload: Record<string, unknown>, authorId = AGENT): string {
    const n = this.count++;
    const id = `${n.toString(16).padStart(4, '0')}`.padEnd(64, 'a');
    const parentNode = parent === null ? null : this.get(parent);
    this.nodes.push({
      id,
      conversationId: 'c1',
      parentId: parent,
      depth: parentNode ? parentNode.depth + 1 : 0,
      kind,
      payload,
      authorId,
      createdAt: new Date(Date.UTC(2026, 0, 1, 12, 0, n)).toISOString(),
      childIds: [],
      onHead: false,
    } as TreeListingNode);
    parentNode?.childIds.push(id);
    return id;
  }

  /** The user's message; its id. */
  user(parent: string, text: string): string {
    return this.add(parent, 'user', { text }, USER);
  }

  /** The agent's steps after the user's input: four nodes; the last one's id. */
  steps(parent: string, text = 'something'): string {
    let at = this.add(parent, 'event', { type: 'user-input-received', text });
    at = this.add(at, 'assistant', { text: '', content: [{ type: 'tool_use', name: 'record_extract' }] });
    at = this.add(at, 'event', { type: 'situation-classified', nodeId: at, summary: 'an item' });
    return this.add(at, 'event', { type: 'action-taken', action: { tag: 'ask-item-decision', item: text } });
  }

  /** The agent's reply and its `response-generated` event; the reply's id and the event's. */
  reply(parent: string, text: string): { reply: string; end: string } {
    const reply = this.add(parent, 'assistant', { text });
    const end = this.add(reply, 'event', { type: 'response-generated', text });
    return { reply, end };
  }

  /** A whole turn: message, 4 steps, reply, 1 step. */
  turn(parent: string, said: string, answer: string): { user: string; reply: string; end: string } {
    const user = this.user(parent, said);
    return { user, ...this.reply(this.steps(user, said), answer) };
  }

  get(id: string): TreeListingNode {
    const node = this.nodes.find((n) => n.id === id);
    if (!node) throw new Error(`no node ${id}`);
    return node;
  }

  /** The nodes with `onHead` set along root → `head`. */
  listing(head: string): TreeListingNode[] {
    const path = this.pathTo(head);
    return this.nodes.map((node) => ({ ...node, childIds: [...node.childIds], onHead: path.has(node.id) }));
  }

  pathTo(head: string): Set<string> {
    const path = new Set<string>();
    for (let id: string | null = head; id !== null; id = this.get(id).parentId) path.add(id);
    return path;
  }
}
