// The tree's reads: `nodes`, `segments` and the refs that point into them, with the row each
// statement returns beside it. `tree_chain(segment, depth)` (migrations/sql) lists the segments of
// the path root → a node, each with the depth range [lo, hi] of its share of that path.

/** A node as the store's queries select it (ids hex-encoded in SQL). */
export interface NodeRow {
  id: string;
  parent_id: string | null;
  depth: number;
  segment_id: string | number;
  kind: string;
  author_id: string;
  payload: unknown;
  created_at: Date | string;
}

/** The select list that produces a NodeRow from `nodes n`. */
export const NODE_COLUMNS = `encode(n.id, 'hex') AS id, encode(n.parent_id, 'hex') AS parent_id, n.depth,
  n.segment_id, n.kind, n.author_id, n.payload, n.created_at`;

/** Where a node sits: its id, segment and depth (what a path read starts from). */
export interface PositionRow {
  id: string;
  segment_id: string;
  depth: number;
}

/** Where a ref ($2, e.g. HEAD) of conversation $1 points. Returns PositionRow. */
export const REF_POSITION = `SELECT encode(n.id, 'hex') AS id, n.segment_id, n.depth FROM refs r JOIN nodes n ON n.id = r.node_id
  WHERE r.conversation_id = $1 AND r.name = $2`;

/**
 * Where HEAD of conversation $1 was $2 moves ago: the reflog row $2 back from the newest, found by
 * its seq rather than by counting rows. Returns PositionRow.
 */
export const HEAD_REFLOG_POSITION = `SELECT encode(n.id, 'hex') AS id, n.segment_id, n.depth
  FROM refs r JOIN reflog g ON g.conversation_id = r.conversation_id AND g.ref = r.name AND g.seq = r.reflog_seq - $2
  JOIN nodes n ON n.id = g.new_node
  WHERE r.conversation_id = $1 AND r.name = 'HEAD'`;

/**
 * Up to two nodes of conversation $3 whose id lies between $1 and $2 (a prefix padded with 0s and
 * with fs): two means the prefix is ambiguous. Returns PositionRow.
 */
export const NODES_BY_PREFIX = `SELECT encode(id, 'hex') AS id, segment_id, depth FROM nodes
  WHERE id BETWEEN decode($1, 'hex') AND decode($2, 'hex') AND conversation_id = $3 LIMIT 2`;

/** A node's segment and depth (its id is what was asked for). */
export type SegmentDepthRow = Omit<PositionRow, 'id'>;

/** The segment and depth of node $1 (hex), when it belongs to conversation $2. Returns SegmentDepthRow. */
export const NODE_POSITION = `SELECT segment_id, depth FROM nodes WHERE id = decode($1, 'hex') AND conversation_id = $2`;

/** A node found at a known depth: its id and segment. */
export type IdSegmentRow = Omit<PositionRow, 'depth'>;

/**
 * The node at depth $3 on the path to a tip ($1 segment, $2 depth): found among the path's
 * segments, not by walking parents. Returns IdSegmentRow.
 */
export const ANCESTOR_AT_DEPTH = `SELECT encode(n.id, 'hex') AS id, n.segment_id FROM tree_chain($1, $2) c
  JOIN nodes n ON n.segment_id = c.segment_id AND n.depth = $3
  WHERE $3 BETWEEN c.lo AND c.hi`;

export interface OnPathRow {
  on: boolean;
}

/** Whether the node at ($3 segment, $4 depth) is on the path to a tip ($1 segment, $2 depth). Returns OnPathRow. */
export const IS_ON_PATH = `SELECT EXISTS (SELECT 1 FROM tree_chain($1, $2) c WHERE c.segment_id = $3 AND $4 BETWEEN c.lo AND c.hi) AS on`;

/**
 * The nodes root → a tip ($1 segment, $2 depth) below depth $3, root first. Returns NodeRow.
 * `OFFSET 0` keeps one index range scan per segment of the path: without it the planner may
 * flatten the lateral into a join and, guessing a segment's size from the table's average, read
 * the whole nodes table to hash it (seen in the bench: 30 ms for a 1k path among 100k nodes,
 * against 0.3 ms by index).
 */
export const PATH_FROM_ROOT = `SELECT ${NODE_COLUMNS} FROM tree_chain($1, $2) c
  CROSS JOIN LATERAL (
    SELECT * FROM nodes WHERE segment_id = c.segment_id AND depth <= c.hi AND depth > $3 OFFSET 0
  ) n
  ORDER BY n.depth`;

/**
 * The nodes of the path to a tip ($1 segment, $2 depth) from the first of its latest summaries
 * (tree_summary_base), root first when it has none. Returns NodeRow. Segments wholly above that
 * depth are left out, and `OFFSET 0` keeps one index range scan per segment, as in PATH_FROM_ROOT.
 */
export const PATH_FROM_SUMMARY = `SELECT ${NODE_COLUMNS}
  FROM (SELECT coalesce(tree_summary_base($1, $2), 0) AS base) b
  CROSS JOIN tree_chain($1, $2) c
  CROSS JOIN LATERAL (
    SELECT * FROM nodes WHERE segment_id = c.segment_id AND depth <= c.hi AND depth >= b.base OFFSET 0
  ) n
  WHERE c.hi >= b.base
  ORDER BY n.depth`;

/** Node $1 (hex), when it belongs to conversation $2. Returns NodeRow. */
export const NODE_BY_ID = `SELECT ${NODE_COLUMNS} FROM nodes n WHERE n.id = decode($1, 'hex') AND n.conversation_id = $2`;

