import type { AppendRow, MoveRow } from './ref-moves';
import type { SqlExecutor } from './sql-client';

/**
 * The store's stored functions (their bodies: migrations/sql/*.sql), each called through one typed
 * wrapper that names its arguments (`p_expected => $3`), so an argument added or reordered in a
 * function's file cannot silently shift what the store passes.
 */

/** tree_create: a conversation, its first segment, its root node, HEAD and the first reflog row. */
export async function treeCreate(
  db: SqlExecutor,
  a: {
    conversation: string;
    owner: string;
    agent: string;
    title: string;
    /** the root node's id, hex */
    root: string;
    payload: string;
    author: string;
    createdAt: string;
    actor: string;
    message: string;
  },
): Promise<void> {
  await db.query(
    `SELECT * FROM tree_create(p_conversation => $1, p_owner => $2, p_agent => $3, p_title => $4,
       p_root => $5, p_payload => $6::jsonb, p_author => $7, p_created_at => $8::timestamptz,
       p_actor => $9, p_message => $10)`,
    [a.conversation, a.owner, a.agent, a.title, a.root, a.payload, a.author, a.createdAt, a.actor, a.message],
  );
}

/** The nodes of one tree_append, in order, each column an array. */
export interface AppendedColumns {
  /** hex ids */
  ids: readonly string[];
  kinds: readonly string[];
  /** each payload as JSON text */
  payloads: readonly string[];
  authors: readonly string[];
  /** ISO times */
  times: readonly string[];
}

/**
 * tree_append: the nodes under `parent` (HEAD's node when null) and `ref` moved to the last, with
 * compare-and-swap on `expected` (null: under the ref's row lock instead), and the reflog row.
 */
export async function treeAppend(
  db: SqlExecutor,
  a: {
    conversation: string;
    ref: string;
    expected: string | null;
    parent: string | null;
    nodes: AppendedColumns;
    action: string;
    actor: string;
    message: string;
  },
): Promise<AppendRow> {
  const [row] = await db.query<AppendRow>(
    `SELECT * FROM tree_append(p_conversation => $1, p_ref => $2, p_expected => $3, p_parent => $4,
       p_ids => $5, p_kinds => $6, p_payloads => $7::jsonb[], p_authors => $8, p_times => $9::timestamptz[],
       p_action => $10, p_actor => $11, p_message => $12)`,
    [
      a.conversation,
      a.ref,
      a.expected,
      a.parent,
      a.nodes.ids,
      a.nodes.kinds,
      a.nodes.payloads,
      a.nodes.authors,
      a.nodes.times,
      a.action,
      a.actor,
      a.message,
    ],
  );
  if (!row) throw new Error('tree_append returned nothing');
  return row;
}

/** One run of a tree_append_runs: its nodes, and how its HEAD move is logged. */
export interface AppendedRun {
  nodes: AppendedColumns;
  action: string;
  actor: string;
  message: string;
}

/**
 * tree_append_runs: each run a chain under the one before, the first under `expected` (with
 * compare-and-swap on it), each moving `ref` with its own reflog row; one row per run landed, or
 * the first run's refusal alone (then nothing is written).
 */
export async function treeAppendRuns(
  db: SqlExecutor,
  a: { conversation: string; ref: string; expected: string; runs: readonly AppendedRun[] },
): Promise<AppendRow[]> {
  const column = <K extends keyof AppendedColumns>(key: K) => a.runs.flatMap((r) => [...r.nodes[key]]);
  let end = 0;
  const ends = a.runs.map((r) => (end += r.nodes.ids.length));
  const rows = await db.query<AppendRow>(
    `SELECT * FROM tree_append_runs(p_conversation => $1, p_ref => $2, p_expected => $3, p_ids => $4,
       p_kinds => $5, p_payloads => $6::jsonb[], p_authors => $7, p_times => $8::timestamptz[],
       p_run_ends => $9::integer[], p_actions => $10, p_actors => $11, p_messages => $12)`,
    [
      a.conversation,
      a.ref,
      a.expected,
      column('ids'),
      column('kinds'),
      column('payloads'),
      column('authors'),
      column('times'),
      ends,
      a.runs.map((r) => r.action),
      a.runs.map((r) => r.actor),
      a.runs.map((r) => r.message),
    ],
  );
  if (rows.length === 0) throw new Error('tree_append_runs returned nothing');
  return rows;
}

/** tree_move: `ref` moved to `target`, an existing node, with the same compare-and-swap. */
export async function treeMove(
  db: SqlExecutor,
  a: {
    conversation: string;
    ref: string;
    expected: string | null;
    target: string;
    action: string;
    actor: string;
    message: string;
  },
): Promise<MoveRow> {
  const [row] = await db.query<MoveRow>(
    `SELECT * FROM tree_move(p_conversation => $1, p_ref => $2, p_expected => $3, p_target => $4,
       p_action => $5, p_actor => $6, p_message => $7)`,
    [a.conversation, a.ref, a.expected, a.target, a.action, a.actor, a.message],
  );
  if (!row) throw new Error('tree_move returned nothing');
  return row;
}

/** tree_gc: what one conversation's retention lets go (reflog rows, then nodes), deleted unless a dry run. */
export function treeGc(
  db: SqlExecutor,
  a: { conversation: string; now: string; reachableDays: number; unreachableDays: number; dryRun: boolean },
): Promise<{ kind: 'reflog' | 'node'; id: string }[]> {
  return db.query(
    `SELECT * FROM tree_gc(p_conversation => $1, p_now => $2::timestamptz,
       p_reachable => make_interval(days => $3), p_unreachable => make_interval(days => $4), p_dry_run => $5)`,
    [a.conversation, a.now, a.reachableDays, a.unreachableDays, a.dryRun],
  );
}
