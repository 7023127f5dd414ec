import { summaryPolicy, summaryStates, type AgentCatalog } from '@sweatpants/agent-runtime/host';
import type { JobPayloads, TreeNode } from '@sweatpants/domain';
import type { TreeStore } from '@sweatpants/tree-store';
import { compactionRange, REQUESTED_TAIL, summaryOf, THRESHOLD_TAIL } from './compaction-range';
import { PermanentJobError, type CompactionOutcome, type JobRun } from '../queue/job-processors';
import type { Summariser } from './summariser';

/** Who writes summary nodes. */
export const COMPACTOR_AUTHOR = 'agent:compactor';

/** The reason of a job whose range a summary on HEAD's path already replaced (a retry, a double). */
const ALREADY_DONE = 'already compacted: a summary of this range is on the path';

/**
 * The `conversation.compact` job: summarises the range of the path to the requested HEAD and
 * squashes it (TreeStore's squash-and-rebase, which also rebases whatever was appended since). The
 * range runs up to a recent tail that stays as it is (./compaction-range: shorter for a compaction
 * someone asked for than for the runner's); a job with nothing to squash completes with the reason.
 * Idempotent: the range is a function of the requested HEAD, an immutable node, so a retried or
 * doubled job finds its summary already on HEAD's path and does nothing, without asking the model
 * again; and the squash itself refuses a second summary of a range under the conversation's lock.
 */
export class CompactionProcessor {
  constructor(
    private readonly store: TreeStore,
    private readonly summariser: Summariser,
    /** the registered agents, whose states (and mode) a summary keeps for the folds that pass it */
    private readonly agents: AgentCatalog,
  ) {}

  async process(job: JobPayloads['conversation.compact'], run: JobRun): Promise<CompactionOutcome> {
    const { conversationId } = job;
    const requested = await this.store.path(conversationId, job.head);
    if (!requested.ok) throw new PermanentJobError(`cannot compact: ${requested.error.message}`);
    // Someone who asked keeps a short recent tail; the runner's threshold keeps its last turn.
    const chosen = compactionRange(
      requested.value,
      job.trigger === 'request' ? REQUESTED_TAIL : THRESHOLD_TAIL,
    );
    const current = await this.headPath(conversationId);
    const head = current.at(-1)?.id ?? job.head;
    if (!chosen.range) return { conversationId, head, reflog: null, rebased: 0, reason: chosen.reason };
    const { range } = chosen;

    const done = summaryOf(current, range);
    if (done)
      return {
        ...outcomeOf(done),
        conversationId,
        head,
        reflog: null,
        rebased: 0,
        reason: ALREADY_DONE,
      };
    if (supersedes(current, range.nodes))
      return {
        conversationId,
        head,
        reflog: null,
        rebased: 0,
        reason: 'nothing to squash: a newer compaction already covers part of this range',
      };
    // Checked again under the lock by the squash; asking the model first would be wasted.
    if (!current.some((n) => n.id === range.toId))
      throw new PermanentJobError('HEAD no longer runs through the range to compact; nothing was changed');

    const conversation = await this.store.conversation(conversationId);
    if (!conversation) throw new PermanentJobError('cannot compact: no such conversation');
    const agent = this.agents.get(conversation.agent)?.definition;
    if (!agent)
      throw new PermanentJobError(`cannot compact: no agent named ${conversation.agent} is registered`);
    // A fold that passes the summary takes these instead of the nodes it replaced, so the agent's
    // state and mode after a compaction are what they were before it.
    const covered = requested.value.slice(0, requested.value.findIndex((n) => n.id === range.toId) + 1);
    const states = summaryStates(agent, covered);
    const text = await this.summariser.summarise(range.nodes, run.signal, await summaryPolicy(agent), {
      ownerId: conversation.ownerId,
      conversationId,
    });
    const squashed = await this.store.squashAndRebase({
      conversationId,
      fromId: range.fromId,
      toId: range.toId,
      text,
      states,
      authorId: COMPACTOR_AUTHOR,
      actorId: job.requestedBy,
    });
    if (!squashed.ok) {
      const { error } = squashed;
      // A rewind or an edit took HEAD elsewhere (or the conversation went): retrying cannot help.
      if (error.code === 'head_left_branch' || error.code === 'not_found' || error.code === 'invalid_request')
        throw new PermanentJobError(error.message);
      throw new Error(`compaction failed: ${error.message}`);
    }
    const { summary, reflog, rebased } = squashed.value;
    return {
      ...outcomeOf(summary),
      conversationId,
      head: squashed.value.head,
      reflog,
      rebased,
      ...(reflog ? {} : { reason: ALREADY_DONE }),
    };
  }

  private async headPath(conversationId: string): Promise<TreeNode[]> {
    const path = await this.store.path(conversationId, 'HEAD');
    if (!path.ok) throw new PermanentJobError(`cannot compact: ${path.error.message}`);
    return path.value;
  }
}

function outcomeOf(summary: TreeNode<'summary'>): Pick<CompactionOutcome, 'summaryNodeId' | 'covers'> {
  const { fromId, toId, count } = summary.payload.covers;
  return { summaryNodeId: summary.id, covers: { fromId, toId, count } };
}

/** HEAD's path runs through a summary that swallowed part of the range (an earlier, shorter job). */
function supersedes(current: readonly TreeNode[], range: readonly TreeNode[]): boolean {
  const ids = new Set(range.map((n) => n.id));
  return current.some(
    (n) => n.kind === 'summary' && ids.has((n as TreeNode<'summary'>).payload.covers.fromId),
  );
}
