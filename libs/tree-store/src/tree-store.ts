import type {
  StateReducer,
  AdminReflogEntry,
  AgentName,
  ConversationRecord,
  ConversationUsage,
  Json,
  ReflogEntry,
  Result,
  TreeListingNode,
  TreeNode,
  TreeNodeWithChildren,
} from '@sweatpants/domain';
import { squashAndRebase, type SquashError, type SquashInput, type Squashed } from './compaction';
import { ConversationReader, type ConversationPage } from './conversation-reader';
import { ConversationTitles } from './conversation-titles';
import { fsck, type FsckReport } from './fsck';
import { MessageQueue } from './message-queue';
import { gc, type GcReport, type RetentionPolicy } from './gc';
import { ReflogReader, type AdminReflogFilter, type ReflogPage } from './reflog-reader';
import type { SqlClient } from './sql-client';
import { StateFold } from './state-fold';
import type { StoreError } from './store-error';
import { TreeReader, type NodePosition } from './tree-reader';
import type { Appended } from './chain-append';
import { TreeWriter, type AppendInput, type Moved, type MoveInput } from './tree-writer';

/**
 * The git-like conversation store: immutable content-addressed nodes, HEAD moved only by
 * compare-and-swap with a reflog row, path reads by segment, state folds with snapshots,
 * squash-and-rebase, fork, fsck and gc. Each capability lives in the file named after it; this
 * class is the one handle the api holds.
 */
export class TreeStore {
  private readonly reader: TreeReader;
  private readonly writer: TreeWriter;
  private readonly reflogs: ReflogReader;
  private readonly conversations: ConversationReader;
  private readonly titles: ConversationTitles;
  private readonly states: StateFold;
  /** messages sent while the agent worked, waiting beside the tree to be taken */
  readonly queue: MessageQueue;

  constructor(private readonly db: SqlClient) {
    this.reader = new TreeReader(db);
    this.writer = new TreeWriter(db);
    this.reflogs = new ReflogReader(db);
    this.conversations = new ConversationReader(db);
    this.titles = new ConversationTitles(db);
    this.states = new StateFold(db);
    this.queue = new MessageQueue(db);
  }

  createConversation(input: { ownerId: string; agent: AgentName; title?: string }) {
    return this.writer.createConversation(input);
  }

  conversation(conversationId: string): Promise<ConversationRecord | null> {
    return this.conversations.get(conversationId);
  }

  /** Newest created first, for the admin audit; `before` is the previous page's last id. */
  /** Its model calls' token usage over every branch; null for no such conversation. */
  usage(conversationId: string): Promise<ConversationUsage | null> {
    return this.conversations.usage(conversationId);
  }

  listConversations(query: { ownerId?: string; includeArchived?: boolean; before?: string; limit: number }) {
    return this.conversations.list(query);
  }

  /** One owner's live conversations by last activity, `q` matching titles (see ConversationReader.recent). */
  recentConversations(query: {
    ownerId: string;
    q?: string;
    before?: string;
    limit: number;
  }): Promise<Result<ConversationPage, StoreError>> {
    return this.conversations.recent(query);
  }

  /** One owner's archived conversations, most recently archived first (see ConversationReader.archived). */
  archivedConversations(query: {
    ownerId: string;
    q?: string;
    before?: string;
    limit: number;
  }): Promise<Result<ConversationPage, StoreError>> {
    return this.conversations.archived(query);
  }

  /** The owner renames; HEAD and the list's order stay as they are. Null for no such live conversation. */
  rename(conversationId: string, title: string): Promise<ConversationRecord | null> {
    return this.titles.rename(conversationId, title);
  }

  /** Titles the conversation only if it has no title yet (a rename in between wins). */
  titleIfUntitled(conversationId: string, title: string): Promise<boolean> {
    return this.titles.titleIfUntitled(conversationId, title);
  }

