-- Append several runs of nodes in one statement, each run a chain under the one before and its
-- own HEAD move with its own reflog row (a person's answer, then the agent's nodes that follow
-- it): one round trip and one commit where a run each would take one of each.
--
-- The nodes of every run are the arrays' elements in order; run r ends at element p_run_ends[r]
-- and is written by tree_append with p_actions[r], p_actors[r] and p_messages[r]. The first run's
-- compare-and-swap is on p_expected; each later run's is on the tip the run before it left, whose
-- ref row this transaction already holds, so only the first can lose to a concurrent writer: a
-- conflict there is returned with nothing written. A later run that does not land (which the lock
-- rules out) raises, rolling back every run: all land or none.
CREATE OR REPLACE FUNCTION tree_append_runs(
  p_conversation uuid, p_ref text, p_expected text,
  p_ids text[], p_kinds text[], p_payloads jsonb[], p_authors text[], p_times timestamptz[],
  p_run_ends integer[], p_actions text[], p_actors text[], p_messages text[]
) RETURNS TABLE (status text, head text, old_head text, reflog_id bigint, reflog_seq bigint,
           reflog_at timestamptz, first_depth integer)
LANGUAGE plpgsql AS $$
DECLARE
  v_start integer := 1;
  v_expected text := p_expected;
  v_row record;
BEGIN
  IF p_expected IS NULL THEN
    RAISE EXCEPTION 'tree_append_runs needs the HEAD the runs go under' USING ERRCODE = 'null_value_not_allowed';
  END IF;
  FOR r IN 1 .. coalesce(array_length(p_run_ends, 1), 0) LOOP
    SELECT * INTO v_row FROM tree_append(p_conversation, p_ref, v_expected, NULL,
      p_ids[v_start:p_run_ends[r]], p_kinds[v_start:p_run_ends[r]], p_payloads[v_start:p_run_ends[r]],
      p_authors[v_start:p_run_ends[r]], p_times[v_start:p_run_ends[r]],
      p_actions[r], p_actors[r], p_messages[r]) AS t;
    IF v_row.status <> 'ok' THEN
      IF r > 1 THEN
        RAISE EXCEPTION 'tree_append_runs: run % did not land (%)', r, v_row.status USING ERRCODE = 'serialization_failure';
      END IF;
      status := v_row.status; head := v_row.head; old_head := v_row.old_head; reflog_id := v_row.reflog_id;
      reflog_seq := v_row.reflog_seq; reflog_at := v_row.reflog_at; first_depth := v_row.first_depth;
      RETURN NEXT;
      RETURN;
    END IF;
    status := v_row.status; head := v_row.head; old_head := v_row.old_head; reflog_id := v_row.reflog_id;
    reflog_seq := v_row.reflog_seq; reflog_at := v_row.reflog_at; first_depth := v_row.first_depth;
    RETURN NEXT;
    v_expected := v_row.head;
    v_start := p_run_ends[r] + 1;
  END LOOP;
END $$;
