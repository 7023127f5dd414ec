import { Client } from 'pg';

/**
 * The suite's own reading of a conversation's rows, straight from PostgreSQL, so the invariants do
 * not rest only on the product's fsck: reflog continuity, HEAD matching its newest reflog row, no
 * elicit asked or answered twice on the HEAD path, acknowledged nodes present, summaries per range.
 */
export class TreeAudit {
  private constructor(private readonly db: Client) {}

  static async open(databaseUrl: string): Promise<TreeAudit> {
    const db = new Client({ connectionString: databaseUrl });
    await db.connect();
    return new TreeAudit(db);
  }

  close(): Promise<void> {
    return this.db.end();
  }

  /** Every broken invariant of the conversation, as sentences; empty when it is sound. */
  async problems(conversationId: string): Promise<string[]> {
    return [...(await this.reflogProblems(conversationId)), ...(await this.pathProblems(conversationId))];
  }

  /**
   * HEAD's reflog: consecutive seqs, each row starting where the one before ended, HEAD at the
   * newest. The rows and HEAD are read in one statement, so from one snapshot: a turn still writing
   * commits HEAD and its reflog row together, and two statements could see one without the other.
   */
  async reflogProblems(conversationId: string): Promise<string[]> {
    const read = await this.db.query<{
      seq: string | null;
      old_node: string | null;
      new_node: string | null;
      head: { node: string; seq: string } | null;
    }>(
      `SELECT r.seq, encode(r.old_node, 'hex') AS old_node, encode(r.new_node, 'hex') AS new_node,
              (SELECT json_build_object('node', encode(h.node_id, 'hex'), 'seq', h.reflog_seq::text)
                 FROM refs h WHERE h.conversation_id = $1 AND h.name = 'HEAD') AS head
         FROM (SELECT 1) AS one
         LEFT JOIN reflog r ON r.conversation_id = $1 AND r.ref = 'HEAD'
        ORDER BY r.seq`,
      [conversationId],
    );
    const rows = read.rows.flatMap((r) =>
      r.seq === null || r.new_node === null ? [] : [{ seq: Number(r.seq), from: r.old_node, to: r.new_node }],
    );
    const problems: string[] = [];
    let previous: (typeof rows)[number] | undefined;
    for (const row of rows) {
      if (previous && row.seq !== previous.seq + 1) {
        problems.push(`reflog jumps from seq ${previous.seq} to ${row.seq}`);
      }
      if (previous && row.from !== previous.to) {
        problems.push(`reflog seq ${row.seq} starts at ${row.from}, not at ${previous.to}`);
      }
      previous = row;
    }
    const ref = read.rows[0]?.head;
    if (!ref) problems.push('no HEAD ref');
    else if (!previous || previous.to !== ref.node || previous.seq !== Number(ref.seq)) {
      problems.push(`HEAD is at ${ref.node} (seq ${ref.seq}) without a reflog row that put it there`);
    }
    return problems;
  }

  /** On the root → HEAD path, each elicit id is asked once and answered at most once. */
  async pathProblems(conversationId: string): Promise<string[]> {
    const path = await this.headPath(conversationId);
    const problems: string[] = [];
    for (const kind of ['elicit', 'response'] as const) {
      const ids = path.filter((n) => n.kind === kind).map((n) => String(n.payload['elicitId'] ?? ''));
      const doubled = ids.filter((id, i) => ids.indexOf(id) !== i);
      if (doubled.length > 0)
        problems.push(`${kind} nodes doubled on the HEAD path for ${[...new Set(doubled)].join(', ')}`);
    }
    return problems;
  }

  /** The root → HEAD path, root first. */
  async headPath(
    conversationId: string,
  ): Promise<{ id: string; kind: string; payload: Record<string, unknown> }[]> {
    const result = await this.db.query<{ id: string; kind: string; payload: Record<string, unknown> }>(
      `WITH RECURSIVE up AS (
         SELECT n.id, n.parent_id, n.kind, n.payload, n.depth FROM nodes n
           JOIN refs r ON r.node_id = n.id WHERE r.conversation_id = $1 AND r.name = 'HEAD'
         UNION ALL
         SELECT n.id, n.parent_id, n.kind, n.payload, n.depth FROM nodes n JOIN up ON n.id = up.parent_id)
       SELECT encode(id, 'hex') AS id, kind, payload FROM up ORDER BY depth`,
      [conversationId],
    );
    return result.rows;
  }

  /** Which of these node ids are not stored at all. */
  async missingNodes(ids: readonly string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const result = await this.db.query<{ id: string }>(
      `SELECT encode(id, 'hex') AS id FROM nodes WHERE id = ANY($1::bytea[])`,
      [ids.map((id) => Buffer.from(id, 'hex'))],
    );
    const found = new Set(result.rows.map((r) => r.id));
    return ids.filter((id) => !found.has(id));
  }

  /** Summary ranges (fromId → toId) that more than one summary node covers. */
  async doubledSummaries(conversationId: string): Promise<string[]> {
    const result = await this.db.query<{ range: string; n: string }>(
      `SELECT (payload->'covers'->>'fromId') || '..' || (payload->'covers'->>'toId') AS range, count(*) AS n
         FROM nodes WHERE conversation_id = $1 AND kind = 'summary'
        GROUP BY 1 HAVING count(*) > 1`,
      [conversationId],
    );
    return result.rows.map((r) => `${r.range} summarised ${r.n} times`);
  }

  /** How many nodes and HEAD moves the conversation has. */
  async counts(conversationId: string): Promise<{ nodes: number; reflog: number }> {
    const result = await this.db.query<{ nodes: string; reflog: string }>(
      `SELECT (SELECT count(*) FROM nodes WHERE conversation_id = $1) AS nodes,
              (SELECT count(*) FROM reflog WHERE conversation_id = $1) AS reflog`,
      [conversationId],
    );
    return { nodes: Number(result.rows[0]!.nodes), reflog: Number(result.rows[0]!.reflog) };
  }
}
