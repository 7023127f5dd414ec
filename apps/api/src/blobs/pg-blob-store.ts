import type { SqlClient } from '@sweatpants/tree-store';
import { collectRows, hasRow, readRow, unreferenced, upsertRow, withData } from './blob-rows';
import type { Blob, BlobInfo, BlobMeta, BlobStore } from './blob-store';
import { sha256Of } from './blob-store';

/**
 * Blobs in PostgreSQL (or embedded PGlite, through the same SqlClient the tree store uses): the
 * bytes in the row's `data`. The default in every mode: nothing more to run, and a photo is as
 * durable as the node that names it. A photo is at most a few MB after intake, well within what a
 * bytea holds (1 GB) and what a TOASTed row costs to read.
 */
export class PgBlobStore implements BlobStore {
  readonly kind = 'database';

  constructor(private readonly db: SqlClient) {}

  async put(data: Buffer, meta: BlobMeta): Promise<BlobInfo> {
    return (await upsertRow(this.db, sha256Of(data), data.length, meta, data)).info;
  }

  async get(sha256: string): Promise<Blob | null> {
    const row = await readRow(this.db, sha256);
    // A row without bytes was stored by a deployment with BLOB_STORE_URL: its bytes are not here.
    return row?.data ? withData(row.info, row.data) : null;
  }

  has(sha256: string): Promise<boolean> {
    return hasRow(this.db, sha256);
  }

  async delete(sha256s: readonly string[], putBefore: Date): Promise<string[]> {
    return (await collectRows(this.db, sha256s, putBefore)).map((r) => r.sha256);
  }

  list(options: { unreferenced: true; putBefore: Date; after?: string; limit: number }): Promise<string[]> {
    return unreferenced(this.db, options.putBefore, options.after ?? '', options.limit);
  }
}
