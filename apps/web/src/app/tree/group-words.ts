import type { TreeNode } from '@sweatpants/domain';

import { isAgentStep, isSideCall, type StepWords, stepWords, words } from '../conversation/agent-step-words';
import { summaryText } from '../conversation/covered-messages';
import { imagesFrom, nodeView } from '../conversation/node-view';
import { isRecord } from '../core/json';
import { agentName } from '../reflog/reflog-sentence';
import type { TurnGroup } from './turn-groups';

/** A box of the tree in words, as the chat says it: never JSON, never a node id. */
export interface BoxWords {
  /** who said it: "You", "The coach"; what the box is when no one did: "Summary", "Start", "Steps" */
  who: string;
  /** the box's first words: who, and for a question or an answer what they did ("The coach asked") */
  tag: string;
  /** what the box is: "Your message", "The coach’s reply", "Summary of the earlier conversation" */
  title: string;
  /** the message in full; '' when there is none */
  text: string;
  /** for a question: its answer in words ("Kitchen", "Skipped"); null when unanswered or not a question */
  answer: string | null;
  /** one line for the box: the text, with the answer after a question */
  line: string;
}

export interface WordsContext {
  /** the signed-in user's id: their messages read "You"; null when unknown (then every person is "You") */
  you: string | null;
  /** agent name → how it is named in words ("the coach"), from `GET /api/agents` */
  speakers?: ReadonlyMap<string, string>;
}

/** The words of one box. */
export function boxWords(group: TurnGroup, ctx: WordsContext): BoxWords {
  const message = group.message;
  if (group.kind === 'start' || message === null) {
    const first = group.steps[0];
    const attempt = first ? attemptOf(first, ctx) : null;
    if (attempt) return attempt;
    return group.kind === 'start'
      ? {
          who: 'Start',
          tag: 'Start',
          title: 'Start of the conversation',
          text: '',
          answer: null,
          line: 'The conversation starts here',
        }
      : {
          who: 'Steps',
          tag: 'Steps',
          title: 'Steps on a branch with no message',
          text: '',
          answer: null,
          line: first ? foldedStepWords(first).title : '',
        };
  }
  const who = authorName(message.authorId, ctx);
  const whose = possessive(who);
  const view = nodeView(message, group.answer);
  switch (view.kind) {
    case 'user': {
      const photos = view.photos.length;
      const text = view.text.trim()
        ? view.text
        : photos > 0
          ? `${photos === 1 ? 'A photo' : `${photos} photos`}`
          : '';
      return { who, tag: who, title: `${whose} message`, text, answer: null, line: text };
    }
    case 'assistant':
      return { who, tag: who, title: `${whose} reply`, text: view.text, answer: null, line: view.text };
    case 'images': {
      const text = imagesFrom(view.photos.length, view.from);
      return { who, tag: who, title: `What ${view.from} got`, text, answer: null, line: text };
    }
    case 'question':
      return {
        who,
        tag: `${who} asked`,
        title: `${whose} question`,
        text: view.message,
        answer: view.answer,
        line: view.answer === null ? view.message : `${view.message} ↳ ${view.answer}`,
      };
    case 'answer':
      return {
        who,
        tag: `${who} answered`,
        title: `${whose} answer`,
        text: view.text,
        answer: null,
        line: view.text,
      };
    case 'summary': {
      const text = summaryText(view.text);
      return {
        who: authorName(message.authorId, ctx),
        tag: 'Summary',
        title: 'Summary of the earlier conversation',
        text,
        answer: null,
        line: text,
      };
    }
    case 'progress':
    case 'step':
    case 'divider':
    case 'quiet':
    case 'start': {
      const text = foldedStepWords(message).title;
      return { who, tag: who, title: text, text: '', answer: null, line: text };
    }
  }
}

/**
 * A folded node in words: the agent's steps as the chat says them (stepWords), and the few nodes
 * the chat shows elsewhere or not at all (the chat's composer question, an answer shown with its
 * question, progress, a stop, a side call of the runtime's).
 */
export function foldedStepWords(node: TreeNode): StepWords {
  if (isSideCall(node)) return { title: 'Read what you said beside the question', detail: '' };
  if (isAgentStep(node)) return stepWords(node);
  const payload: Record<string, unknown> = isRecord(node.payload) ? node.payload : {};
  const said = (key: string): string => (typeof payload[key] === 'string' ? oneLine(payload[key], 200) : '');
  switch (node.kind) {
    case 'elicit':
      return payload['type'] === 'chat'
        ? { title: 'Waited for your message', detail: '' }
        : { title: 'Asked a question', detail: said('message') };
    case 'response': {
      const view = nodeView(node, null);
      const text = view.kind === 'user' || view.kind === 'answer' ? view.text : '';
      return { title: 'Answered', detail: oneLine(text, 200) };
    }
    case 'notify': {
      const progress = typeof payload['progress'] === 'number' ? payload['progress'] : null;
      const total = typeof payload['total'] === 'number' ? payload['total'] : null;
      return {
        title: said('message') || 'Progress',
        detail: progress === null ? '' : total === null ? String(progress) : `${progress} of ${total}`,
      };
    }
    case 'cancel':
      return { title: 'Stopped', detail: '' };
    case 'root':
      return { title: 'Started the conversation', detail: '' };
    default:
      return stepWords(node);
  }
}

/** "+1 step", "+5 steps"; '' for none. */
export function stepCount(n: number): string {
  return n === 0 ? '' : `+${n} ${n === 1 ? 'step' : 'steps'}`;
}

/** Text on one line, cut to about `max` characters with an ellipsis, at a word's end when one is near. */
export function oneLine(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  if (line.length <= max) return line;
  const cut = line.slice(0, Math.max(0, max - 1));
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** "You", "The coach", "The concierge", "The user". */
/**
 * A branch a subagent tried on its own (its first node the `fork` event): the subagent's attempt,
 * named by the subagent ("The directory") even when no conversation of its own names it.
 */
function attemptOf(first: TreeNode, ctx: WordsContext): BoxWords | null {
  const payload: Record<string, unknown> = isRecord(first.payload) ? first.payload : {};
  if (first.kind !== 'event' || payload['type'] !== 'fork' || typeof payload['agent'] !== 'string')
    return null;
  const who = capital(ctx.speakers?.get(payload['agent']) ?? `the ${words(payload['agent'])}`);
  const line = typeof payload['label'] === 'string' ? oneLine(payload['label'], 200) : stepWords(first).title;
  return { who, tag: `${who} tried`, title: `${possessive(who)} attempt`, text: '', answer: null, line };
}

export function authorName(authorId: string, ctx: WordsContext): string {
  if (authorId.startsWith('agent:')) return capital(agentName(authorId.slice('agent:'.length), ctx.speakers));
  return ctx.you === null || authorId === ctx.you ? 'You' : 'The user';
}

function possessive(who: string): string {
  return who === 'You' ? 'Your' : `${who}’s`;
}

function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
