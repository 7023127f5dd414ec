-- A new conversation: its row, its first segment, its root node, HEAD on the root and the
-- reflog's first row, in one statement.
CREATE OR REPLACE FUNCTION tree_create(
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
END $$;
