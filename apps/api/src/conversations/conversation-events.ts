import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { ReflogEntry, ServerEventName, ServerEventPayload, TreeNode } from '@sweatpants/domain';
import { AppEvents, type ConversationEvent } from '../events/app-events';

/** How long streamed text gathers before it is sent: one display frame. */
export const TOKEN_FRAME_MS = 16;

/**
 * Server → client events of a conversation, as the conversation's services say them. Each goes out
 * as the in-process event `conversation.event`, which the realtime transport hears and carries to
 * the conversation's room (reaching sockets on every api process); in a process where nothing
 * hears it (a worker), nowhere.
 *
 * Streamed model text is display only, and a person reads no faster than a screen redraws: the
 * first delta after a pause goes at once, the deltas behind it gather for one frame and go as one
 * `token` event, sent before any other event of the conversation so the text never arrives after
 * the node that holds it.
 */
@Injectable()
export class ConversationEvents implements OnApplicationShutdown {
  private readonly tokens = new Map<string, { nodeId: string; text: string; timer: NodeJS.Timeout }>();

  constructor(private readonly events: AppEvents) {}

  emit<E extends ServerEventName>(event: E, payload: ServerEventPayload<E>): void {
    if (!this.events.heard('conversation.event')) return;
    if (this.tokens.size > 0) this.flushTokens(payload.conversationId);
    this.send(event, payload);
  }

  /** A model's streamed text for `nodeId`: the first piece at once, the rest gathered per frame. */
  token(conversationId: string, nodeId: string, text: string): void {
    if (!this.events.heard('conversation.event')) return;
    const pending = this.tokens.get(conversationId);
    if (pending && pending.nodeId === nodeId) {
      pending.text += text;
      return;
    }
    if (pending) this.flushTokens(conversationId);
    // The first words after a pause go at once (the person waits for them); what follows within
    // the frame gathers behind them.
    this.send('token', { conversationId, nodeId, text });
    const timer = setTimeout(() => this.flushTokens(conversationId), TOKEN_FRAME_MS);
    this.tokens.set(conversationId, { nodeId, text: '', timer });
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
    if (pending.text !== '')
      this.send('token', { conversationId, nodeId: pending.nodeId, text: pending.text });
  }

  private send<E extends ServerEventName>(event: E, payload: ServerEventPayload<E>): void {
    this.events.emit('conversation.event', { event, payload } as ConversationEvent);
  }
}
