import { err, ok, type ReflogAction, type ReflogEntry, type Result, type TreeNode } from '@sweatpants/domain';
import { chainedNodes, wasBuilt, type AppendDraft, type ChainedDraft } from './node-chain';
import { describe, movedEntry, withNote, type AppendRow } from './ref-moves';
import type { SqlExecutor } from './sql-client';
import { treeAppend, treeAppendRuns, type AppendedColumns } from './store-functions';
import { conflict, invalid, notFound, type StoreError } from './store-error';
import { isConversationId } from './tree-reader';

// A chain of nodes under HEAD as the stored functions write it: one tree_append (the chain, the
// ref's compare-and-swap and its reflog row in one statement) or one tree_append_runs (several
// such chains, each its own HEAD move, all landing or none), and what they return in the store's
// words. TreeWriter's appends and the runtime's journal (through appendBuilt/appendBuiltRuns)
// write this way.

/** Actions that write nodes as they move the ref. */
export type AppendAction = Exclude<ReflogAction, 'create' | 'rewind' | 'regenerate' | 'recover'>;

export interface Appended {
  nodes: TreeNode[];
  head: string;
  reflog: ReflogEntry;
}

/** One run of built nodes stored under `expectedHead` (or `parentId`), for `appendBuilt`. */
export type BuiltAppend = BuiltRun & {
  conversationId: string;
  /** the parent of the first node, when it is not HEAD (a `return` leaves HEAD's branch) */
  parentId?: string;
  expectedHead: string;
};

/** Several runs of built nodes, each a chain under the one before, for `appendBuiltRuns`. */
export interface BuiltRunsAppend {
  conversationId: string;
  expectedHead: string;
  runs: readonly BuiltRun[];
}

/**
 * Stores nodes that `buildNodes` named (a writer that goes on from its nodes before they are
 * written: the runtime's journal) as a chain under `expectedHead` (under `parentId` when given:
 * HEAD leaves its branch), with compare-and-swap on `expectedHead`. They
 * were validated and content-addressed when built, so this is the append's round trip alone; a
 * node built elsewhere, or a run that is not a chain from `expectedHead`, is refused.
 */
export async function appendBuilt(
  db: SqlExecutor,
  input: BuiltAppend,
): Promise<Result<Appended, StoreError>> {
  if (!isConversationId(input.conversationId)) return err(notFound('no such conversation'));
  if (!isBuiltChain(input.conversationId, input.nodes, input.parentId ?? input.expectedHead))
    return err(notBuilt());
  const move = moveOf(input);
  return insertChain(db, input.conversationId, move.chained, {
    ...move,
    expected: input.expectedHead,
    parentId: input.parentId ?? null,
  });
}

/**
 * Stores several runs of built nodes under `expectedHead` in one round trip: each a chain under
 * the one before and its own HEAD move with its own reflog row (who moved HEAD, and how), as
 * that many `appendBuilt`s in turn would, but all landing or none. Only the first run's
 * compare-and-swap can lose; then nothing is written.
 */
export async function appendBuiltRuns(
  db: SqlExecutor,
  input: BuiltRunsAppend,
): Promise<Result<Appended[], StoreError>> {
  const [only, ...more] = input.runs;
  if (only && more.length === 0) {
    const written = await appendBuilt(db, {
      ...only,
      conversationId: input.conversationId,
      expectedHead: input.expectedHead,
    });
    return written.ok ? ok([written.value]) : written;
  }
  if (!isConversationId(input.conversationId)) return err(notFound('no such conversation'));
  const nodes = input.runs.flatMap((r) => r.nodes);
  if (
    input.runs.some((r) => r.nodes.length === 0) ||
    !isBuiltChain(input.conversationId, nodes, input.expectedHead)
  )
    return err(notBuilt());
  const moves = input.runs.map(moveOf);
  const rows = await treeAppendRuns(db, {
    conversation: input.conversationId,
    ref: 'HEAD',
    expected: input.expectedHead,
    runs: moves.map((m) => ({
      nodes: columnsOf(m.chained),
      action: m.action,
      actor: m.actorId,
      message: m.message,
    })),
  });
  const appended: Appended[] = [];
  for (const [i, row] of rows.entries()) {
    const run = landed(input.conversationId, moves[i] as ChainMove, row, null);
    if (!run.ok) return run;
    appended.push(run.value);
  }
  return ok(appended);
}

