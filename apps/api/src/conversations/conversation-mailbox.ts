/**
 * One mailbox per conversation: work posted for a conversation runs after everything posted for it
 * before, and alone. Every command (ConversationCommands), a landed compaction, an idle close and a
 * reopen after HEAD moved under the runner go through it, so nothing else touches a conversation's
 * runner while one of them runs. Work must not wait on its own conversation's mailbox (a command
 * does not issue commands): it would wait on itself.
 */
export class ConversationMailboxes {
  /** the last work posted for each conversation with work still to run */
  private readonly tails = new Map<string, Promise<unknown>>();

  post<T>(conversationId: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(conversationId) ?? Promise.resolve();
    const next = previous.then(work, work);
    const settled = next.catch(() => undefined);
    this.tails.set(conversationId, settled);
    void settled.then(() => {
      if (this.tails.get(conversationId) === settled) this.tails.delete(conversationId);
    });
    return next;
  }
}
