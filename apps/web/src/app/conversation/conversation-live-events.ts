import type { WritableSignal } from '@angular/core';
import type {
  ConversationStatus,
  ElicitRequest,
  QueuedMessage,
  ServerEventPayload,
  TreeNode,
} from '@sweatpants/domain';

import type { SocketClientService } from '../core/socket-client.service';

/** What the server's live events change in an open conversation (the ConversationStore). */
export interface LiveConversation {
  readonly conversation: WritableSignal<{ title: string } | null>;
  /** a question, as a screen reader is told it ("The donation helper asks: …") */
  questionWords(request: ElicitRequest): string;
  /** the questions waiting for the person */
  readonly questions: { asked(request: ElicitRequest): boolean; ended(elicitId: string): boolean };
  readonly status: WritableSignal<ConversationStatus>;
  readonly streaming: WritableSignal<{ nodeId: string; text: string } | null>;
  readonly progress: WritableSignal<ServerEventPayload<'notify'> | null>;
  readonly announcement: WritableSignal<string>;
  /** the messages waiting for the agent, which each `queue` event lists whole */
  readonly queue: { replace(items: readonly QueuedMessage[]): void };
  /** a node the server appended */
  appendNode(node: TreeNode): void;
  /** HEAD moved */
  headMoved(head: string): void;
  /** joins the room again and catches up (after a reconnect) */
  join(): Promise<void>;
}

/**
 * Listens to the socket's events of conversation `id` and applies each to `live`; answers the
 * functions that stop listening. The server's other conversations' events are ignored.
 */
export function listenToConversation(
  socket: SocketClientService,
  id: string,
  live: LiveConversation,
): (() => void)[] {
  const mine = (event: { conversationId: string }): boolean => event.conversationId === id;
  const on = socket.on.bind(socket);
  return [
    on('node', (event) => mine(event) && live.appendNode(event.node)),
    on('head', (event) => mine(event) && live.headMoved(event.head)),
    on('status', (event) => {
      if (!mine(event)) return;
      live.status.set(event.status);
      if (event.status !== 'running') {
        live.streaming.set(null);
        live.progress.set(null);
      }
    }),
    on('elicit', (event) => {
      if (!mine(event)) return;
      const { conversationId: _c, nodeId: _n, ...request } = event;
      if (live.questions.asked(request) && event.type !== 'chat')
        live.announcement.set(live.questionWords(request));
    }),
    on('elicit:withdrawn', (event) => mine(event) && live.questions.ended(event.elicitId)),
    on('notify', (event) => mine(event) && live.progress.set(event)),
    on('queue', (event) => mine(event) && live.queue.replace(event.items)),
    on('title', (event) => {
      if (mine(event)) live.conversation.update((c) => (c ? { ...c, title: event.title } : c));
    }),
    on('token', (event) => {
      if (!mine(event)) return;
      const current = live.streaming();
      const text = current?.nodeId === event.nodeId ? current.text + event.text : event.text;
      live.streaming.set({ nodeId: event.nodeId, text });
    }),
    socket.onConnect(() => void live.join()),
  ];
}
