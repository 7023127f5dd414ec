import { Injectable } from '@nestjs/common';
import {
  conversationRoom,
  type ClientToServerEvents,
  type ReflogEntry,
  type ServerEventName,
  type ServerEventPayload,
  type ServerToClientEvents,
  type TreeNode,
} from '@sweatpants/domain';
import type { Server } from 'socket.io';

export type ConversationServer = Server<ClientToServerEvents, ServerToClientEvents>;

/**
 * Where server → client events go: the conversation's room on the Socket.IO server, which (with
 * the Redis adapter) reaches sockets on every api process. The gateway attaches the server once
 * it exists; before that, and in a process without one, events go nowhere.
 */
@Injectable()
export class ConversationEvents {
  private server: ConversationServer | null = null;

  attach(server: ConversationServer): void {
    this.server = server;
  }

  emit<E extends ServerEventName>(event: E, payload: ServerEventPayload<E>): void {
    if (!this.server) return;
    const args = [payload] as Parameters<ServerToClientEvents[E]>;
    this.server.to(conversationRoom(payload.conversationId)).emit(event, ...args);
  }

  /** Nodes appended and the HEAD move that appended them: a `node` event each, then `head`. */
  appended(conversationId: string, written: { nodes: TreeNode[]; head: string; reflog: ReflogEntry }): void {
    for (const node of written.nodes) this.emit('node', { conversationId, node });
    this.moved(conversationId, written);
  }

  /** A HEAD move, with the reflog entry it wrote. */
  moved(conversationId: string, move: { head: string; reflog: ReflogEntry }): void {
    this.emit('head', { conversationId, head: move.head, reflog: move.reflog });
  }
}
