import { randomUUID } from 'node:crypto';
import {
  err,
  ok,
  type AgentName,
  type ConversationRecord,
  type Json,
  type MoveAction,
  type NodeDraft,
  type ReflogEntry,
  type Result,
  type TreeNode,
} from '@sweatpants/domain';
import {
  appendBuilt,
  appendBuiltRuns,
  insertChain,
  type AppendAction,
  type Appended,
  type BuiltAppend,
  type BuiltRunsAppend,
} from './chain-append';
import { nodeId } from './content-address';
import { chainDrafts, validateDrafts, type AppendDraft } from './node-chain';
import { ConversationReader } from './conversation-reader';
import { iso } from './rows';
import { ARCHIVE_CONVERSATION, RECOVER_TARGET, type RecoverTargetRow } from './sql';
import { describe, movedEntry, withNote } from './ref-moves';
import type { SqlExecutor } from './sql-client';
import { treeCreate, treeMove } from './store-functions';
import { conflict, invalid, notFound, type StoreError } from './store-error';
import { isConversationId, TreeReader } from './tree-reader';

export interface AppendInput {
  conversationId: string;
  /** one or more nodes, each the child of the one before; the first goes under `parentId` or HEAD */
  nodes: AppendDraft[];
  /** the parent of the first node; HEAD when absent */
  parentId?: string;
  /** compare-and-swap: the HEAD the caller saw; the append loses (conflict) if HEAD has moved */
  expectedHead?: string;
  action?: AppendAction;
  actorId: string;
  message?: string;
  /** how the actor acted, added to the reflog message (see withNote) */
  note?: string;
}

export interface Moved {
  head: string;
  reflog: ReflogEntry;
}

export interface MoveInput {
  conversationId: string;
  /** any ref form: an id, a prefix, HEAD~n, HEAD@{n} */
  to: string;
  action: MoveAction;
  /** compare-and-swap: refused with a conflict when HEAD is elsewhere */
  expectedHead?: string;
  actorId: string;
  message?: string;
  /** how the actor acted, added to the reflog message (see withNote) */
  note?: string;
}

/** A ref moved by an unconditional append may lose a race to a concurrent writer; it tries again. */
const APPEND_RETRIES = 20;

/** Writes to the tree. Every method that moves a ref writes its reflog row in the same statement. */
export class TreeWriter {
  private readonly reader: TreeReader;

  constructor(private readonly db: SqlExecutor) {
    this.reader = new TreeReader(db);
  }

  /** A new conversation: its root node, HEAD on the root, and the reflog's `create` row. */
  async createConversation(input: {
    ownerId: string;
    agent: AgentName;
    title?: string;
    forkedFrom?: { conversationId: string; nodeId: string };
  }): Promise<{ conversation: ConversationRecord; root: TreeNode }> {
    const id = randomUUID();
    const createdAt = new Date().toISOString();
    const payload: Json = input.forkedFrom
      ? { conversationId: id, forkedFrom: input.forkedFrom }
      : { conversationId: id };
    const root = nodeId({ parentId: null, kind: 'root', payload, authorId: input.ownerId, createdAt });
    const title = input.title ?? '';
    await treeCreate(this.db, {
      conversation: id,
      owner: input.ownerId,
      agent: input.agent,
      title,
      root,
      payload: JSON.stringify(payload),
      author: input.ownerId,
      createdAt,
      actor: input.ownerId,
      message: input.forkedFrom ? `create: fork of ${input.forkedFrom.conversationId}` : 'create',
    });
    return {
      conversation: {
        id,
        agent: input.agent,
        title,
        ownerId: input.ownerId,
        head: root,
        createdAt,
        updatedAt: createdAt,
        archivedAt: null,
      },
      root: {
        id: root,
        conversationId: id,
        parentId: null,
        depth: 0,
        kind: 'root',
        payload: payload as TreeNode<'root'>['payload'],
        authorId: input.ownerId,
        createdAt,
      },
    };
  }

  /**
   * Appends nodes and moves the ref to the last of them, with compare-and-swap on HEAD. With
   * `expectedHead` one round trip either wins or reports a conflict carrying the current HEAD; without
   * it (and without `parentId`) the append goes under whatever HEAD is, retrying a lost race.
   */
  async append(input: AppendInput): Promise<Result<Appended, StoreError>> {
    const drafts = validateDrafts(input.nodes);
    if (!drafts.ok) return drafts;
    if (!isConversationId(input.conversationId)) return err(notFound('no such conversation'));
    const action = input.action ?? 'append';
    for (let attempt = 0; ; attempt++) {
      let expected = input.expectedHead ?? null;
      if (expected === null && input.parentId === undefined) {
        const head = await this.reader.head(input.conversationId);
        if (!head) return err(notFound('no such conversation'));
        expected = head.id;
      }
      const parentId = input.parentId ?? (expected as string);
      const chained = chainDrafts(parentId, drafts.value, new Date().toISOString());
      if (!chained.ok) return chained;
      const written = await insertChain(this.db, input.conversationId, chained.value, {
        expected,
        parentId: input.parentId ?? null,
        action,
        actorId: input.actorId,
        message: withNote(input.message ?? describe(action, drafts.value.at(-1)), input.note),
      });
      const retry = input.expectedHead === undefined && attempt < APPEND_RETRIES;
      if (written.ok || written.error.code !== 'conflict' || !retry) return written;
    }
  }

  /** `appendBuilt` (chain-append): nodes `buildNodes` named, stored as a chain under `expectedHead`. */
  appendBuilt(input: BuiltAppend): Promise<Result<Appended, StoreError>> {
    return appendBuilt(this.db, input);
  }

