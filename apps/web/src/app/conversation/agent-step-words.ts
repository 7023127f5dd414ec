import {
  DispositionSchema,
  PhotoSchema,
  QUESTION_SETTLED,
  type Photo,
  type TreeNode,
} from '@sweatpants/domain';

import { isRecord } from '../core/json';
import { dispositionLabel } from '../elicit/disposition-label';

/** An agent step said in words: a title, and a line of detail when there is one worth saying. */
export interface StepWords {
  title: string;
  detail: string;
}

/**
 * The machinery of a turn (events, tool calls and results, mode switches, the agent's notes to
 * itself, replies that said nothing) in plain words: never JSON, never a node id.
 */
export function stepWords(node: TreeNode): StepWords {
  const payload: Record<string, unknown> = isRecord(node.payload) ? node.payload : {};
  switch (node.kind) {
    case 'event':
      return eventWords(payload);
    case 'tool_call':
      return { title: toolCallTitle(payload), detail: inputDetail(payload['input']) };
    case 'tool_result':
      return toolResultWords(payload);
    case 'mode': {
      const from = typeof payload['from'] === 'string' ? words(payload['from']) : null;
      const to = typeof payload['to'] === 'string' ? words(payload['to']) : 'another mode';
      return { title: `Mode: ${from ? `${from} → ` : ''}${to}`, detail: '' };
    }
    case 'user':
      return syntheticWords(typeof payload['text'] === 'string' ? payload['text'] : '');
    case 'assistant':
      return { title: 'Worked out the next step without a reply', detail: '' };
    case 'cancel':
      return { title: 'Stopped', detail: '' };
    case 'summary':
      return { title: 'Summarised the earlier conversation', detail: '' };
    default:
      return { title: sentence(node.kind), detail: '' };
  }
}

/** "winding-down" → "winding down", "DecisionSupport" → "decision support". */
export function words(name: string): string {
  return name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[-_]+/g, ' ')
    .trim()
    .toLowerCase();
}

function sentence(name: string): string {
  const said = words(name);
  return said.charAt(0).toUpperCase() + said.slice(1);
}

function str(value: unknown): string | null {
  return typeof value === 'string' && value.trim() ? value.trim() : null;
}

function the(item: unknown, fallback: string): string {
  const name = str(item);
  return name ? `the ${name}` : fallback;
}

function eventWords(p: Record<string, unknown>): StepWords {
  const type = str(p['type']) ?? 'event';
  const none = (title: string): StepWords => ({ title, detail: '' });
  switch (type) {
    case 'user-input-received':
      return none('Read your message');
    case 'response-generated':
      return none('Wrote its reply');
    case 'photo-analyzed':
      return { title: 'Looked at the photo', detail: plain(p['summary']) };
    case 'situation-classified':
      return { title: 'Worked out what you meant', detail: plain(p['summary']) };
    case 'action-taken':
      return { title: 'Decided what to do next', detail: actionWords(p['action']) };
    case 'phase-changed':
      return none(`Phase: ${words(str(p['from']) ?? '–')} → ${words(str(p['to']) ?? '–')}`);
    case 'session-ended': {
      const n = typeof p['itemsProcessed'] === 'number' ? p['itemsProcessed'] : null;
      return none(
        n === null ? 'Ended the session' : `Ended the session (${n} ${n === 1 ? 'item' : 'items'} sorted)`,
      );
    }
    case 'item-proposed':
      return none(`Suggested what to do with ${the(p['item'], 'an item')}`);
    case 'user-confirmed':
      return {
        title: `You decided about ${the(p['item'], 'an item')}`,
        detail: disposition(p['disposition']),
      };
    case 'user-corrected':
      return {
        title: `You changed what happens to ${the(p['item'], 'an item')}`,
        detail: disposition(p['disposition']),
      };
    case 'function-chosen':
      return { title: 'Chose what the space is for', detail: plain(p['function']) };
    case 'session-confirmed-done':
      return none('You said you are done for now');
    // A subagent's attempt on a branch of its own (seed 004's fork/forward/back).
    case 'fork':
      return { title: `Tried ${plain(p['label']) || 'another way'}`, detail: attemptBy(p['agent']) };
    case 'forward':
      return {
        title: `Kept what it found: ${plain(p['label']) || 'the attempt'}`,
        detail: attemptBy(p['agent']),
      };
    case 'fork-return':
      return { title: `Went back from ${plain(p['label']) || 'an attempt'}`, detail: plain(p['reason']) };
    case 'model-error':
      return none('The model could not answer');
    case 'sample-retry':
      return none('Asked the model again');
    case 'activities-updated': {
      const ids = Array.isArray(p['activityIds']) ? p['activityIds'].length : 0;
      const option = isRecord(p['option']) ? str(p['option']['label']) : null;
      return {
        title: `Updated ${ids} ${ids === 1 ? 'activity' : 'activities'}`,
        detail: option ?? '',
      };
    }
    case QUESTION_SETTLED:
      return none('Took what you said as the answer to the question');
    case 'activities-classified': {
      const ids = Array.isArray(p['activityIds']) ? p['activityIds'].length : 0;
      return none(`Sorted ${ids} ${ids === 1 ? 'activity' : 'activities'} by the rules`);
    }
    default:
      return { title: sentence(type), detail: inputDetail(p, ['type']) };
  }
}

