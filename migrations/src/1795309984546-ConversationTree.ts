import type { MigrationInterface, QueryRunner } from 'typeorm';
import { storeFunction } from './store-functions';

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

    // The store's functions, each in its own file (migrations/sql): the path's segments, creating a
    // conversation, appending with compare-and-swap, moving a ref, and gc.
    for (const name of ['tree_chain', 'tree_create', 'tree_append', 'tree_move', 'tree_gc'] as const)
      await q.query(storeFunction(name));

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
