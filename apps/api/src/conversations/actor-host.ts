import type { Runner } from '@sweatpants/agent-runtime/host';
import type { Conversation, ConversationRecord, TreeNode } from '@sweatpants/domain';
import type { TreeStore } from '@sweatpants/tree-store';
import type { ConversationTraces } from '../tracing/conversation-traces';
import type { ConversationEvents } from './conversation-events';
import type { ConversationTitles } from './conversation-titles';
import type { RunnerOutbox } from './runner-outbox';

/** An open runner and the outbox that remembers which node asked each of its elicits. */
export interface Driven {
  runner: Runner;
  outbox: RunnerOutbox;
}

/**
 * What a conversation's actor needs from the api process it runs in: its runner, opened under the
 * conversation's lease, and the process's services for what a command writes beside the runner
 * (HEAD moves, titles, archiving).
 */
export interface ActorHost {
  /**
   * A runner at the conversation's HEAD, opened under its lease (refused while another process
   * holds it), on `startPath` when the caller has HEAD's path already.
   */
  open(record: ConversationRecord, startPath?: readonly TreeNode[]): Promise<Driven>;
  /** HEAD as stored, for when no runner here knows it. */
  storedHead(conversationId: string): Promise<string>;
  /** Lets another process drive the conversation next. */
  releaseLease(conversationId: string): Promise<void>;
  /** Told when a runner closes (a gauge for operators). */
  runnerClosed(conversationId: string): void;
  /** Forgets the actor, so that the next command for its conversation starts a new one. */
  forget(conversationId: string): void;
  /**
   * Who acts on the conversation now and how (a note for the reflog, "via MCP, token 'laptop'"),
   * while the actor handles their command: the runner's writes authored by them carry the note.
   */
  acting(conversationId: string, actor: { actorId: string; note: string } | undefined): void;
  /** Where the conversation's room hears what the actor did. */
  readonly events: ConversationEvents;
  readonly store: TreeStore;
  readonly titles: ConversationTitles;
  /** the spans of what the actor's commands cause (each runs in the context its letter carried) */
  readonly traces: ConversationTraces;
  /** PROTOCOL.md's `model` of every conversation this deployment runs. */
  readonly model: Conversation['model'];
}
