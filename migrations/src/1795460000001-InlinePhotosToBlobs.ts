import { createHash } from 'node:crypto';
import sharp from 'sharp';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Moves the photos that nodes held inline (`{mediaType, data}`, base64) into `blobs` and puts their
 * references (`{sha256, mediaType, bytes, width, height}`) in the nodes, as git filter-branch
 * rewrites history: a node's id hashes its payload and its parent's id, so each node that held a
 * photo gets a new id, and so does every descendant. Per conversation, in one transaction:
 *
 * - the new nodes are computed in dependency order (a parent before its children; a node that
 *   names another by id, as a summary's `covers` or a fork's `forkedFrom` does, after the node it
 *   names), with every string in a payload that is a rewritten node's id replaced by its new id;
 * - the old nodes, and the reflog rows that name them, are deleted as `sweatpants_gc`, the one role
 *   the immutability triggers let delete (as `tree_gc` does, SECURITY DEFINER as that role); nothing
 *   is ever UPDATEd: the triggers refuse that to everyone, so history is rewritten the git way, by
 *   writing new objects and dropping the old ones;
 * - the new nodes are inserted at the old ones' places (same segment, depth and time), the reflog
 *   rows written again with the same ids, sequence numbers, actions, actors and times and their old
 *   and new heads mapped, and each ref that pointed at an old node re-inserted at its new one (a
 *   ref row is deleted and inserted, not updated: `refs_logged` refuses an update that does not
 *   advance the ref's reflog). State snapshots of the old nodes go with them (derived; refolded).
 *
 * Conversations go oldest first, so a fork is rewritten after its source and its root's
 * `forkedFrom` follows the source's new ids. A photo with metadata (EXIF, XMP, IPTC), an EXIF
 * orientation or an edge over 2048 px is prepared as the api's intake prepares one (upright,
 * scaled, written again without metadata); any other is kept byte for byte. Bytes that are not an
 * image sharp reads are kept as they were, under their declared type, so nothing a person sent is
 * lost. The bytes go in the row (`data`): the migration cannot reach an object store, and the blob
 * stores read a row's own bytes first, so this holds with BLOB_STORE_URL too.
 *
 * Compaction jobs queued in Redis before the migration may name old ids; they find HEAD moved and
 * give up, as for any HEAD that moved while they waited.
 *
 * `down()` is the same rewrite the other way: every stored photo back inline (it refuses, changing
 * nothing, when a photo's bytes are only in an object store).
 */
export class InlinePhotosToBlobs1795460000001 implements MigrationInterface {
  name = 'InlinePhotosToBlobs1795460000001';

  async up(q: QueryRunner): Promise<void> {
    const candidates = await conversationsWhere(
      q,
      `EXISTS (SELECT 1 FROM jsonb_array_elements(${PHOTOS_OF('n.payload')}) p WHERE p ? 'data')`,
    );
    await rewrite(q, candidates, async (photo) => (isInline(photo) ? toBlob(q, photo) : null));
  }

  async down(q: QueryRunner): Promise<void> {
    const candidates = await conversationsWhere(
      q,
      `EXISTS (SELECT 1 FROM jsonb_array_elements(${PHOTOS_OF('n.payload')}) p WHERE p ? 'sha256')`,
    );
    await rewrite(q, candidates, async (photo) => (isStored(photo) ? toInline(q, photo) : null));
  }
}

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/** A node's photos as one jsonb array: a message's `photos` and an answer's `content.photos`. */
const PHOTOS_OF = (payload: string) => `
  (CASE WHEN jsonb_typeof(${payload}->'photos') = 'array' THEN ${payload}->'photos' ELSE '[]' END
   || CASE WHEN jsonb_typeof(${payload}->'content'->'photos') = 'array' THEN ${payload}->'content'->'photos'
           ELSE '[]' END)`;

const MAX_EDGE = 2048;
const FORMATS: Record<string, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
};

