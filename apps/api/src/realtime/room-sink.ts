import {
  conversationRoom,
  type ClientToServerEvents,
  type ServerEventName,
  type ServerEventPayload,
  type ServerToClientEvents,
} from '@sweatpants/domain';
import type { Server } from 'socket.io';
import type { ConversationEventSink } from '../conversations/conversation-events';

export type ConversationServer = Server<ClientToServerEvents, ServerToClientEvents>;

/**
 * Conversations' events into each conversation's room on the Socket.IO server, which (with the
 * Redis adapter) reaches its sockets on every api process.
 */
export function roomSink(server: ConversationServer): ConversationEventSink {
  return {
    send<E extends ServerEventName>(event: E, payload: ServerEventPayload<E>): void {
      const args = [payload] as Parameters<ServerToClientEvents[E]>;
      server.to(conversationRoom(payload.conversationId)).emit(event, ...args);
    },
  };
}
