import { createHash } from 'node:crypto';
import type { Photo } from '@sweatpants/domain';

/** What a caller says about bytes it stores: their media type and, for an image, its size in pixels. */
export interface BlobMeta {
  mediaType: Photo['mediaType'];
  width?: number | undefined;
  height?: number | undefined;
}

/** A stored blob as a node names it: PROTOCOL.md's Photo (`bytes` is the stored size). */
export type BlobInfo = Photo;

/** A blob with its bytes. */
export interface Blob extends BlobInfo {
  data: Buffer;
}

/**
 * Content-addressed storage of bytes, as git stores blobs (DESIGN.md, Blobs): a blob is named by
 * the sha-256 of its bytes and stored once however often it is put. Every adapter keeps each
 * blob's row in the `blobs` table (so who may read it and whether any node names it are SQL);
 * where the bytes go is the adapter's business: the row itself (PgBlobStore) or an S3-compatible
 * bucket (S3BlobStore).
 */
export interface BlobStore {
  /** where the bytes go, for the log */
  readonly kind: 'database' | 's3';
  /**
   * Stores `data` under its sha-256 and returns what a node holds. Idempotent: the same bytes put
   * again are not stored again (the first put's row is returned), but their put time is freshened
   * so gc spares them until a node that names them has been written.
   */
  put(data: Buffer, meta: BlobMeta): Promise<BlobInfo>;
  /** The blob with its bytes; null when there is none. */
  get(sha256: string): Promise<Blob | null>;
  has(sha256: string): Promise<boolean>;
  /**
   * Deletes those of `sha256s` that no node names and that were last put before `putBefore`
   * (bytes and row together: a failure to delete the bytes keeps the row); returns the ones deleted.
   */
  delete(sha256s: readonly string[], putBefore: Date): Promise<string[]>;
  /** gc's candidates: blobs no node names, last put before `putBefore`, by sha-256 after `after`. */
  list(options: { unreferenced: true; putBefore: Date; after?: string; limit: number }): Promise<string[]>;
}

/** Injection token of the api's BlobStore. */
export const BLOB_STORE = Symbol('BlobStore');

export const SHA256 = /^[0-9a-f]{64}$/;

export function sha256Of(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}
