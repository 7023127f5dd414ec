import type { TreeNode } from '@sweatpants/domain';

import { isRecord } from '../core/json';
import { isAgentStep, isSideCall } from '../conversation/agent-step-words';

/**
 * What a box of the tree shows: the start, a message of either side, a question with its answer,
 * an answer on its own (when a branch separates it from its question), a compaction summary, or,
 * where a branch holds no message at all, the steps alone.
 */
export type BoxKind = 'start' | 'user' | 'assistant' | 'question' | 'answer' | 'summary' | 'steps';

/** One box of the tree: a message and the internal nodes folded into it, a stretch of one branch. */
export interface TurnGroup {
  /** the message's node id; for a box of steps alone, its first node's */
  id: string;
  kind: BoxKind;
  /** the node the box shows; null for a box of steps alone */
  message: TreeNode | null;
  /** for a question: the response to it, folded into the same box */
  answer: TreeNode | null;
  /** every node of the box, root-most first; each node's parent is the one before it */
  nodes: TreeNode[];
  /** the folded internal nodes (events, tool calls, mode switches…): `nodes` without message and answer */
  steps: TreeNode[];
  /** the box above (its first node's parent is in it); null at the top */
  parent: string | null;
  /** the boxes below, oldest first; more than one where the conversation branched */
  children: string[];
  /** boxes between it and the top */
  depth: number;
}

/** The tree of boxes: every node in exactly one box. */
export interface TurnTree {
  groups: ReadonlyMap<string, TurnGroup>;
  /** the top boxes, oldest first: the root's, and any whose parent node is not loaded */
  roots: string[];
  /** node id → id of the box holding it */
  boxOf: ReadonlyMap<string, string>;
}

export interface TurnGroupOptions {
  /** HEAD: a box ends there when a message follows it */
  head?: string | null;
}

/**
 * Groups a conversation's nodes into the boxes of its tree, one per message the chat shows by
 * default (chat-items.ts): the user's messages and words typed beside a question, the agent's
 * replies, its questions with their answers, and summaries. Each internal node between two of
 * them on one branch folds into a box:
 *
 * - into the message it leads to when that is the agent's (a reply or question: the turn's events,
 *   tool calls, mode switches, notes to itself and side calls are how it got there);
 * - into the message before it when the next is the user's (the end of the agent's turn: its
 *   `response-generated` event, a withdrawn question, a cancel belong to what it said last);
 * - into the message before it at the end of a branch or just above a fork.
 *
 * The agent's note that it wrote its reply, and a stop, stay with the message before them.
 *
 * A branch point always ends a box, wherever it is (an edit forks under the event that ended the
 * reply before; a regenerate forks at the user's message; a rewind anywhere), so every branch
 * starts a box of its own; a branch with no message yet is a box of its steps. HEAD ends a box
 * when a message follows it on its branch, so the boxes of the HEAD path hold nothing past it.
 */
export function turnGroups(nodes: readonly TreeNode[], options: TurnGroupOptions = {}): TurnTree {
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const children = new Map<string, TreeNode[]>();
  const tops: TreeNode[] = [];
  const elicitTypes = new Map<string, string | null>();
  for (const node of nodes) {
    const parent = node.parentId === null ? undefined : byId.get(node.parentId);
    if (parent) {
      const list = children.get(parent.id);
      if (list) list.push(node);
      else children.set(parent.id, [node]);
    } else tops.push(node);
    const elicitId = elicitIdOf(node);
    if (node.kind === 'elicit' && elicitId !== null) elicitTypes.set(elicitId, typeOf(node));
  }
  for (const list of children.values()) list.sort(oldestFirst);
  tops.sort(oldestFirst);
  const kids = (node: TreeNode): TreeNode[] => children.get(node.id) ?? [];

  const groups = new Map<string, TurnGroup>();
  const boxOf = new Map<string, string>();
  const roots: string[] = [];
  // Each entry: the first node of a stretch of one branch, and the box above it. A stack, not
  // recursion: a long session is thousands of nodes deep.
  const stack: { start: TreeNode; above: TurnGroup | null }[] = [...tops]
    .reverse()
    .map((start) => ({ start, above: null }));
  while (stack.length > 0) {
    const { start, above } = stack.pop() as (typeof stack)[number];
    // The stretch: down from `start` while a node has exactly one child.
    const chain: TreeNode[] = [];
    let node: TreeNode | undefined = start;
    let below: TreeNode[] = [];
    while (node) {
      chain.push(node);
      below = kids(node);
      if (below.length !== 1) break;
      node = below[0];
    }
    const kindOf = (n: TreeNode) => messageKind(n, elicitTypes, kids(n));
    // HEAD ends a box when a message follows it on the stretch (steps alone stay with HEAD's box).
    const at = chain.findIndex((n) => n.id === options.head);
    const split = at !== -1 && chain.slice(at + 1).some((n) => kindOf(n) !== null);
    const stretches = split ? [chain.slice(0, at + 1), chain.slice(at + 1)] : [chain];
    let parent = above;
    for (const stretch of stretches) {
      for (const group of cut(stretch, kindOf)) {
        group.parent = parent?.id ?? null;
        group.depth = parent ? parent.depth + 1 : 0;
        if (parent) parent.children.push(group.id);
        else roots.push(group.id);
        groups.set(group.id, group);
        for (const n of group.nodes) boxOf.set(n.id, group.id);
        parent = group;
      }
    }
    for (const child of [...below].reverse()) stack.push({ start: child, above: parent });
  }
  return { groups, roots, boxOf };
}

