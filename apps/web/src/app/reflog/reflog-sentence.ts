import { noteOfReflogMessage, type ReflogEntry, type TreeNode } from '@sweatpants/domain';

import { isRecord } from '../core/json';
import { carriedOnAs, stepWords, words as stepNameWords } from '../conversation/agent-step-words';

/** What a sentence about a HEAD move may look up: the nodes involved and who is who. */
export interface ReflogContext {
  /** the conversation's nodes known to the page (its tree), by id */
  nodes: ReadonlyMap<string, TreeNode>;
  /** the signed-in user's id: their moves read "You …" */
  you: string | null;
  /** user id → display name, for the other people the page knows */
  names?: ReadonlyMap<string, string>;
  /** the conversation's owner's id, when the page shows someone else's (the admin's audit) */
  owner?: string | null;
  /** the conversation's agent (`tidying`, `concierge`…), for "You stopped the coach" */
  agent?: string | null;
  /** agent name → how it is named in words ("the coach"), from `GET /api/agents` */
  speakers?: ReadonlyMap<string, string>;
}

/** A HEAD move in words: one sentence, and a quote of what was said when the sentence has none. */
export interface ReflogSentence {
  text: string;
  detail?: string;
}

const QUOTE_MAX = 60;

/** How an agent is named in words: its registered speaker ("the coach"), else "the assistant". */
export function agentName(agent: string | null | undefined, speakers?: ReadonlyMap<string, string>): string {
  return (agent && speakers?.get(agent)) || 'the assistant';
}

/**
 * Who an author or actor id is, for the start of a sentence: "You", "The coach", a name, "The
 * owner" (of a conversation the page shows without their name), else "Someone".
 */
export function actorName(
  id: string,
  ctx: Pick<ReflogContext, 'you' | 'names' | 'speakers' | 'owner'>,
): string {
  if (id.startsWith('agent:')) return capital(agentName(id.slice('agent:'.length), ctx.speakers));
  if (ctx.you !== null && id === ctx.you) return 'You';
  const name = ctx.names?.get(id);
  if (name) return name;
  return ctx.owner != null && id === ctx.owner ? 'The owner' : 'Someone';
}

/**
 * Whether the entry is the stop a rewind, an edit, a regenerate or a recover made first (the
 * `cancel` node says which): the move's own entry tells what happened, so this one is not told.
 */
export function madeWayForMove(entry: ReflogEntry, nodes: ReadonlyMap<string, TreeNode>): boolean {
  if (entry.action !== 'cancel') return false;
  const node = nodes.get(entry.newHead);
  return node?.kind === 'cancel' && isRecord(node.payload) && typeof node.payload['before'] === 'string';
}

/**
 * The entry as what happened, without ids: "You edited 'coffee mug' → 'water bottle'", and how,
 * when it was not in the product's own clients ("… via MCP, token 'laptop'").
 */
export function reflogSentence(entry: ReflogEntry, ctx: ReflogContext): ReflogSentence {
  const told = whatHappened(entry, ctx);
  const note = noteOfReflogMessage(entry.message);
  return note ? { ...told, text: `${told.text} ${note}` } : told;
}

function whatHappened(entry: ReflogEntry, ctx: ReflogContext): ReflogSentence {
  const who = actorName(entry.actorId, ctx);
  const target = ctx.nodes.get(entry.newHead);
  const agent = ctx.agent ?? agentOf(ctx.nodes);
  switch (entry.action) {
    case 'create':
      return { text: `${who} started the conversation` };
    case 'append':
      return appended(entry, target, ctx, agent);
    case 'edit':
      return edited(entry, target, ctx, who);
    case 'rewind': {
      if (target?.kind === 'root') return { text: `${who} went back to the start` };
      const words = wordsNear(target, ctx.nodes);
      // the branch arrows move HEAD too, but across, to another branch, not back along this one
      if (words && target && !isBefore(target.id, entry.oldHead, ctx.nodes))
        return { text: `${who} switched to the branch at ${quote(words)}` };
      return { text: words ? `${who} went back to ${quote(words)}` : `${who} went back to an earlier point` };
    }
    case 'regenerate':
      return { text: `${who} asked for another answer` };
    case 'recover':
      return { text: `${who} recovered an earlier branch` };
    case 'cancel':
      return { text: `${who} stopped ${agentName(agent, ctx.speakers)}` };
    case 'compact':
      return { text: 'The conversation was summarised' };
    case 'fork': {
      const words = wordsNear(target, ctx.nodes);
      return {
        text: words
          ? `Forked from another conversation, up to ${quote(words)}`
          : 'Forked from another conversation',
      };
    }
    case 'return': {
      const left = target ? attemptLeft(target, ctx.speakers) : null;
      if (left) return { text: `${left.who} went back from ${quote(left.label)}` };
      const words = target?.kind === 'elicit' ? wordsOf(target) : '';
      return {
        text: words
          ? `${capital(agentName(agent, ctx.speakers))} came back to ${quote(words)}`
          : `${capital(agentName(agent, ctx.speakers))} came back to the open question`,
      };
    }
  }
}

