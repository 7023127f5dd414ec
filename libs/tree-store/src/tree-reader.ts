import {
  err,
  MIN_PREFIX_LENGTH,
  ok,
  parseRef,
  type Result,
  type TreeListingNode,
  type TreeNode,
  type TreeNodeWithChildren,
} from '@sweatpants/domain';
import { NODE_COLUMNS, decodeCursor, encodeCursor, toNode, type NodeRow } from './rows';
import type { SqlExecutor } from './sql-client';
import { invalid, notFound, type StoreError } from './store-error';

/** Where a node sits: its segment and depth, which is all a path read needs. */
export interface NodePosition {
  id: string;
  segmentId: string;
  depth: number;
}

/** One segment's share of a path: nodes of `segmentId` with depth in [lo, hi]. */
interface ChainLink {
  segment_id: string;
  lo: number;
  hi: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Conversation ids are uuids; anything else cannot name a conversation (and must not reach SQL as one). */
export const isConversationId = (id: string): boolean => UUID.test(id);

/**
 * The nodes root → a tip ($1 segment, $2 depth) below depth $3, root first. `OFFSET 0` keeps one
 * index range scan per segment of the path: without it the planner may flatten the lateral into a
 * join and, guessing a segment's size from the table's average, read the whole nodes table to hash
 * it (seen in the bench: 30 ms for a 1k path among 100k nodes, against 0.3 ms by index).
 */
export const PATH_ROWS_SQL = `SELECT ${NODE_COLUMNS} FROM tree_chain($1, $2) c
  CROSS JOIN LATERAL (
    SELECT * FROM nodes WHERE segment_id = c.segment_id AND depth <= c.hi AND depth > $3 OFFSET 0
  ) n
  ORDER BY n.depth`;

/**
 * The nodes of the path to a tip ($1 segment, $2 depth) from the first of its latest summaries
 * (tree_summary_base), root first when it has none. Segments wholly above that depth are left
 * out, and `OFFSET 0` keeps one index range scan per segment, as in PATH_ROWS_SQL.
 */
export const SUMMARY_PATH_ROWS_SQL = `SELECT ${NODE_COLUMNS}
  FROM (SELECT coalesce(tree_summary_base($1, $2), 0) AS base) b
  CROSS JOIN tree_chain($1, $2) c
  CROSS JOIN LATERAL (
    SELECT * FROM nodes WHERE segment_id = c.segment_id AND depth <= c.hi AND depth >= b.base OFFSET 0
  ) n
  WHERE c.hi >= b.base
  ORDER BY n.depth`;

/** Reads of the tree: ref resolution, paths, nodes and their children, pages of the whole tree. */
export class TreeReader {
  constructor(private readonly db: SqlExecutor) {}

  /** Where HEAD (or another ref) points, or null when the conversation does not exist. */
  async head(conversationId: string, ref = 'HEAD'): Promise<NodePosition | null> {
    if (!isConversationId(conversationId)) return null;
    const [row] = await this.db.query<{ id: string; segment_id: string; depth: number }>(
      `SELECT encode(n.id, 'hex') AS id, n.segment_id, n.depth FROM refs r JOIN nodes n ON n.id = r.node_id
       WHERE r.conversation_id = $1 AND r.name = $2`,
      [conversationId, ref],
    );
    return row ? { id: row.id, segmentId: String(row.segment_id), depth: row.depth } : null;
  }

  /** The position of a node of this conversation, by full id. */
  async position(conversationId: string, nodeId: string): Promise<NodePosition | null> {
    if (!isConversationId(conversationId) || !/^[0-9a-f]{64}$/.test(nodeId)) return null;
    const [row] = await this.db.query<{ segment_id: string; depth: number }>(
      `SELECT segment_id, depth FROM nodes WHERE id = decode($1, 'hex') AND conversation_id = $2`,
      [nodeId, conversationId],
    );
    return row ? { id: nodeId, segmentId: String(row.segment_id), depth: row.depth } : null;
  }

  /**
   * Resolves a ref (`HEAD`, `HEAD~n`, `HEAD@{n}`, an id or a unique prefix, with `~n` steps) to a
   * node of the conversation. Costs a few index probes, whatever the depth.
   */
  async resolve(conversationId: string, refText: string): Promise<Result<NodePosition, StoreError>> {
    const parsed = parseRef(refText);
    if (!parsed.ok) return err(invalid(parsed.error, [{ field: 'ref', message: parsed.error }]));
    const { base, ancestors } = parsed.ref;
    let position: NodePosition | null;
    switch (base.kind) {
      case 'head':
        position = await this.head(conversationId);
        break;
      case 'reflog':
        position = await this.reflogPosition(conversationId, base.n);
        if (!position && (await this.head(conversationId))) {
          return err(notFound(`HEAD@{${base.n}}: the reflog has no entry that far back`));
        }
        break;
      case 'id':
        position = await this.position(conversationId, base.id);
        break;
      case 'prefix': {
        const matches = await this.byPrefix(conversationId, base.prefix);
        if (matches.length > 1) {
          const message = `the prefix ${base.prefix} is ambiguous: use more than ${base.prefix.length} characters`;
          return err(invalid(message, [{ field: 'ref', message }]));
        }
        position = matches[0] ?? null;
        break;
      }
    }
    if (!position) return err(notFound(`no node ${refText} in this conversation`));
    if (ancestors === 0) return ok(position);
    const ancestor = await this.ancestor(position, ancestors);
    return ancestor ? ok(ancestor) : err(notFound(`${refText} is above the root`));
  }

