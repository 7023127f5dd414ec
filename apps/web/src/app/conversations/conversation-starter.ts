import { inject, Injectable, signal } from '@angular/core';
import type { AgentName, Conversation, InlinePhoto } from '@sweatpants/domain';

import { ApiError } from '../core/api-error';
import { ApiService } from '../core/api.service';
import { SocketClientService } from '../core/socket-client.service';
import { ConversationListService } from './conversation-list.service';

/** How long the agent may take to ask its first question before the start is given up. */
export const READY_TIMEOUT_MS = 60_000;

/** The first message of a conversation that does not exist yet. */
export interface FirstMessage {
  text: string;
  photos?: InlinePhoto[];
}

/**
 * Starts a conversation with its first message, so nothing is created for a page that was only
 * opened: create it (untitled: the api titles it from these words), join its room, wait until the
 * agent waits (a message sent while it works would be queued behind its opening step; sent now, it
 * answers the agent's first question), then send the message.
 * When a step fails, the conversation made so far is kept for the retry, so trying again does not
 * leave an empty conversation behind.
 */
@Injectable({ providedIn: 'root' })
export class ConversationStarter {
  private readonly api = inject(ApiService);
  private readonly socket = inject(SocketClientService);
  private readonly list = inject(ConversationListService);
  /** Created for a start that then failed; the next start with the same agent carries on with it. */
  private draft: Conversation | null = null;

  readonly starting = signal(false);

  /** Resolves with the conversation once the message is in it; rejects with an ApiError. */
  async start(agent: AgentName, message: FirstMessage): Promise<Conversation> {
    if (this.starting()) throw new ApiError({ code: 'conflict', message: 'Already starting.' }, 0);
    this.starting.set(true);
    try {
      const conversation = await this.conversationFor(agent);
      await this.whenWaiting(conversation.id);
      const photos = message.photos ?? [];
      await this.socket.request('message:send', {
        conversationId: conversation.id,
        text: message.text,
        ...(photos.length > 0 ? { photos } : {}),
      });
      this.draft = null;
      this.list.added(conversation);
      return conversation;
    } finally {
      this.starting.set(false);
    }
  }

  private async conversationFor(agent: AgentName): Promise<Conversation> {
    if (this.draft?.agent === agent) return this.draft;
    // Another agent was chosen after a failed start: the empty one it left goes.
    if (this.draft) this.api.archive(this.draft.id).catch(() => undefined);
    this.draft = await this.api.createConversation({ agent });
    return this.draft;
  }

  /**
   * Joins the room and resolves once the agent waits for the user: at once when the join's answer
   * says so, else on the `elicit` (or a `status` other than running) that ends its first turn.
   */
  private async whenWaiting(conversationId: string): Promise<void> {
    let ready = (): void => undefined;
    const readySignal = new Promise<void>((resolve) => (ready = resolve));
    // Listening before joining: the server sends the pending elicit right after the join.
    const stops = [
      this.socket.on('elicit', (event) => {
        if (event.conversationId === conversationId) ready();
      }),
      this.socket.on('status', (event) => {
        if (event.conversationId === conversationId && event.status !== 'running') ready();
      }),
    ];
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const { conversation } = await this.socket.request('conversation:join', { conversationId });
      if (conversation.status !== 'running') return;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new ApiError({ code: 'internal', message: NOT_READY }, 0)),
          READY_TIMEOUT_MS,
        );
      });
      await Promise.race([readySignal, timeout]);
    } finally {
      clearTimeout(timer);
      for (const stop of stops) stop();
    }
  }
}

const NOT_READY =
  'The agent is taking too long to get ready. Your message is still here: try sending it again.';
