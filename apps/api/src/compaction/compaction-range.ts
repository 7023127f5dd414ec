import type { TreeNode } from '@sweatpants/domain';

/** A run of HEAD's path to replace by one summary. */
export interface CompactionRange {
  fromId: string;
  toId: string;
  nodes: TreeNode[];
}

/** The range to squash, or why there is none. */
export type RangeChoice = { range: CompactionRange; reason?: never } | { range: null; reason: string };

/**
 * How much of the path's end a compaction leaves as it is: the latest `keep` exchanges, an
 * exchange being one of the user's inputs and everything after it.
 */
export interface TailPolicy {
  /** the nodes that begin an exchange */
  startsExchange(node: TreeNode): boolean;
  /** how many of the latest exchanges the tail keeps */
  keep: number;
  /** how the reasons name what the tail keeps */
  describe: string;
}

/**
 * The runner's compaction (its branch grew past the agent's threshold): everything up to the last
 * `user` message, which stays with its turn.
 */
export const THRESHOLD_TAIL: TailPolicy = {
  startsExchange: (node) => node.kind === 'user',
  keep: 1,
  describe: 'the latest turn',
};

/**
 * A compaction someone asked for (POST compact): the user's last two inputs, typed messages or
 * answers to the agent's questions, and what followed them. Answers count, so a conversation led
 * by questions (one message, then one answer after another) still has something to squash.
 */
export const REQUESTED_TAIL: TailPolicy = {
  startsExchange: (node) =>
    (node.kind === 'user' && node.payload['synthetic'] !== true) || node.kind === 'response',
  keep: 2,
  describe: 'the 2 latest exchanges',
};

/**
 * The range a compaction squashes on `path` (root → the requested HEAD): everything after the
 * last summary (or the root) up to the tail `policy` keeps. The tail begins where no question is
 * split from its answer nor tool call from its result (see `splitPoints`), walking back from the
 * start of the oldest exchange it keeps if need be, so the model's history stays valid after the
 * squash; and no later than the message that began a turn still in flight. A range of nothing comes back as the reason there is none.
 */
export function compactionRange(path: readonly TreeNode[], policy: TailPolicy): RangeChoice {
  const lastSummary = path.findLastIndex((n) => n.kind === 'summary');
  const start = Math.max(lastSummary + 1, 1);
  const starts = path.flatMap((n, i) => (i >= start && policy.startsExchange(n) ? [i] : []));
  const split = splitPoints(path);
  let cut = starts.at(-policy.keep) ?? start;
  while (cut > start && split[cut]) cut -= 1;
  // A turn still in flight (its question waits, its tool runs) is resumed by the runner rebuilt
  // on the new HEAD from the message that began it (the runtime's cutOffTurn): the tail keeps the
  // whole turn, or the question would be lost with its beginning in the summary.
  if (split.at(-1))
    cut = Math.min(
      cut,
      path.findLastIndex((n) => n.kind === 'user'),
    );
  if (cut <= start)
    return {
      range: null,
      reason:
        lastSummary >= 0
          ? `nothing to squash: everything before ${policy.describe} is already a summary`
          : `nothing to squash: the conversation is no longer than ${policy.describe}, which a compaction keeps`,
    };
  const nodes = path.slice(start, cut);
  const first = nodes[0];
  const last = nodes.at(-1);
  if (!first || !last) throw new Error('compaction: an empty range past the checks');
  return { range: { fromId: first.id, toId: last.id, nodes } };
}

/**
 * `split[i]` is true when a tail beginning at `path[i]` would split a pair the model's history or
 * the runner's replay needs whole: a tool use (the assistant's block, its `tool_call`) from its
 * `tool_result`, an `elicit` from its `response`. A pair not closed on the path is still in flight
 * (nothing after it may be cut off from it) unless a `cancel` ended it; a tool use the assistant
 * only named (a retried sample) never ran and binds nothing.
 */
export function splitPoints(path: readonly TreeNode[]): boolean[] {
  const opened = new Map<string, number>();
  const running = new Set<string>();
  const closed = new Map<string, number>();
  const cancels: number[] = [];
  const open = (key: string, at: number) => {
    if (!opened.has(key)) opened.set(key, at);
  };
  path.forEach((node, i) => {
    const p = node.payload as Record<string, unknown>;
    switch (node.kind) {
      case 'assistant':
        for (const id of toolUseIds(p['content'])) open(`tool:${id}`, i);
        break;
      case 'tool_call':
        open(`tool:${String(p['toolUseId'])}`, i);
        running.add(`tool:${String(p['toolUseId'])}`);
        break;
      case 'elicit':
        open(`elicit:${String(p['elicitId'])}`, i);
        running.add(`elicit:${String(p['elicitId'])}`);
        break;
      case 'tool_result':
        closed.set(`tool:${String(p['toolUseId'])}`, i);
        break;
      case 'response':
        closed.set(`elicit:${String(p['elicitId'])}`, i);
        break;
      case 'cancel':
        cancels.push(i);
        break;
      default:
        break;
    }
  });
  const split = path.map(() => false);
  for (const [key, from] of opened) {
    const to =
      closed.get(key) ?? (running.has(key) ? (cancels.find((c) => c > from) ?? path.length - 1) : undefined);
    // A tail beginning anywhere in (from, to] would hold one end of the pair but not the other.
    if (to !== undefined) for (let i = from + 1; i <= to; i++) split[i] = true;
  }
  return split;
}

function toolUseIds(content: unknown): string[] {
  if (!Array.isArray(content)) return [];
  return content.flatMap((block: unknown) =>
    typeof block === 'object' &&
    block !== null &&
    (block as { type?: unknown }).type === 'tool_use' &&
    typeof (block as { id?: unknown }).id === 'string'
      ? [(block as { id: string }).id]
      : [],
  );
}

/** The summary on `path` that replaced exactly this range, if one does. */
export function summaryOf(
  path: readonly TreeNode[],
  range: { fromId: string; toId: string },
): TreeNode<'summary'> | undefined {
  return path.find(
    (n): n is TreeNode<'summary'> =>
      n.kind === 'summary' &&
      (n as TreeNode<'summary'>).payload.covers.fromId === range.fromId &&
      (n as TreeNode<'summary'>).payload.covers.toId === range.toId,
  );
}
