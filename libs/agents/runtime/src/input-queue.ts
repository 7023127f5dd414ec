import { err, ok, queuedNode, type QueuedMessage, type Result, type TreeNode } from '@sweatpants/domain';
import type { QueuedMessages } from '@sweatpants/domain';
import type { RunnerError } from './runner-options';

/**
 * The messages a person sent while the agent worked with nothing to ask (seed 004: "requests
 * queue by default"), as the conversation's runner holds them: stored at once beside the tree
 * (`port.queue`), taken one at a time, oldest first, at the runner's next chat prompt, and
 * withdrawable until then. Every change is announced with the whole list (the `queue` event).
 *
 * Take and withdraw are decided here, synchronously, before either writes: the runner is the one
 * process that takes (its conversation's lease holder), so a message is either taken or
 * withdrawn, never both.
 */
export class InputQueue {
  private items: QueuedMessage[];
  /** the message being written as a `user` node now: too late to withdraw */
  private takingId: string | undefined;

  private constructor(
    private readonly store: QueuedMessages,
    private readonly conversationId: string,
    private readonly announce: (items: QueuedMessage[]) => void,
    items: QueuedMessage[],
  ) {
    this.items = items;
  }

  /**
   * The conversation's queue as stored. A message whose `user` node is already on `path` was
   * taken by a runner that stopped before it could remove it (a crash between the two writes):
   * it is removed now rather than taken twice.
   */
  static async load(
    store: QueuedMessages,
    conversationId: string,
    path: readonly TreeNode[],
    announce: (items: QueuedMessage[]) => void,
  ): Promise<InputQueue> {
    const stored = await store.waiting(conversationId);
    const taken = takenOn(path);
    const left = stored.filter((m) => !taken.has(m.id));
    for (const m of stored) if (taken.has(m.id)) await store.remove(conversationId, m.id);
    return new InputQueue(store, conversationId, announce, left);
  }

  /** What waits, oldest first. */
  list(): QueuedMessage[] {
    return [...this.items];
  }

  /** A message is being taken: its turn has begun, its `user` node is not yet stored. */
  get taking(): boolean {
    return this.takingId !== undefined;
  }

  /** Something waits, or is being taken: a new message goes behind it. */
  get busy(): boolean {
    return this.items.length > 0 || this.takingId !== undefined;
  }

  /** Stores a message at the end of the queue; answers it as PROTOCOL.md's queued node under `at`. */
  async add(message: Omit<QueuedMessage, 'id' | 'createdAt'>, at: TreeNode): Promise<TreeNode<'user'>> {
    const queued = await this.store.enqueue({ conversationId: this.conversationId, ...message });
    this.items.push(queued);
    this.announce(this.list());
    return queuedNode(queued, this.conversationId, at);
  }

  /**
   * Takes the oldest waiting message as the next input: `begin` writes its `user` node (saying
   * `queuedId`) and starts the turn on it; then it leaves the queue. While `begin` writes, no
   * withdrawal reaches it. False when nothing waits or `begin` was refused (HEAD moved under the
   * runner): the message then waits for the next runner.
   */
  async takeNext(
    begin: (payload: TreeNode<'user'>['payload'], authorId: string) => Promise<Result<TreeNode, RunnerError>>,
  ): Promise<boolean> {
    const next = this.takingId === undefined ? this.items[0] : undefined;
    if (!next) return false;
    this.takingId = next.id;
    const payload = {
      text: next.text,
      ...(next.photos?.length ? { photos: next.photos } : {}),
      queuedId: next.id,
    };
    let begun: Result<TreeNode, RunnerError>;
    try {
      begun = await begin(payload, next.authorId);
    } finally {
      this.takingId = undefined;
    }
    if (!begun.ok) return false;
    this.items = this.items.filter((m) => m.id !== next.id);
    this.announce(this.list());
    await this.store.remove(this.conversationId, next.id);
    return true;
  }

  /**
   * The person withdraws a message before it is taken; one already taken (being written, or on
   * `path`) is a conflict, an id that names nothing waiting is not found.
   */
  async withdraw(id: string, path: readonly TreeNode[]): Promise<Result<void, RunnerError>> {
    if (this.takingId === id || takenOn(path).has(id)) {
      return err({
        code: 'conflict',
        message: 'the agent has already taken that message; it is on the path',
      });
    }
    const at = this.items.findIndex((m) => m.id === id);
    if (at < 0) return err({ code: 'not_found', message: 'no message waits in the queue under that id' });
    const [withdrawn] = this.items.splice(at, 1);
    this.announce(this.list());
    if (!(await this.store.remove(this.conversationId, id))) {
      // Another writer removed it (a runner this one replaced, taking it as it closed).
      return err({ code: 'conflict', message: `the message "${withdrawn?.text ?? ''}" no longer waits` });
    }
    return ok(undefined);
  }
}

/** The queued messages whose `user` nodes are on `path`. */
function takenOn(path: readonly TreeNode[]): Set<string> {
  const ids = new Set<string>();
  for (const n of path) {
    if (n.kind === 'user' && typeof n.payload.queuedId === 'string') ids.add(n.payload.queuedId);
  }
  return ids;
}
