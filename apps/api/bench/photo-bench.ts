/**
 * `npm run bench`, third part: photos inline in nodes (as before blobs) against photos as
 * content-addressed objects, for a conversation of 20 photo messages (each answered), on the
 * local PostgreSQL in a database of its own (dropped at the end).
 *
 *   bytes stored:   the conversation's nodes, plus its blobs for the objects form (each photo sent
 *                   twice, as a person resends one: the objects form stores it once)
 *   path read:      store.path(conversation, 'HEAD'), p50 of interleaved repetitions
 *   `node` event:   JSON of the socket's `node` event for one photo message
 *
 * Targets: the objects form's path read ≤ 0.25 × the inline one's, its `node` event ≤ 1 kB, and
 * its bytes stored ≤ 0.6 × the inline one's (base64 is 4/3 of the bytes, and resends are free).
 * Prints `figure | inline | objects | ratio | target | met` and `bench: N of M targets met`.
 */
import { randomBytes } from 'node:crypto';
import type { InlinePhoto, Json, NodeKind, Photo } from '@sweatpants/domain';
import { createTestDatabase } from '@sweatpants/migrations/testing';
import { nodeId, PgSqlClient, TreeStore } from '@sweatpants/tree-store';
import sharp from 'sharp';
import { PgBlobStore } from '../src/blobs/pg-blob-store';
import { APP_ROLE } from '../src/database/open-database';

const PHOTOS = 20;
const note = (text: string) => process.stderr.write(`  · ${text}\n`);

/** A photo as a phone's intake leaves it: 1600×1200 JPEG of noise (it does not compress away). */
async function photo(seed: number): Promise<Buffer> {
  const raw = randomBytes(400 * 300 * 3);
  raw[0] = seed;
  return sharp(raw, { raw: { width: 400, height: 300, channels: 3 } })
    .resize(1600, 1200, { kernel: 'nearest' })
    .jpeg({ quality: 85 })
    .toBuffer();
}

async function main(argv: string[]): Promise<number> {
  const quick = argv.includes('--quick');
  const reps = quick ? 15 : 60;
  process.stderr.write(`bench: photos inline vs as objects, ${PHOTOS} photos${quick ? ' (--quick)' : ''}\n`);
  const database = await createTestDatabase('bench_photos');
  const db = PgSqlClient.connect(database.url, { role: APP_ROLE });
  try {
    const store = new TreeStore(db);
    const blobs = new PgBlobStore(db);
    const images = await Promise.all(Array.from({ length: PHOTOS / 2 }, (_, i) => photo(i)));
    note(`photos of ${Math.round(images[0]!.length / 1024)} kB each, each sent twice`);

    // Inline: the previous format, written as the store wrote it then (tree_append; no validation).
    const inline = await store.createConversation({ ownerId: 'bench', agent: 'tidying' });
    let head = inline.root.id;
    for (let i = 0; i < PHOTOS; i++) {
      const sent: InlinePhoto = {
        mediaType: 'image/jpeg',
        data: images[i % images.length]!.toString('base64'),
      };
      head = await appendRaw(db, inline.conversation.id, head, [
        { kind: 'user', payload: { text: `photo ${i}`, photos: [sent] }, authorId: 'bench' },
        { kind: 'assistant', payload: { text: `I see photo ${i}.` }, authorId: 'agent:tidying' },
      ]);
    }

    // Objects: stored once each, the nodes naming them.
    const objects = await store.createConversation({ ownerId: 'bench', agent: 'tidying' });
    let sample: Photo | undefined;
    for (let i = 0; i < PHOTOS; i++) {
      const stored = await blobs.put(images[i % images.length]!, {
        mediaType: 'image/jpeg',
        width: 1600,
        height: 1200,
      });
      sample ??= stored;
      const appended = await store.append({
        conversationId: objects.conversation.id,
        nodes: [
          { kind: 'user', payload: { text: `photo ${i}`, photos: [stored] }, authorId: 'bench' },
          { kind: 'assistant', payload: { text: `I see photo ${i}.` }, authorId: 'agent:tidying' },
        ],
        actorId: 'bench',
      });
      if (!appended.ok) throw new Error(appended.error.message);
    }

    const nodeBytes = async (conversationId: string) =>
      Number(
        (
          await db.query<{ n: string }>(
            `SELECT coalesce(sum(pg_column_size(n.*)), 0) AS n FROM nodes n WHERE conversation_id = $1`,
            [conversationId],
          )
        )[0]!.n,
      );
    const blobBytes = Number(
      (await db.query<{ n: string }>(`SELECT coalesce(sum(pg_column_size(b.*)), 0) AS n FROM blobs b`))[0]!.n,
    );
    const bytesInline = await nodeBytes(inline.conversation.id);
    const bytesObjects = (await nodeBytes(objects.conversation.id)) + blobBytes;

    // Path reads, interleaved so drift hits both alike.
    const times: Record<'inline' | 'objects', number[]> = { inline: [], objects: [] };
    for (let r = 0; r < reps + 3; r++) {
      const order: ('inline' | 'objects')[] = r % 2 === 0 ? ['inline', 'objects'] : ['objects', 'inline'];
      for (const which of order) {
        const id = which === 'inline' ? inline.conversation.id : objects.conversation.id;
        const started = process.hrtime.bigint();
        const path = await store.path(id);
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        if (!path.ok || path.value.length !== 2 * PHOTOS + 1) throw new Error('the path read went wrong');
        if (r >= 3) times[which].push(ms);
      }
    }
    const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

    const inlineNode = await store.node(
      inline.conversation.id,
      (await lastUser(store, inline.conversation.id))!,
    );
    const objectNode = await store.node(
      objects.conversation.id,
      (await lastUser(store, objects.conversation.id))!,
    );
    const eventSize = (node: unknown) => Buffer.byteLength(JSON.stringify({ conversationId: 'c', node }));
    note(`sample photo ${sample?.sha256.slice(0, 12)}…, ${sample?.bytes} bytes`);

    const rows = [
      figure('bytes stored (nodes + blobs)', bytesInline, bytesObjects, 0.6, 'B'),
      figure('path read p50', p50(times.inline), p50(times.objects), 0.25, 'ms'),
      figure(
        'socket `node` event (one photo)',
        eventSize(inlineNode),
        eventSize(objectNode),
        null,
        'B',
        1024,
      ),
    ];
    console.log('\nfigure | inline | objects | ratio | target | met');
    console.log('--- | --- | --- | --- | --- | ---');
    for (const r of rows)
      console.log(
        `${r.name} | ${r.inline} | ${r.objects} | ${r.ratio} | ${r.target} | ${r.met ? 'yes' : 'no'}`,
      );
    console.log(`bench: ${rows.filter((r) => r.met).length} of ${rows.length} targets met`);
    return 0;
  } finally {
    await db.close();
    await database.drop();
  }
}

