import type { ConversationPort, PortError, TreeNode } from '@sweatpants/domain';

/**
 * How long an answer's write waits for the turn's next nodes to go with it (see `writeSoon`): an
 * offline turn gets from a person's answer to its next question in a few milliseconds, and a
 * person does not notice an acknowledgement this much later; a remote model's turn reaches its
 * durability point (before the call) at once.
 */
export const GROUP_COMMIT_MS = 20;

/** How a write moves HEAD, as its reflog row says. */
export type WriteAction = 'append' | 'cancel';

/**
 * The journal's writing side: nodes already named (the store's content address) wait here until a
 * durability point, then go to the store in as few writes as can be, each naming the HEAD the
 * previous one left (compare-and-swap). One write holds a run per author and action, each its own
 * HEAD move, so the reflog says who moved HEAD. Writes go one after another; after a failed one
 * nothing more is written and every later write throws the failure.
 *
 * @example
 * const commit = new GroupCommit(port, conversationId, head, onStored, onFailed);
 * commit.hold(nodes, 'append');
 * await commit.flush(); // stored, or HeadMovedError
 */
export class GroupCommit {
  private writing: Promise<unknown> = Promise.resolve();
  /** the nodes named but not yet stored, oldest first */
  private unwritten: { node: TreeNode; action: WriteAction }[] = [];
  /** HEAD as the store has it: where the next write goes */
  private storedHead: string;
  /** a write failed: nothing after it may be written, and the turn must stop */
  private failure: Error | undefined;
  /** the runner stopped (`abandon`): nothing more is held */
  private closed: Error | undefined;
  /** the write `writeSoon` has promised, until a durability point makes it sooner */
  private soon:
    | {
        timer: ReturnType<typeof setTimeout>;
        settle: (written: Promise<void>) => void;
        written: Promise<void>;
      }
    | undefined;

  constructor(
    private readonly port: ConversationPort,
    private readonly conversationId: string,
    head: string,
    /** every run stored (and the HEAD it left), as the store takes them */
    private readonly onStored: (nodes: TreeNode[], head: string) => void,
    /** a write failed: what was not stored is dropped, and the context ends at `head` */
    private readonly onFailed: (head: string) => void,
  ) {
    this.storedHead = head;
  }

  /** The conversation's HEAD as the store has it. */
  get head(): string {
    return this.storedHead;
  }

  /** Throws when nothing more may be appended: a write failed, or the runner stopped. */
  check(): void {
    if (this.failure) throw this.failure;
    if (this.closed) throw this.closed;
  }

  /** Holds named nodes for the next write. */
  hold(nodes: readonly TreeNode[], action: WriteAction): void {
    for (const node of nodes) this.unwritten.push({ node, action });
  }

  /**
   * Stores everything held so far in one write: a run per author and action, each its own HEAD
   * move (a person's answer, then the agent's nodes after it, land in one round trip).
   */
  flush(): Promise<void> {
    const soon = this.soon;
    this.soon = undefined;
    if (soon) clearTimeout(soon.timer);
    const last = this.unwritten.at(-1)?.node;
    const flushed = this.enqueue(async () => {
      if (this.failure) throw this.failure;
      for (;;) {
        const upTo = this.unwritten.findIndex((u) => u.node === last);
        if (upTo < 0) return;
        await this.writeRuns(upTo + 1);
      }
    });
    soon?.settle(flushed);
    return flushed;
  }

  /**
   * Starts storing what is held so far soon, without waiting: with the turn's next nodes when it
   * reaches a durability point within GROUP_COMMIT_MS (a person's answer and the agent's reply to
   * it then land in one write, not two), and alone after that, so whoever waits to see it
   * acknowledged never waits on a long step of the turn. Resolves once it is stored; a failure
   * rejects it and is not lost either: the next durability point throws it.
   */
  writeSoon(): Promise<void> {
    if (this.soon) return this.soon.written;
    let settle: (written: Promise<void>) => void = () => undefined;
    const written = new Promise<void>((resolve) => (settle = resolve));
    // Handled here, so a caller that does not wait for it leaves no unhandled rejection.
    written.catch(() => undefined);
    const timer = setTimeout(() => void this.flush().catch(() => undefined), GROUP_COMMIT_MS);
    this.soon = { timer, settle, written };
    return written;
  }

