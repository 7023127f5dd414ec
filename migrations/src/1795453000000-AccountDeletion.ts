import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Accounts that can leave (PROTOCOL.md, Account). `purge_account` removes a person's account and
 * everything it owns: their conversations with every node, ref and reflog row, their concierge
 * data, and the account. Nodes and reflog rows are immutable to everyone but the gc role (see
 * ConversationTree), so, like `tree_gc`, it is owned by `sweatpants_gc` and runs as it (SECURITY
 * DEFINER); the api may call it, not do what it does. It first locks the refs of the person's
 * conversations, as every HEAD move does, so a write in flight either lands before it (and goes
 * with the rest) or finds the conversation gone.
 *
 * `account_deletions` says who was deleted, when and by whom, and how much went: no email, no
 * name, no words of theirs, since the point of deleting an account is that it is forgotten.
 */
export class AccountDeletion1795453000000 implements MigrationInterface {
  name = 'AccountDeletion1795453000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE account_deletions (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL,
        deleted_by text NOT NULL,
        deleted_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        conversations integer NOT NULL,
        nodes integer NOT NULL
      )`);
    await q.query(`GRANT SELECT, INSERT ON account_deletions TO sweatpants_app`);
    await q.query(
      `GRANT SELECT, DELETE ON conversations, refs, users, concierge_activities, concierge_people TO sweatpants_gc`,
    );
    await q.query(`
      CREATE FUNCTION purge_account(p_user uuid) RETURNS TABLE (conversations integer, nodes integer)
      LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $$
      #variable_conflict use_column
      DECLARE
        v_ids uuid[];
        v_conversations integer;
        v_nodes integer;
      BEGIN
        SELECT coalesce(array_agg(c.id), '{}') INTO v_ids FROM conversations c WHERE c.owner_id = p_user::text;
        PERFORM 1 FROM refs r WHERE r.conversation_id = ANY (v_ids) FOR UPDATE;
        v_conversations := cardinality(v_ids);
        SELECT count(*) INTO v_nodes FROM nodes n WHERE n.conversation_id = ANY (v_ids);
        DELETE FROM reflog g WHERE g.conversation_id = ANY (v_ids);
        DELETE FROM refs r WHERE r.conversation_id = ANY (v_ids);
        DELETE FROM state_snapshots s USING nodes n WHERE s.node_id = n.id AND n.conversation_id = ANY (v_ids);
        DELETE FROM nodes n WHERE n.conversation_id = ANY (v_ids);
        DELETE FROM segments s WHERE s.conversation_id = ANY (v_ids);
        DELETE FROM conversations c WHERE c.id = ANY (v_ids);
        DELETE FROM concierge_activities a WHERE a.owner_id = p_user::text;
        DELETE FROM concierge_people p WHERE p.owner_id = p_user::text;
        DELETE FROM users u WHERE u.id = p_user;
        RETURN QUERY SELECT v_conversations, v_nodes;
      END $$`);
    await q.query(`ALTER FUNCTION purge_account(uuid) OWNER TO sweatpants_gc`);
    await q.query(`REVOKE ALL ON FUNCTION purge_account(uuid) FROM PUBLIC`);
    await q.query(`GRANT EXECUTE ON FUNCTION purge_account(uuid) TO sweatpants_app`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP FUNCTION purge_account(uuid)`);
    await q.query(
      `REVOKE DELETE ON conversations, refs, users, concierge_activities, concierge_people FROM sweatpants_gc`,
    );
    // gc keeps what ConversationTree gave it: SELECT on conversations and refs.
    await q.query(`REVOKE SELECT ON users, concierge_activities, concierge_people FROM sweatpants_gc`);
    await q.query(`DROP TABLE account_deletions`);
  }
}
