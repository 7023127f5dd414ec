import type { ConversationStatus, ElicitRequest } from '@sweatpants/domain';

/**
 * The conversation's status chip in words, true to what the person sees: "waiting for your
 * answer" only while a question card waits, "your turn" while the agent waits for a message, and
 * "ready" when nothing waits at all (a status of `waiting` alone says nothing is being asked).
 *
 * @example
 * statusWords('waiting', null); // → 'ready'
 */
export function statusWords(status: ConversationStatus, pending: ElicitRequest | null): string {
  if (status === 'running') return 'working';
  if (pending === null) return 'ready';
  return pending.type === 'chat' ? 'your turn' : 'waiting for your answer';
}
