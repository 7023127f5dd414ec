import { createHash, randomBytes } from 'node:crypto';
import { err, ok, type NodeDraft, type QueuedMessage, type Result, type TreeNode } from '@sweatpants/domain';
import type { ConversationPort, PortError, QueuedMessages } from '@sweatpants/domain';

interface Conversation {
  nodes: Map<string, TreeNode>;
  head: string;
  /** every HEAD move, oldest first, as the reflog would hold it */
  moves: { from: string | null; to: string; action: string }[];
  compactionRequests: string[];
}

/**
 * The storage port in memory, with the tree store's semantics that the runtime relies on: a chain
 * appended under the expected HEAD or refused with the current one, and HEAD moves recorded. For
 * tests and the terminal chat (apps/chat); the api uses the tree store.
 *
 * @example
 * const port = new InMemoryConversationPort();
 * port.create('c1'); // returns the root
 * const runner = await Runner.open({ conversationId: 'c1', agent, port, model: new OfflineModel() });
 */
export class InMemoryConversationPort implements ConversationPort {
  private readonly conversations = new Map<string, Conversation>();
  private lastTime = 0;
  /** every conversation's queued messages, oldest first */
  private readonly queued = new Map<string, QueuedMessage[]>();

  readonly queue: QueuedMessages = {
    enqueue: async ({ conversationId, text, photos, authorId }) => {
      const message: QueuedMessage = {
        id: randomBytes(32).toString('hex'),
        text,
        ...(photos?.length ? { photos: [...photos] } : {}),
        authorId,
        createdAt: new Date().toISOString(),
      };
      this.queued.set(conversationId, [...(this.queued.get(conversationId) ?? []), message]);
      return message;
    },
    waiting: async (conversationId) => [...(this.queued.get(conversationId) ?? [])],
    remove: async (conversationId, id) => {
      const items = this.queued.get(conversationId) ?? [];
      this.queued.set(
        conversationId,
        items.filter((m) => m.id !== id),
      );
      return items.some((m) => m.id === id);
    },
  };

  /** a new conversation with its root node; returns the root */
  create(conversationId: string): TreeNode {
    const root = this.node(conversationId, null, -1, {
      kind: 'root',
      payload: { conversationId },
      authorId: 'system',
    });
    this.conversations.set(conversationId, {
      nodes: new Map([[root.id, root]]),
      head: root.id,
      moves: [{ from: null, to: root.id, action: 'create' }],
      compactionRequests: [],
    });
    return root;
  }

  async path(conversationId: string): Promise<Result<TreeNode[], PortError>> {
    const c = this.conversations.get(conversationId);
    if (!c) return err({ code: 'not_found', message: `no conversation ${conversationId}` });
    return ok(this.pathTo(c, c.head));
  }

  async pathFromSummary(conversationId: string): Promise<Result<TreeNode[], PortError>> {
    const c = this.conversations.get(conversationId);
    if (!c) return err({ code: 'not_found', message: `no conversation ${conversationId}` });
    return ok(fromSummary(this.pathTo(c, c.head)));
  }

  build(input: Parameters<ConversationPort['build']>[0]): Result<TreeNode[], PortError> {
    if (input.nodes.length === 0) return err({ code: 'invalid', message: 'nothing to append' });
    const built: TreeNode[] = [];
    let parent = input.parent;
    for (const draft of input.nodes) {
      parent = this.node(input.conversationId, parent.id, parent.depth, draft);
      built.push(parent);
    }
    return ok(built);
  }

  async append(
    input: Parameters<ConversationPort['append']>[0],
  ): Promise<Result<{ head: string }, PortError>> {
    const c = this.conversations.get(input.conversationId);
    if (!c) return err({ code: 'not_found', message: `no conversation ${input.conversationId}` });
    if (c.head !== input.expectedHead) return err({ code: 'conflict', message: 'HEAD moved', head: c.head });
    if (input.runs.length === 0 || input.runs.some((r) => r.nodes.length === 0))
      return err({ code: 'invalid', message: 'nothing to append' });
    let parent = c.head;
    for (const node of input.runs.flatMap((r) => r.nodes)) {
      if (node.parentId !== parent) return err({ code: 'invalid', message: `${node.id} is not a chain` });
      parent = node.id;
    }
    for (const run of input.runs) {
      for (const node of run.nodes) c.nodes.set(node.id, node);
      const tip = (run.nodes.at(-1) as TreeNode).id;
      c.moves.push({ from: c.head, to: tip, action: run.action ?? 'append' });
      c.head = tip;
    }
    return ok({ head: c.head });
  }

  async returnTo(
    input: Parameters<ConversationPort['returnTo']>[0],
  ): Promise<Result<{ head: string }, PortError>> {
    const c = this.conversations.get(input.conversationId);
    if (!c) return err({ code: 'not_found', message: `no conversation ${input.conversationId}` });
    if (c.head !== input.expectedHead) return err({ code: 'conflict', message: 'HEAD moved', head: c.head });
    const [first] = input.nodes;
    if (!first?.parentId || !c.nodes.has(first.parentId))
      return err({ code: 'invalid', message: 'the nodes go under a node of the conversation' });
    let parent = first.parentId;
    for (const node of input.nodes) {
      if (node.parentId !== parent) return err({ code: 'invalid', message: `${node.id} is not a chain` });
      parent = node.id;
    }
    for (const node of input.nodes) c.nodes.set(node.id, node);
    c.moves.push({ from: c.head, to: parent, action: 'return' });
    c.head = parent;
    return ok({ head: c.head });
  }

  async requestCompaction(input: { conversationId: string; head: string }): Promise<void> {
    this.conversations.get(input.conversationId)?.compactionRequests.push(input.head);
  }

  /** test helpers: what a conversation holds */
  inspect(conversationId: string): Conversation {
    const c = this.conversations.get(conversationId);
    if (!c) throw new Error(`no conversation ${conversationId}`);
    return c;
  }

  /** HEAD moved by someone else, as a rewind from another tab would */
  moveHead(conversationId: string, to: string): void {
    const c = this.inspect(conversationId);
    c.moves.push({ from: c.head, to, action: 'rewind' });
    c.head = to;
  }

  private pathTo(c: Conversation, id: string): TreeNode[] {
    const path: TreeNode[] = [];
    for (let node = c.nodes.get(id); node; node = node.parentId ? c.nodes.get(node.parentId) : undefined)
      path.push(node);
    return path.reverse();
  }

  private node(
    conversationId: string,
    parentId: string | null,
    parentDepth: number,
    draft: NodeDraft,
  ): TreeNode {
    // Real time, but strictly increasing, so identical drafts still get distinct ids.
    this.lastTime = Math.max(Date.now(), this.lastTime + 1);
    const createdAt = new Date(this.lastTime).toISOString();
    const id = createHash('sha256')
      .update(JSON.stringify([parentId, draft.kind, draft.payload, draft.authorId, createdAt]))
      .digest('hex');
    return {
      id,
      conversationId,
      parentId,
      depth: parentDepth + 1,
      kind: draft.kind,
      payload: draft.payload,
      authorId: draft.authorId,
      createdAt,
    } as TreeNode;
  }
}

/**
 * `path` from its latest summary, or from the first of the summaries stacked right above it (the
 * tree store's pathFromSummary); the whole path when it holds none.
 */
export function fromSummary(path: readonly TreeNode[]): TreeNode[] {
  let first = path.findLastIndex((n) => n.kind === 'summary');
  if (first < 0) return [...path];
  while (path[first - 1]?.kind === 'summary') first--;
  return path.slice(first);
}
