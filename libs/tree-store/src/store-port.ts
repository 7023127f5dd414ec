import {
  err,
  ok,
  type ConversationPort,
  type PortError,
  type QueuedMessages,
  type Result,
  type TreeNode,
} from '@sweatpants/domain';
import { buildNodes } from './node-chain';
import type { StoreError } from './store-error';
import type { TreeStore } from './tree-store';
import type { Appended } from './chain-append';

/** What a host hears of the runner's writes and asks: each write as it lands, and compaction requests. */
export interface StorePortListeners {
  /** nodes stored and the HEAD move (with its reflog entry) that stored them */
  appended(conversationId: string, written: Appended): void;
  /** the runner asks for its branch to be compacted (fire and forget) */
  compactionRequested(input: { conversationId: string; head: string }): Promise<void>;
  /**
   * How `actorId` acts on the conversation just now, for the reflog ("via MCP, token 'laptop'"):
   * the host knows what carried the command whose writes these are; the runtime does not.
   */
  noteFor?(conversationId: string, actorId: string): string | undefined;
}

/**
 * The agent runtime's storage (ConversationPort), on the tree store itself: every write a
 * compare-and-swap on the HEAD the runner saw, its reflog entry written in the same statement and
 * handed to the host as it lands; the queue of messages sent while a turn works is the store's.
 *
 * @example
 * const port = new StorePort(store, 'agent:tidying', {
 *   appended: (conversationId, written) => events.appended(conversationId, written),
 *   compactionRequested: (input) => compactions.request(input),
 * });
 * const runner = await Runner.open({ conversationId, agent, port, model });
 */
export class StorePort implements ConversationPort {
  readonly queue: QueuedMessages;

  constructor(
    private readonly store: TreeStore,
    /** who moves HEAD when the agent does (`agent:<name>`); a user's message or cancel is theirs */
    private readonly agentActor: string,
    private readonly listeners: StorePortListeners,
  ) {
    this.queue = store.queue;
  }

  async path(conversationId: string): Promise<Result<TreeNode[], PortError>> {
    const path = await this.store.path(conversationId, 'HEAD');
    return path.ok ? path : err(portError(path.error));
  }

  async pathFromSummary(conversationId: string): Promise<Result<TreeNode[], PortError>> {
    const path = await this.store.pathFromSummary(conversationId, 'HEAD');
    return path.ok ? path : err(portError(path.error));
  }

  build(input: Parameters<ConversationPort['build']>[0]): Result<TreeNode[], PortError> {
    const built = buildNodes(input.conversationId, input.parent, input.nodes);
    return built.ok ? built : err(portError(built.error));
  }

  async append(
    input: Parameters<ConversationPort['append']>[0],
  ): Promise<Result<{ head: string }, PortError>> {
    const written = await this.store.appendBuiltRuns({
      conversationId: input.conversationId,
      expectedHead: input.expectedHead,
      runs: input.runs.map((run) => {
        const actorId = run.nodes.at(-1)?.authorId ?? this.agentActor;
        const note = this.listeners.noteFor?.(input.conversationId, actorId);
        return {
          nodes: run.nodes,
          action: run.action ?? 'append',
          actorId,
          ...(note !== undefined ? { note } : {}),
        };
      }),
    });
    if (!written.ok) return err(portError(written.error));
    for (const run of written.value) this.listeners.appended(input.conversationId, run);
    return ok({ head: (written.value.at(-1) as Appended).head });
  }

  async returnTo(
    input: Parameters<ConversationPort['returnTo']>[0],
  ): Promise<Result<{ head: string }, PortError>> {
    const [first] = input.nodes;
    if (!first?.parentId)
      return err({ code: 'invalid', message: 'the nodes go under a node of the conversation' });
    const actorId = input.nodes.at(-1)?.authorId ?? this.agentActor;
    const note = this.listeners.noteFor?.(input.conversationId, actorId);
    const written = await this.store.appendBuilt({
      conversationId: input.conversationId,
      nodes: input.nodes,
      parentId: first.parentId,
      expectedHead: input.expectedHead,
      action: 'return',
      actorId,
      ...(note !== undefined ? { note } : {}),
    });
    if (!written.ok) return err(portError(written.error));
    this.listeners.appended(input.conversationId, written.value);
    return ok({ head: written.value.head });
  }

  requestCompaction(input: { conversationId: string; head: string }): Promise<void> {
    return this.listeners.compactionRequested(input);
  }
}

/** The store's refusal in the port's words: HEAD moved (with HEAD now), no such conversation, a bad write. */
function portError(error: StoreError): PortError {
  switch (error.code) {
    case 'conflict':
      return { code: 'conflict', message: error.message, head: error.head };
    case 'not_found':
      return { code: 'not_found', message: error.message };
    case 'invalid_request':
      return { code: 'invalid', message: error.message };
  }
}