interface NodeRow {
  id: string;
  parent_id: string | null;
  segment_id: string;
  depth: number;
  kind: string;
  author_id: string;
  payload: JsonObject;
  created_at: Date | string;
}

interface ReflogRow {
  id: string;
  ref: string;
  seq: string;
  old_node: string | null;
  new_node: string;
  action: string;
  actor_id: string;
  message: string;
  created_at: Date | string;
}

/** Every conversation with a node matching `where`, and every fork, oldest first. */
async function conversationsWhere(q: QueryRunner, where: string): Promise<string[]> {
  const rows = (await q.query(
    `SELECT c.id FROM conversations c
     WHERE EXISTS (SELECT 1 FROM nodes n WHERE n.conversation_id = c.id AND (${where}))
        OR EXISTS (SELECT 1 FROM nodes n WHERE n.conversation_id = c.id AND n.parent_id IS NULL
                   AND n.payload ? 'forkedFrom')
     ORDER BY c.created_at, c.id`,
  )) as { id: string }[];
  return rows.map((r) => r.id);
}

/** Rewrites each conversation whose photos `convert` changes (or that names a rewritten node). */
async function rewrite(
  q: QueryRunner,
  conversations: readonly string[],
  convert: (photo: Json) => Promise<JsonObject | null>,
): Promise<void> {
  // Old id → new id, across conversations (a fork's root names its source's node).
  const renamed = new Map<string, string>();
  for (const conversationId of conversations) await rewriteOne(q, conversationId, convert, renamed);
}