/** Who made an attempt: "by the directory". */
function attemptBy(agent: unknown): string {
  const name = str(agent);
  return name ? `by the ${words(name)}` : '';
}

function disposition(value: unknown): string {
  const parsed = DispositionSchema.safeParse(value);
  return parsed.success ? dispositionLabel(parsed.data) : '';
}

/** The coach's action of a turn ({tag, …}), in words. */
function actionWords(value: unknown): string {
  if (!isRecord(value)) return '';
  const tag = str(value['tag']);
  const item = the(value['item'], 'an item');
  switch (tag) {
    case 'ask-function':
      return 'ask what the space is for';
    case 'ask-anchors':
      return 'ask what is definitely staying';
    case 'ask-what-is-it':
      return 'ask what the thing is';
    case 'ask-item-decision':
      return `ask what to do with ${item}`;
    case 'first-instruction':
      return 'give a first small step';
    case 'instruct-trash':
      return 'confirm it goes in the trash';
    case 'instruct-place':
      return `say where it goes${str(value['location']) ? `: ${str(value['location'])}` : ''}`;
    case 'instruct-unsure':
      return 'put it on the unsure pile';
    case 'instruct-next':
      return 'ask for the next thing';
    case 'instruct-split': {
      const categories = Array.isArray(value['categories'])
        ? value['categories'].filter((c): c is string => typeof c === 'string')
        : [];
      return categories.length ? `split it into ${categories.join(', ')}` : 'split it up';
    }
    case 'decision-aid':
      return `help decide about ${item}`;
    case 'energy-check':
      return 'check how you are doing';
    case 'pivot-away':
      return 'move on to something easier';
    case 'ack-progress':
      return 'acknowledge the progress';
    case 'summary':
      return 'sum up the session';
    case 'answer-aside':
      return 'answer what you asked on the side';
    case 'answer-question':
      return 'answer what you asked';
    default:
      return tag ? words(tag) : '';
  }
}

function toolName(p: Record<string, unknown>): string | null {
  return str(p['name']);
}

const TOOL_TITLES: Record<string, (input: Record<string, unknown>) => string> = {
  ask_space_function: () => 'Asked what the space is for',
  propose_disposition: (i) => `Suggested what to do with ${the(i['item'], 'an item')}`,
  begin_sorting: () => 'Started sorting',
  resume_sorting: () => 'Went back to sorting',
  need_to_clarify: (i) => `Asked to pin down ${the(i['item'], 'an item')}`,
  user_seems_stuck: (i) => `Noticed you seem stuck on ${the(i['item'], 'an item')}`,
  time_to_wrap: () => 'Started winding down',
  skip_item: (i) => `Skipped ${the(i['item'], 'an item')}`,
  confirm_done: () => 'Asked whether you are done',
  end_session: () => 'Ended the session',
  present_options: () => 'Showed you options',
  update_activities: () => 'Updated activities',
  query_activities: () => 'Looked up activities',
  start_review: () => 'Started the review',
  finish_review: () => 'Finished the review',
  classify_pending: () => 'Sorted the waiting activities',
  set_question_aside: () => 'Set the question aside',
};