  /** The n-th ancestor of a node: found among its path's segments, not by walking n parents. */
  async ancestor(of: NodePosition, n: number): Promise<NodePosition | null> {
    const depth = of.depth - n;
    if (depth < 0) return null;
    const [row] = await this.db.query<{ id: string; segment_id: string }>(
      `SELECT encode(n.id, 'hex') AS id, n.segment_id FROM tree_chain($1, $2) c
       JOIN nodes n ON n.segment_id = c.segment_id AND n.depth = $3
       WHERE $3 BETWEEN c.lo AND c.hi`,
      [of.segmentId, of.depth, depth],
    );
    return row ? { id: row.id, segmentId: String(row.segment_id), depth } : null;
  }

  /** Whether `node` is on the path root → `tip` (a node is on its own path). */
  async isAncestor(node: NodePosition, tip: NodePosition): Promise<boolean> {
    if (node.depth > tip.depth) return false;
    const [row] = await this.db.query<{ on: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM tree_chain($1, $2) c WHERE c.segment_id = $3 AND $4 BETWEEN c.lo AND c.hi) AS on`,
      [tip.segmentId, tip.depth, node.segmentId, node.depth],
    );
    return row?.on === true;
  }

  /**
   * The path root → `tip`, root first, optionally only below `afterDepth`: one range scan per
   * segment on the path, never one probe per level.
   */
  async pathRows(tip: NodePosition, afterDepth = -1): Promise<NodeRow[]> {
    return this.db.query<NodeRow>(PATH_ROWS_SQL, [tip.segmentId, tip.depth, afterDepth]);
  }

  /** The conversation's context at a ref: the nodes root → ref, root first. */
  async path(conversationId: string, refText = 'HEAD'): Promise<Result<TreeNode[], StoreError>> {
    const tip = await this.resolve(conversationId, refText);
    if (!tip.ok) return tip;
    const rows = await this.pathRows(tip.value);
    return ok(rows.map((row) => toNode(conversationId, row)));
  }

  /**
   * The conversation's context at a ref as an agent needs it: the path from its latest summary to
   * the ref, root first when it has no summary. When compactions stacked summaries (each one's
   * parent is the one before, each summarising only what followed it) the read begins at the
   * first of the stack, so what the summaries say is all there. The nodes are those `path`
   * returns for the same range; the cost does not grow with the depth above the summaries.
   */
  async pathFromSummary(conversationId: string, refText = 'HEAD'): Promise<Result<TreeNode[], StoreError>> {
    const tip = await this.resolve(conversationId, refText);
    if (!tip.ok) return tip;
    const rows = await this.db.query<NodeRow>(SUMMARY_PATH_ROWS_SQL, [tip.value.segmentId, tip.value.depth]);
    return ok(rows.map((row) => toNode(conversationId, row)));
  }

  /** One node with its children's ids (oldest child first). */
  async node(conversationId: string, nodeId: string): Promise<TreeNodeWithChildren | null> {
    if (!isConversationId(conversationId) || !/^[0-9a-f]{64}$/.test(nodeId)) return null;
    const [row] = await this.db.query<NodeRow>(
      `SELECT ${NODE_COLUMNS} FROM nodes n WHERE n.id = decode($1, 'hex') AND n.conversation_id = $2`,
      [nodeId, conversationId],
    );
    if (!row) return null;
    const children = await this.childIds([row]);
    return { ...toNode(conversationId, row), childIds: children.get(row.id) ?? [] };
  }

  /** The children of a node, oldest first. */
  async children(conversationId: string, nodeId: string): Promise<TreeNode[]> {
    const parent = await this.position(conversationId, nodeId);
    if (!parent) return [];
    const rows = await this.db.query<NodeRow>(
      `SELECT ${NODE_COLUMNS} FROM (
         SELECT * FROM nodes WHERE segment_id = $1 AND depth = $2 + 1
         UNION ALL
         SELECT m.* FROM segments s JOIN nodes m ON m.segment_id = s.id AND m.depth = $2 + 1
         WHERE s.parent_id = $1 AND s.fork_depth = $2
       ) n ORDER BY n.created_at, n.id`,
      [parent.segmentId, parent.depth],
    );
    return rows.map((row) => toNode(conversationId, row));
  }

  /**
   * A page of every node of the conversation, parents before children (segment by segment), each
   * with its children and whether it is on the root → HEAD path.
   */
  async tree(
    conversationId: string,
    page: { after?: string; limit: number },
  ): Promise<Result<{ nodes: TreeListingNode[]; next: string | null }, StoreError>> {
    const head = await this.head(conversationId);
    if (!head) return err(notFound('no such conversation'));
    let afterSegment = '0';
    let afterDepth = -1;
    if (page.after !== undefined) {
      const parts = decodeCursor(page.after, 2);
      if (!parts)
        return err(invalid('bad cursor', [{ field: 'after', message: 'not a cursor this api gave out' }]));
      [afterSegment, afterDepth] = [parts[0] as string, Number(parts[1])];
    }
    const rows = await this.db.query<NodeRow>(
      `SELECT ${NODE_COLUMNS} FROM segments s
       CROSS JOIN LATERAL (
         SELECT * FROM nodes m WHERE m.segment_id = s.id AND (s.id > $2 OR m.depth > $3) ORDER BY m.depth LIMIT $4
       ) n
       WHERE s.conversation_id = $1 AND s.id >= $2
       ORDER BY s.id, n.depth LIMIT $4`,
      [conversationId, afterSegment, afterDepth, page.limit + 1],
    );
    const more = rows.length > page.limit;
    const pageRows = more ? rows.slice(0, page.limit) : rows;
    const [children, chain] = await Promise.all([
      this.childIds(pageRows),
      this.db.query<ChainLink>(`SELECT segment_id, lo, hi FROM tree_chain($1, $2)`, [
        head.segmentId,
        head.depth,
      ]),
    ]);
    const onHead = (row: NodeRow) =>
      chain.some(
        (c) => String(c.segment_id) === String(row.segment_id) && row.depth >= c.lo && row.depth <= c.hi,
      );
    const last = pageRows.at(-1);
    return ok({
      nodes: pageRows.map((row) => ({
        ...toNode(conversationId, row),
        childIds: children.get(row.id) ?? [],
        onHead: onHead(row),
      })),
      next: more && last ? encodeCursor([String(last.segment_id), last.depth]) : null,
    });
  }

  /** Children ids of several nodes at once, oldest child first. */
  private async childIds(parents: NodeRow[]): Promise<Map<string, string[]>> {
    const result = new Map<string, string[]>();
    if (parents.length === 0) return result;
    const rows = await this.db.query<{ parent: string; id: string }>(
      `SELECT x.parent, encode(c.id, 'hex') AS id
       FROM unnest($1::bigint[], $2::integer[], $3::text[]) AS x (segment_id, depth, parent)
       CROSS JOIN LATERAL (
         SELECT n.id, n.created_at FROM nodes n WHERE n.segment_id = x.segment_id AND n.depth = x.depth + 1
         UNION ALL
         SELECT n.id, n.created_at FROM segments s
           JOIN nodes n ON n.segment_id = s.id AND n.depth = x.depth + 1
         WHERE s.parent_id = x.segment_id AND s.fork_depth = x.depth
       ) c
       ORDER BY c.created_at, c.id`,
      [parents.map((p) => String(p.segment_id)), parents.map((p) => p.depth), parents.map((p) => p.id)],
    );
    for (const row of rows) {
      const list = result.get(row.parent) ?? [];
      list.push(row.id);
      result.set(row.parent, list);
    }
    return result;
  }

  /** Where HEAD was n moves ago: the reflog row n back from the newest, by its position. */
  private async reflogPosition(conversationId: string, n: number): Promise<NodePosition | null> {
    if (!isConversationId(conversationId)) return null;
    const [row] = await this.db.query<{ id: string; segment_id: string; depth: number }>(
      `SELECT encode(n.id, 'hex') AS id, n.segment_id, n.depth
       FROM refs r JOIN reflog g ON g.conversation_id = r.conversation_id AND g.ref = r.name AND g.seq = r.reflog_seq - $2
       JOIN nodes n ON n.id = g.new_node
       WHERE r.conversation_id = $1 AND r.name = 'HEAD'`,
      [conversationId, n],
    );
    return row ? { id: row.id, segmentId: String(row.segment_id), depth: row.depth } : null;
  }

  /** Up to two nodes of the conversation whose id starts with `prefix` (two means ambiguous). */
  private async byPrefix(conversationId: string, prefix: string): Promise<NodePosition[]> {
    if (!isConversationId(conversationId) || prefix.length < MIN_PREFIX_LENGTH) return [];
    const rows = await this.db.query<{ id: string; segment_id: string; depth: number }>(
      `SELECT encode(id, 'hex') AS id, segment_id, depth FROM nodes
       WHERE id BETWEEN decode($1, 'hex') AND decode($2, 'hex') AND conversation_id = $3 LIMIT 2`,
      [prefix.padEnd(64, '0'), prefix.padEnd(64, 'f'), conversationId],
    );
    return rows.map((r) => ({ id: r.id, segmentId: String(r.segment_id), depth: r.depth }));
  }
}
