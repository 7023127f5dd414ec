import type { NodeDraft, NodeKind, TreeNode } from '@sweatpants/domain';
import { call, type Operation } from 'effection';
import type { ConversationPort } from '../storage/conversation-port';

/**
 * Durable execution. Everything a turn does is written to the tree as it happens; a runner
 * rebuilt after a crash runs the interrupted turn again with the nodes recorded since its start as
 * its journal. Each primitive first looks for its own record there: a recorded model reply is
 * returned instead of asking the model again, a recorded tool result instead of running the tool,
 * a recorded elicit is sent again under the same id instead of being created anew. When the
 * journal runs out the turn is live again and writes as it goes.
 *
 * Writes go one at a time, each naming the HEAD the previous one left (compare-and-swap), so a
 * conversation moved under the runner stops it with HeadMovedError instead of forking it.
 */
export class Journal {
  private cursor = 0;
  private writing: Promise<unknown> = Promise.resolve();
  /** root → where the turn has got to: the turn's start, what it replayed, what it wrote */
  private readonly visible: TreeNode[];
  private headId: string;

  constructor(
    private readonly port: ConversationPort,
    readonly conversationId: string,
    /** root → the node the turn starts from */
    base: readonly TreeNode[],
    /** the nodes recorded after it, oldest first: what a rebuilt runner replays */
    private readonly recorded: readonly TreeNode[] = [],
    /** every node this runner appends (and every HEAD move), as they happen */
    private readonly onAppend: (nodes: TreeNode[], head: string) => void = () => undefined,
  ) {
    this.visible = [...base];
    const last = recorded.at(-1) ?? base.at(-1);
    if (!last) throw new Error('a journal needs at least the root');
    this.headId = last.id;
  }

  get head(): string {
    return this.headId;
  }

  /** The turn's context so far: root → the last node replayed or written. */
  path(): readonly TreeNode[] {
    return this.visible;
  }

  get replaying(): boolean {
    return this.cursor < this.recorded.length;
  }

  /** The next recorded node, not consumed. */
  peek(): TreeNode | undefined {
    return this.recorded[this.cursor];
  }

  /**
   * Consumes the next recorded node, which must be of `kind` (and pass `matches`): a turn that runs
   * differently from its record means the code changed under a conversation, which replay cannot
   * paper over. Returns undefined when the journal is exhausted: the caller acts live.
   */
  take<K extends NodeKind>(
    kind: K,
    what: string,
    matches: (node: TreeNode<K>) => boolean = () => true,
  ): TreeNode<K> | undefined {
    const next = this.recorded[this.cursor];
    if (!next) return undefined;
    if (next.kind !== kind || !matches(next as TreeNode<K>)) {
      throw new ReplayDivergenceError(
        `replaying ${what}: expected a ${kind} node, the record has ${next.kind} ${next.id.slice(0, 12)}`,
      );
    }
    this.cursor++;
    this.visible.push(next);
    return next as TreeNode<K>;
  }

  /**
   * Looks ahead for a recorded node (a tool's result after the nodes its body wrote) and, when
   * found, consumes everything up to and including it.
   */
  skipTo<K extends NodeKind>(kind: K, matches: (node: TreeNode<K>) => boolean): TreeNode<K> | undefined {
    for (let i = this.cursor; i < this.recorded.length; i++) {
      const node = this.recorded[i] as TreeNode;
      if (node.kind === kind && matches(node as TreeNode<K>)) {
        this.visible.push(...this.recorded.slice(this.cursor, i + 1));
        this.cursor = i + 1;
        return node as TreeNode<K>;
      }
    }
    return undefined;
  }

  /** Appends a chain of nodes under HEAD. Refuses while recorded nodes remain unconsumed. */
  *append(drafts: NodeDraft[], action: 'append' | 'cancel' = 'append'): Operation<TreeNode[]> {
    if (this.replaying) {
      const next = this.peek() as TreeNode;
      throw new ReplayDivergenceError(
        `a live write (${drafts.map((d) => d.kind).join(', ')}) while the record still holds ${next.kind} ${next.id.slice(0, 12)}`,
      );
    }
    return yield* call(() => this.enqueue(() => this.write(drafts, action)));
  }

  /** Moves HEAD back to a node already in the tree (a side quest's return). */
  *moveTo(to: string, action: 'return'): Operation<void> {
    if (this.replaying)
      throw new ReplayDivergenceError(`a return to ${to.slice(0, 12)} while the record goes on`);
    yield* call(() =>
      this.enqueue(async () => {
        const moved = await this.port.move({
          conversationId: this.conversationId,
          to,
          expectedHead: this.headId,
          action,
        });
        if (!moved.ok)
          throw moved.error.code === 'conflict'
            ? new HeadMovedError(moved.error.head)
            : new Error(moved.error.message);
        this.headId = moved.value.head;
        const at = this.visible.findIndex((n) => n.id === to);
        if (at >= 0) this.visible.length = at + 1;
        this.onAppend([], this.headId);
      }),
    );
  }

  /**
   * Resolves once every write started so far has settled. Cancel waits on this: a write whose turn
   * was halted still lands, and the cancel node must come after it, never before.
   */
  drained(): Promise<void> {
    return this.writing.then(
      () => undefined,
      () => undefined,
    );
  }

  /** Appends outside any turn (the cancel node, a user message): same queue, same CAS. */
  appendNow(drafts: NodeDraft[], action: 'append' | 'cancel' = 'append'): Promise<TreeNode[]> {
    return this.enqueue(() => this.write(drafts, action));
  }

  private enqueue<T>(work: () => Promise<T>): Promise<T> {
    const next = this.writing.then(work, work);
    this.writing = next.catch(() => undefined);
    return next;
  }

  private async write(drafts: NodeDraft[], action: 'append' | 'cancel'): Promise<TreeNode[]> {
    const appended = await this.port.append({
      conversationId: this.conversationId,
      nodes: drafts,
      expectedHead: this.headId,
      action,
    });
    if (!appended.ok) {
      if (appended.error.code === 'conflict') throw new HeadMovedError(appended.error.head);
      throw new Error(`appending ${drafts.map((d) => d.kind).join(', ')}: ${appended.error.message}`);
    }
    this.headId = appended.value.head;
    this.visible.push(...appended.value.nodes);
    this.onAppend(appended.value.nodes, this.headId);
    return appended.value.nodes;
  }
}

/** The conversation's HEAD moved under the runner: it must stop and be rebuilt from the tree. */
export class HeadMovedError extends Error {
  override readonly name = 'HeadMovedError';
  constructor(readonly head: string | undefined) {
    super(`the conversation's HEAD moved (now ${head?.slice(0, 12) ?? 'unknown'}): this runner is stale`);
  }
}

/** A replayed turn did not match its record. */
export class ReplayDivergenceError extends Error {
  override readonly name = 'ReplayDivergenceError';
}
