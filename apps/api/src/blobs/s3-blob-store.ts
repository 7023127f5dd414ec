import type { OnApplicationShutdown } from '@nestjs/common';
import type { SqlClient, SqlExecutor } from '@sweatpants/tree-store';
import { collectRows, hasRow, readRow, unreferenced, upsertRow, withData } from './blob-rows';
import type { Blob, BlobInfo, BlobMeta, BlobStore } from './blob-store';
import { sha256Of } from './blob-store';
import type { S3ObjectClient } from './s3-client';

/** The advisory lock class of "one blob", with hashtext(sha256) as the second key. */
const BLOB_LOCK = 7_250_460;

/**
 * Blobs in an S3-compatible bucket (BLOB_STORE_URL): the bytes are the object `<prefix><sha256>`,
 * the row in `blobs` (with `data` null) keeps the type and size and is what access checks and gc
 * read. A row exists exactly when its object does: a put writes both, and gc deletes both, each
 * under the blob's advisory lock in one transaction, so a put racing gc cannot end with a row whose
 * object gc has just deleted; a failed upload or deletion rolls its row back.
 *
 * Rows that hold their bytes themselves (written by the database store, or by the migration that
 * moved inline photos out of nodes) are read from the row: moving to S3 needs no copy.
 */
export class S3BlobStore implements BlobStore, OnApplicationShutdown {
  readonly kind = 's3';

  constructor(
    private readonly db: SqlClient,
    private readonly objects: S3ObjectClient,
    private readonly prefix: string,
  ) {}

  put(data: Buffer, meta: BlobMeta): Promise<BlobInfo> {
    const sha256 = sha256Of(data);
    return this.db.transaction(async (tx) => {
      await lock(tx, sha256);
      const existed = await hasRow(tx, sha256);
      const { info, inRow } = await upsertRow(tx, sha256, data.length, meta, null);
      // Stored before (here or in the row): the object is there, as the row says.
      if (!existed && !inRow) await this.objects.put(this.key(sha256), data, info.mediaType);
      return info;
    });
  }

  async get(sha256: string): Promise<Blob | null> {
    const row = await readRow(this.db, sha256);
    if (!row) return null;
    if (row.data) return withData(row.info, row.data);
    const data = await this.objects.get(this.key(sha256));
    return data ? withData(row.info, data) : null;
  }

  has(sha256: string): Promise<boolean> {
    return hasRow(this.db, sha256);
  }

  /** One transaction per blob: its row goes only if its object went too. */
  async delete(sha256s: readonly string[], putBefore: Date): Promise<string[]> {
    const deleted: string[] = [];
    for (const sha256 of sha256s) {
      const gone = await this.db.transaction(async (tx) => {
        await lock(tx, sha256);
        const [row] = await collectRows(tx, [sha256], putBefore);
        if (row && !row.stored) await this.objects.delete(this.key(sha256));
        return row !== undefined;
      });
      if (gone) deleted.push(sha256);
    }
    return deleted;
  }

  list(options: { unreferenced: true; putBefore: Date; after?: string; limit: number }): Promise<string[]> {
    return unreferenced(this.db, options.putBefore, options.after ?? '', options.limit);
  }

  /** Nest calls this as the process stops: the client's pooled connections go with it. */
  onApplicationShutdown(): void {
    this.objects.close();
  }

  private key(sha256: string): string {
    return `${this.prefix}${sha256}`;
  }
}

async function lock(tx: SqlExecutor, sha256: string): Promise<void> {
  await tx.query(`SELECT pg_advisory_xact_lock($1, hashtext($2))`, [BLOB_LOCK, sha256]);
}
