import type { ElicitRequest, Json, TreeNode } from '@sweatpants/domain';

import { isRecord } from '../core/json';
import { isAgentStep, isSideCall } from './agent-step-words';
import { agentStepsShown } from './agent-steps';
import { readFromWords } from './words-read';

export interface ChatItem {
  node: TreeNode;
  /** for an elicit: the response to it on the same path */
  answer: TreeNode | null;
}

export interface ChatOptions {
  /** show the agent's steps (events, tool calls, mode switches…) too, in words */
  steps: boolean;
}

/**
 * The nodes of the HEAD path the chat shows: what was said (the user's messages and answers, the
 * agent's replies, its questions with their answers, its progress: the latest of notes in a row), and, only when the "Show agent
 * steps" switch is on, the agent's steps (see isAgentStep). The root comes first: it carries that
 * switch. A side call of the runtime's is never shown. An elicit is shown with its answer, so the response
 * node itself is not, unless the user answered in their own words (action `other`): those are
 * their message, shown after the question. The `chat` elicit is the composer, each pending
 * question is a card below, and a question asked again after a tangent (`resumes`) is shown where it was
 * asked again, like any other.
 */
export function chatItems(
  path: readonly TreeNode[],
  pending: readonly ElicitRequest[],
  options: ChatOptions = { steps: agentStepsShown() },
): ChatItem[] {
  const waiting = new Set(pending.map((q) => q.elicitId));
  const read = readFromWords(path);
  const answers = new Map<string, TreeNode>();
  const asked = new Map<string, string | null>();
  for (const node of path) {
    const elicitId = elicitIdOf(node);
    if (elicitId === null) continue;
    if (node.kind === 'response') answers.set(elicitId, node);
    else asked.set(elicitId, typeOf(node));
  }
  const items: ChatItem[] = [];
  for (const [i, node] of path.entries()) {
    const elicitId = elicitIdOf(node);
    // A side call of the runtime's (reading off-script words) is not the chat, steps or not.
    if (isSideCall(node)) continue;
    if (isAgentStep(node)) {
      if (options.steps) items.push({ node, answer: null });
      continue;
    }
    switch (node.kind) {
      case 'root':
        // The chat's start: where the switch for the agent's steps is.
        if (i === 0) break;
        continue;
      case 'response':
        if (elicitId === null || !asked.has(elicitId)) break;
        if (isRecord(node.payload) && node.payload['action'] === 'other') break;
        // The answer to a chat elicit is a message: shown as one unless a user node repeats it.
        if (asked.get(elicitId) === 'chat' && path[i + 1]?.kind !== 'user') break;
        continue;
      case 'elicit': {
        const answer = elicitId === null ? undefined : answers.get(elicitId);
        // The chat elicit is the composer; its answer shows as the message itself.
        if (typeOf(node) === 'chat') continue;
        if (!answer && elicitId !== null && waiting.has(elicitId)) continue;
        // Words typed at it that the agent took as its answer: the answer carries what they were
        // read as, so the question shows it (the words themselves follow as the person's message).
        const readAs = elicitId === null ? undefined : read.get(elicitId);
        items.push({
          node,
          answer: answer && readAs !== undefined ? withReading(answer, readAs) : (answer ?? null),
        });
        continue;
      }
      default:
        break;
    }
    // Progress notes one after another are one search going on ("Checked the charity shops",
    // then "…the textile banks"): the latest says where it is, so it stands in for the ones before.
    if (node.kind === 'notify' && items.at(-1)?.node.kind === 'notify') items.pop();
    items.push({ node, answer: null });
  }
  return items;
}

/**
 * A typed answer with what the agent read it as, in its payload's `readAs`: one object per answer
 * node, so the chat's inputs stay the same between reads of the path and nothing is drawn again.
 */
function withReading(answer: TreeNode, readAs: Json): TreeNode {
  let read = withReadings.get(answer);
  if (!read) {
    read = { ...answer, payload: { ...(answer.payload as Record<string, Json>), readAs } } as TreeNode;
    withReadings.set(answer, read);
  }
  return read;
}
const withReadings = new WeakMap<TreeNode, TreeNode>();

function elicitIdOf(node: TreeNode): string | null {
  if (node.kind !== 'elicit' && node.kind !== 'response') return null;
  const payload: unknown = node.payload;
  return isRecord(payload) && typeof payload['elicitId'] === 'string' ? payload['elicitId'] : null;
}

function typeOf(node: TreeNode): string | null {
  const payload: unknown = node.payload;
  return isRecord(payload) && typeof payload['type'] === 'string' ? payload['type'] : null;
}
