import { createHash, randomUUID } from 'node:crypto';
import type { InlinePhoto, Json, NodeAndHead, NodeKind, Photo, TreeNode } from '@sweatpants/domain';
import { migrateDown, migrateUp, migrationNames } from '@sweatpants/migrations';
import { createTestDatabase, type TestDatabase } from '@sweatpants/migrations/testing';
import { nodeId, PgSqlClient, TreeStore } from '@sweatpants/tree-store';
import { Client } from 'pg';
import sharp from 'sharp';
import { BLOB_STORE, type BlobStore } from '../src/blobs/blob-store';
import { BlobCollector } from '../src/blobs/blob-store.module';
import type { S3ObjectClient } from '../src/blobs/s3-client';
import { createConversation, settled } from './support/flows';
import { S3_CREDENTIALS, startS3, type S3Server } from './support/s3-server';
import { call, errorOf, register, registerAdmin, startApi, type TestApi } from './support/test-api';

/** A JPEG as a phone takes it, with where it was taken in its EXIF. */
async function jpegWithGps(width: number, height: number, colour = 40): Promise<InlinePhoto> {
  const jpeg = await sharp({
    create: { width, height, channels: 3, background: { r: 200, g: 120, b: colour } },
  })
    .jpeg()
    .withExif({
      IFD0: { Make: 'Phone', Model: 'Pocket 9' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '51/1 30/1 26/1',
        GPSLongitudeRef: 'W',
        GPSLongitude: '0/1 7/1 39/1',
      },
    })
    .toBuffer();
  return { mediaType: 'image/jpeg', data: jpeg.toString('base64') };
}

async function png(colour: number): Promise<InlinePhoto> {
  const bytes = await sharp({
    create: { width: 4, height: 3, channels: 3, background: { r: colour, g: 0, b: 0 } },
  })
    .png()
    .toBuffer();
  return { mediaType: 'image/png', data: bytes.toString('base64') };
}

/** The api on each blob store: its bytes in the database (the default), or in an S3 bucket. */
const STORES = [
  { store: 'database', s3: false },
  { store: 'S3 (s3rver)', s3: true },
] as const;

