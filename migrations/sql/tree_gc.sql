-- gc: the only deletion. Expires the oldest reflog rows the retention policy lets go (never a
-- ref's newest row, and only a prefix, so continuity holds for what stays), then deletes the
-- nodes that no ref and no retained reflog row reaches. Dry run reports without deleting.
CREATE OR REPLACE FUNCTION tree_gc(
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
END $$;
