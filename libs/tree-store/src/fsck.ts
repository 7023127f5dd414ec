import type { Json, NodeKind } from '@sweatpants/domain';
import { nodeId } from './content-address';
import { iso } from './rows';
import {
  CONVERSATION_EXISTS,
  FSCK_NODES_PAGE,
  FSCK_PAGE,
  REFLOG_OF_REF,
  REFS,
  SEGMENTS,
  type NodeRow,
  type ReflogLinkRow,
  type RefRow,
  type SegmentRow,
} from './sql';
import type { SqlExecutor } from './sql-client';
import { isConversationId } from './tree-reader';

export type FsckProblemCode =
  | 'hash_mismatch'
  | 'bad_root'
  | 'missing_parent'
  | 'bad_depth'
  | 'bad_segment'
  | 'dangling_ref'
  | 'reflog_gap'
  | 'reflog_discontinuity'
  | 'ref_unlogged'
  | 'reflog_dangling';

export interface FsckProblem {
  code: FsckProblemCode;
  message: string;
  nodeId?: string;
  reflogId?: string;
}

export interface FsckReport {
  ok: boolean;
  /** nodes and reflog rows examined */
  checked: number;
  problems: FsckProblem[];
}

interface Seen {
  depth: number;
  segmentId: string;
}

/**
 * Verifies a conversation: every node's id is the hash of its content and its parent's id (so the
 * whole path is a hash chain), depths and segments agree with parents, every ref points at a node,
 * and each ref's reflog is continuous and ends where the ref is. Reports every problem it finds.
 */
export async function fsck(db: SqlExecutor, conversationId: string): Promise<FsckReport | null> {
  if (!isConversationId(conversationId)) return null;
  const [conversation] = await db.query(CONVERSATION_EXISTS, [conversationId]);
  if (!conversation) return null;
  const problems: FsckProblem[] = [];
  const seen = new Map<string, Seen>();
  const atPosition = new Map<string, string>();
  const segments = new Map(
    (await db.query<SegmentRow>(SEGMENTS, [conversationId])).map((s) => [String(s.id), s]),
  );
  let checked = 0;
  let roots = 0;
  let after: [string, number] = ['0', -1];
  for (;;) {
    // Parents come before their children (FSCK_NODES_PAGE), so each node's parent has been seen.
    const rows = await db.query<NodeRow>(FSCK_NODES_PAGE, [conversationId, after[0], after[1]]);
    for (const row of rows) {
      checked++;
      checkNode(conversationId, row, seen, atPosition, segments, problems);
      if (row.kind === 'root') roots++;
      seen.set(row.id, { depth: row.depth, segmentId: String(row.segment_id) });
      atPosition.set(`${row.segment_id}:${row.depth}`, row.id);
    }
    const last = rows.at(-1);
    if (!last || rows.length < FSCK_PAGE) break;
    after = [String(last.segment_id), last.depth];
  }
  if (roots !== 1)
    problems.push({ code: 'bad_root', message: `the conversation has ${roots} roots, not one` });

  const refs = await db.query<RefRow>(REFS, [conversationId]);
  for (const ref of refs) {
    if (!seen.has(ref.node)) {
      problems.push({
        code: 'dangling_ref',
        message: `${ref.name} points at ${ref.node}, not a node of this conversation`,
      });
    }
    const log = await db.query<ReflogLinkRow>(REFLOG_OF_REF, [conversationId, ref.name]);
    checked += log.length;
    let previous: (typeof log)[number] | undefined;
    for (const row of log) {
      const reflogId = String(row.id);
      if (previous && Number(row.seq) !== Number(previous.seq) + 1) {
        problems.push({
          code: 'reflog_gap',
          reflogId,
          message: `${ref.name}: rows ${previous.seq} to ${row.seq} are missing`,
        });
      }
      if (previous ? row.old_node !== previous.new_node : Number(row.seq) === 0 && row.old_node !== null) {
        problems.push({
          code: 'reflog_discontinuity',
          reflogId,
          message: `${ref.name}@${row.seq} starts at ${row.old_node ?? 'nothing'}, not where the row before ended`,
        });
      }
      for (const node of [row.old_node, row.new_node]) {
        if (node !== null && !seen.has(node)) {
          problems.push({
            code: 'reflog_dangling',
            reflogId,
            nodeId: node,
            message: `reflog row names a missing node`,
          });
        }
      }
      previous = row;
    }
    if (!previous || Number(previous.seq) !== Number(ref.seq) || previous.new_node !== ref.node) {
      problems.push({
        code: 'ref_unlogged',
        message: `${ref.name} is at ${ref.node} but its newest reflog row says otherwise`,
      });
    }
  }
  return { ok: problems.length === 0, checked, problems };
}

function checkNode(
  conversationId: string,
  row: NodeRow,
  seen: Map<string, Seen>,
  atPosition: Map<string, string>,
  segments: Map<string, { parent_id: string | null; fork_depth: number | null }>,
  problems: FsckProblem[],
): void {
  const expected = nodeId({
    parentId: row.parent_id,
    kind: row.kind as NodeKind,
    payload: row.payload as Json,
    authorId: row.author_id,
    createdAt: iso(row.created_at),
  });
  if (expected !== row.id) {
    problems.push({
      code: 'hash_mismatch',
      nodeId: row.id,
      message: `content hashes to ${expected}, not to its id`,
    });
  }
  if (row.parent_id === null) {
    const conversationOfRoot = (row.payload as { conversationId?: unknown }).conversationId;
    if (row.kind !== 'root' || row.depth !== 0 || conversationOfRoot !== conversationId) {
      problems.push({
        code: 'bad_root',
        nodeId: row.id,
        message: 'a parentless node must be this conversation’s root',
      });
    }
    return;
  }
  const parent = seen.get(row.parent_id);
  if (!parent) {
    problems.push({
      code: 'missing_parent',
      nodeId: row.id,
      message: `parent ${row.parent_id} is not in this conversation`,
    });
    return;
  }
  if (row.depth !== parent.depth + 1) {
    problems.push({
      code: 'bad_depth',
      nodeId: row.id,
      message: `depth ${row.depth} under a parent at ${parent.depth}`,
    });
  }
  const segment = segments.get(String(row.segment_id));
  const sameSegmentParent = atPosition.get(`${row.segment_id}:${row.depth - 1}`);
  const forkParent =
    segment?.parent_id != null && segment.fork_depth === row.depth - 1
      ? atPosition.get(`${segment.parent_id}:${segment.fork_depth}`)
      : undefined;
  if (row.parent_id !== (sameSegmentParent ?? forkParent)) {
    problems.push({
      code: 'bad_segment',
      nodeId: row.id,
      message: 'its segment places it under another parent',
    });
  }
}
