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
import { decodeCursor, encodeCursor, toNode } from './rows';
import {
  ANCESTOR_AT_DEPTH,
  CHILD_IDS,
  CHILDREN,
  HEAD_REFLOG_POSITION,
  IS_ON_PATH,
  NODE_BY_ID,
  NODE_POSITION,
  NODES_BY_PREFIX,
  PATH_CHAIN,
  PATH_FROM_ROOT,
  PATH_FROM_SUMMARY,
  REF_POSITION,
  TREE_PAGE,
  type ChainLinkRow,
  type ChildIdRow,
  type IdSegmentRow,
  type NodeRow,
  type OnPathRow,
  type PositionRow,
  type SegmentDepthRow,
} from './sql';
import type { SqlExecutor } from './sql-client';
import { invalid, notFound, type StoreError } from './store-error';

/** Where a node sits: its segment and depth, which is all a path read needs. */
export interface NodePosition {
  id: string;
  segmentId: string;
  depth: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Conversation ids are uuids; anything else cannot name a conversation (and must not reach SQL as one). */
export const isConversationId = (id: string): boolean => UUID.test(id);

/** Reads of the tree: ref resolution, paths, nodes and their children, pages of the whole tree. */
export class TreeReader {
  constructor(private readonly db: SqlExecutor) {}

  /** Where HEAD (or another ref) points, or null when the conversation does not exist. */
  async head(conversationId: string, ref = 'HEAD'): Promise<NodePosition | null> {
    if (!isConversationId(conversationId)) return null;
    const [row] = await this.db.query<PositionRow>(REF_POSITION, [conversationId, ref]);
    return row ? { id: row.id, segmentId: String(row.segment_id), depth: row.depth } : null;
  }

  /** The position of a node of this conversation, by full id. */
  async position(conversationId: string, nodeId: string): Promise<NodePosition | null> {
    if (!isConversationId(conversationId) || !/^[0-9a-f]{64}$/.test(nodeId)) return null;
    const [row] = await this.db.query<SegmentDepthRow>(NODE_POSITION, [nodeId, conversationId]);
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
    const [row] = await this.db.query<IdSegmentRow>(ANCESTOR_AT_DEPTH, [of.segmentId, of.depth, depth]);
    return row ? { id: row.id, segmentId: String(row.segment_id), depth } : null;
  }

  /** Whether `node` is on the path root → `tip` (a node is on its own path). */
  async isAncestor(node: NodePosition, tip: NodePosition): Promise<boolean> {
    if (node.depth > tip.depth) return false;
    const [row] = await this.db.query<OnPathRow>(IS_ON_PATH, [
      tip.segmentId,
      tip.depth,
      node.segmentId,
      node.depth,
    ]);
    return row?.on === true;
  }

  /**
   * The path root → `tip`, root first, optionally only below `afterDepth`: one range scan per
   * segment on the path, never one probe per level.
   */
  async pathRows(tip: NodePosition, afterDepth = -1): Promise<NodeRow[]> {
    return this.db.query<NodeRow>(PATH_FROM_ROOT, [tip.segmentId, tip.depth, afterDepth]);
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
    const rows = await this.db.query<NodeRow>(PATH_FROM_SUMMARY, [tip.value.segmentId, tip.value.depth]);
    return ok(rows.map((row) => toNode(conversationId, row)));
  }

  /** One node with its children's ids (oldest child first). */
  async node(conversationId: string, nodeId: string): Promise<TreeNodeWithChildren | null> {
    if (!isConversationId(conversationId) || !/^[0-9a-f]{64}$/.test(nodeId)) return null;
    const [row] = await this.db.query<NodeRow>(NODE_BY_ID, [nodeId, conversationId]);
    if (!row) return null;
    const children = await this.childIds([row]);
    return { ...toNode(conversationId, row), childIds: children.get(row.id) ?? [] };
  }

  /** The children of a node, oldest first. */
  async children(conversationId: string, nodeId: string): Promise<TreeNode[]> {
    const parent = await this.position(conversationId, nodeId);
    if (!parent) return [];
    const rows = await this.db.query<NodeRow>(CHILDREN, [parent.segmentId, parent.depth]);
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
    const rows = await this.db.query<NodeRow>(TREE_PAGE, [
      conversationId,
      afterSegment,
      afterDepth,
      page.limit + 1,
    ]);
    const more = rows.length > page.limit;
    const pageRows = more ? rows.slice(0, page.limit) : rows;
    const [children, chain] = await Promise.all([
      this.childIds(pageRows),
      this.db.query<ChainLinkRow>(PATH_CHAIN, [head.segmentId, head.depth]),
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
    const rows = await this.db.query<ChildIdRow>(CHILD_IDS, [
      parents.map((p) => String(p.segment_id)),
      parents.map((p) => p.depth),
      parents.map((p) => p.id),
    ]);
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
    const [row] = await this.db.query<PositionRow>(HEAD_REFLOG_POSITION, [conversationId, n]);
    return row ? { id: row.id, segmentId: String(row.segment_id), depth: row.depth } : null;
  }

  /** Up to two nodes of the conversation whose id starts with `prefix` (two means ambiguous). */
  private async byPrefix(conversationId: string, prefix: string): Promise<NodePosition[]> {
    if (!isConversationId(conversationId) || prefix.length < MIN_PREFIX_LENGTH) return [];
    const rows = await this.db.query<PositionRow>(NODES_BY_PREFIX, [
      prefix.padEnd(64, '0'),
      prefix.padEnd(64, 'f'),
      conversationId,
    ]);
    return rows.map((r) => ({ id: r.id, segmentId: String(r.segment_id), depth: r.depth }));
  }
}
