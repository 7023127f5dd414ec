import type { Photo } from '@sweatpants/domain';
import { createTestDatabase, type TestDatabase } from '@sweatpants/migrations/testing';
import { PGlite } from '@electric-sql/pglite';
import { migrateUp } from '@sweatpants/migrations';
import { PgliteSqlClient, PgSqlClient, TreeStore, type SqlClient } from '@sweatpants/tree-store';
import { sha256Of, type BlobStore } from '../src/blobs/blob-store';
import { collectBlobs } from '../src/blobs/collect-blobs';
import { PgBlobStore } from '../src/blobs/pg-blob-store';
import { S3BlobStore } from '../src/blobs/s3-blob-store';
import type { S3ObjectClient } from '../src/blobs/s3-client';
import { APP_ROLE } from '../src/database/open-database';
import { startS3 } from './support/s3-server';

/**
 * Both blob stores against the same behaviour: PostgreSQL (the bytes in the row, and PGlite, the
 * embedded default, through the same adapter), and S3 against a real S3-compatible server on
 * loopback: s3rver, from npm, keeping its objects in a temporary directory.
 */
const PHOTO = { mediaType: 'image/png' as const, width: 1, height: 1 };
const MINUTE = 60_000;

interface Opened {
  db: SqlClient;
  store: BlobStore;
  objects?: S3ObjectClient | undefined;
  close(): Promise<void>;
}

interface Adapter {
  name: string;
  open(): Promise<Opened>;
}

/** A fresh PostgreSQL database, used as the api uses it: as the application role, which may add blobs but not delete them. */
async function postgres(label: string): Promise<{ db: PgSqlClient; drop(): Promise<void> }> {
  const database: TestDatabase = await createTestDatabase(label);
  const db = PgSqlClient.connect(database.url, { role: APP_ROLE });
  return {
    db,
    drop: async () => {
      await db.close();
      await database.drop();
    },
  };
}

const adapters: Adapter[] = [
  {
    name: 'PostgreSQL',
    open: async () => {
      const { db, drop } = await postgres('blob_adapters_pg');
      return { db, store: new PgBlobStore(db), close: drop };
    },
  },
  {
    // The embedded default: the same adapter through the same SqlClient abstraction.
    name: 'PGlite',
    open: async () => {
      const pglite = await PGlite.create();
      await migrateUp({ pglite });
      const db = new PgliteSqlClient(pglite, { role: APP_ROLE });
      return { db, store: new PgBlobStore(db), close: () => db.close() };
    },
  },
  {
    name: 'S3 (s3rver on loopback)',
    open: async () => {
      const { db, drop } = await postgres('blob_adapters_s3');
      const s3 = await startS3();
      const objects = await s3.bucket('photos');
      return {
        db,
        store: new S3BlobStore(db, objects, 'blobs/'),
        objects,
        close: async () => {
          await s3.stop();
          await drop();
        },
      };
    },
  },
];

