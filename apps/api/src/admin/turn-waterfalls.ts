import type {
  Json,
  ReflogEntry,
  TreeNode,
  TurnSpan,
  TurnTokens,
  TurnWaterfall,
  TurnWaterfalls,
} from '@sweatpants/domain';
import { costOf } from '@sweatpants/agent-claude';

/** How much of the person's words a turn's opener keeps. */
const OPENER_CHARS = 120;

const at = (node: TreeNode): number => Date.parse(node.createdAt);
const isAgent = (node: TreeNode): boolean => node.authorId.startsWith('agent:');
const none = (): TurnTokens => ({ inputTokens: 0, outputTokens: 0, cacheWriteTokens: 0, cacheReadTokens: 0 });

function record(payload: unknown): Record<string, Json | undefined> {
  return typeof payload === 'object' && payload !== null && !Array.isArray(payload)
    ? (payload as Record<string, Json | undefined>)
    : {};
}

const short = (text: string): string =>
  text.length > OPENER_CHARS ? `${text.slice(0, OPENER_CHARS - 1).trimEnd()}…` : text;

/** The person's message or answer that begins a turn, in words. */
function openerWords(node: TreeNode): string {
  const payload = record(node.payload);
  if (node.kind === 'user') {
    const text = typeof payload['text'] === 'string' ? payload['text'] : '';
    return short(text || 'a photo');
  }
  const content = record(payload['content']);
  const said = [content['text'], content['choiceId'], record(content['disposition'])['kind']].find(
    (v): v is string => typeof v === 'string' && v !== '',
  );
  if (said) return short(said);
  if (typeof content['value'] === 'boolean') return content['value'] ? 'yes' : 'no';
  return `answered: ${String(payload['action'])}`;
}

/** Whether `node` is a person's message or answer (a message still queued is not yet taken). */
function isPersons(node: TreeNode): boolean {
  if (isAgent(node)) return false;
  if (node.kind === 'user') return record(node.payload)['queued'] !== true;
  return node.kind === 'response';
}

/**
 * The path cut into turns: each begins at a person's message or answer and runs to the agent's
 * last node before the next one. An answer given while a tool runs (a question the tool asked) is
 * a wait inside the turn, not a new one. Nodes before the first person's node begin no turn.
 */
function cutTurns(path: readonly TreeNode[]): TreeNode[][] {
  const turns: TreeNode[][] = [];
  const running = new Set<string>();
  for (const node of path) {
    const payload = record(node.payload);
    const current = turns.at(-1);
    if (isPersons(node) && running.size === 0) turns.push([node]);
    else current?.push(node);
    const toolUseId = typeof payload['toolUseId'] === 'string' ? payload['toolUseId'] : null;
    if (node.kind === 'tool_call' && toolUseId) running.add(toolUseId);
    if (node.kind === 'tool_result' && toolUseId) running.delete(toolUseId);
  }
  return turns;
}

function tokensOf(usage: Record<string, Json | undefined>): TurnTokens {
  const count = (key: string): number => {
    const value = usage[key];
    return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.round(value) : 0;
  };
  return {
    inputTokens: count('inputTokens'),
    outputTokens: count('outputTokens'),
    cacheWriteTokens: count('cacheWriteTokens'),
    cacheReadTokens: count('cacheReadTokens'),
  };
}

/** One span, from `start` to `end` (epoch ms), on the clock of a turn that began at `t0`. */
type Placed = Omit<TurnSpan, 'startMs' | 'durationMs'> & { start: number; end: number };

/** A model call: from when it was asked (or, not recorded, the node before) to its reply. */
function modelSpan(node: TreeNode, before: TreeNode): Placed {
  const payload = record(node.payload);
  const asked = typeof payload['startedAt'] === 'string' ? Date.parse(payload['startedAt']) : NaN;
  const model = typeof payload['model'] === 'string' ? payload['model'] : 'unknown';
  const tokens = tokensOf(record(payload['usage']));
  const purpose = typeof payload['purpose'] === 'string' ? ` (${payload['purpose']})` : '';
  return {
    kind: 'model',
    label: `${model}${purpose}`,
    nodeId: node.id,
    start: Number.isNaN(asked) ? at(before) : asked,
    end: at(node),
    estimated: Number.isNaN(asked),
    model,
    tokens,
    // Priced quietly: the spend code already says once when a model has no published price.
    costUsd: costOf(model, tokens, () => undefined),
  };
}