/**
 * The children of the node at ($1 segment, $2 depth), oldest first: the next node of its own
 * segment and the first node of each segment forked there. Returns NodeRow.
 */
export const CHILDREN = `SELECT ${NODE_COLUMNS} FROM (
    SELECT * FROM nodes WHERE segment_id = $1 AND depth = $2 + 1
    UNION ALL
    SELECT m.* FROM segments s JOIN nodes m ON m.segment_id = s.id AND m.depth = $2 + 1
    WHERE s.parent_id = $1 AND s.fork_depth = $2
  ) n ORDER BY n.created_at, n.id`;

/**
 * A page of conversation $1's nodes, segment by segment (parents before children), after the
 * cursor ($2 segment, $3 depth), at most $4. Returns NodeRow.
 */
export const TREE_PAGE = `SELECT ${NODE_COLUMNS} FROM segments s
  CROSS JOIN LATERAL (
    SELECT * FROM nodes m WHERE m.segment_id = s.id AND (s.id > $2 OR m.depth > $3) ORDER BY m.depth LIMIT $4
  ) n
  WHERE s.conversation_id = $1 AND s.id >= $2
  ORDER BY s.id, n.depth LIMIT $4`;

/** One segment's share of a path: nodes of `segment_id` with depth in [lo, hi]. */
export interface ChainLinkRow {
  segment_id: string;
  lo: number;
  hi: number;
}

/** The segments of the path to a tip ($1 segment, $2 depth). Returns ChainLinkRow. */
export const PATH_CHAIN = `SELECT segment_id, lo, hi FROM tree_chain($1, $2)`;

/** A child's id beside the id of the parent it was asked for. */
export interface ChildIdRow {
  parent: string;
  id: string;
}

/**
 * The children's ids of several nodes at once, oldest child first: the parents as three arrays
 * ($1 segments, $2 depths, $3 ids, hex). Returns ChildIdRow.
 */
export const CHILD_IDS = `SELECT x.parent, encode(c.id, 'hex') AS id
  FROM unnest($1::bigint[], $2::integer[], $3::text[]) AS x (segment_id, depth, parent)
  CROSS JOIN LATERAL (
    SELECT n.id, n.created_at FROM nodes n WHERE n.segment_id = x.segment_id AND n.depth = x.depth + 1
    UNION ALL
    SELECT n.id, n.created_at FROM segments s
      JOIN nodes n ON n.segment_id = s.id AND n.depth = x.depth + 1
    WHERE s.parent_id = x.segment_id AND s.fork_depth = x.depth
  ) c
  ORDER BY c.created_at, c.id`;

/** How many nodes fsck reads at a time (FSCK_NODES_PAGE). */
export const FSCK_PAGE = 5000;

/**
 * A page of conversation $1's nodes after ($2 segment, $3 depth), for fsck. Returns NodeRow.
 * Segment order puts every parent before its children (a branch's segment is newer than its fork's).
 */
export const FSCK_NODES_PAGE = `SELECT encode(n.id, 'hex') AS id, encode(n.parent_id, 'hex') AS parent_id, n.depth, n.segment_id, n.kind,
         n.author_id, n.payload, n.created_at
  FROM nodes n WHERE n.conversation_id = $1 AND (n.segment_id, n.depth) > ($2::bigint, $3::integer)
  ORDER BY n.segment_id, n.depth LIMIT ${FSCK_PAGE}`;

/** A segment: where it forks from its parent segment (null for the root's). */
export interface SegmentRow {
  id: string;
  parent_id: string | null;
  fork_depth: number | null;
}

/** Every segment of conversation $1. Returns SegmentRow. */
export const SEGMENTS = `SELECT id, parent_id, fork_depth FROM segments WHERE conversation_id = $1`;

/** A ref: the node it points at and the seq of its newest reflog row. */
export interface RefRow {
  name: string;
  node: string;
  seq: string;
}

/** Every ref of conversation $1. Returns RefRow. */
export const REFS = `SELECT name, encode(node_id, 'hex') AS node, reflog_seq AS seq FROM refs WHERE conversation_id = $1`;

/** A cached state: the depth of the node it was folded up to, and the state. */
export interface SnapshotRow<S> {
  depth: number;
  state: S;
}

/**
 * The newest snapshot of reducer $3 (`name@version`) on the path to a tip ($1 segment, $2 depth):
 * the newest of each segment's share, then the newest of those. Returns SnapshotRow.
 */
export const NEWEST_SNAPSHOT = `SELECT s.depth, s.state FROM tree_chain($1, $2) c
  CROSS JOIN LATERAL (
    SELECT depth, state FROM state_snapshots
    WHERE reducer = $3 AND segment_id = c.segment_id AND depth <= c.hi
    ORDER BY depth DESC LIMIT 1
  ) s
  ORDER BY s.depth DESC LIMIT 1`;

/**
 * Caches reducer $1's snapshots, given as arrays ($2 node ids, hex; $3 segments; $4 depths; $5
 * states as JSON). Snapshots are derived data, so one already there is left as it is.
 */
export const INSERT_SNAPSHOTS = `INSERT INTO state_snapshots (reducer, node_id, segment_id, depth, state)
  SELECT $1, decode(x.id, 'hex'), x.segment_id, x.depth, x.state
  FROM unnest($2::text[], $3::bigint[], $4::integer[], $5::jsonb[]) AS x (id, segment_id, depth, state)
  ON CONFLICT DO NOTHING`;