/** An `append`: told from the node appended, by its kind and author. */
function appended(
  entry: ReflogEntry,
  node: TreeNode | undefined,
  ctx: ReflogContext,
  agent: string | null,
): ReflogSentence {
  if (!node) {
    return entry.actorId.startsWith('agent:')
      ? { text: `${actorName(entry.actorId, ctx)} replied` }
      : { text: `${actorName(entry.actorId, ctx)} added a message` };
  }
  const who = subagentName(node.authorId, ctx.speakers, agent) ?? actorName(node.authorId, ctx);
  const words = wordsOf(node);
  switch (node.kind) {
    case 'user': {
      // the note an agent writes itself on switching mode is not something it said to the person
      if (isRecord(node.payload) && node.payload['synthetic'] === true) {
        const carried = carriedOnAs(words);
        return carried
          ? { text: `${who} carried on as ${carried.mode}`, detail: shorten(carried.note, 160) }
          : { text: `${who} wrote a note to itself`, detail: shorten(words, 160) };
      }
      return { text: words ? `${who} said ${quote(words)}` : `${who} sent a photo` };
    }
    case 'assistant':
      return words ? { text: `${who} replied`, detail: shorten(words, 160) } : { text: `${who} replied` };
    case 'elicit':
      return { text: words ? `${who} asked ${quote(words)}` : `${who} asked a question` };
    case 'response':
      return answered(node, who);
    case 'notify':
      return { text: words ? `${who} said ${quote(words)}` : `${who} sent an update` };
    case 'summary':
      return { text: 'The conversation was summarised' };
    case 'mode': {
      const payload: unknown = node.payload;
      const to = isRecord(payload) && typeof payload['to'] === 'string' ? payload['to'] : '';
      return { text: to ? `${who} switched to ${to}` : `${who} switched mode` };
    }
    case 'tool_call':
    case 'tool_result':
      return { text: `${who} used a tool` };
    case 'cancel':
      return { text: `${who} stopped ${agentName(agent, ctx.speakers)}` };
    case 'root':
      return { text: `${who} started the conversation` };
    case 'event': {
      const attempt = attemptOf(node);
      if (attempt?.type === 'forward') return { text: `${who} kept what it found: ${quote(attempt.label)}` };
      if (attempt?.type === 'fork') return { text: `${who} tried ${quote(attempt.label)}` };
      return noted(node, who);
    }
  }
}

/** Past tenses the agent steps' titles open with that do not end in -ed ("Read your message"). */
const IRREGULAR_PAST = new Set(['read', 'wrote', 'chose', 'kept', 'went', 'tried', 'took', 'made', 'found']);

/**
 * An agent's note to itself (an event) told as its step is in the chat: "The coach worked out what
 * you meant" (with what it worked out), "The concierge noted: review started".
 */
function noted(node: TreeNode, who: string): ReflogSentence {
  const { title, detail } = stepWords(node);
  const first = title.split(' ')[0]?.toLowerCase() ?? '';
  const lowered = title.charAt(0).toLowerCase() + title.slice(1);
  const text =
    first.endsWith('ed') || IRREGULAR_PAST.has(first) ? `${who} ${lowered}` : `${who} noted: ${lowered}`;
  // A reply the event records is quoted as an assistant's reply is.
  const payload: unknown = node.payload;
  const said = isRecord(payload) && typeof payload['text'] === 'string' ? payload['text'].trim() : '';
  const more = detail || shorten(said, 160);
  return more ? { text, detail: more } : { text };
}

/**
 * An agent that is not the conversation's and that no conversation names (a subagent that tries an
 * approach on a branch of its own): "The directory". Null for anyone else.
 */
function subagentName(
  authorId: string,
  speakers: ReadonlyMap<string, string> | undefined,
  agent: string | null,
): string | null {
  if (!authorId.startsWith('agent:') || speakers === undefined) return null;
  const name = authorId.slice('agent:'.length);
  return name === agent || speakers.has(name) ? null : capital(`the ${stepNameWords(name)}`);
}

/** A subagent's attempt event (fork, forward, fork-return): its type and label. */
function attemptOf(node: TreeNode): { type: string; label: string } | null {
  const p: unknown = node.payload;
  if (node.kind !== 'event' || !isRecord(p) || typeof p['type'] !== 'string') return null;
  if (!['fork', 'forward', 'fork-return'].includes(p['type'])) return null;
  return { type: p['type'], label: typeof p['label'] === 'string' ? p['label'] : 'an attempt' };
}

