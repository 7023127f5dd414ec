import {
  conversationRoom,
  type ClientToServerEvents,
  type ServerEventName,
  type ServerToClientEvents,
} from '@sweatpants/domain';
import type { Server } from 'socket.io';
import type { ConversationEvent } from '../events/app-events';

export type ConversationServer = Server<ClientToServerEvents, ServerToClientEvents>;

/**
 * A conversation's event into its room on the Socket.IO server, which (with the Redis adapter)
 * reaches its sockets on every api process.
 */
export function toRoom(server: ConversationServer, { event, payload }: ConversationEvent): void {
  const args = [payload] as Parameters<ServerToClientEvents[ServerEventName]>;
  (server.to(conversationRoom(payload.conversationId)).emit as (e: ServerEventName, ...a: unknown[]) => void)(
    event,
    ...args,
  );
}
