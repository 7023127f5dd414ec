import type { Outbox } from '@sweatpants/agent-runtime/host';
import type { ElicitEvent, ElicitRequest, QueuedMessage } from '@sweatpants/domain';
import type { Metrics } from '../observability/metrics';
import type { ConversationTraces } from '../tracing/conversation-traces';
import type { ConversationEvents } from './conversation-events';

/**
 * A runner's Outbox, forwarding to the conversation's sockets. Nodes are not forwarded here: the
 * store's port (`StorePort`, heard by ConversationActors) announces each write with its reflog
 * entry as it lands. It remembers which node asked each pending elicit, so the elicit can be sent
 * again (same id, same node) on a join. Its methods are own properties: the runner copies an
 * outbox with a spread.
 */
export class RunnerOutbox implements Outbox {
  private readonly askingNode = new Map<string, string>();
  constructor(
    private readonly conversationId: string,
    private readonly events: ConversationEvents,
    private readonly metrics: Metrics | null = null,
    private readonly traces: ConversationTraces | null = null,
  ) {}

  /** The `elicit` event for a pending request; a chat prompt is asked by the HEAD it waits at. */
  elicitEvent(request: ElicitRequest, head: string): ElicitEvent {
    return {
      ...request,
      conversationId: this.conversationId,
      nodeId: this.askingNode.get(request.elicitId) ?? head,
    };
  }

  readonly nodes = (): void => {
    // Announced by the port, with the reflog entry the outbox does not see.
  };

  readonly status = (status: 'idle' | 'running' | 'waiting'): void => {
    this.metrics?.runnerStatus(this.conversationId, status);
    this.events.emit('status', { conversationId: this.conversationId, status });
  };

  readonly elicit = (request: ElicitRequest, nodeId: string): void => {
    // A chat prompt's node is the HEAD it waits at, known at any time; only tools' elicits need noting.
    if (request.type !== 'chat') this.askingNode.set(request.elicitId, nodeId);
    this.metrics?.elicitAsked(this.conversationId, request.elicitId, request.type);
    this.traces?.elicitAsked(this.conversationId, request);
    this.events.emit('elicit', this.elicitEvent(request, nodeId));
  };

  readonly withdrawn = (elicitId: string, reason: string): void => {
    this.askingNode.delete(elicitId);
    this.metrics?.elicitWithdrawn(this.conversationId, elicitId);
    this.traces?.elicitWithdrawn(this.conversationId, elicitId, reason);
    this.events.emit('elicit:withdrawn', { conversationId: this.conversationId, elicitId, reason });
  };

  readonly notify = (message: {
    nodeId?: string;
    message: string;
    progress?: number;
    total?: number;
  }): void => {
    this.events.emit('notify', { conversationId: this.conversationId, ...message });
  };

  readonly queue = (items: QueuedMessage[]): void => {
    this.events.emit('queue', { conversationId: this.conversationId, items });
  };

  /** Streamed text; ConversationEvents gathers it into one event a display frame. */
  readonly token = (nodeId: string, text: string): void => {
    this.events.token(this.conversationId, nodeId, text);
  };
}
