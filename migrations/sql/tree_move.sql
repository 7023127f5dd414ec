-- Move a ref to an existing node of the conversation (rewind, recover, cancel, return), with the
-- same compare-and-swap as an append.
CREATE OR REPLACE FUNCTION tree_move(
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
END $$;
