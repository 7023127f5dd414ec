-- Append nodes under a parent and move a ref to the last one, with compare-and-swap on the
-- ref's position: nodes, ref and reflog row in one statement and one transaction.
--
-- The compare-and-swap is the first write: an UPDATE of the ref conditioned on its old value.
-- Concurrent writers queue on the ref's row; when the winner commits, every loser re-checks its
-- condition at once, finds it false and returns a conflict having written nothing (so it costs no
-- commit). Nodes are immutable, so everything checked before the swap still holds after it.
CREATE OR REPLACE FUNCTION tree_append(
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
END $$;