describe.each(STORES)('photos as content-addressed blobs, in the $store', ({ s3 }) => {
  let db: TestDatabase;
  let bucket: S3Server | undefined;
  let objectsInBucket: S3ObjectClient | undefined;
  let api: TestApi;
  let sql: Client;
  let owner: string;
  let stranger: string;
  let admin: string;

  beforeAll(async () => {
    db = await createTestDatabase('api_blobs');
    let objects: Record<string, string> = {};
    if (s3) {
      bucket = await startS3();
      objectsInBucket = await bucket.bucket('photos');
      objects = {
        BLOB_STORE_URL: bucket.blobStoreUrl('photos', 'blobs/'),
        AWS_ACCESS_KEY_ID: S3_CREDENTIALS.accessKeyId,
        AWS_SECRET_ACCESS_KEY: S3_CREDENTIALS.secretAccessKey,
      };
    }
    api = await startApi({
      DATABASE_URL: db.url,
      GC_EVERY_MINUTES: 'off',
      ADMIN_EMAILS: 'boss@blobs.example',
      ...objects,
    });
    sql = new Client({ connectionString: db.url });
    await sql.connect();
    owner = (await register(api, 'owner')).token;
    stranger = (await register(api, 'stranger')).token;
    admin = (await registerAdmin(api, db.url, 'boss@blobs.example', 'Boss')).token;
  }, 30_000);

  afterAll(async () => {
    await sql?.end();
    await api?.close();
    await bucket?.stop();
    await db?.drop();
  });

  const send = (token: string, id: string, photos: InlinePhoto[], text = 'my desk') =>
    call<NodeAndHead>(api, 'POST', `/api/conversations/${id}/messages`, { token, body: { text, photos } });
  const photosOf = (node: TreeNode) => (node.payload as { photos: Photo[] }).photos;
  const blob = (token: string | null, sha256: string, headers: Record<string, string> = {}) =>
    fetch(api.url(`/api/blobs/${sha256}`), {
      headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    });
  const blobRows = async () => Number((await sql.query(`SELECT count(*) AS n FROM blobs`)).rows[0].n);

  it('stores a photo once however often it is sent, and the node holds only its reference', async () => {
    const photo = await png(10);
    const one = await createConversation(api, owner);
    const two = await createConversation(api, owner);
    const before = await blobRows();
    const first = await send(owner, one.id, [photo, photo]);
    const second = await send(owner, two.id, [photo]);
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    const [a, b] = photosOf(first.body.node);
    const [c] = photosOf(second.body.node);
    expect(a).toEqual({
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      mediaType: 'image/png',
      bytes: expect.any(Number),
      width: 4,
      height: 3,
    });
    expect(b).toEqual(a);
    expect(c).toEqual(a);
    expect(await blobRows()).toBe(before + 1);
    // The bytes are in the row, or only in the bucket under the configured prefix.
    const [row] = (
      await sql.query(`SELECT data IS NULL AS elsewhere FROM blobs WHERE sha256 = $1`, [a!.sha256])
    ).rows;
    expect(row).toEqual({ elsewhere: s3 });
    if (objectsInBucket) expect((await objectsInBucket.get(`blobs/${a!.sha256}`))?.length).toBe(a!.bytes);
    // No bytes in the node: its JSON is a few hundred characters, not the photo.
    expect(JSON.stringify(first.body.node).length).toBeLessThan(1000);
    await settled(api, owner, one.id);
    await settled(api, owner, two.id);
  });

  it('serves the bytes to the owner and an admin, cacheable for good; a 404 for anyone else', async () => {
    const c = await createConversation(api, owner);
    const [photo] = photosOf((await send(owner, c.id, [await png(20)])).body.node);
    const res = await blob(owner, photo!.sha256);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
    expect(res.headers.get('etag')).toBe(`"${photo!.sha256}"`);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(photo!.sha256);
    expect(bytes.length).toBe(photo!.bytes);
    expect((await blob(owner, photo!.sha256, { 'if-none-match': `"${photo!.sha256}"` })).status).toBe(304);
    expect((await blob(admin, photo!.sha256)).status).toBe(200);

    const refused = await blob(stranger, photo!.sha256);
    expect(refused.status).toBe(404);
    expect(await refused.json()).toEqual(errorOf('not_found'));
    expect((await blob(null, photo!.sha256)).status).toBe(401);
    expect((await blob(owner, 'f'.repeat(64))).status).toBe(404);
    expect((await blob(owner, 'not-a-sha')).status).toBe(404);
    expect((await blob(owner, photo!.sha256.toUpperCase())).status).toBe(404);

    // Archived, the owner reads it no more (as the conversation); an admin still inspects it.
    await settled(api, owner, c.id);
    expect((await call(api, 'DELETE', `/api/conversations/${c.id}`, { token: owner })).status).toBe(204);
    expect((await blob(owner, photo!.sha256)).status).toBe(404);
    expect((await blob(admin, photo!.sha256)).status).toBe(200);
  });

  it("gives access through one's own node only: sending someone else's photo makes it one's own", async () => {
    const photo = await png(30);
    const mine = await createConversation(api, owner);
    const [stored] = photosOf((await send(owner, mine.id, [photo])).body.node);
    expect((await blob(stranger, stored!.sha256)).status).toBe(404);
    // A reference instead of the bytes is refused: knowing a hash is not having the photo.
    const theirs = await createConversation(api, stranger);
    const q = await settled(api, stranger, theirs.id);
    const forged = await call(
      api,
      'POST',
      `/api/conversations/${theirs.id}/elicits/${q.pendingElicit!.elicitId}/response`,
      {
        token: stranger,
        body: { action: 'accept', content: { text: 'look', photos: [stored] } },
      },
    );
    expect(forged.status).toBe(400);
    expect(forged.body).toMatchObject({
      error: { code: 'invalid_request', details: [{ field: 'content.photos' }] },
    });
    expect((await blob(stranger, stored!.sha256)).status).toBe(404);
    // With the bytes, it is the same blob, and now theirs to read too.
    const answered = await call<NodeAndHead>(
      api,
      'POST',
      `/api/conversations/${theirs.id}/elicits/${q.pendingElicit!.elicitId}/response`,
      { token: stranger, body: { action: 'accept', content: { text: 'look', photos: [photo] } } },
    );
    expect(answered.status).toBe(200);
    // The chat prompt's answer is the user's message.
    expect(answered.body.node.kind).toBe('user');
    expect(photosOf(answered.body.node)).toEqual([stored]);
    expect((await blob(stranger, stored!.sha256)).status).toBe(200);
    await settled(api, owner, mine.id);
    await settled(api, stranger, theirs.id);
  });

  it('strips EXIF (no GPS position) and scales a 4000×3000 photo to at most 2048 px', async () => {
    const c = await createConversation(api, owner);
    const original = await jpegWithGps(4000, 3000);
    const sentMeta = await sharp(Buffer.from(original.data, 'base64')).metadata();
    expect(sentMeta.exif?.toString('latin1')).toContain('Pocket 9');
    const [photo] = photosOf((await send(owner, c.id, [original])).body.node);
    expect(photo).toMatchObject({ mediaType: 'image/jpeg', width: 2048, height: 1536 });
    const bytes = Buffer.from(await (await blob(owner, photo!.sha256)).arrayBuffer());
    const meta = await sharp(bytes).metadata();
    expect([meta.width, meta.height]).toEqual([2048, 1536]);
    expect(meta.exif).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(bytes.toString('latin1')).not.toContain('Pocket 9');
    expect(bytes.toString('latin1')).not.toMatch(/GPS/);
    await settled(api, owner, c.id);
  });

  it('refuses a text file declared image/png (400) and a photo over 10 MB (413), storing nothing', async () => {
    const c = await createConversation(api, owner);
    const before = await blobRows();
    const text = await send(owner, c.id, [
      { mediaType: 'image/png', data: Buffer.from('just some words, renamed .png').toString('base64') },
    ]);
    expect(text.status).toBe(400);
    expect(text.body).toMatchObject({ error: { code: 'invalid_request', details: [{ field: 'photos.0' }] } });
    const notBase64 = await send(owner, c.id, [{ mediaType: 'image/png', data: '%%%not base64%%%' }]);
    expect(notBase64.status).toBe(400);
    const huge = await send(owner, c.id, [
      { mediaType: 'image/png', data: Buffer.alloc(11 * 1024 * 1024, 7).toString('base64') },
    ]);
    expect(huge.status).toBe(413);
    expect(huge.body).toEqual(errorOf('too_large'));
    expect(await blobRows()).toBe(before);
  });

  it('collects blobs no node names once they are past the grace period, and keeps the rest', async () => {
    const store = api.app.get<BlobStore>(BLOB_STORE);
    const collector = api.app.get(BlobCollector);
    const orphan = await store.put(Buffer.from('an upload whose message never came'), {
      mediaType: 'image/png',
    });
    const c = await createConversation(api, owner);
    const [named] = photosOf((await send(owner, c.id, [await png(40)])).body.node);
    expect((await collector.collect()).blobs).not.toContain(orphan.sha256);
    const later = new Date(Date.now() + 2 * 60 * 60_000);
    const report = await collector.collect({ now: later });
    expect(report.blobs).toContain(orphan.sha256);
    expect(report.blobs).not.toContain(named!.sha256);
    expect(await store.has(orphan.sha256)).toBe(false);
    expect((await blob(owner, named!.sha256)).status).toBe(200);
    await settled(api, owner, c.id);
  });
});

