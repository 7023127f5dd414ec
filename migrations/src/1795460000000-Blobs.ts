import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Photos as content-addressed objects, stored once however often they are sent, as git stores
 * blobs (DESIGN.md, Blobs).
 *
 * - `blobs` holds one row per object: its sha-256 (of the stored bytes), media type, size and
 *   dimensions, and the bytes themselves in `data`, or null when the bytes live in an S3-compatible
 *   store (BLOB_STORE_URL). The row is there either way, so who may read a blob and what gc may
 *   remove are SQL questions. `put_at` is freshened by every put of the same bytes, as git freshens
 *   an object it would write again: gc spares what was put recently, so a photo stored a moment
 *   before the node that names it is written is never collected in between.
 * - `node_blobs` says which node names which blob. A trigger on `nodes` fills it from the payload
 *   (`photos` of a message, `content.photos` of an answer), so every writer (append, fork, the
 *   compaction's re-append, a migration) is covered without the api doing anything. A blob lookup
 *   for the access check is then a primary-key range scan joined to the conversation, instead of
 *   a GIN index over every node's payload that each append of any node would pay for; only nodes
 *   with photos write a row. Its foreign key to `blobs` means no node can name bytes that are not
 *   stored, and its cascade from `nodes` means that when gc (or an account's purge) deletes a node,
 *   the blob loses that reference with it.
 * - `blob_collect` is the only deletion of blob rows, as `tree_gc` is of nodes: SECURITY DEFINER
 *   as `sweatpants_gc`; the api's role may add and read blobs but not delete them. It deletes the
 *   candidates that no node names and that were not put since the cut-off, and says which went
 *   and whether their bytes were in the row (else the caller removes them from the object store).
 */
export class Blobs1795460000000 implements MigrationInterface {
  name = 'Blobs1795460000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE blobs (
        sha256 text PRIMARY KEY CHECK (sha256 ~ '^[0-9a-f]{64}$'),
        media_type text NOT NULL,
        bytes integer NOT NULL CHECK (bytes >= 0),
        width integer CHECK (width > 0),
        height integer CHECK (height > 0),
        data bytea CHECK (data IS NULL OR length(data) = bytes),
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        put_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);

    await q.query(`
      CREATE TABLE node_blobs (
        sha256 text NOT NULL REFERENCES blobs (sha256),
        conversation_id uuid NOT NULL REFERENCES conversations (id),
        node_id bytea NOT NULL REFERENCES nodes (id) ON DELETE CASCADE,
        PRIMARY KEY (sha256, conversation_id, node_id)
      )`);
    // The cascade from a deleted node finds its rows by node.
    await q.query(`CREATE INDEX node_blobs_node_idx ON node_blobs (node_id)`);

    await q.query(`
      CREATE FUNCTION tree_node_blobs() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO node_blobs (sha256, conversation_id, node_id)
          SELECT DISTINCT p->>'sha256', NEW.conversation_id, NEW.id
          FROM jsonb_array_elements(
                 CASE WHEN jsonb_typeof(NEW.payload->'photos') = 'array' THEN NEW.payload->'photos' ELSE '[]' END
                 || CASE WHEN jsonb_typeof(NEW.payload->'content'->'photos') = 'array'
                         THEN NEW.payload->'content'->'photos' ELSE '[]' END) p
          WHERE jsonb_typeof(p) = 'object' AND jsonb_typeof(p->'sha256') = 'string'
          ON CONFLICT DO NOTHING;
        RETURN NULL;
      END $$`);
    await q.query(`CREATE TRIGGER nodes_blobs AFTER INSERT ON nodes FOR EACH ROW
      WHEN (NEW.payload ? 'photos' OR NEW.payload->'content' ? 'photos')
      EXECUTE FUNCTION tree_node_blobs()`);

    await q.query(`
      CREATE FUNCTION blob_collect(p_candidates text[], p_put_before timestamptz)
      RETURNS TABLE (sha256 text, stored boolean)
      LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $$
      #variable_conflict use_column
      DECLARE
        v_sha text;
        v_stored boolean;
      BEGIN
        FOREACH v_sha IN ARRAY p_candidates LOOP
          BEGIN
            DELETE FROM blobs b
              WHERE b.sha256 = v_sha AND b.put_at < p_put_before
                AND NOT EXISTS (SELECT 1 FROM node_blobs nb WHERE nb.sha256 = b.sha256)
              RETURNING b.data IS NOT NULL INTO v_stored;
            IF FOUND THEN
              sha256 := v_sha;
              stored := v_stored;
              RETURN NEXT;
            END IF;
          EXCEPTION WHEN foreign_key_violation THEN
            -- A node named it after this statement's snapshot was taken: it stays.
            NULL;
          END;
        END LOOP;
      END $$`);

    await q.query(`GRANT SELECT, INSERT, UPDATE ON blobs TO sweatpants_app`);
    await q.query(`GRANT SELECT, INSERT ON node_blobs TO sweatpants_app`);
    await q.query(`GRANT SELECT, DELETE ON blobs TO sweatpants_gc`);
    await q.query(`GRANT SELECT ON node_blobs TO sweatpants_gc`);
    await q.query(`ALTER FUNCTION blob_collect(text[], timestamptz) OWNER TO sweatpants_gc`);
    await q.query(`REVOKE ALL ON FUNCTION blob_collect(text[], timestamptz) FROM PUBLIC`);
    await q.query(`GRANT EXECUTE ON FUNCTION blob_collect(text[], timestamptz) TO sweatpants_app`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP FUNCTION blob_collect(text[], timestamptz)`);
    await q.query(`DROP TRIGGER nodes_blobs ON nodes`);
    await q.query(`DROP FUNCTION tree_node_blobs()`);
    await q.query(`DROP TABLE node_blobs, blobs`);
  }
}
