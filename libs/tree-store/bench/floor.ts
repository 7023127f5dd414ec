// Part of `npm run bench` (see ./bench.ts).
import type { Client } from 'pg';
import type { TreeNode } from '@sweatpants/domain';
import type { PgSqlClient } from '../src';

export const APP_ROLE = 'sweatpants_app';

// ---------------------------------------------------------------------------------------------
// The floor: plain tables with the same message columns, no triggers, no foreign keys, one index.

export const FLOOR_SCHEMA = [
  `CREATE TABLE floor_nodes (
     conversation_id uuid NOT NULL,
     id text NOT NULL,
     parent_id text,
     depth integer NOT NULL,
     created_at timestamptz NOT NULL,
     kind text NOT NULL,
     author_id text NOT NULL,
     payload jsonb NOT NULL
   )`,
  `CREATE INDEX floor_nodes_position_idx ON floor_nodes (conversation_id, depth)`,
  `CREATE TABLE floor_append (LIKE floor_nodes INCLUDING ALL)`,
  `GRANT SELECT, INSERT ON floor_nodes, floor_append TO ${APP_ROLE}`,
];

export const FLOOR_PATH_SQL = `SELECT id, parent_id, depth, kind, payload, author_id, created_at FROM floor_nodes
  WHERE conversation_id = $1 AND depth <= $2 ORDER BY depth`;

export interface FloorRow {
  id: string;
  parent_id: string | null;
  depth: number;
  kind: string;
  payload: unknown;
  author_id: string;
  created_at: Date;
}

/** The floor's read: one index range scan, each row mapped to a TreeNode as the store maps its rows. */
export async function floorPath(
  client: PgSqlClient,
  conversationId: string,
  depth: number,
): Promise<TreeNode[]> {
  const rows = await client.query<FloorRow>(FLOOR_PATH_SQL, [conversationId, depth]);
  return rows.map(
    (row) =>
      ({
        id: row.id,
        conversationId,
        parentId: row.parent_id,
        depth: row.depth,
        kind: row.kind,
        payload: row.payload,
        authorId: row.author_id,
        createdAt: row.created_at.toISOString(),
      }) as TreeNode,
  );
}

export async function insertFloor(admin: Client, conversationId: string, nodes: TreeNode[]): Promise<void> {
  for (let i = 0; i < nodes.length; i += 5_000) {
    const chunk = nodes.slice(i, i + 5_000);
    await admin.query(
      `INSERT INTO floor_nodes (conversation_id, id, parent_id, depth, created_at, kind, author_id, payload)
       SELECT $1, * FROM unnest($2::text[], $3::text[], $4::int[], $5::timestamptz[], $6::text[], $7::text[], $8::jsonb[])`,
      [
        conversationId,
        chunk.map((n) => n.id),
        chunk.map((n) => n.parentId),
        chunk.map((n) => n.depth),
        chunk.map((n) => n.createdAt),
        chunk.map((n) => n.kind),
        chunk.map((n) => n.authorId),
        chunk.map((n) => JSON.stringify(n.payload)),
      ],
    );
  }
}
