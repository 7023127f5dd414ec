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

  /** HEAD's reflog: consecutive seqs, each row starting where the one before ended, HEAD at the newest. */
  async reflogProblems(conversationId: string): Promise<string[]> {
    const rows = await this.db.query<{ seq: string; old_node: string | null; new_node: string }>(
      `SELECT seq, encode(old_node, 'hex') AS old_node, encode(new_node, 'hex') AS new_node
         FROM reflog WHERE conversation_id = $1 AND ref = 'HEAD' ORDER BY seq`,
      [conversationId],
    );
    const head = await this.db.query<{ node: string; seq: string }>(
      `SELECT encode(node_id, 'hex') AS node, reflog_seq AS seq FROM refs
        WHERE conversation_id = $1 AND name = 'HEAD'`,
      [conversationId],
    );
    const problems: string[] = [];
    let previous: (typeof rows.rows)[number] | undefined;
    for (const row of rows.rows) {
      if (previous && Number(row.seq) !== Number(previous.seq) + 1) {
        problems.push(`reflog jumps from seq ${previous.seq} to ${row.seq}`);
      }
      if (previous && row.old_node !== previous.new_node) {
        problems.push(`reflog seq ${row.seq} starts at ${row.old_node}, not at ${previous.new_node}`);
      }
      previous = row;
    }
    const ref = head.rows[0];
    if (!ref) problems.push('no HEAD ref');
    else if (!previous || previous.new_node !== ref.node || Number(previous.seq) !== Number(ref.seq)) {
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