  archive(conversationId: string): Promise<boolean> {
    return this.writer.archive(conversationId);
  }

  append(input: AppendInput): Promise<Result<Appended, StoreError>> {
    return this.writer.append(input);
  }

  appendBuilt(input: Parameters<TreeWriter['appendBuilt']>[0]): Promise<Result<Appended, StoreError>> {
    return this.writer.appendBuilt(input);
  }

  appendBuiltRuns(
    input: Parameters<TreeWriter['appendBuiltRuns']>[0],
  ): Promise<Result<Appended[], StoreError>> {
    return this.writer.appendBuiltRuns(input);
  }

  edit(input: Parameters<TreeWriter['edit']>[0]): Promise<Result<Appended, StoreError>> {
    return this.writer.edit(input);
  }

  move(input: MoveInput): Promise<Result<Moved, StoreError>> {
    return this.writer.move(input);
  }

  recover(input: Parameters<TreeWriter['recover']>[0]): Promise<Result<Moved, StoreError>> {
    return this.writer.recover(input);
  }

  /** Forks in one transaction: a failure leaves no half-copied conversation behind. */
  fork(input: { conversationId: string; at: string; ownerId: string; title?: string; actorId: string }) {
    return this.db.transaction((tx) => new TreeWriter(tx).fork(input));
  }

  head(conversationId: string): Promise<NodePosition | null> {
    return this.reader.head(conversationId);
  }

  resolve(conversationId: string, ref: string): Promise<Result<NodePosition, StoreError>> {
    return this.reader.resolve(conversationId, ref);
  }

  path(conversationId: string, ref = 'HEAD'): Promise<Result<TreeNode[], StoreError>> {
    return this.reader.path(conversationId, ref);
  }

  /**
   * The path to a ref from its latest summary (from the first of a stack of them), or from the
   * root when it has none: what an agent's runner opens on (see TreeReader.pathFromSummary).
   */
  pathFromSummary(conversationId: string, ref = 'HEAD'): Promise<Result<TreeNode[], StoreError>> {
    return this.reader.pathFromSummary(conversationId, ref);
  }

  node(conversationId: string, nodeId: string): Promise<TreeNodeWithChildren | null> {
    return this.reader.node(conversationId, nodeId);
  }

  children(conversationId: string, nodeId: string): Promise<TreeNode[]> {
    return this.reader.children(conversationId, nodeId);
  }

  tree(
    conversationId: string,
    page: { after?: string; limit: number },
  ): Promise<Result<{ nodes: TreeListingNode[]; next: string | null }, StoreError>> {
    return this.reader.tree(conversationId, page);
  }

  reflog(
    conversationId: string,
    page: { before?: string; limit: number },
  ): Promise<Result<ReflogPage, StoreError>> {
    return this.reflogs.page(conversationId, page);
  }

  reflogEntry(conversationId: string, reflogId: string): Promise<ReflogEntry | null> {
    return this.reflogs.entry(conversationId, reflogId);
  }

  adminReflog(filter: AdminReflogFilter): Promise<Result<ReflogPage<AdminReflogEntry>, StoreError>> {
    return this.reflogs.across(filter);
  }

  stateAt<S extends Json>(conversationId: string, ref: string, reducer: StateReducer<S>) {
    return this.states.at(conversationId, ref, reducer);
  }

  /** Squash-and-rebase in one transaction, under the conversation's lock. */
  squashAndRebase(input: SquashInput): Promise<Result<Squashed, SquashError>> {
    return this.db.transaction((tx) => squashAndRebase(tx, input));
  }

  fsck(conversationId: string): Promise<FsckReport | null> {
    return this.db.transaction((tx) => fsck(tx, conversationId), { snapshot: true });
  }

  gc(
    options: { conversationId?: string; now?: Date; dryRun?: boolean; policy?: RetentionPolicy } = {},
  ): Promise<GcReport> {
    return gc(this.db, options);
  }
}