/** The spans of one turn's nodes: model calls, tools' runs and waits for the person. */
function nodeSpans(nodes: readonly TreeNode[]): Placed[] {
  const spans: Placed[] = [];
  const calls = new Map<string, TreeNode>();
  const asked = new Map<string, TreeNode>();
  // A message queued while the agent worked was written whenever the person sent it: a model call
  // whose start was not recorded is taken to begin at the turn's own node before it.
  let before = nodes[0] as TreeNode;
  nodes.forEach((node, i) => {
    const payload = record(node.payload);
    switch (node.kind) {
      case 'assistant':
        spans.push(modelSpan(node, before));
        break;
      case 'tool_call':
        calls.set(String(payload['toolUseId']), node);
        break;
      case 'tool_result': {
        const call = calls.get(String(payload['toolUseId']));
        if (call) {
          const name = typeof payload['name'] === 'string' ? payload['name'] : 'a tool';
          spans.push({
            kind: 'tool',
            label: name,
            nodeId: node.id,
            start: at(call),
            end: at(node),
            estimated: false,
          });
        }
        break;
      }
      case 'elicit':
        asked.set(String(payload['elicitId']), node);
        break;
      case 'response': {
        const question = asked.get(String(payload['elicitId']));
        if (question && i > 0) {
          const type = record(question.payload)['type'];
          spans.push({
            kind: 'wait',
            label: `the person's answer (${typeof type === 'string' ? type : 'a question'})`,
            nodeId: node.id,
            start: at(question),
            end: at(node),
            estimated: false,
          });
        }
        break;
      }
      default:
        break;
    }
    if (!(node.kind === 'user' && payload['queued'] === true)) before = node;
  });
  return spans;
}

/**
 * The writes of the tree that stored this turn's nodes: each from the time its last node was named
 * to the reflog's record of HEAD moving there (the group commit's wait and the write itself).
 */
function writeSpans(
  nodes: readonly TreeNode[],
  path: ReadonlyMap<string, number>,
  writes: readonly ReflogEntry[],
): Placed[] {
  const mine = new Map(nodes.map((n) => [n.id, n]));
  return writes.flatMap((entry): Placed[] => {
    const last = mine.get(entry.newHead);
    if (entry.action !== 'append' || !last) return [];
    const from = entry.oldHead === null ? undefined : path.get(entry.oldHead);
    const to = path.get(entry.newHead) ?? 0;
    const count = from === undefined ? 1 : Math.max(1, to - from);
    return [
      {
        kind: 'write',
        label: `${count} node${count === 1 ? '' : 's'} stored`,
        nodeId: last.id,
        start: at(last),
        end: Date.parse(entry.createdAt),
        estimated: false,
      },
    ];
  });
}

function addTokens(a: TurnTokens, b: TurnTokens | undefined): TurnTokens {
  if (!b) return a;
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cacheWriteTokens: a.cacheWriteTokens + b.cacheWriteTokens,
    cacheReadTokens: a.cacheReadTokens + b.cacheReadTokens,
  };
}

function waterfall(
  number: number,
  nodes: readonly TreeNode[],
  path: ReadonlyMap<string, number>,
  writes: readonly ReflogEntry[],
): TurnWaterfall {
  const [opener] = nodes as [TreeNode, ...TreeNode[]];
  const t0 = at(opener);
  const placed = [...nodeSpans(nodes), ...writeSpans(nodes, path, writes)];
  const end = Math.max(...nodes.map(at), ...placed.map((s) => s.end));
  const spans = placed
    .map(({ start, end: until, ...span }): TurnSpan => {
      const startMs = Math.max(0, start - t0);
      return { ...span, startMs, durationMs: Math.max(0, until - t0 - startMs) };
    })
    .sort((a, b) => a.startMs - b.startMs);
  const models = spans.filter((s) => s.kind === 'model');
  return {
    number,
    nodeId: opener.id,
    opener: openerWords(opener),
    startedAt: opener.createdAt,
    durationMs: Math.max(0, end - t0),
    modelCalls: models.length,
    tokens: models.reduce((sum, s) => addTokens(sum, s.tokens), none()),
    costUsd: models.reduce((sum, s) => sum + (s.costUsd ?? 0), 0),
    spans,
  };
}

const tokensIn = (t: TurnWaterfall): number =>
  t.tokens.inputTokens + t.tokens.cacheReadTokens + t.tokens.cacheWriteTokens + t.tokens.outputTokens;

/** Every turn's number, the most by `by` first, then by `tie`, then in order. */
const rankedBy = (
  turns: readonly TurnWaterfall[],
  by: (t: TurnWaterfall) => number,
  tie: (t: TurnWaterfall) => number = () => 0,
): number[] =>
  [...turns].sort((a, b) => by(b) - by(a) || tie(b) - tie(a) || a.number - b.number).map((t) => t.number);

/**
 * A conversation's turns as waterfalls, from its HEAD path and its reflog's appends: where each
 * turn's time went (model calls, tools, waits for the person, writes of the tree) and what its
 * model calls cost, read from what the nodes record, so no tracing backend is needed.
 *
 * @example
 * const { turns, slowest } = turnWaterfalls(path, reflogEntries);
 * turns.find((t) => t.number === slowest[0])?.spans; // the slowest turn's bars
 */
export function turnWaterfalls(path: readonly TreeNode[], reflog: readonly ReflogEntry[]): TurnWaterfalls {
  const depthOf = new Map(path.map((n, i) => [n.id, i]));
  const writes = reflog.filter((e) => e.action === 'append');
  const turns = cutTurns(path).map((nodes, i) => waterfall(i + 1, nodes, depthOf, writes));
  return {
    turns,
    slowest: rankedBy(turns, (t) => t.durationMs),
    // On the offline model every call costs $0: its tokens still say which turns were the heaviest.
    costliest: rankedBy(turns, (t) => t.costUsd, tokensIn),
  };
}