  /** `appendBuiltRuns` (chain-append): several runs of built nodes, each its own HEAD move, in one round trip. */
  appendBuiltRuns(input: BuiltRunsAppend): Promise<Result<Appended[], StoreError>> {
    return appendBuiltRuns(this.db, input);
  }

  /**
   * Edits a user message: a new sibling with the new text, HEAD moved to it (action `edit`). The old
   * branch stays in the tree and in the reflog.
   */
  async edit(input: {
    conversationId: string;
    nodeId: string;
    text: string;
    photos?: NonNullable<TreeNode<'user'>['payload']['photos']>;
    authorId: string;
    expectedHead?: string;
    actorId: string;
    note?: string;
  }): Promise<Result<Appended, StoreError>> {
    const original = await this.reader.node(input.conversationId, input.nodeId);
    if (!original) return err(notFound(`no node ${input.nodeId} in this conversation`));
    if (original.kind !== 'user' || original.parentId === null) {
      return err(
        invalid('only user messages can be edited', [
          { field: 'nodeId', message: `is a ${original.kind} node` },
        ]),
      );
    }
    const payload = input.photos ? { text: input.text, photos: input.photos } : { text: input.text };
    return this.append({
      conversationId: input.conversationId,
      nodes: [{ kind: 'user', payload, authorId: input.authorId }],
      parentId: original.parentId,
      ...(input.expectedHead !== undefined ? { expectedHead: input.expectedHead } : {}),
      action: 'edit',
      actorId: input.actorId,
      ...(input.note !== undefined ? { note: input.note } : {}),
    });
  }

  /** Moves HEAD to an existing node of the conversation (rewind, cancel, recover, return). */
  async move(input: MoveInput): Promise<Result<Moved, StoreError>> {
    const target = await this.reader.resolve(input.conversationId, input.to);
    if (!target.ok) return target;
    const message = withNote(input.message ?? `${input.action}: to ${input.to}`, input.note);
    const row = await treeMove(this.db, {
      conversation: input.conversationId,
      ref: 'HEAD',
      expected: input.expectedHead ?? null,
      target: target.value.id,
      action: input.action,
      actor: input.actorId,
      message,
    });
    switch (row.status) {
      case 'ok':
        return ok({
          head: row.head as string,
          reflog: movedEntry(row, input.action, input.actorId, message),
        });
      case 'conflict':
        return err(conflict(row.head as string));
      case 'not_found':
      case 'bad_target':
        return err(notFound('no such conversation or node'));
    }
  }

  /** Moves HEAD back to where a reflog entry put it (action `recover`). */
  async recover(input: {
    conversationId: string;
    reflogId: string;
    expectedHead?: string;
    actorId: string;
    note?: string;
  }): Promise<Result<Moved, StoreError>> {
    if (!isConversationId(input.conversationId) || !/^\d{1,18}$/.test(input.reflogId)) {
      return err(notFound('no such reflog entry'));
    }
    const [entry] = await this.db.query<RecoverTargetRow>(RECOVER_TARGET, [
      input.reflogId,
      input.conversationId,
    ]);
    if (!entry) return err(notFound('no such reflog entry'));
    return this.move({
      conversationId: input.conversationId,
      to: entry.new_node,
      action: 'recover',
      ...(input.expectedHead !== undefined ? { expectedHead: input.expectedHead } : {}),
      actorId: input.actorId,
      message: `recover: HEAD@{${entry.index}} (${entry.action})`,
      ...(input.note !== undefined ? { note: input.note } : {}),
    });
  }

  /**
   * A new conversation of `ownerId` whose path is a copy of the path to `at`: the same contents,
   * authors and times under a new root (so new ids), HEAD at the copy of `at` (action `fork`).
   * Run it inside a transaction so a failure leaves no half-made conversation.
   */
  async fork(input: {
    conversationId: string;
    at: string;
    ownerId: string;
    title?: string;
    actorId: string;
  }): Promise<Result<{ conversation: ConversationRecord; head: string }, StoreError>> {
    const source = await new ConversationReader(this.db).get(input.conversationId);
    if (!source) return err(notFound('no such conversation'));
    const at = await this.reader.resolve(input.conversationId, input.at);
    if (!at.ok) return at;
    const path = await this.reader.pathRows(at.value);
    const { conversation, root } = await this.createConversation({
      ownerId: input.ownerId,
      agent: source.agent,
      title: input.title ?? (source.title ? `${source.title} (fork)` : ''),
      forkedFrom: { conversationId: source.id, nodeId: at.value.id },
    });
    if (path.length <= 1) return ok({ conversation, head: root.id });
    // Copies keep their original times, so the history reads the same in both conversations.
    // The rows' kind and payload were validated when first stored, so they pair up as a draft.
    const copies = path.slice(1).map((row): AppendDraft => {
      const draft = { kind: row.kind, payload: row.payload, authorId: row.author_id };
      return { ...(draft as NodeDraft), createdAt: iso(row.created_at) };
    });
    const copied = await this.append({
      conversationId: conversation.id,
      nodes: copies,
      expectedHead: root.id,
      action: 'fork',
      actorId: input.actorId,
      message: `fork: ${path.length - 1} nodes from ${source.id} at ${at.value.id.slice(0, 12)}`,
    });
    if (!copied.ok) throw new Error(`fork: appending the copied path failed: ${copied.error.message}`);
    return ok({ conversation: { ...conversation, head: copied.value.head }, head: copied.value.head });
  }

  /** The owner archives a conversation: no more writes; it stays readable for admins. */
  async archive(conversationId: string): Promise<boolean> {
    if (!isConversationId(conversationId)) return false;
    const rows = await this.db.query(ARCHIVE_CONVERSATION, [conversationId]);
    return rows.length > 0;
  }
}
