import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The conversation tree: conversations, nodes grouped in segments, refs, the reflog and state
 * snapshots, with the database itself guarding what the store promises.
 *
 * - Nodes and reflog rows are immutable: row triggers refuse UPDATE and DELETE, a statement
 *   trigger refuses TRUNCATE. The one exception is DELETE by the role `sweatpants_gc`, which only
 *   the SECURITY DEFINER function `tree_gc` acts as.
 * - A ref never moves without its reflog row: a deferred constraint trigger checks at commit that
 *   the ref's position is the newest reflog row, and an insert trigger checks that each reflog row
 *   starts where the previous one ended.
 * - Segments: a run of nodes without branching shares a segment; a node that would be the second
 *   child of its parent starts a new segment pointing at its fork point. A path is then a few
 *   segment hops plus one index range scan per segment (see `tree_chain`).
 */
export class ConversationTree1795309984546 implements MigrationInterface {
  name = 'ConversationTree1795309984546';

  async up(q: QueryRunner): Promise<void> {
    // Roles are cluster-wide and test databases are created in parallel: tolerate a concurrent create.
    for (const role of ['sweatpants_app', 'sweatpants_gc']) {
      await q.query(`DO $$ BEGIN
        IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '${role}') THEN CREATE ROLE ${role} NOLOGIN; END IF;
      EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END $$`);
      await q.query(`GRANT ${role} TO CURRENT_USER`);
    }

    await q.query(`
      CREATE TABLE conversations (
        id uuid PRIMARY KEY,
        owner_id text NOT NULL,
        agent text NOT NULL,
        title text NOT NULL DEFAULT '',
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        updated_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        archived_at timestamptz
      )`);
    await q.query(
      `CREATE INDEX conversations_owner_idx ON conversations (owner_id, created_at DESC, id DESC)`,
    );
    await q.query(`CREATE INDEX conversations_created_idx ON conversations (created_at DESC, id DESC)`);

    await q.query(`
      CREATE TABLE segments (
        id bigserial PRIMARY KEY,
        conversation_id uuid NOT NULL REFERENCES conversations (id),
        parent_id bigint REFERENCES segments (id),
        fork_depth integer,
        CHECK ((parent_id IS NULL) = (fork_depth IS NULL))
      )`);
    await q.query(`CREATE INDEX segments_conversation_idx ON segments (conversation_id, id)`);
    await q.query(`CREATE INDEX segments_fork_idx ON segments (parent_id, fork_depth)`);

    await q.query(`
      CREATE TABLE nodes (
        id bytea PRIMARY KEY CHECK (length(id) = 32),
        parent_id bytea REFERENCES nodes (id),
        conversation_id uuid NOT NULL REFERENCES conversations (id),
        segment_id bigint NOT NULL REFERENCES segments (id),
        depth integer NOT NULL CHECK (depth >= 0),
        created_at timestamptz NOT NULL,
        kind text NOT NULL,
        author_id text NOT NULL,
        payload jsonb NOT NULL,
        CONSTRAINT nodes_segment_depth_key UNIQUE (segment_id, depth)
      )`);

    await q.query(`
      CREATE TABLE refs (
        conversation_id uuid NOT NULL REFERENCES conversations (id),
        name text NOT NULL,
        -- Deferred: an append moves the ref (its compare-and-swap) before it writes the nodes.
        node_id bytea NOT NULL REFERENCES nodes (id) DEFERRABLE INITIALLY DEFERRED,
        reflog_seq bigint NOT NULL,
        PRIMARY KEY (conversation_id, name)
      )`);

    await q.query(`
      CREATE TABLE reflog (
        id bigserial PRIMARY KEY,
        conversation_id uuid NOT NULL REFERENCES conversations (id),
        ref text NOT NULL,
        seq bigint NOT NULL,
        old_node bytea REFERENCES nodes (id),
        new_node bytea NOT NULL REFERENCES nodes (id),
        action text NOT NULL CHECK (action IN
          ('create', 'append', 'rewind', 'edit', 'cancel', 'recover', 'compact', 'fork', 'return')),
        actor_id text NOT NULL,
        message text NOT NULL DEFAULT '',
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        CONSTRAINT reflog_position_key UNIQUE (conversation_id, ref, seq)
      )`);
    await q.query(`CREATE INDEX reflog_created_idx ON reflog (created_at DESC, id DESC)`);
    await q.query(`CREATE INDEX reflog_action_idx ON reflog (action, created_at DESC, id DESC)`);

    await q.query(`
      CREATE TABLE state_snapshots (
        reducer text NOT NULL,
        node_id bytea NOT NULL REFERENCES nodes (id) ON DELETE CASCADE,
        segment_id bigint NOT NULL,
        depth integer NOT NULL,
        state jsonb NOT NULL,
        PRIMARY KEY (reducer, node_id)
      )`);
    await q.query(
      `CREATE INDEX state_snapshots_position_idx ON state_snapshots (reducer, segment_id, depth)`,
    );

    // Immutability. UPDATE is refused to everyone; DELETE only to the gc role.
    await q.query(`
      CREATE FUNCTION tree_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'DELETE' AND current_user = 'sweatpants_gc' THEN
          RETURN OLD;
        END IF;
        RAISE EXCEPTION '% of % refused: its rows are immutable (gc is the only deletion)', TG_OP, TG_TABLE_NAME
          USING ERRCODE = 'insufficient_privilege';
      END $$`);
    for (const table of ['nodes', 'reflog']) {
      await q.query(`CREATE TRIGGER ${table}_immutable BEFORE UPDATE OR DELETE ON ${table}
        FOR EACH ROW EXECUTE FUNCTION tree_refuse_change()`);
      await q.query(`CREATE TRIGGER ${table}_no_truncate BEFORE TRUNCATE ON ${table}
        FOR EACH STATEMENT EXECUTE FUNCTION tree_refuse_change()`);
    }

    // Reflog continuity: each row starts where the previous row of its ref ended.
    await q.query(`
      CREATE FUNCTION tree_reflog_continuity() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        v_prev bytea;
      BEGIN
        IF NEW.seq = 0 THEN
          IF NEW.old_node IS NOT NULL THEN
            RAISE EXCEPTION 'the first reflog row of a ref starts from nothing' USING ERRCODE = 'check_violation';
          END IF;
          RETURN NEW;
        END IF;
        SELECT new_node INTO v_prev FROM reflog
          WHERE conversation_id = NEW.conversation_id AND ref = NEW.ref AND seq = NEW.seq - 1;
        IF NOT FOUND OR v_prev IS DISTINCT FROM NEW.old_node THEN
          RAISE EXCEPTION 'reflog row % of % does not continue from the previous row', NEW.seq, NEW.ref
            USING ERRCODE = 'check_violation';
        END IF;
        RETURN NEW;
      END $$`);
    await q.query(`CREATE TRIGGER reflog_continuity BEFORE INSERT ON reflog
      FOR EACH ROW EXECUTE FUNCTION tree_reflog_continuity()`);

    // A ref never moves without its reflog row: checked at commit, whatever wrote the ref.
    await q.query(`
      CREATE FUNCTION tree_ref_logged() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM 1 FROM reflog
          WHERE conversation_id = NEW.conversation_id AND ref = NEW.name AND seq = NEW.reflog_seq
            AND new_node = NEW.node_id;
        IF NOT FOUND THEN
          RAISE EXCEPTION 'ref % moved without a reflog row', NEW.name USING ERRCODE = 'check_violation';
        END IF;
        IF TG_OP = 'UPDATE' AND NEW.reflog_seq <= OLD.reflog_seq THEN
          RAISE EXCEPTION 'ref % moved backwards in its reflog', NEW.name USING ERRCODE = 'check_violation';
        END IF;
        RETURN NULL;
      END $$`);
    await q.query(`CREATE CONSTRAINT TRIGGER refs_logged AFTER INSERT OR UPDATE ON refs
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION tree_ref_logged()`);

    // The segments on the path root → (segment, depth), with the depth range each contributes.
    await q.query(`
      CREATE FUNCTION tree_chain(p_segment bigint, p_depth integer)
      RETURNS TABLE (segment_id bigint, lo integer, hi integer) LANGUAGE sql STABLE AS $$
        WITH RECURSIVE chain (segment_id, lo, hi, parent_id) AS (
          SELECT s.id, coalesce(s.fork_depth + 1, 0), p_depth, s.parent_id FROM segments s WHERE s.id = p_segment
          UNION ALL
          SELECT s.id, coalesce(s.fork_depth + 1, 0), c.lo - 1, s.parent_id
            FROM chain c JOIN segments s ON s.id = c.parent_id
        )
        SELECT segment_id, lo, hi FROM chain
      $$`);

    await q.query(`
      CREATE FUNCTION tree_create(
        p_conversation uuid, p_owner text, p_agent text, p_title text,
        p_root text, p_payload jsonb, p_author text, p_created_at timestamptz,
        p_actor text, p_message text
      ) RETURNS TABLE (reflog_id bigint, reflog_at timestamptz, created_at timestamptz)
      LANGUAGE plpgsql AS $$
      #variable_conflict use_column
      DECLARE
        v_segment bigint;
        v_root bytea := decode(p_root, 'hex');
      BEGIN
        INSERT INTO conversations (id, owner_id, agent, title, created_at, updated_at)
          VALUES (p_conversation, p_owner, p_agent, p_title, p_created_at, p_created_at);
        INSERT INTO segments (conversation_id) VALUES (p_conversation) RETURNING id INTO v_segment;
        INSERT INTO nodes (id, parent_id, conversation_id, segment_id, depth, created_at, kind, author_id, payload)
          VALUES (v_root, NULL, p_conversation, v_segment, 0, p_created_at, 'root', p_author, p_payload);
        INSERT INTO refs (conversation_id, name, node_id, reflog_seq) VALUES (p_conversation, 'HEAD', v_root, 0);
        RETURN QUERY
          INSERT INTO reflog (conversation_id, ref, seq, old_node, new_node, action, actor_id, message)
            VALUES (p_conversation, 'HEAD', 0, NULL, v_root, 'create', p_actor, p_message)
            RETURNING reflog.id, reflog.created_at, p_created_at;
      END $$`);

    // Append nodes under a parent and move a ref to the last one, with compare-and-swap on the
    // ref's position: nodes, ref and reflog row in one statement and one transaction.
    //
    // The compare-and-swap is the first write: an UPDATE of the ref conditioned on its old value.
    // Concurrent writers queue on the ref's row; when the winner commits, every loser re-checks its
    // condition at once, finds it false and returns a conflict having written nothing (so it costs no
    // commit). Nodes are immutable, so everything checked before the swap still holds after it.
    await q.query(`
      CREATE FUNCTION tree_append(
        p_conversation uuid, p_ref text, p_expected text, p_parent text,
        p_ids text[], p_kinds text[], p_payloads jsonb[], p_authors text[], p_times timestamptz[],
        p_action text, p_actor text, p_message text
      ) RETURNS TABLE (status text, head text, old_head text, reflog_id bigint, reflog_seq bigint,
                       reflog_at timestamptz, first_depth integer)
      LANGUAGE plpgsql AS $$
      #variable_conflict use_column
      DECLARE
        v_head bytea;
        v_seq bigint;
        v_parent bytea;
        v_tip bytea := decode(p_ids[array_length(p_ids, 1)], 'hex');
        v_segment bigint;
        v_depth integer;
        v_first integer;
        v_id bytea;
        v_found record;
        v_reflog record;
      BEGIN
        PERFORM 1 FROM conversations c WHERE c.id = p_conversation AND c.archived_at IS NULL;
        IF NOT FOUND OR v_tip IS NULL THEN
          RETURN QUERY SELECT 'not_found'::text, NULL::text, NULL::text, NULL::bigint, NULL::bigint, NULL::timestamptz,
            NULL::integer;
          RETURN;
        END IF;
        IF p_expected IS NULL THEN
          SELECT r.node_id, r.reflog_seq INTO v_head, v_seq FROM refs r
            WHERE r.conversation_id = p_conversation AND r.name = p_ref FOR UPDATE;
        ELSE
          SELECT r.node_id INTO v_head FROM refs r WHERE r.conversation_id = p_conversation AND r.name = p_ref;
        END IF;
        IF NOT FOUND THEN
          RETURN QUERY SELECT 'not_found'::text, NULL::text, NULL::text, NULL::bigint, NULL::bigint, NULL::timestamptz,
            NULL::integer;
          RETURN;
        END IF;
        IF p_expected IS NOT NULL AND decode(p_expected, 'hex') <> v_head THEN
          RETURN QUERY SELECT 'conflict'::text, encode(v_head, 'hex'), NULL::text, NULL::bigint, NULL::bigint,
            NULL::timestamptz, NULL::integer;
          RETURN;
        END IF;
        v_parent := coalesce(decode(p_parent, 'hex'), v_head);
        SELECT n.segment_id, n.depth INTO v_segment, v_depth FROM nodes n
          WHERE n.id = v_parent AND n.conversation_id = p_conversation;
        IF NOT FOUND THEN
          RETURN QUERY SELECT 'bad_parent'::text, encode(v_head, 'hex'), NULL::text, NULL::bigint, NULL::bigint,
            NULL::timestamptz, NULL::integer;
          RETURN;
        END IF;

        IF p_expected IS NOT NULL THEN
          UPDATE refs r SET node_id = v_tip, reflog_seq = r.reflog_seq + 1
            WHERE r.conversation_id = p_conversation AND r.name = p_ref AND r.node_id = v_head
            RETURNING r.reflog_seq INTO v_seq;
          IF NOT FOUND THEN
            SELECT r.node_id INTO v_head FROM refs r WHERE r.conversation_id = p_conversation AND r.name = p_ref;
            RETURN QUERY SELECT 'conflict'::text, encode(v_head, 'hex'), NULL::text, NULL::bigint, NULL::bigint,
              NULL::timestamptz, NULL::integer;
            RETURN;
          END IF;
        ELSE
          v_seq := v_seq + 1;
          UPDATE refs r SET node_id = v_tip, reflog_seq = v_seq WHERE r.conversation_id = p_conversation AND r.name = p_ref;
        END IF;

        v_first := v_depth + 1;
        FOR i IN 1 .. array_length(p_ids, 1) LOOP
          v_id := decode(p_ids[i], 'hex');
          -- Content-addressed: the same content under the same parent at the same time is the same node.
          SELECT n.segment_id, n.depth INTO v_found FROM nodes n WHERE n.id = v_id;
          IF FOUND THEN
            v_segment := v_found.segment_id;
            v_depth := v_found.depth;
          ELSE
            -- The parent already has a child in its segment: this node starts a branch, a new segment.
            PERFORM 1 FROM nodes n WHERE n.segment_id = v_segment AND n.depth = v_depth + 1;
            IF FOUND THEN
              INSERT INTO segments (conversation_id, parent_id, fork_depth)
                VALUES (p_conversation, v_segment, v_depth) RETURNING id INTO v_segment;
            END IF;
            v_depth := v_depth + 1;
            INSERT INTO nodes (id, parent_id, conversation_id, segment_id, depth, created_at, kind, author_id, payload)
              VALUES (v_id, v_parent, p_conversation, v_segment, v_depth, p_times[i], p_kinds[i], p_authors[i],
                      p_payloads[i]);
          END IF;
          v_parent := v_id;
        END LOOP;
        UPDATE conversations SET updated_at = clock_timestamp() WHERE id = p_conversation;
        INSERT INTO reflog (conversation_id, ref, seq, old_node, new_node, action, actor_id, message)
          VALUES (p_conversation, p_ref, v_seq, v_head, v_tip, p_action, p_actor, p_message)
          RETURNING id, created_at INTO v_reflog;
        RETURN QUERY SELECT 'ok'::text, encode(v_tip, 'hex'), encode(v_head, 'hex'), v_reflog.id, v_seq,
          v_reflog.created_at, v_first;
      END $$`);

    // Move a ref to an existing node of the conversation (rewind, recover, cancel, return), with the
    // same compare-and-swap as an append.
    await q.query(`
      CREATE FUNCTION tree_move(
        p_conversation uuid, p_ref text, p_expected text, p_target text, p_action text, p_actor text, p_message text
      ) RETURNS TABLE (status text, head text, old_head text, reflog_id bigint, reflog_seq bigint,
                       reflog_at timestamptz)
      LANGUAGE plpgsql AS $$
      #variable_conflict use_column
      DECLARE
        v_head bytea;
        v_seq bigint;
        v_target bytea := decode(p_target, 'hex');
        v_reflog record;
      BEGIN
        PERFORM 1 FROM conversations c WHERE c.id = p_conversation AND c.archived_at IS NULL;
        IF NOT FOUND THEN
          RETURN QUERY SELECT 'not_found'::text, NULL::text, NULL::text, NULL::bigint, NULL::bigint, NULL::timestamptz;
          RETURN;
        END IF;
        PERFORM 1 FROM nodes n WHERE n.id = v_target AND n.conversation_id = p_conversation;
        IF NOT FOUND THEN
          RETURN QUERY SELECT 'bad_target'::text, NULL::text, NULL::text, NULL::bigint, NULL::bigint, NULL::timestamptz;
          RETURN;
        END IF;
        IF p_expected IS NULL THEN
          SELECT r.node_id, r.reflog_seq INTO v_head, v_seq FROM refs r
            WHERE r.conversation_id = p_conversation AND r.name = p_ref FOR UPDATE;
          IF NOT FOUND THEN
            RETURN QUERY SELECT 'not_found'::text, NULL::text, NULL::text, NULL::bigint, NULL::bigint, NULL::timestamptz;
            RETURN;
          END IF;
          v_seq := v_seq + 1;
          UPDATE refs r SET node_id = v_target, reflog_seq = v_seq
            WHERE r.conversation_id = p_conversation AND r.name = p_ref;
        ELSE
          v_head := decode(p_expected, 'hex');
          UPDATE refs r SET node_id = v_target, reflog_seq = r.reflog_seq + 1
            WHERE r.conversation_id = p_conversation AND r.name = p_ref AND r.node_id = v_head
            RETURNING r.reflog_seq INTO v_seq;
          IF NOT FOUND THEN
            SELECT r.node_id INTO v_head FROM refs r WHERE r.conversation_id = p_conversation AND r.name = p_ref;
            RETURN QUERY SELECT CASE WHEN FOUND THEN 'conflict' ELSE 'not_found' END, encode(v_head, 'hex'),
              NULL::text, NULL::bigint, NULL::bigint, NULL::timestamptz;
            RETURN;
          END IF;
        END IF;
        UPDATE conversations SET updated_at = clock_timestamp() WHERE id = p_conversation;
        INSERT INTO reflog (conversation_id, ref, seq, old_node, new_node, action, actor_id, message)
          VALUES (p_conversation, p_ref, v_seq, v_head, v_target, p_action, p_actor, p_message)
          RETURNING id, created_at INTO v_reflog;
        RETURN QUERY SELECT 'ok'::text, p_target, encode(v_head, 'hex'), v_reflog.id, v_seq, v_reflog.created_at;
      END $$`);

    // gc: the only deletion. Expires the oldest reflog rows the retention policy lets go (never a
    // ref's newest row, and only a prefix, so continuity holds for what stays), then deletes the
    // nodes that no ref and no retained reflog row reaches. Dry run reports without deleting.
    await q.query(`
      CREATE FUNCTION tree_gc(
        p_conversation uuid, p_now timestamptz, p_reachable interval, p_unreachable interval, p_dry_run boolean
      ) RETURNS TABLE (kind text, id text)
      LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $$
      #variable_conflict use_column
      DECLARE
        v_ref record;
        v_row record;
        v_expired bigint[] := '{}';
        v_reach_segments bigint[];
        v_reach_his integer[];
        v_keep_segments bigint[];
        v_keep_his integer[];
        v_reachable boolean;
      BEGIN
        -- Hold the conversation's refs still while deciding what is reachable.
        PERFORM 1 FROM refs r WHERE r.conversation_id = p_conversation FOR UPDATE;
        IF NOT FOUND THEN
          RETURN;
        END IF;
        -- What the refs reach: per segment, the deepest position a ref's path covers.
        SELECT coalesce(array_agg(x.segment_id), '{}'), coalesce(array_agg(x.hi), '{}')
          INTO v_reach_segments, v_reach_his
          FROM (SELECT ch.segment_id, max(ch.hi) AS hi
                FROM refs r JOIN nodes n ON n.id = r.node_id, LATERAL tree_chain(n.segment_id, n.depth) ch
                WHERE r.conversation_id = p_conversation GROUP BY ch.segment_id) x;

        FOR v_ref IN SELECT r.name, r.reflog_seq FROM refs r WHERE r.conversation_id = p_conversation LOOP
          FOR v_row IN
            SELECT g.id, g.created_at, n.segment_id, n.depth FROM reflog g JOIN nodes n ON n.id = g.new_node
            WHERE g.conversation_id = p_conversation AND g.ref = v_ref.name AND g.seq < v_ref.reflog_seq
            ORDER BY g.seq
          LOOP
            SELECT EXISTS (SELECT 1 FROM unnest(v_reach_segments, v_reach_his) k (segment_id, hi)
                           WHERE k.segment_id = v_row.segment_id AND k.hi >= v_row.depth)
              INTO v_reachable;
            EXIT WHEN v_row.created_at >= p_now - CASE WHEN v_reachable THEN p_reachable ELSE p_unreachable END;
            v_expired := v_expired || v_row.id;
          END LOOP;
        END LOOP;

        -- What stays: everything on the path to a ref or to either end of a retained reflog row.
        SELECT coalesce(array_agg(x.segment_id), '{}'), coalesce(array_agg(x.hi), '{}')
          INTO v_keep_segments, v_keep_his
          FROM (SELECT ch.segment_id, max(ch.hi) AS hi
                FROM (SELECT r.node_id AS tip FROM refs r WHERE r.conversation_id = p_conversation
                      UNION SELECT g.new_node FROM reflog g
                        WHERE g.conversation_id = p_conversation AND NOT g.id = ANY (v_expired)
                      UNION SELECT g.old_node FROM reflog g
                        WHERE g.conversation_id = p_conversation AND g.old_node IS NOT NULL
                          AND NOT g.id = ANY (v_expired)) t
                JOIN nodes n ON n.id = t.tip, LATERAL tree_chain(n.segment_id, n.depth) ch
                GROUP BY ch.segment_id) x;

        RETURN QUERY SELECT 'reflog'::text, x::text FROM unnest(v_expired) x;
        RETURN QUERY
          SELECT 'node'::text, encode(n.id, 'hex') FROM nodes n
          WHERE n.conversation_id = p_conversation
            AND NOT EXISTS (SELECT 1 FROM unnest(v_keep_segments, v_keep_his) k (segment_id, hi)
                            WHERE k.segment_id = n.segment_id AND k.hi >= n.depth)
          ORDER BY n.depth DESC;
        IF p_dry_run THEN
          RETURN;
        END IF;
        DELETE FROM reflog g WHERE g.id = ANY (v_expired);
        DELETE FROM nodes n
          WHERE n.conversation_id = p_conversation
            AND NOT EXISTS (SELECT 1 FROM unnest(v_keep_segments, v_keep_his) k (segment_id, hi)
                            WHERE k.segment_id = n.segment_id AND k.hi >= n.depth);
        DELETE FROM segments s
          WHERE s.conversation_id = p_conversation AND NOT EXISTS (SELECT 1 FROM nodes n WHERE n.segment_id = s.id);
      END $$`);

    // Privileges: the api works as sweatpants_app, which may add to the tree but never rewrite it.
    await q.query(`GRANT USAGE ON SCHEMA ${await this.schema(q)} TO sweatpants_app, sweatpants_gc`);
    await q.query(`GRANT SELECT, INSERT ON nodes, reflog TO sweatpants_app`);
    await q.query(`GRANT SELECT, INSERT, UPDATE ON conversations, refs, segments TO sweatpants_app`);
    await q.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON state_snapshots TO sweatpants_app`);
    await q.query(`GRANT USAGE ON SEQUENCE segments_id_seq, reflog_id_seq TO sweatpants_app`);
    await q.query(`GRANT SELECT ON conversations TO sweatpants_gc`);
    await q.query(`GRANT SELECT, DELETE ON nodes, reflog, segments, state_snapshots TO sweatpants_gc`);
    await q.query(`GRANT SELECT, UPDATE ON refs TO sweatpants_gc`);
    await q.query(
      `ALTER FUNCTION tree_gc(uuid, timestamptz, interval, interval, boolean) OWNER TO sweatpants_gc`,
    );
    await q.query(
      `REVOKE ALL ON FUNCTION tree_gc(uuid, timestamptz, interval, interval, boolean) FROM PUBLIC`,
    );
    await q.query(
      `GRANT EXECUTE ON FUNCTION tree_gc(uuid, timestamptz, interval, interval, boolean) TO sweatpants_app`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP FUNCTION tree_gc(uuid, timestamptz, interval, interval, boolean)`);
    await q.query(`DROP FUNCTION tree_move(uuid, text, text, text, text, text, text)`);
    await q.query(
      `DROP FUNCTION tree_append(uuid, text, text, text, text[], text[], jsonb[], text[], timestamptz[], text, text, text)`,
    );
    await q.query(
      `DROP FUNCTION tree_create(uuid, text, text, text, text, jsonb, text, timestamptz, text, text)`,
    );
    await q.query(`DROP FUNCTION tree_chain(bigint, integer)`);
    await q.query(`DROP TABLE state_snapshots, reflog, refs`);
    // nodes' triggers refuse TRUNCATE, not DROP: dropping the table is a schema change, not a rewrite.
    await q.query(`DROP TABLE nodes, segments, conversations`);
    await q.query(`DROP FUNCTION tree_ref_logged(), tree_reflog_continuity(), tree_refuse_change()`);
    await q.query(`REVOKE ALL ON SCHEMA ${await this.schema(q)} FROM sweatpants_app, sweatpants_gc`);
    // The roles are cluster-wide; other databases may still use them, so they stay.
  }

  private async schema(q: QueryRunner): Promise<string> {
    const [row] = (await q.query(`SELECT quote_ident(current_schema()) AS name`)) as [{ name: string }];
    return row.name;
  }
}
