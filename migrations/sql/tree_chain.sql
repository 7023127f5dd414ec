-- The segments on the path root → (segment, depth), with the depth range each contributes.
CREATE OR REPLACE FUNCTION tree_chain(p_segment bigint, p_depth integer)
RETURNS TABLE (segment_id bigint, lo integer, hi integer) LANGUAGE sql STABLE AS $$
  WITH RECURSIVE chain (segment_id, lo, hi, parent_id) AS (
    SELECT s.id, coalesce(s.fork_depth + 1, 0), p_depth, s.parent_id FROM segments s WHERE s.id = p_segment
    UNION ALL
    SELECT s.id, coalesce(s.fork_depth + 1, 0), c.lo - 1, s.parent_id
FROM chain c JOIN segments s ON s.id = c.parent_id
  )
  SELECT segment_id, lo, hi FROM chain
$$;
