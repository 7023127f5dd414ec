import {
  applyNode,
  type Json,
  type NodeDraft,
  type NodeKind,
  type StateReducer,
  type TreeNode,
} from '@sweatpants/domain';
import { action, call, type Operation } from 'effection';
import type { ConversationPort } from '@sweatpants/domain';
import { GroupCommit, type WriteAction } from './group-commit';

export { GROUP_COMMIT_MS, HeadMovedError } from './group-commit';

/**
 * Durable execution. Everything a turn does is written to the tree; a runner rebuilt after a
 * crash runs the interrupted turn again with the nodes recorded since its start as its journal.
 * Each primitive first looks for its own record there: a recorded model reply is returned instead
 * of asking the model again, a recorded tool result instead of running the tool, a recorded elicit
 * is sent again under the same id instead of being created anew. When the journal runs out the
 * turn is live again and writes as it goes.
 *
 * Writing is group commit (./group-commit). A node the turn appends is named at once (the store's
 * content address, through `port.build`) and the turn goes on from it; the store receives the
 * nodes in as few writes as it can, each naming the HEAD the previous one left (compare-and-swap),
 * at the turn's durability points: before anything that depends on them leaves the process (an elicit or a
 * notice sent to the client, a remote model asked, a tool with outside effects run, the turn's
 * end; see `durable`). A crash loses only nodes nobody outside saw, which the rebuilt runner makes
 * again. One write holds nodes of one author and one action, so the reflog says who moved HEAD.
 * A conversation moved under the runner makes the next write fail with HeadMovedError, and
 * nothing after it is written: the runner stops instead of forking the conversation.
 *
 * @example
 * const journal = new Journal(port, conversationId, path, [], (nodes, head) => outbox.nodes(nodes, head));
 * await journal.appendNow([{ kind: 'user', payload: { text }, authorId }]); // outside a turn: at once
 * // inside the turn:
 * yield* journal.append([{ kind: 'notify', payload: { message }, authorId: run.authorId }]);
 * yield* journal.durable(); // stored before the client is told
 */
/**
 * Each reducer's last fold, with the node it was folded to: a journal goes on from it when its
 * path still has that node (the same object) at that place, which a path that only grew does.
 */
export type FoldCache = Map<StateReducer, { last: TreeNode | undefined; length: number; state: Json }>;

export class Journal {
  private cursor = 0;
  /** askers waiting for the replay to reach their answer (takeWhenReached) */
  private readonly advanced = new Set<() => void>();
  /**
   * The context's first node (the root, or the first of the latest summaries: see the port's
   * pathFromSummary) → where the turn has got to: the turn's start, what it replayed, what it
   * wrote or will.
   */
  private readonly visible: TreeNode[];
  /** the nodes appended and not yet stored, on their way to the store */
  private readonly commit: GroupCommit;

  constructor(
    private readonly port: ConversationPort,
    readonly conversationId: string,
    /** the context's first node (the root or a summary) → the node the turn starts from */
    base: readonly TreeNode[],
    /** the nodes recorded after it, oldest first: what a rebuilt runner replays */
    private readonly recorded: readonly TreeNode[] = [],
    /** every node this runner stores (and every HEAD move), as the store takes them */
    onAppend: (nodes: TreeNode[], head: string) => void = () => undefined,
    /** the runner's folds, kept from turn to turn: a turn folds only the nodes since the last */
    private readonly folds: FoldCache = new Map(),
  ) {
    this.visible = [...base];
    const last = recorded.at(-1) ?? base.at(-1);
    if (!last) throw new Error('a journal needs at least the node its context begins with');
    this.commit = new GroupCommit(port, conversationId, last.id, onAppend, (head) => {
      const at = this.visible.findIndex((n) => n.id === head);
      if (at >= 0) this.visible.length = at + 1;
    });
  }

  /** The turn's last node, stored or still to be. */
  get head(): string {
    return (this.visible.at(-1) as TreeNode).id;
  }

  /** The conversation's HEAD as the store has it. */
  get durableHead(): string {
    return this.commit.head;
  }

