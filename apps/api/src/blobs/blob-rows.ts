import type { SqlExecutor } from '@sweatpants/tree-store';
import type { Blob, BlobInfo, BlobMeta } from './blob-store';

/**
 * The `blobs` and `node_blobs` tables (migration Blobs1795460000000), the same for every adapter:
 * one row per blob, with its bytes in `data` or null when they are in an object store.
 */
interface BlobRow {
  sha256: string;
  media_type: string;
  bytes: number;
  width: number | null;
  height: number | null;
}

const COLUMNS = 'sha256, media_type, bytes, width, height';

export function infoOf(row: BlobRow): BlobInfo {
  return {
    sha256: row.sha256,
    mediaType: row.media_type as BlobInfo['mediaType'],
    bytes: Number(row.bytes),
    ...(row.width !== null ? { width: row.width } : {}),
    ...(row.height !== null ? { height: row.height } : {}),
  };
}

/**
 * Writes a blob's row, or freshens the one there (its put time) and returns it as first stored.
 * `data` null: the bytes are kept elsewhere. A row whose bytes were elsewhere takes them when a
 * store that keeps them in the row puts them again (a deployment that moved back from S3).
 */
export async function upsertRow(
  db: SqlExecutor,
  sha256: string,
  size: number,
  meta: BlobMeta,
  data: Buffer | null,
): Promise<{ info: BlobInfo; inRow: boolean }> {
  const [row] = await db.query<BlobRow & { in_row: boolean }>(
    `INSERT INTO blobs AS b (sha256, media_type, bytes, width, height, data)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (sha256) DO UPDATE SET put_at = clock_timestamp(), data = coalesce(b.data, EXCLUDED.data)
     RETURNING ${COLUMNS}, (b.data IS NOT NULL) AS in_row`,
    [sha256, meta.mediaType, size, meta.width ?? null, meta.height ?? null, data],
  );
  // INSERT … ON CONFLICT DO UPDATE … RETURNING always returns the row.
  if (!row) throw new Error(`storing blob ${sha256} returned no row`);
  return { info: infoOf(row), inRow: row.in_row };
}

/** A blob's row with its bytes as the row holds them (null when they are elsewhere). */
export async function readRow(
  db: SqlExecutor,
  sha256: string,
): Promise<{ info: BlobInfo; data: Buffer | null } | null> {
  const [row] = await db.query<BlobRow & { data: Uint8Array | null }>(
    `SELECT ${COLUMNS}, data FROM blobs WHERE sha256 = $1`,
    [sha256],
  );
  if (!row) return null;
  return { info: infoOf(row), data: row.data === null ? null : asBuffer(row.data) };
}

export async function hasRow(db: SqlExecutor, sha256: string): Promise<boolean> {
  return (await db.query(`SELECT 1 FROM blobs WHERE sha256 = $1`, [sha256])).length > 0;
}

/** Blobs that no node names and were last put before `putBefore`, by sha-256. */
export async function unreferenced(
  db: SqlExecutor,
  putBefore: Date,
  after: string,
  limit: number,
): Promise<string[]> {
  const rows = await db.query<{ sha256: string }>(
    `SELECT b.sha256 FROM blobs b
     WHERE b.sha256 > $1 AND b.put_at < $2
       AND NOT EXISTS (SELECT 1 FROM node_blobs nb WHERE nb.sha256 = b.sha256)
     ORDER BY b.sha256 LIMIT $3`,
    [after, putBefore.toISOString(), limit],
  );
  return rows.map((r) => r.sha256);
}

/**
 * Deletes the rows of those candidates that are still unreferenced and not put since `putBefore`,
 * through the privileged `blob_collect` (the api's role cannot delete blobs itself); says which
 * went and whether their bytes were in the row.
 */
export async function collectRows(
  db: SqlExecutor,
  sha256s: readonly string[],
  putBefore: Date,
): Promise<{ sha256: string; stored: boolean }[]> {
  if (sha256s.length === 0) return [];
  return db.query<{ sha256: string; stored: boolean }>(`SELECT * FROM blob_collect($1::text[], $2)`, [
    sha256s,
    putBefore.toISOString(),
  ]);
}

/** pg returns bytea as a Buffer, PGlite as a Uint8Array: a Buffer over the same memory either way. */
export function asBuffer(value: Uint8Array): Buffer {
  return Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength);
}

export function withData(info: BlobInfo, data: Buffer): Blob {
  return { ...info, data };
}