function figure(
  name: string,
  inline: number,
  objects: number,
  factor: number | null,
  unit: string,
  cap?: number,
) {
  const fmt = (v: number) =>
    unit === 'ms' ? `${v.toFixed(2)} ms` : `${Math.round(v).toLocaleString('en')} ${unit}`;
  const ratio = objects / inline;
  const met = factor !== null ? ratio <= factor : objects <= (cap ?? Infinity);
  const target = factor !== null ? `≤ ${factor} × inline` : `≤ ${cap} ${unit}`;
  return { name, inline: fmt(inline), objects: fmt(objects), ratio: ratio.toFixed(3), target, met };
}

async function lastUser(store: TreeStore, conversationId: string): Promise<string | undefined> {
  const path = await store.path(conversationId);
  return path.ok ? path.value.findLast((n) => n.kind === 'user')?.id : undefined;
}

/** Appends a chain under `parent` through tree_append, as the previous code wrote inline photos. */
async function appendRaw(
  db: PgSqlClient,
  conversationId: string,
  parent: string,
  drafts: { kind: NodeKind; payload: Json; authorId: string }[],
): Promise<string> {
  const times = drafts.map(() => new Date().toISOString());
  const ids: string[] = [];
  let parentId = parent;
  drafts.forEach((d, i) => {
    parentId = nodeId({
      parentId,
      kind: d.kind,
      payload: d.payload,
      authorId: d.authorId,
      createdAt: times[i]!,
    });
    ids.push(parentId);
  });
  const [row] = await db.query<{ status: string }>(
    `SELECT * FROM tree_append(p_conversation => $1, p_ref => 'HEAD', p_expected => NULL, p_parent => $2,
       p_ids => $3, p_kinds => $4, p_payloads => $5::jsonb[], p_authors => $6, p_times => $7::timestamptz[],
       p_action => 'append', p_actor => 'bench', p_message => '')`,
    [
      conversationId,
      parent,
      ids,
      drafts.map((d) => d.kind),
      drafts.map((d) => JSON.stringify(d.payload)),
      drafts.map((d) => d.authorId),
      times,
    ],
  );
  if (row?.status !== 'ok') throw new Error(`append: ${row?.status}`);
  return parentId;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`bench: photos failed: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