  /**
   * The turn's context so far: the root or the latest summaries → the last node replayed or
   * appended. A summary keeps the folds and the words of what it covers, so folds (`fold`,
   * modeStateOf) and the model's history (historyOf) over it are those of the whole path.
   */
  path(): readonly TreeNode[] {
    return this.visible;
  }

  /**
   * A reducer's state at the turn's last node (DESIGN.md's event-sourced state). Each call goes on
   * from the previous one's state while the path has only grown since, so a turn that asks after
   * every step folds each node once rather than the whole path each time.
   */
  fold<S extends Json>(reducer: StateReducer<S>): S {
    const cached = this.folds.get(reducer as unknown as StateReducer);
    const grown = cached !== undefined && this.visible[cached.length - 1] === cached.last;
    let state = grown ? (cached.state as S) : reducer.initial;
    for (let i = grown ? cached.length : 0; i < this.visible.length; i++)
      state = applyNode(reducer, state, this.visible[i] as TreeNode);
    this.folds.set(reducer as unknown as StateReducer, {
      last: this.visible.at(-1),
      length: this.visible.length,
      state,
    });
    return state;
  }

  /** Whether recorded nodes remain: the turn is still re-running what it did before. */
  get replaying(): boolean {
    return this.cursor < this.recorded.length;
  }

  /**
   * The questions the record asked that nothing answers yet, neither in the record nor since, oldest
   * first: what a rebuilt turn is about to ask again (their ids are the ones its clients were sent).
   */
  openInRecord(): string[] {
    const idOf = (node: TreeNode) => String(node.payload['elicitId']);
    const answered = new Set(
      [...this.recorded, ...this.visible].filter((n) => n.kind === 'response').map(idOf),
    );
    return this.recorded.filter((n) => n.kind === 'elicit' && !answered.has(idOf(n))).map(idOf);
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
    this.advance(this.cursor + 1);
    this.visible.push(next);
    return next as TreeNode<K>;
  }

  /**
   * Consumes the recorded node that answers one of several questions asked at once: each waits on
   * its own answer, and the person answered them in their own order, so the one this asker wants
   * may be recorded after another's. It waits for the other askers to replay up to it; undefined
   * when it is not recorded at all (the question is still open: the caller asks it live).
   */
  *takeWhenReached<K extends NodeKind>(
    kind: K,
    what: string,
    matches: (node: TreeNode<K>) => boolean,
  ): Operation<TreeNode<K> | undefined> {
    const fits = (node: TreeNode) => node.kind === kind && matches(node as TreeNode<K>);
    for (;;) {
      const next = this.recorded[this.cursor];
      if (next && fits(next)) return this.take(kind, what, matches);
      if (!this.recorded.slice(this.cursor).some(fits)) return undefined;
      yield* this.nextAdvance();
    }
  }

  /**
   * Resolves once every recorded node is consumed: a question answered live while another asker
   * of the same turn still replays its record is written after that record, not inside it.
   */
  *replayed(): Operation<void> {
    while (this.replaying) yield* this.nextAdvance();
  }

  private *nextAdvance(): Operation<void> {
    yield* action<void>((resolve) => {
      this.advanced.add(resolve);
      return () => this.advanced.delete(resolve);
    });
  }

