import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
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

/** How long streamed text gathers before it is sent: one display frame. */
export const TOKEN_FRAME_MS = 16;

/**
 * Where server → client events go: the conversation's room on the Socket.IO server, which (with
 * the Redis adapter) reaches sockets on every api process. The gateway attaches the server once
 * it exists; before that, and in a process without one, events go nowhere.
 *
 * Streamed model text is display only, and a person reads no faster than a screen redraws: the
 * deltas of a conversation gather for one frame and go as one `token` event, sent before any other
 * event of the conversation so the text never arrives after the node that holds it.
 */
@Injectable()
export class ConversationEvents implements OnApplicationShutdown {
  private server: ConversationServer | null = null;
  private readonly tokens = new Map<string, { nodeId: string; text: string; timer: NodeJS.Timeout }>();

  attach(server: ConversationServer): void {
    this.server = server;
  }

  emit<E extends ServerEventName>(event: E, payload: ServerEventPayload<E>): void {
    if (!this.server) return;
    if (this.tokens.size > 0) this.flushTokens(payload.conversationId);
    this.send(event, payload);
  }

  /** A model's streamed text for `nodeId`, gathered for one frame. */
  token(conversationId: string, nodeId: string, text: string): void {
    if (!this.server) return;
    const pending = this.tokens.get(conversationId);
    if (pending && pending.nodeId === nodeId) {
      pending.text += text;
      return;
    }
    if (pending) this.flushTokens(conversationId);
    const timer = setTimeout(() => this.flushTokens(conversationId), TOKEN_FRAME_MS);
    this.tokens.set(conversationId, { nodeId, text, timer });
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

  onApplicationShutdown(): void {
    for (const conversationId of [...this.tokens.keys()]) this.flushTokens(conversationId);
  }

  private flushTokens(conversationId: string): void {
    const pending = this.tokens.get(conversationId);
    if (!pending) return;
    this.tokens.delete(conversationId);
    clearTimeout(pending.timer);
    this.send('token', { conversationId, nodeId: pending.nodeId, text: pending.text });
  }

  private send<E extends ServerEventName>(event: E, payload: ServerEventPayload<E>): void {
    const args = [payload] as Parameters<ServerToClientEvents[E]>;
    this.server?.to(conversationRoom(payload.conversationId)).emit(event, ...args);
  }
}