/** One tree_append: the chain, the ref's compare-and-swap and its reflog row in one statement. */
export async function insertChain(
  db: SqlExecutor,
  conversationId: string,
  chained: ChainedDraft[],
  move: {
    expected: string | null;
    parentId: string | null;
    action: AppendAction;
    actorId: string;
    message: string;
  },
): Promise<Result<Appended, StoreError>> {
  const row = await treeAppend(db, {
    conversation: conversationId,
    ref: 'HEAD',
    expected: move.expected,
    parent: move.parentId,
    nodes: columnsOf(chained),
    action: move.action,
    actor: move.actorId,
    message: move.message,
  });
  return landed(conversationId, { ...move, chained }, row, move.parentId);
}

/** A tree_append row in the store's words: the nodes stored and HEAD's move, or the refusal. */
function landed(
  conversationId: string,
  move: ChainMove,
  row: AppendRow,
  parentId: string | null,
): Result<Appended, StoreError> {
  switch (row.status) {
    case 'ok':
      return ok({
        nodes: chainedNodes(conversationId, move.chained, row.first_depth as number),
        head: row.head as string,
        reflog: movedEntry(row, move.action, move.actorId, move.message),
      });
    case 'conflict':
      return err(conflict(row.head as string));
    case 'not_found':
      return err(notFound('no such conversation'));
    case 'bad_parent':
      return err(notFound(`no node ${parentId ?? ''} in this conversation`));
  }
}

/** One run of built nodes for `appendBuilt`/`appendBuiltRuns`, and how its HEAD move is logged. */
export interface BuiltRun {
  nodes: readonly TreeNode[];
  action?: AppendAction;
  actorId: string;
  message?: string;
  /** how the actor acted, added to the reflog message (see withNote) */
  note?: string;
}

/** A run's nodes as the store writes them, with its HEAD move as the reflog logs it. */
interface ChainMove {
  chained: ChainedDraft[];
  action: AppendAction;
  actorId: string;
  message: string;
}

function moveOf(run: BuiltRun): ChainMove {
  const action = run.action ?? 'append';
  const chained = run.nodes.map((n) => ({
    id: n.id,
    parentId: n.parentId as string,
    draft: { kind: n.kind, payload: n.payload, authorId: n.authorId } as AppendDraft,
    createdAt: n.createdAt,
  }));
  const message = withNote(run.message ?? describe(action, chained.at(-1)?.draft), run.note);
  return { chained, action, actorId: run.actorId, message };
}

/** Whether `nodes` were named by buildNodes for this conversation, each under the one before, the first under `parent`. */
function isBuiltChain(conversationId: string, nodes: readonly TreeNode[], parent: string): boolean {
  return (
    nodes.length > 0 &&
    nodes.every(
      (n, i) =>
        wasBuilt(n) &&
        n.conversationId === conversationId &&
        n.parentId === (i === 0 ? parent : nodes[i - 1]?.id),
    )
  );
}

function notBuilt(): StoreError {
  return invalid('not a chain of built nodes', [{ field: 'nodes', message: 'use buildNodes' }]);
}

function columnsOf(chained: readonly ChainedDraft[]): AppendedColumns {
  return {
    ids: chained.map((b) => b.id),
    kinds: chained.map((b) => b.draft.kind),
    payloads: chained.map((b) => JSON.stringify(b.draft.payload)),
    authors: chained.map((b) => b.draft.authorId),
    times: chained.map((b) => b.createdAt),
  };
}