/** An answer to a question, by its action. */
function answered(node: TreeNode, who: string): ReflogSentence {
  const payload: unknown = node.payload;
  if (!isRecord(payload)) return { text: `${who} answered` };
  const content = payload['content'];
  const text = isRecord(content) && typeof content['text'] === 'string' ? content['text'].trim() : '';
  switch (payload['action']) {
    case 'other':
      return { text: text ? `${who} said ${quote(text)}` : `${who} answered in their own words` };
    // As the card's buttons say them ("Skip this", "Cancel"), and the transcript too.
    case 'decline':
      return { text: `${who} skipped the question` };
    case 'cancel':
      return { text: `${who} cancelled the question` };
    case 'denied':
      return { text: `${who} refused the permission` };
    default:
      return { text: text ? `${who} answered ${quote(text)}` : `${who} answered the question` };
  }
}

/** An `edit`: the old text from the sibling it replaced on the old branch, the new from HEAD. */
function edited(
  entry: ReflogEntry,
  node: TreeNode | undefined,
  ctx: ReflogContext,
  who: string,
): ReflogSentence {
  const now = node ? wordsOf(node) : '';
  const old = node ? replaced(node, entry.oldHead, ctx.nodes) : undefined;
  const before = old ? wordsOf(old) : '';
  if (before && now) return { text: `${who} edited ${quote(before)} → ${quote(now)}` };
  if (now) return { text: `${who} edited a message to ${quote(now)}` };
  return { text: `${who} edited a message` };
}

/** The node an edit replaced: on the old HEAD's path, the sibling of the new node. */
function replaced(
  node: TreeNode,
  oldHead: string | null,
  nodes: ReadonlyMap<string, TreeNode>,
): TreeNode | undefined {
  let at = oldHead ? nodes.get(oldHead) : undefined;
  for (let steps = 0; at && steps < 10_000; steps++) {
    if (at.parentId === node.parentId && at.id !== node.id) return at;
    at = at.parentId ? nodes.get(at.parentId) : undefined;
  }
  return undefined;
}

/** The words of a node, or of its nearest ancestor that says some (a rewind names a message). */
function wordsNear(node: TreeNode | undefined, nodes: ReadonlyMap<string, TreeNode>): string {
  let at = node;
  for (let steps = 0; at && steps < 10_000; steps++) {
    const words = at.kind === 'root' ? '' : wordsOf(at);
    if (words) return words;
    at = at.parentId ? nodes.get(at.parentId) : undefined;
  }
  return '';
}

/**
 * Whether `id` is on the path to `head` (at it, or before it), as far as the nodes known tell;
 * true when they do not reach back that far, so an unknown move still reads as going back.
 */
function isBefore(id: string, head: string | null, nodes: ReadonlyMap<string, TreeNode>): boolean {
  let at = head ? nodes.get(head) : undefined;
  for (let steps = 0; at && steps < 10_000; steps++, at = at.parentId ? nodes.get(at.parentId) : undefined) {
    if (at.id === id) return true;
    if (at.parentId && !nodes.has(at.parentId)) return true;
  }
  return head === null || !nodes.has(head);
}

/** What a node says in words a person wrote or read: texts, questions, typed answers. */
function wordsOf(node: TreeNode): string {
  const payload: unknown = node.payload;
  if (!isRecord(payload)) return '';
  let words: unknown = '';
  switch (node.kind) {
    case 'user':
    case 'assistant':
    case 'summary':
      words = payload['text'];
      break;
    case 'elicit':
    case 'notify':
      words = payload['message'];
      break;
    case 'response': {
      const content = payload['content'];
      words = isRecord(content) ? content['text'] : '';
      break;
    }
    default:
      words = '';
  }
  return typeof words === 'string' ? words.replace(/\s+/g, ' ').trim() : '';
}

/** The conversation's agent, read off its nodes' authors when the page was not told. */
function agentOf(nodes: ReadonlyMap<string, TreeNode>): string | null {
  for (const node of nodes.values()) {
    if (node.authorId.startsWith('agent:')) return node.authorId.slice('agent:'.length);
  }
  return null;
}

/**
 * A subagent's attempt left (the `fork-return` event HEAD went back through): which attempt, and
 * the subagent, named even when no conversation of its own names it ("The directory").
 */
function attemptLeft(
  node: TreeNode,
  speakers: ReadonlyMap<string, string> | undefined,
): { who: string; label: string } | null {
  const p: unknown = node.payload;
  if (node.kind !== 'event' || !isRecord(p) || p['type'] !== 'fork-return') return null;
  const agent = typeof p['agent'] === 'string' ? p['agent'] : null;
  const who = capital(
    (agent && speakers?.get(agent)) || (agent ? `the ${stepNameWords(agent)}` : 'the assistant'),
  );
  return { who, label: typeof p['label'] === 'string' ? p['label'] : 'an attempt' };
}

function quote(words: string): string {
  return `'${shorten(words, QUOTE_MAX)}'`;
}

function shorten(words: string, max: number): string {
  return words.length > max ? `${words.slice(0, max - 1).trimEnd()}…` : words;
}

function capital(words: string): string {
  return words.charAt(0).toUpperCase() + words.slice(1);
}
