import { Injectable, Logger } from '@nestjs/common';
import { titleFromText, type ConversationRecord, type TreeNode } from '@sweatpants/domain';
import { TreeStore } from '@sweatpants/tree-store';
import { ApiError } from '../errors/api-error';
import { ConversationEvents } from './conversation-events';

/**
 * A conversation's title: the owner renames it, or, while it has none, the user's first words give
 * it one. Either way the room hears a `title` event, so an open list or header follows.
 */
@Injectable()
export class ConversationTitles {
  private readonly logger = new Logger('ConversationTitles');
  /**
   * Conversations known to have a title here: their first words are not tried again, though the
   * record a command came with says '' (a socket's record is read once, when it joins).
   */
  private readonly titled = new Set<string>();

  constructor(
    private readonly store: TreeStore,
    private readonly events: ConversationEvents,
  ) {}

  async rename(record: ConversationRecord, title: string): Promise<ConversationRecord> {
    const renamed = await this.store.rename(record.id, title);
    if (!renamed) throw new ApiError('not_found', 'no such conversation');
    this.knowTitled(record.id);
    this.events.emit('title', { conversationId: record.id, title: renamed.title });
    return renamed;
  }

  /**
   * After the user's input was stored: when the conversation has no title and `node` carries the
   * user's words (a message, or an off-script answer), those words title it. A photo-only message
   * has none, so the next message with words does it. The store sets it only over an empty title,
   * so a rename that lands first wins. A failure is logged, not thrown: the input is stored by
   * then, and an error would have the client send it again.
   */
  async fromFirstWords(record: ConversationRecord, node: TreeNode): Promise<void> {
    if (record.title !== '' || this.titled.has(record.id)) return;
    const title = titleFromText(wordsOf(node));
    if (title === '') return;
    try {
      const titledNow = await this.store.titleIfUntitled(record.id, title);
      // Titled now or before (a rename landed first): either way it has a title from here on.
      this.knowTitled(record.id);
      if (!titledNow) return;
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      this.logger.warn(`titling ${record.id}: ${reason}`);
      return;
    }
    this.events.emit('title', { conversationId: record.id, title });
  }

  private knowTitled(conversationId: string): void {
    // Bounded: forgetting only costs one more UPDATE that matches no row.
    if (this.titled.size >= TITLED_REMEMBERED) this.titled.clear();
    this.titled.add(conversationId);
  }
}

/** How many titled conversations a process remembers at most. */
const TITLED_REMEMBERED = 10_000;

/** What the user wrote in `node`: a message's text, or an off-script answer's; '' otherwise. */
function wordsOf(node: TreeNode): string {
  if (node.kind === 'user') return (node as TreeNode<'user'>).payload.text;
  if (node.kind !== 'response') return '';
  const { action, content } = (node as TreeNode<'response'>).payload;
  const text: unknown =
    action === 'other' && content !== null && typeof content === 'object' && !Array.isArray(content)
      ? content['text']
      : undefined;
  return typeof text === 'string' ? text : '';
}