/** The boxes of one stretch of a branch (no forks inside it), top first. */
function cut(chain: readonly TreeNode[], kindOf: (node: TreeNode) => BoxKind | null): TurnGroup[] {
  const made: TurnGroup[] = [];
  let loose: TreeNode[] = [];
  const foldInto = (group: TurnGroup, steps: TreeNode[]) => {
    group.nodes.push(...steps);
    group.steps.push(...steps);
  };
  for (const node of chain) {
    const last = made.at(-1);
    // The answer to the question just asked: the question's box shows it.
    if (
      node.kind === 'response' &&
      last?.kind === 'question' &&
      last.answer === null &&
      last.message !== null &&
      elicitIdOf(node) === elicitIdOf(last.message) &&
      !isOffScript(node)
    ) {
      foldInto(last, loose);
      last.nodes.push(node);
      last.answer = node;
      loose = [];
      continue;
    }
    const kind = kindOf(node);
    // What reports on the message before (the reply written, a stop) stays with it.
    if (kind === null && last && closesPrevious(node)) {
      foldInto(last, [...loose, node]);
      loose = [];
      continue;
    }
    if (kind === null) {
      loose.push(node);
      continue;
    }
    // The agent's steps before the user speaks end its turn; before its own words they lead there.
    if ((kind === 'user' || kind === 'answer') && last) {
      foldInto(last, loose);
      loose = [];
    }
    made.push(box(kind, node, [...loose, node], loose));
    loose = [];
  }
  if (loose.length > 0) {
    const last = made.at(-1);
    if (last) foldInto(last, loose);
    else made.push(box('steps', null, loose, loose));
  }
  return made;
}

function box(kind: BoxKind, message: TreeNode | null, nodes: TreeNode[], steps: TreeNode[]): TurnGroup {
  const first = nodes[0] as TreeNode;
  return {
    id: (message ?? first).id,
    kind,
    message,
    answer: null,
    nodes,
    steps: [...steps],
    parent: null,
    children: [],
    depth: 0,
  };
}

/**
 * The box a node makes when it is a message the chat shows by default; null for an internal node.
 * The chat's rules (chat-items.ts) over a tree rather than one path: the pending question is a box
 * too (it is where the branch waits), and an answer whose question is above a fork is one.
 */
function messageKind(
  node: TreeNode,
  elicitTypes: ReadonlyMap<string, string | null>,
  below: readonly TreeNode[],
): BoxKind | null {
  if (isSideCall(node) || isAgentStep(node)) return null;
  switch (node.kind) {
    case 'root':
      return node.parentId === null ? 'start' : null;
    case 'user':
      return 'user';
    case 'assistant':
      return 'assistant';
    case 'summary':
      return 'summary';
    case 'elicit':
      // The chat question is the composer: its answer is the message.
      return typeOf(node) === 'chat' ? null : 'question';
    case 'response': {
      if (isOffScript(node)) return 'user';
      const elicitId = elicitIdOf(node);
      if (elicitId !== null && elicitTypes.get(elicitId) === 'chat') {
        // An accepted chat answer is the user's message, unless a user node repeats it.
        if (!isRecord(node.payload) || node.payload['action'] !== 'accept') return null;
        return below.some((n) => n.kind === 'user' && !isAgentStep(n)) ? null : 'user';
      }
      return 'answer';
    }
    case 'notify':
    case 'cancel':
    case 'mode':
    case 'tool_call':
    case 'tool_result':
    case 'event':
      return null;
  }
}

function closesPrevious(node: TreeNode): boolean {
  if (node.kind === 'cancel') return true;
  return node.kind === 'event' && isRecord(node.payload) && node.payload['type'] === 'response-generated';
}

function isOffScript(node: TreeNode): boolean {
  return node.kind === 'response' && isRecord(node.payload) && node.payload['action'] === 'other';
}

function oldestFirst(a: TreeNode, b: TreeNode): number {
  return Date.parse(a.createdAt) - Date.parse(b.createdAt) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

function elicitIdOf(node: TreeNode): string | null {
  if (node.kind !== 'elicit' && node.kind !== 'response') return null;
  const payload: unknown = node.payload;
  return isRecord(payload) && typeof payload['elicitId'] === 'string' ? payload['elicitId'] : null;
}

function typeOf(node: TreeNode): string | null {
  const payload: unknown = node.payload;
  return isRecord(payload) && typeof payload['type'] === 'string' ? payload['type'] : null;
}
