import type { FieldProblem, TreeNode } from '@sweatpants/domain';
import type { Operation } from 'effection';
import type { Model } from './model';
import type { ConversationPort } from '@sweatpants/domain';
import type { AgentDefinition } from './agent-definition';
import type { LogSink } from './context';
import type { Outbox } from './outbox';

/** What a Runner is opened with: the conversation, its agent and model, and where it reports. */
export interface RunnerOptions {
  conversationId: string;
  /** what drives the conversation's turns */
  agent: AgentDefinition;
  /** where the conversation's tree is read and written */
  port: ConversationPort;
  /** what `sample` asks: Claude, or the offline model */
  model: Model;
  /** where it tells the world what happens (the api's sockets); silentOutbox when absent */
  outbox?: Outbox;
  /** where `log` writes during its turns; consoleLog when absent */
  logs?: LogSink;
  /** a deadline for every question a tool asks (seed 002); by default a question waits for its answer */
  questionTimeoutMs?: number;
  /**
   * Sets the per-conversation services the agent's tools use (the concierge's activity store,
   * bound to the conversation's owner) as effection contexts at the top of every turn.
   */
  provide?: () => Operation<void>;
  /**
   * Called when a turn finds the conversation moved under it (a compaction, another tab, a write
   * of a closed runner landing late): the runner is stale, and whoever holds it should reopen it
   * from the tree so the conversation goes on without waiting for the next command.
   */
  onStale?: () => void;
  /**
   * HEAD's path from its latest summaries when the caller has it already (HEAD moved back along
   * the path of the runner this one replaces: see `Runner.pathTo`): the runner opens on it without
   * reading the tree. Left out, `openingPath` reads it.
   */
  startPath?: readonly TreeNode[];
}

/** Why a runner refused a message or an answer, in the api's error codes. */
export interface RunnerError {
  code: 'conflict' | 'not_found' | 'invalid_request';
  message: string;
  /** each bad field and why, as PROTOCOL.md's 400 `details` */
  problems?: FieldProblem[];
}