  /** Moves the cursor on, waking whoever waits for the replay to reach its node. */
  private advance(to: number): void {
    this.cursor = to;
    for (const wake of [...this.advanced]) wake();
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
        this.advance(i + 1);
        return node as TreeNode<K>;
      }
    }
    return undefined;
  }

  /**
   * Appends a chain of nodes under the turn's last node and returns them, named; they are stored at
   * the next durability point. Refuses while recorded nodes remain unconsumed.
   */
  *append(drafts: NodeDraft[]): Operation<TreeNode[]> {
    if (this.replaying) {
      const next = this.peek() as TreeNode;
      throw new ReplayDivergenceError(
        `a live write (${drafts.map((d) => d.kind).join(', ')}) while the record still holds ${next.kind} ${next.id.slice(0, 12)}`,
      );
    }
    return this.add(drafts, 'append');
  }

  /**
   * Leaves the turn's branch for `point`, a node on its path (a subagent's attempt abandoned:
   * ./fork): what was appended since is stored first, so the branch left stays in the tree, then
   * `drafts` are stored under `point` and HEAD moves to the last of them in one write (reflog
   * `return`). The turn goes on from there, its path and folds the checkpoint's again.
   */
  *returnTo(point: TreeNode, drafts: NodeDraft[]): Operation<TreeNode[]> {
    if (this.replaying) {
      const next = this.peek() as TreeNode;
      throw new ReplayDivergenceError(
        `a return to ${point.id.slice(0, 12)} while the record still holds ${next.kind} ${next.id.slice(0, 12)}`,
      );
    }
    const at = this.visible.indexOf(point);
    if (at < 0) throw new Error(`returning to ${point.id.slice(0, 12)}, which is not on the turn's path`);
    yield* this.durable();
    const built = this.port.build({ conversationId: this.conversationId, parent: point, nodes: drafts });
    if (!built.ok) throw new Error(`returning to ${point.id.slice(0, 12)}: ${built.error.message}`);
    const nodes = built.value;
    yield* call(() =>
      this.commit.returnTo(nodes, () => {
        this.visible.length = at + 1;
        this.visible.push(...nodes);
      }),
    );
    return nodes;
  }

  /**
   * A durability point: waits until every node appended so far is stored. Throws HeadMovedError
   * when the conversation moved under the runner.
   */
  *durable(): Operation<void> {
    yield* call(() => this.commit.flush());
  }

  /**
   * Starts storing every node appended so far without waiting (an answer the client waits to see
   * acknowledged). A failure is not lost: the next durability point throws it.
   */
  startWriting(): void {
    this.commit.flush().catch(() => undefined);
  }

  /**
   * Starts storing what is appended so far soon, without waiting (see GroupCommit's `writeSoon`):
   * with the turn's next nodes when it reaches a durability point within GROUP_COMMIT_MS, alone
   * after that. Resolves once it is stored; a failure is not lost: the next durability point
   * throws it.
   */
  writeSoon(): Promise<void> {
    return this.commit.writeSoon();
  }

  /**
   * Appends nodes outside the turn and stores them soon (see `writeSoon`): a person's message, which
   * the turn it begins goes on from at once, lands with what the turn says first.
   */
  appendSoon(drafts: NodeDraft[]): { nodes: TreeNode[]; stored: Promise<void> } {
    const nodes = this.add(drafts, 'append');
    return { nodes, stored: this.writeSoon() };
  }

  /**
   * Resolves once everything appended so far has been stored or has failed. Cancel waits on this:
   * what a halted turn appended still lands, and the cancel node must come after it, never before.
   */
  drained(): Promise<void> {
    return this.commit.flush().catch(() => undefined);
  }

  /**
   * The runner stops: what is not stored yet is dropped (nobody outside saw it) and nothing more
   * is appended. A write promised soon (`writeSoon`: someone waits to see it acknowledged) is
   * started now instead, as a write already under way would have been. Resolves once the write
   * under way has landed or failed (which a dead connection may never do: callers need not wait).
   */
  abandon(): Promise<void> {
    return this.commit.abandon();
  }

  /** Appends and stores at once, outside any turn (the cancel node, a user message). */
  async appendNow(drafts: NodeDraft[], action: WriteAction = 'append'): Promise<TreeNode[]> {
    const nodes = this.add(drafts, action);
    await this.commit.flush();
    return nodes;
  }

  private add(drafts: NodeDraft[], action: WriteAction): TreeNode[] {
    this.commit.check();
    const built = this.port.build({
      conversationId: this.conversationId,
      parent: this.visible.at(-1) as TreeNode,
      nodes: drafts,
    });
    if (!built.ok) {
      throw new Error(`appending ${drafts.map((d) => d.kind).join(', ')}: ${built.error.message}`);
    }
    this.visible.push(...built.value);
    this.commit.hold(built.value, action);
    return built.value;
  }
}

/**
 * A replayed turn did not match its record: the code changed under a conversation, and going on
 * would pair old records with new calls. The turn stops; `ask` lets it through rather than taking
 * its fallback.
 *
 * @example
 * // throws ReplayDivergenceError when the record holds another kind of node here
 * const recorded = run.journal.take('assistant', 'a fallback reply');
 */
export class ReplayDivergenceError extends Error {
  override readonly name = 'ReplayDivergenceError';
}