  /**
   * After what is held is stored, stores `nodes` in one write that moves HEAD off the turn's branch
   * (reflog `return`); `moved` runs once it has landed.
   */
  returnTo(nodes: TreeNode[], moved: () => void): Promise<void> {
    return this.enqueue(async () => {
      if (this.failure) throw this.failure;
      const stored = await this.port.returnTo({
        conversationId: this.conversationId,
        nodes,
        expectedHead: this.storedHead,
      });
      if (!stored.ok) throw this.fail(stored.error);
      this.storedHead = stored.value.head;
      moved();
      this.onStored(nodes, this.storedHead);
    });
  }

  /**
   * The runner stops: what is not stored yet is dropped (nobody outside saw it) and nothing more
   * is held. A write promised soon (`writeSoon`: someone waits to see it acknowledged) is started
   * now instead, as a write already under way would have been. Resolves once the write under way
   * has landed or failed (which a dead connection may never do: callers need not wait).
   */
  abandon(): Promise<void> {
    const closed = new Error(`the runner of ${this.conversationId} was closed`);
    this.closed ??= closed;
    if (this.soon) void this.flush().catch(() => undefined);
    // After that write (it is queued before this), nothing more is written.
    void this.enqueue(async () => {
      this.unwritten = [];
      this.failure ??= closed;
    });
    return this.writing.then(() => undefined);
  }

  /** Stores the first `count` unwritten nodes, a run per author and action, in one write. */
  private async writeRuns(count: number): Promise<void> {
    const pending = this.unwritten.slice(0, count);
    const runs: { nodes: TreeNode[]; action: WriteAction }[] = [];
    for (const { node, action } of pending) {
      const run = runs.at(-1);
      if (run && run.action === action && run.nodes[0]?.authorId === node.authorId) run.nodes.push(node);
      else runs.push({ nodes: [node], action });
    }
    if (runs.length === 0) return;
    const stored = await this.port.append({
      conversationId: this.conversationId,
      expectedHead: this.storedHead,
      runs,
    });
    if (!stored.ok) throw this.fail(stored.error);
    this.storedHead = stored.value.head;
    this.unwritten.splice(0, pending.length);
    for (const run of runs) this.onStored(run.nodes, (run.nodes.at(-1) as TreeNode).id);
  }

  /**
   * A write failed: what was not stored is dropped (nobody outside saw it) and the context ends
   * where the store's does; every later write, and the next durability point, throws.
   */
  private fail(error: PortError): Error {
    this.failure =
      error.code === 'conflict'
        ? new HeadMovedError(error.head)
        : new Error(`writing to ${this.conversationId}: ${error.message}`);
    this.unwritten = [];
    this.onFailed(this.storedHead);
    return this.failure;
  }

  private enqueue<T>(work: () => Promise<T>): Promise<T> {
    const next = this.writing.then(work, work);
    this.writing = next.catch(() => undefined);
    return next;
  }
}

/**
 * The conversation's HEAD moved under the runner (a compaction landed, another tab rewound): it
 * must stop and be rebuilt from the tree, rather than write a fork nobody asked for.
 *
 * @example
 * try {
 *   await journal.appendNow([{ kind: 'user', payload, authorId }]);
 * } catch (error) {
 *   if (!(error instanceof HeadMovedError)) throw error;
 *   return err({ code: 'conflict', message: error.message }); // the caller reopens the runner
 * }
 */
export class HeadMovedError extends Error {
  override readonly name = 'HeadMovedError';
  constructor(readonly head: string | undefined) {
    super(`the conversation's HEAD moved (now ${head?.slice(0, 12) ?? 'unknown'}): this runner is stale`);
  }
}