async function rewriteOne(
  q: QueryRunner,
  conversationId: string,
  convert: (photo: Json) => Promise<JsonObject | null>,
  renamed: Map<string, string>,
): Promise<void> {
  const rows = (await q.query(
    `SELECT encode(id, 'hex') AS id, encode(parent_id, 'hex') AS parent_id, segment_id, depth, kind, author_id,
            payload, created_at
     FROM nodes WHERE conversation_id = $1 ORDER BY depth, segment_id`,
    [conversationId],
  )) as NodeRow[];
  const ids = new Set(rows.map((r) => r.id));
  const done = new Set<string>();
  const rewritten: { old: NodeRow; id: string; parentId: string | null; payload: JsonObject }[] = [];
  let pending = rows;
  while (pending.length > 0) {
    const next: NodeRow[] = [];
    for (const row of pending) {
      const waitsOn = [row.parent_id, ...stringsIn(row.payload)].filter(
        (id): id is string => id !== null && id !== row.id && ids.has(id) && !done.has(id),
      );
      if (waitsOn.length > 0) {
        next.push(row);
        continue;
      }
      const parentId = row.parent_id === null ? null : (renamed.get(row.parent_id) ?? row.parent_id);
      let payload = renameIds(row.payload, renamed) as JsonObject;
      payload = await convertPhotos(payload, convert);
      const changed = parentId !== row.parent_id || canonicalJson(payload) !== canonicalJson(row.payload);
      if (changed) {
        const id = nodeId({
          parentId,
          kind: row.kind,
          payload,
          authorId: row.author_id,
          createdAt: new Date(row.created_at).toISOString(),
        });
        renamed.set(row.id, id);
        rewritten.push({ old: row, id, parentId, payload });
      }
      done.add(row.id);
    }
    if (next.length === pending.length)
      throw new Error(`conversation ${conversationId}: nodes name each other in a cycle`);
    pending = next;
  }
  if (rewritten.length === 0) return;

  const oldIds = rewritten.map((r) => r.old.id);
  const map = (id: string | null) => (id === null ? null : (renamed.get(id) ?? id));
  const reflog = (await q.query(
    `SELECT id, ref, seq, encode(old_node, 'hex') AS old_node, encode(new_node, 'hex') AS new_node, action, actor_id,
            message, created_at
     FROM reflog WHERE conversation_id = $1
       AND (encode(new_node, 'hex') = ANY ($2::text[]) OR encode(old_node, 'hex') = ANY ($2::text[]))
     ORDER BY ref, seq`,
    [conversationId, oldIds],
  )) as ReflogRow[];
  const refs = (await q.query(
    `SELECT name, encode(node_id, 'hex') AS node, reflog_seq FROM refs
     WHERE conversation_id = $1 AND encode(node_id, 'hex') = ANY ($2::text[])`,
    [conversationId, oldIds],
  )) as { name: string; node: string; reflog_seq: string }[];

  // The deletions the immutability triggers allow only the gc role.
  await q.query(`SET LOCAL ROLE sweatpants_gc`);
  await q.query(`DELETE FROM reflog WHERE id = ANY ($1::bigint[])`, [reflog.map((r) => r.id)]);
  await q.query(
    `DELETE FROM state_snapshots WHERE node_id = ANY (SELECT decode(x, 'hex') FROM unnest($1::text[]) x)`,
    [oldIds],
  );
  await q.query(`DELETE FROM nodes WHERE id = ANY (SELECT decode(x, 'hex') FROM unnest($1::text[]) x)`, [
    oldIds,
  ]);
  await q.query(`RESET ROLE`);

  for (const node of rewritten) {
    await q.query(
      `INSERT INTO nodes (id, parent_id, conversation_id, segment_id, depth, created_at, kind, author_id, payload)
       VALUES (decode($1, 'hex'), decode($2, 'hex'), $3, $4, $5, $6, $7, $8, $9::jsonb)`,
      [
        node.id,
        node.parentId,
        conversationId,
        node.old.segment_id,
        node.old.depth,
        new Date(node.old.created_at).toISOString(),
        node.old.kind,
        node.old.author_id,
        JSON.stringify(node.payload),
      ],
    );
  }
  for (const ref of refs) {
    await q.query(`DELETE FROM refs WHERE conversation_id = $1 AND name = $2`, [conversationId, ref.name]);
    await q.query(
      `INSERT INTO refs (conversation_id, name, node_id, reflog_seq) VALUES ($1, $2, decode($3, 'hex'), $4)`,
      [conversationId, ref.name, map(ref.node), ref.reflog_seq],
    );
  }
  for (const row of reflog) {
    await q.query(
      `INSERT INTO reflog (id, conversation_id, ref, seq, old_node, new_node, action, actor_id, message, created_at)
       VALUES ($1, $2, $3, $4, decode($5, 'hex'), decode($6, 'hex'), $7, $8, $9, $10)`,
      [
        row.id,
        conversationId,
        row.ref,
        row.seq,
        map(row.old_node),
        map(row.new_node),
        row.action,
        row.actor_id,
        row.message,
        new Date(row.created_at).toISOString(),
      ],
    );
  }
}

/** Each photo of a message (`photos`) or an answer (`content.photos`) through `convert`. */
async function convertPhotos(
  payload: JsonObject,
  convert: (photo: Json) => Promise<JsonObject | null>,
): Promise<JsonObject> {
  const convertAll = async (photos: Json | undefined): Promise<Json[] | null> => {
    if (!Array.isArray(photos)) return null;
    const out: Json[] = [];
    let changed = false;
    for (const photo of photos) {
      const converted = await convert(photo);
      changed ||= converted !== null;
      out.push(converted ?? photo);
    }
    return changed ? out : null;
  };
  let result = payload;
  const own = await convertAll(payload['photos']);
  if (own) result = { ...result, photos: own };
  const content = payload['content'];
  if (isObject(content)) {
    const answered = await convertAll(content['photos']);
    if (answered) result = { ...result, content: { ...content, photos: answered } };
  }
  return result;
}

