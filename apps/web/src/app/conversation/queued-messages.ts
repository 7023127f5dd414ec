import { signal } from '@angular/core';
import type { QueuedMessage, TreeNode } from '@sweatpants/domain';

import { toApiError } from '../core/api-error';
import type { SocketClientService } from '../core/socket-client.service';

/** A `user` node, whose payload may say it is queued or took a queued message. */
function isUserNode(node: TreeNode): node is TreeNode<'user'> {
  return node.kind === 'user';
}

/**
 * The message a send's answer queued (its payload says `queued: true`: the agent was at work with
 * nothing to ask), as the queue lists it; null for a message that went onto the path.
 */
export function queuedMessageOf(node: TreeNode): QueuedMessage | null {
  if (!isUserNode(node) || node.payload.queued !== true) return null;
  const { text, photos } = node.payload;
  return {
    id: node.id,
    text,
    ...(photos?.length ? { photos } : {}),
    authorId: node.authorId,
    createdAt: node.createdAt,
  };
}

/** Said beside the composer when the agent took a message before its Withdraw landed. */
export const TOO_LATE_TO_WITHDRAW =
  'Too late to withdraw that message: it was already taken, and it is in the chat now.';

/**
 * The messages the person sent while the agent worked, still waiting for it, oldest first. The
 * server's `queue` events (and the conversation's `queued` on load and join) are the truth, each
 * the whole list; a send's answer adds its own message at once, so it shows before the event does.
 */
export class QueuedMessages {
  private readonly list = signal<readonly QueuedMessage[]>([]);
  readonly items = this.list.asReadonly();
  /** Why the last withdraw was refused, said beside the composer as a refused message is. */
  readonly refusal = signal<string | null>(null);
  /**
   * Every id the server has listed or the agent has taken. The answer to a send can come after the
   * event that queued it, or even after the one that took it (an agent quick to its next prompt):
   * a message the server has spoken of is its to list, so the answer does not add it back.
   */
  private readonly known = new Set<string>();

  constructor(private readonly socket: SocketClientService) {}

  /** The whole list, from the server (a `queue` event, or the conversation read or joined). */
  replace(items: readonly QueuedMessage[]): void {
    for (const item of items) this.known.add(item.id);
    this.list.set([...items]);
  }

  /** A send's answer queued `message`: shown at the end, unless the server already spoke of it. */
  sent(message: QueuedMessage): void {
    if (this.known.has(message.id)) return;
    this.known.add(message.id);
    this.list.update((list) => [...list, message]);
  }

  /** A node the server appended: if it took a queued message, that one waits no more. */
  took(node: TreeNode): void {
    const id = isUserNode(node) ? node.payload.queuedId : undefined;
    if (id) this.remove(id);
  }

  /**
   * Withdraws a queued message before the agent takes it (`message:withdraw`): answers it once
   * withdrawn, else null with the reason in `refusal`. Refused once the agent took it (409
   * conflict): nothing is lost then, the words are on the path, and the list lets it go.
   */
  async withdraw(conversationId: string, id: string): Promise<QueuedMessage | null> {
    const message = this.list().find((m) => m.id === id) ?? null;
    this.refusal.set(null);
    try {
      await this.socket.request('message:withdraw', { conversationId, nodeId: id });
      this.remove(id);
      return message;
    } catch (error: unknown) {
      const refused = toApiError(error);
      // Taken, or no longer known to the server: either way it waits no more.
      if (refused.code === 'conflict' || refused.code === 'not_found') this.remove(id);
      this.refusal.set(refused.code === 'conflict' ? TOO_LATE_TO_WITHDRAW : refused.describe());
      return null;
    }
  }

  /** Another conversation opens: nothing of this one's queue carries over. */
  clear(): void {
    this.known.clear();
    this.list.set([]);
    this.refusal.set(null);
  }

  private remove(id: string): void {
    this.known.add(id);
    this.list.update((list) => (list.some((m) => m.id === id) ? list.filter((m) => m.id !== id) : list));
  }
}
