import type { TreeNode } from '@sweatpants/domain';

const CHAT_PREFIX = 'chat-';

/**
 * The elicit id of the chat prompt at a HEAD. The prompt is not a node: it is what a conversation
 * waits on whenever no turn runs, and its answer is the user's next message. Deriving its id from
 * HEAD keeps it stable across restarts and makes an answer to an old prompt detectably stale.
 *
 * @example
 * const answered = await runner.respond(
 *   { elicitId: chatElicitId(root.id), action: 'accept', content: { text: 'hello' } },
 *   user.id,
 * );
 */
export const chatElicitId = (head: string): string => `${CHAT_PREFIX}${head}`;

/** The elicit a `response` node answers. */
function answeredElicitId(node: TreeNode): string | undefined {
  return node.kind === 'response' ? (node as TreeNode<'response'>).payload.elicitId : undefined;
}

/** The node on `path` that answered `elicitId`, if one did: a response, or the message under a chat prompt. */
export function recordedAnswer(path: readonly TreeNode[], elicitId: string): TreeNode | undefined {
  // Searched from HEAD back: an answer sent again is one to a recent question.
  if (elicitId.startsWith(CHAT_PREFIX)) {
    // The message that answered a chat prompt is the node right under the HEAD it was asked at.
    const askedAt = elicitId.slice(CHAT_PREFIX.length);
    const at = path.findLastIndex((n) => n.id === askedAt);
    const next = at >= 0 ? path[at + 1] : undefined;
    return next?.kind === 'user' ? next : undefined;
  }
  return path.findLast((n) => answeredElicitId(n) === elicitId);
}

/**
 * Answers waiting to be stored: an answer is acknowledged only once the `response` node that
 * records it is written, which happens inside the running turn.
 */
export class AnswerWaiters {
  private readonly waiters = new Map<string, (node: TreeNode) => void>();

  /** Nodes just stored: wakes whoever waits on an elicit one of them answers. */
  stored(nodes: readonly TreeNode[]): void {
    for (const node of nodes) {
      const elicitId = answeredElicitId(node);
      const wake = elicitId === undefined ? undefined : this.waiters.get(elicitId);
      if (elicitId !== undefined && wake) {
        this.waiters.delete(elicitId);
        wake(node);
      }
    }
  }

  /** Resolves with the node that records the answer to `elicitId`, once it is stored. */
  whenRecorded(elicitId: string): { promise: Promise<TreeNode>; cancel(): void } {
    const promise = new Promise<TreeNode>((resolve) => this.waiters.set(elicitId, resolve));
    return { promise, cancel: () => this.waiters.delete(elicitId) };
  }
}