function isObject(value: Json | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isInline(photo: Json): photo is { mediaType: string; data: string } {
  return isObject(photo) && typeof photo['data'] === 'string' && typeof photo['mediaType'] === 'string';
}

function isStored(photo: Json): photo is { sha256: string; mediaType: string } {
  return isObject(photo) && typeof photo['sha256'] === 'string' && !('data' in photo);
}

/** The photo stored as a blob (prepared as the intake would when it carries metadata), as a node names it. */
async function toBlob(q: QueryRunner, photo: { mediaType: string; data: string }): Promise<JsonObject> {
  let data: Buffer = Buffer.from(photo.data, 'base64');
  let mediaType = photo.mediaType;
  let width: number | undefined;
  let height: number | undefined;
  const meta = await sharp(data)
    .metadata()
    .catch(() => null);
  const format = meta?.format ? FORMATS[meta.format] : undefined;
  if (meta && format) {
    mediaType = format;
    const upright = (meta.orientation ?? 1) >= 5;
    width = upright ? meta.height : meta.width;
    height = upright ? meta.width : (meta.pageHeight ?? meta.height);
    const needsIntake =
      meta.exif !== undefined ||
      meta.xmp !== undefined ||
      meta.iptc !== undefined ||
      (meta.orientation ?? 1) !== 1 ||
      Math.max(width ?? 0, height ?? 0) > MAX_EDGE;
    if (needsIntake) {
      const image = sharp(data, { animated: format === 'image/gif' })
        .rotate()
        .resize({ width: MAX_EDGE, height: MAX_EDGE, fit: 'inside', withoutEnlargement: true });
      const encoded =
        format === 'image/jpeg'
          ? image.jpeg({ quality: 85, mozjpeg: true })
          : format === 'image/png'
            ? image.png()
            : format === 'image/webp'
              ? image.webp({ quality: 85 })
              : image.gif();
      const out = await encoded.toBuffer({ resolveWithObject: true });
      data = out.data;
      width = out.info.width;
      height = out.info.pageHeight ?? out.info.height;
    }
  }
  const sha256 = createHash('sha256').update(data).digest('hex');
  await q.query(
    `INSERT INTO blobs (sha256, media_type, bytes, width, height, data) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (sha256) DO NOTHING`,
    [sha256, mediaType, data.length, width ?? null, height ?? null, data],
  );
  return {
    sha256,
    mediaType,
    bytes: data.length,
    ...(width !== undefined ? { width } : {}),
    ...(height !== undefined ? { height } : {}),
  };
}

/** The stored photo's bytes back inline. */
async function toInline(q: QueryRunner, photo: { sha256: string; mediaType: string }): Promise<JsonObject> {
  const [row] = (await q.query(`SELECT media_type, data FROM blobs WHERE sha256 = $1`, [photo.sha256])) as {
    media_type: string;
    data: Uint8Array | null;
  }[];
  if (!row?.data) {
    throw new Error(
      `photo ${photo.sha256} has no bytes in the database (they are in an object store): it cannot be put back inline`,
    );
  }
  return { mediaType: row.media_type, data: Buffer.from(row.data).toString('base64') };
}

/** Every string in a JSON value (a node names another by its id as a string). */
function stringsIn(value: Json): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  if (isObject(value)) return Object.values(value).flatMap(stringsIn);
  return [];
}

/** The value with each string that is a renamed node's id replaced by the new id. */
function renameIds(value: Json, renamed: ReadonlyMap<string, string>): Json {
  if (typeof value === 'string') return renamed.get(value) ?? value;
  if (Array.isArray(value)) return value.map((v) => renameIds(v, renamed));
  if (isObject(value))
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, renameIds(v, renamed)]));
  return value;
}

/**
 * The tree store's content address as it was when this migration was written (libs/tree-store's
 * content-address.ts; a migration cannot import the store, which depends on the migrations, and
 * must keep meaning what it meant): the sha-256 of the canonical JSON of the node's content.
 */
function nodeId(content: {
  parentId: string | null;
  kind: string;
  payload: Json;
  authorId: string;
  createdAt: string;
}): string {
  return createHash('sha256')
    .update(
      canonicalJson({
        authorId: content.authorId,
        createdAt: content.createdAt,
        kind: content.kind,
        parentId: content.parentId,
        payload: content.payload,
      }),
    )
    .digest('hex');
}

/** JSON with object keys sorted at every level and no white space. */
function canonicalJson(value: Json | undefined): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