describe.each(adapters)('the $name blob store', ({ name, open }) => {
  let db: SqlClient;
  let tree: TreeStore;
  let store: BlobStore;
  let objects: S3ObjectClient | undefined;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ db, store, objects, close } = await open());
    tree = new TreeStore(db);
  }, 60_000);

  afterAll(async () => {
    await close();
  });

  /** A conversation whose one message shows `photo`. */
  async function nodeNaming(photo: Photo): Promise<string> {
    const { conversation } = await tree.createConversation({ ownerId: 'alice', agent: 'tidying' });
    const appended = await tree.append({
      conversationId: conversation.id,
      nodes: [{ kind: 'user', payload: { text: 'look', photos: [photo] }, authorId: 'alice' }],
      actorId: 'alice',
    });
    if (!appended.ok) throw new Error(appended.error.message);
    return conversation.id;
  }

  const rows = async (sha256: string) =>
    db.query<{ in_row: boolean }>(`SELECT data IS NOT NULL AS in_row FROM blobs WHERE sha256 = $1`, [sha256]);

  it('stores bytes once under their sha-256, however often they are put, and reads them back', async () => {
    const data = Buffer.from(`a photo's bytes ${name}`);
    const first = await store.put(data, PHOTO);
    expect(first).toEqual({
      sha256: sha256Of(data),
      mediaType: 'image/png',
      bytes: data.length,
      width: 1,
      height: 1,
    });
    // Put again, even labelled otherwise: the same blob, as first stored.
    expect(await store.put(data, { mediaType: 'image/png' })).toEqual(first);
    expect(await rows(first.sha256)).toEqual([{ in_row: store.kind === 'database' }]);
    expect(await store.has(first.sha256)).toBe(true);
    const blob = await store.get(first.sha256);
    expect(blob?.data.equals(data)).toBe(true);
    expect(blob).toMatchObject(first);
    if (objects) expect((await objects.get(`blobs/${first.sha256}`))?.equals(data)).toBe(true);
    expect(await store.get('0'.repeat(64))).toBeNull();
    expect(await store.has('0'.repeat(64))).toBe(false);
  });

  it('lists and deletes only blobs no node names and not put within the grace period', async () => {
    const named = await store.put(Buffer.from(`named ${name}`), PHOTO);
    const orphan = await store.put(Buffer.from(`orphan ${name}`), PHOTO);
    await nodeNaming(named);
    const later = new Date(Date.now() + 2 * MINUTE);
    const candidates = await store.list({ unreferenced: true, putBefore: later, limit: 100 });
    expect(candidates).toContain(orphan.sha256);
    expect(candidates).not.toContain(named.sha256);
    // Just put: spared.
    expect(await store.delete([orphan.sha256], new Date(Date.now() - MINUTE))).toEqual([]);
    expect(await store.has(orphan.sha256)).toBe(true);
    // Named by a node: kept even when asked by name.
    expect(await store.delete([named.sha256, orphan.sha256], later)).toEqual([orphan.sha256]);
    expect(await store.has(orphan.sha256)).toBe(false);
    expect(await store.get(orphan.sha256)).toBeNull();
    if (objects) expect(await objects.get(`blobs/${orphan.sha256}`)).toBeNull();
    expect((await store.get(named.sha256))?.data.toString()).toBe(`named ${name}`);
  });

  it('cannot be emptied by the api role behind gc: deleting a blob row directly is refused', async () => {
    const blob = await store.put(Buffer.from(`kept ${name}`), PHOTO);
    await expect(db.query(`DELETE FROM blobs WHERE sha256 = $1`, [blob.sha256])).rejects.toThrow(
      /permission denied/,
    );
  });

  it('collectBlobs removes what a deleted node named, once the grace period is over', async () => {
    const photo = await store.put(Buffer.from(`of a gone node ${name}`), PHOTO);
    const conversationId = await nodeNaming(photo);
    expect(
      (await collectBlobs(store, { now: new Date(Date.now() + 2 * MINUTE), graceMinutes: 1 })).blobs,
    ).not.toContain(photo.sha256);
    // The message is discarded (HEAD back to the root, twice, so no retained reflog row names it)
    // and the tree's gc, with nothing kept past today, deletes its node.
    for (const to of ['HEAD~1', 'HEAD']) {
      const moved = await tree.move({ conversationId, to, action: 'rewind', actorId: 'alice' });
      if (!moved.ok) throw new Error(moved.error.message);
    }
    const swept = await tree.gc({
      conversationId,
      now: new Date(Date.now() + 24 * 60 * MINUTE),
      policy: { reachableDays: 0, unreachableDays: 0 },
    });
    expect(swept.nodes).toHaveLength(1);
    const dry = await collectBlobs(store, {
      now: new Date(Date.now() + 2 * MINUTE),
      graceMinutes: 1,
      dryRun: true,
    });
    expect(dry.blobs).toContain(photo.sha256);
    expect(await store.has(photo.sha256)).toBe(true);
    const report = await collectBlobs(store, { now: new Date(Date.now() + 2 * MINUTE), graceMinutes: 1 });
    expect(report.blobs).toContain(photo.sha256);
    expect(await store.has(photo.sha256)).toBe(false);
  });

  it('refuses a node that names a blob the store does not have', async () => {
    const missing: Photo = { sha256: 'f'.repeat(64), mediaType: 'image/png', bytes: 3 };
    await expect(nodeNaming(missing)).rejects.toThrow(/foreign key/);
  });
});
