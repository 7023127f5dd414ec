import {
  err,
  ok,
  parseElicitResponse,
  type ElicitAnswer,
  type ElicitRequest,
  type Json,
  type Photo,
  type Result,
  type TreeNode,
} from '@sweatpants/domain';
import type { AgentDefinition } from './agent-definition';
import type { RunnerError } from './runner-options';

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

/**
 * The chat prompt at `head`: what the agent says it waits for in `state` (its `chatPrompt`), or
 * "Your turn." for an agent that says nothing.
 */
export function chatPromptAt(agent: AgentDefinition, state: Json, head: string): ElicitRequest<'chat'> {
  const prompt = agent.chatPrompt?.(state) ?? { message: 'Your turn.' };
  return {
    elicitId: chatElicitId(head),
    type: 'chat',
    message: prompt.message,
    payload: prompt.placeholder ? { placeholder: prompt.placeholder } : {},
    askedBy: agent.name,
  };
}

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
  /** who waits for whatever is stored next (HEAD moving at all) */
  private readonly anyWaiters = new Set<() => void>();

  /** Nodes just stored: wakes whoever waits on an elicit one of them answers, or on any store. */
  stored(nodes: readonly TreeNode[]): void {
    const anyone = [...this.anyWaiters];
    this.anyWaiters.clear();
    for (const wake of anyone) wake();
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

  /** Resolves at the next store, whatever it holds. */
  whenStored(): { promise: Promise<void>; cancel(): void } {
    let wake: () => void = () => undefined;
    const promise = new Promise<void>((resolve) => {
      wake = resolve;
      this.anyWaiters.add(resolve);
    });
    return { promise, cancel: () => this.anyWaiters.delete(wake) };
  }
}

/**
 * Why an answer to `elicitId`, not waiting now, was refused: a question this conversation asked on
 * its path (a chat prompt at an earlier HEAD, a card the person left or a Stop withdrew) waits no
 * more, and says so (409); an id naming nothing on it was never asked here (not found).
 */
export function notWaiting(path: readonly TreeNode[], elicitId: string): RunnerError {
  const askedAt = elicitId.startsWith(CHAT_PREFIX) ? elicitId.slice(CHAT_PREFIX.length) : undefined;
  const asked = path.some((n) =>
    askedAt !== undefined ? n.id === askedAt : n.kind === 'elicit' && n.payload['elicitId'] === elicitId,
  );
  return asked
    ? {
        code: 'conflict',
        message:
          'That question is no longer waiting for an answer: the conversation has moved on. Nothing was sent.',
      }
    : { code: 'not_found', message: `no pending elicit ${elicitId}` };
}

/**
 * Whether `answer` is the one `recorded` holds, for a chat prompt's (a `user` node: its words);
 * any other question's answer is taken as sent again, as PROTOCOL.md's idempotency says.
 */
export function sameWords(recorded: TreeNode, answer: ElicitAnswer): boolean {
  if (recorded.kind !== 'user') return true;
  const content = answer.content as { text?: unknown } | undefined;
  return typeof content?.text !== 'string' || content.text === recorded.payload['text'];
}

/** The message a chat prompt's answer carries: accepted or off-script, it is the next message. */
export function chatMessage(answer: ElicitAnswer): Result<{ text: string; photos?: Photo[] }, RunnerError> {
  const parsed = parseElicitResponse('chat', answer);
  if (!parsed.ok) return err({ code: 'invalid_request', ...parsed.error });
  if (parsed.value.action === 'accept' || parsed.value.action === 'other') return ok(parsed.value.content);
  const message = 'the chat prompt is answered with a message';
  return err({ code: 'invalid_request', message, problems: [{ field: 'action', message }] });
}