/**
 * The migration that moves inline photos out of nodes (InlinePhotosToBlobs1795460000001): nodes
 * written in the previous format (photos inline, base64), with a compaction summary covering the
 * photo and a fork of it, are rewritten with new ids; afterwards fsck finds nothing wrong and the
 * photos are served as blobs.
 */
describe('moving inline photos out of existing nodes', () => {
  let db: TestDatabase;
  let sql: PgSqlClient;

  beforeAll(async () => {
    db = await createTestDatabase('api_blobs_migration');
    // Back to just before the move: it and the migrations after it reverted.
    await migrateDown(
      { url: db.url },
      migrationNames.length - migrationNames.indexOf('InlinePhotosToBlobs1795460000001'),
    );
    sql = PgSqlClient.connect(db.url);
  }, 30_000);

  afterAll(async () => {
    await sql?.close();
    await db?.drop();
  });

  let clock = Date.parse('2026-06-01T10:00:00.000Z');
  const at = () => new Date((clock += 1000)).toISOString();
  type Draft = { kind: string; payload: Json; authorId: string; createdAt: string };
  const draft = (kind: string, payload: Json, authorId = 'alice'): Draft => ({
    kind,
    payload,
    authorId,
    createdAt: at(),
  });

  /** A conversation as the store wrote one before blobs: tree_create, as the previous code called it. */
  async function create(payload: (id: string) => Json): Promise<{ id: string; root: string }> {
    const id = randomUUID();
    const createdAt = at();
    const root = nodeId({ parentId: null, kind: 'root', payload: payload(id), authorId: 'alice', createdAt });
    await sql.query(
      `SELECT * FROM tree_create($1, 'alice', 'tidying', '', $2, $3, 'alice', $4, 'alice', 'create')`,
      [id, root, JSON.stringify(payload(id)), createdAt],
    );
    return { id, root };
  }

  /** Nodes appended as a chain under `parent`, HEAD moved to the last: tree_append, unvalidated. */
  async function append(
    conversationId: string,
    parent: string,
    drafts: Draft[],
    action = 'append',
  ): Promise<string[]> {
    const ids: string[] = [];
    let parentId = parent;
    for (const d of drafts) {
      parentId = nodeId({
        parentId,
        kind: d.kind as NodeKind,
        payload: d.payload,
        authorId: d.authorId,
        createdAt: d.createdAt,
      });
      ids.push(parentId);
    }
    const [row] = await sql.query<{ status: string }>(
      `SELECT * FROM tree_append(p_conversation => $1, p_ref => 'HEAD', p_expected => NULL, p_parent => $2,
         p_ids => $3, p_kinds => $4, p_payloads => $5::jsonb[], p_authors => $6, p_times => $7::timestamptz[],
         p_action => $8, p_actor => 'alice', p_message => $8)`,
      [
        conversationId,
        parent,
        ids,
        drafts.map((d) => d.kind),
        drafts.map((d) => JSON.stringify(d.payload)),
        drafts.map((d) => d.authorId),
        drafts.map((d) => d.createdAt),
        action,
      ],
    );
    expect(row?.status).toBe('ok');
    return ids;
  }

  it('rewrites the nodes that held photos and their descendants, so fsck is clean and the photos are served', async () => {
    const gps = await jpegWithGps(3000, 2000);
    const small = await png(50);
    // A: a photo, a reply, an answer in the user's words with another photo, more talk; then a
    // compaction whose summary covers the photo and re-appends the tail.
    const a = await create((id) => ({ conversationId: id }));
    const said = [
      draft('user', { text: 'my desk', photos: [gps] }),
      draft('assistant', { text: 'Start with the mugs.' }, 'agent:tidying'),
    ];
    const [u1, a1] = await append(a.id, a.root, said);
    const [r1] = await append(a.id, a1!, [
      draft('response', { elicitId: 'e1', action: 'other', content: { text: 'see', photos: [small] } }),
    ]);
    const tail = [
      draft('user', { text: 'done' }),
      draft('assistant', { text: 'Well done.' }, 'agent:tidying'),
    ];
    await append(a.id, r1!, tail);
    const [summary, u2c, a2c] = await append(
      a.id,
      a.root,
      [
        draft(
          'summary',
          { text: 'They tidied.', covers: { fromId: u1!, toId: r1!, count: 3 } },
          'agent:tidying',
        ),
        ...tail,
      ],
      'compact',
    );
    // B: a fork of A at the reply, its path copied (the same photo, once more).
    const b = await create((id) => ({
      conversationId: id,
      forkedFrom: { conversationId: a.id, nodeId: a1! },
    }));
    await append(b.id, b.root, said, 'fork');
    const inline = () =>
      sql.query(`SELECT 1 FROM nodes WHERE payload::text LIKE '%"data":%'`).then((rows) => rows.length);
    expect(await inline()).toBe(3);

    expect(await migrateUp({ url: db.url })).toEqual(
      migrationNames.slice(migrationNames.indexOf('InlinePhotosToBlobs1795460000001')),
    );

    expect(await inline()).toBe(0);
    const store = new TreeStore(sql);
    for (const id of [a.id, b.id]) expect(await store.fsck(id)).toMatchObject({ ok: true, problems: [] });

    // A's HEAD is the re-appended tail under a rewritten summary, whose covers name the new nodes.
    const path = await store.path(a.id);
    if (!path.ok) throw new Error(path.error.message);
    expect(path.value.map((n) => n.kind)).toEqual(['root', 'summary', 'user', 'assistant']);
    const [root, newSummary, newU2, newA2] = path.value;
    expect(root!.id).toBe(a.root);
    expect([newSummary!.id, newU2!.id, newA2!.id]).not.toEqual([summary, u2c, a2c]);
    const covers = (newSummary!.payload as { covers: { fromId: string; toId: string } }).covers;
    const from = await store.node(a.id, covers.fromId);
    const to = await store.node(a.id, covers.toId);
    expect(from?.kind).toBe('user');
    expect(to?.kind).toBe('response');
    const [photo] = (from!.payload as { photos: Photo[] }).photos;
    expect(photo).toEqual({
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      mediaType: 'image/jpeg',
      bytes: expect.any(Number),
      width: 2048,
      height: 1365,
    });
    expect((to!.payload as { content: { photos: Photo[] } }).content.photos).toEqual([
      {
        sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
        mediaType: 'image/png',
        bytes: expect.any(Number),
        width: 4,
        height: 3,
      },
    ]);
    // The reflog follows: its newest row is the compaction, ending at the new HEAD.
    const reflog = await store.reflog(a.id, { limit: 10 });
    if (!reflog.ok) throw new Error(reflog.error.message);
    expect(reflog.value.entries[0]).toMatchObject({
      action: 'compact',
      oldHead: expect.any(String),
      newHead: newA2!.id,
    });
    expect(await store.node(a.id, reflog.value.entries[0]!.oldHead!)).not.toBeNull();

    // B's root names A's rewritten reply; its copy of the photo is the same blob.
    const forkPath = await store.path(b.id);
    if (!forkPath.ok) throw new Error(forkPath.error.message);
    const forkedFrom = (forkPath.value[0]!.payload as { forkedFrom: { nodeId: string } }).forkedFrom;
    expect((await store.node(a.id, forkedFrom.nodeId))?.kind).toBe('assistant');
    expect((forkPath.value[1]!.payload as { photos: Photo[] }).photos).toEqual([photo]);
    expect(Number((await sql.query<{ n: string }>(`SELECT count(*) AS n FROM blobs`))[0]!.n)).toBe(2);

    // Served to the owner, without the phone's EXIF.
    const api = await startApi({ DATABASE_URL: db.url, GC_EVERY_MINUTES: 'off' });
    try {
      const alice = await register(api, 'alice');
      await sql.query(`UPDATE conversations SET owner_id = $1`, [alice.user.id]);
      const res = await fetch(api.url(`/api/blobs/${photo!.sha256}`), {
        headers: { authorization: `Bearer ${alice.token}` },
      });
      expect(res.status).toBe(200);
      const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
      expect(meta.exif).toBeUndefined();
      expect([meta.width, meta.height]).toEqual([2048, 1365]);
    } finally {
      await api.close();
    }
  }, 60_000);
});