function toolCallTitle(p: Record<string, unknown>): string {
  const name = toolName(p);
  if (!name) return 'Used a tool';
  const input = isRecord(p['input']) ? p['input'] : {};
  const known = TOOL_TITLES[name];
  return known ? known(input) : `Used “${words(name)}”`;
}

function toolResultWords(p: Record<string, unknown>): StepWords {
  const name = toolName(p);
  const what = name ? `“${words(name)}”` : 'the tool';
  const outcome = isRecord(p['outcome']) ? p['outcome'] : {};
  if (outcome['kind'] === 'error' || p['isError'] === true) {
    return { title: `${sentence(what)} failed`, detail: plain(outcome['message']) };
  }
  if (outcome['kind'] === 'break') return { title: `${sentence(what)} moved on`, detail: '' };
  const value = outcome['value'];
  return { title: `${sentence(what)} done`, detail: typeof value === 'string' ? plain(value) : '' };
}

/** The agent's note to itself after a mode switch: "[Continue as: Sorting] Give one…". */
function syntheticWords(text: string): StepWords {
  const carried = carriedOnAs(text);
  if (!carried) return { title: 'A note to itself', detail: plain(text) };
  return { title: `Carried on as ${carried.mode}`, detail: carried.note };
}

/**
 * The mode an agent's note to itself carries on in, and the note: "[Continue as: DecisionSupport]
 * Reframe…" → decision support, "Reframe…". Null for a note that names no mode.
 */
export function carriedOnAs(text: string): { mode: string; note: string } | null {
  const match = /^\s*\[Continue as:\s*([^\]]+)\]\s*/.exec(text);
  return match ? { mode: words(match[1] ?? ''), note: plain(text.slice(match[0].length)) } : null;
}

const HASH = /\b[0-9a-f]{40,64}\b/gi;

/** A string without hashes, on one line; '' for anything that is not a string. */
function plain(value: unknown): string {
  if (typeof value !== 'string') return '';
  return value.replace(HASH, '…').replace(/\s+/g, ' ').trim();
}

/** The plain fields of an input ("item: mug, reason: a first guess"); nested values and ids left out. */
function inputDetail(value: unknown, skip: readonly string[] = []): string {
  if (!isRecord(value)) return '';
  return Object.entries(value)
    .filter(([key]) => !skip.includes(key) && !/(^ids?|Ids?|_ids?)$/.test(key))
    .flatMap(([key, v]) => {
      if (typeof v === 'number' || typeof v === 'boolean') return [`${words(key)}: ${String(v)}`];
      const said = plain(v);
      return said ? [`${words(key)}: ${said}`] : [];
    })
    .join(', ');
}

/**
 * Whether a node is one of the agent's steps rather than something said: events, tool calls and
 * results, mode switches, a message the agent wrote in the user's place (a mode switch's prompt)
 * and a reply with no words (a turn that only called tools).
 */
export function isAgentStep(node: TreeNode): boolean {
  const payload: Record<string, unknown> = isRecord(node.payload) ? node.payload : {};
  switch (node.kind) {
    case 'event':
    case 'tool_call':
    case 'mode':
      return true;
    // a result with images (an MCP server's) is shown: the person sees what the tool got
    case 'tool_result':
      return toolImagesOf(node).length === 0;
    case 'user':
      return payload['synthetic'] === true || node.authorId.startsWith('agent:');
    case 'assistant':
      return !String(payload['text'] ?? '').trim();
    default:
      return false;
  }
}

/** The photos a tool_result keeps (the images a tool got); none for any other node. */
export function toolImagesOf(node: TreeNode): Photo[] {
  if (node.kind !== 'tool_result' || !isRecord(node.payload)) return [];
  const photos = PhotoSchema.array().safeParse(node.payload['photos']);
  return photos.success ? photos.data : [];
}

/** A side call of the runtime's (reading off-script words, say): never part of the chat. */
export function isSideCall(node: TreeNode): boolean {
  return node.kind === 'assistant' && isRecord(node.payload) && node.payload['purpose'] !== undefined;
}
