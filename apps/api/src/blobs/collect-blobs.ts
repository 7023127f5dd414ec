import type { BlobStore } from './blob-store';

/**
 * How long a blob no node names is spared after its last put: the time between a photo's intake
 * and the write of the node that names it (a message that waits on a busy runner, forwarded to
 * another api process) is seconds; an hour leaves room, as git's gc.pruneExpire does for loose
 * objects.
 */
export const DEFAULT_BLOB_GRACE_MINUTES = 60;
const PAGE = 500;

export interface BlobGcReport {
  dryRun: boolean;
  /** the blobs deleted (or that would be) */
  blobs: string[];
}

/**
 * gc of blobs: deletes every blob that no retained node names (nodes gc has deleted no longer
 * name anything: their `node_blobs` rows went with them) and that was not put within the grace
 * period. Run it after the tree's gc, so the blobs of the nodes it removed go in the same run.
 * Each deletion re-checks in the database that nothing names the blob, so a node written meanwhile
 * keeps it.
 */
export async function collectBlobs(
  store: BlobStore,
  options: { now?: Date; graceMinutes?: number; dryRun?: boolean } = {},
): Promise<BlobGcReport> {
  const dryRun = options.dryRun ?? false;
  const grace = options.graceMinutes ?? DEFAULT_BLOB_GRACE_MINUTES;
  const putBefore = new Date((options.now ?? new Date()).getTime() - grace * 60_000);
  const report: BlobGcReport = { dryRun, blobs: [] };
  let after = '';
  for (;;) {
    const page = await store.list({ unreferenced: true, putBefore, after, limit: PAGE });
    if (page.length === 0) break;
    report.blobs.push(...(dryRun ? page : await store.delete(page, putBefore)));
    after = page[page.length - 1] ?? after;
    if (page.length < PAGE) break;
  }
  return report;
}
