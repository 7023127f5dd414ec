-- Where a conversation's context begins when it is read from its summaries: the depth of the
-- first of the summaries that end at the deepest summary on the path root → (segment, depth), or
-- NULL when the path holds none. Compaction stacks its summaries (each squashes what followed the
-- previous one, so its parent is that summary) and each summarises only its own range: the
-- context needs the whole stack, and nothing above it. The deepest summary is one probe of
-- nodes_summary_idx per segment of the path and the stack one probe per summary in it, so the
-- cost does not grow with the depth above the stack.
CREATE OR REPLACE FUNCTION tree_summary_base(p_segment bigint, p_depth integer)
RETURNS integer LANGUAGE sql STABLE AS $$
  WITH RECURSIVE chain AS MATERIALIZED (
    SELECT c.segment_id, c.lo, c.hi FROM tree_chain(p_segment, p_depth) c
  ),
  deepest AS (
    SELECT s.depth FROM chain c
    CROSS JOIN LATERAL (
      SELECT n.depth FROM nodes n
      WHERE n.kind = 'summary' AND n.segment_id = c.segment_id AND n.depth BETWEEN c.lo AND c.hi
      ORDER BY n.depth DESC LIMIT 1
    ) s
    ORDER BY s.depth DESC LIMIT 1
  ),
  stack (depth) AS (
    SELECT d.depth FROM deepest d
    UNION ALL
    SELECT k.depth - 1 FROM stack k
    WHERE EXISTS (
      SELECT 1 FROM chain c JOIN nodes n ON n.segment_id = c.segment_id AND n.depth = k.depth - 1
      WHERE k.depth - 1 BETWEEN c.lo AND c.hi AND n.kind = 'summary'
    )
  )
  SELECT min(k.depth) FROM stack k
$$;
