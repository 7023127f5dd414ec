import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The advisory lock class of "an owner's rows": with hashtext(owner id) as the second key. */
const OWNER_LOCK = 7_250_480;

/**
 * Fences around account deletion (AccountDeletion1795453000000 made `purge_account`).
 *
 * - Nothing of a deleted person's may appear while or after their account goes. Conversations and
 *   the concierge's rows name their owner as text without a foreign key to `users` (the tree store
 *   and the concierge are not tied to the accounts table, and their tests own rows as 'alice'), so
 *   the purge's snapshot of "the owner's conversations" could miss one created beside it, by a
 *   request or another api process that had not yet heard the account is gone. Instead, a BEFORE
 *   INSERT trigger takes a shared per-owner advisory lock, which `purge_account` takes exclusively
 *   before it reads anything, and refuses an owner the audit table names: a write already in
 *   flight commits first and goes with the rest, one that comes later waits and is refused.
 *   Appends to existing conversations are fenced as before, by the refs lock every HEAD move takes.
 * - `purge_account(user, deleted_by)` writes its audit row itself, in its own transaction, so a
 *   deletion and its record cannot come apart; the api's role no longer writes audit rows.
 */
export class AccountDeletionFences1795480000000 implements MigrationInterface {
  name = 'AccountDeletionFences1795480000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX account_deletions_user_idx ON account_deletions ((user_id::text))`);

    await q.query(`
      CREATE FUNCTION account_refuse_deleted_owner() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        -- Waits while the owner's account is being purged; each statement after sees what it committed.
        PERFORM pg_advisory_xact_lock_shared(${OWNER_LOCK}, hashtext(NEW.owner_id));
        PERFORM 1 FROM account_deletions d WHERE d.user_id::text = NEW.owner_id;
        IF FOUND THEN
          RAISE EXCEPTION 'the account % is deleted: nothing more is kept for it', NEW.owner_id
            USING ERRCODE = 'foreign_key_violation';
        END IF;
        RETURN NEW;
      END $$`);
    for (const table of ['conversations', 'concierge_activities', 'concierge_people']) {
      await q.query(`CREATE TRIGGER ${table}_owner_not_deleted BEFORE INSERT ON ${table}
        FOR EACH ROW EXECUTE FUNCTION account_refuse_deleted_owner()`);
    }

    await q.query(`DROP FUNCTION purge_account(uuid)`);
    await q.query(`REVOKE INSERT ON account_deletions FROM sweatpants_app`);
    await q.query(`GRANT INSERT ON account_deletions TO sweatpants_gc`);
    await q.query(`
      CREATE FUNCTION purge_account(p_user uuid, p_deleted_by text)
      RETURNS TABLE (conversations integer, nodes integer)
      LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $$
      #variable_conflict use_column
      DECLARE
        v_ids uuid[];
        v_conversations integer;
        v_nodes integer;
      BEGIN
        -- The owner's fence first: new rows of theirs wait from here on (see the trigger above).
        PERFORM pg_advisory_xact_lock(${OWNER_LOCK}, hashtext(p_user::text));
        PERFORM 1 FROM users u WHERE u.id = p_user;
        IF NOT FOUND THEN
          RETURN;
        END IF;
        SELECT coalesce(array_agg(c.id), '{}') INTO v_ids FROM conversations c WHERE c.owner_id = p_user::text;
        -- The lock every move of HEAD takes: an append in flight lands before this (and goes with
        -- the rest) or finds its ref gone and writes nothing.
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
        -- Who, when, by whom and how much: no email, no name, no words of theirs. The point of
        -- deleting an account is that it is forgotten; the row only proves that it was.
        INSERT INTO account_deletions (id, user_id, deleted_by, conversations, nodes)
          VALUES (gen_random_uuid(), p_user, p_deleted_by, v_conversations, v_nodes);
        RETURN QUERY SELECT v_conversations, v_nodes;
      END $$`);
    await q.query(`ALTER FUNCTION purge_account(uuid, text) OWNER TO sweatpants_gc`);
    await q.query(`REVOKE ALL ON FUNCTION purge_account(uuid, text) FROM PUBLIC`);
    await q.query(`GRANT EXECUTE ON FUNCTION purge_account(uuid, text) TO sweatpants_app`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP FUNCTION purge_account(uuid, text)`);
    await q.query(`REVOKE INSERT ON account_deletions FROM sweatpants_gc`);
    await q.query(`GRANT INSERT ON account_deletions TO sweatpants_app`);
    // AccountDeletion1795453000000's purge, as it was: the api wrote the audit row beside it.
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
    for (const table of ['conversations', 'concierge_activities', 'concierge_people']) {
      await q.query(`DROP TRIGGER ${table}_owner_not_deleted ON ${table}`);
    }
    await q.query(`DROP FUNCTION account_refuse_deleted_owner()`);
    await q.query(`DROP INDEX account_deletions_user_idx`);
  }
}
