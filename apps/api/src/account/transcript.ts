import type { ConversationRecord, TreeNode } from '@sweatpants/domain';
import { photosIn } from './export-photos';

/**
 * Where a photo is, relative to the transcript (`../../photos/<sha256>.<ext>`), or null when the
 * archive could not include it.
 */
export type PhotoLink = (photo: unknown) => string | null;

/** A question the agent asked on the path, kept to put its answer in words. */
interface Asked {
  type: string;
  payload: Record<string, unknown>;
  schema: Record<string, unknown>;
}

/**
 * A conversation's HEAD path as Markdown a person reads: who said what, the agent's questions with
 * their answers in words (the option's label, never its id), summaries, photos as images from the
 * archive. The agent's own steps (tool calls, events, mode switches, the messages it writes to
 * itself between modes) stay in tree.json, as do the branches HEAD left.
 */
export function transcript(
  conversation: ConversationRecord,
  path: readonly TreeNode[],
  photoLink: PhotoLink,
  /** how the agent is named in words ("the coach": its registration's `speaker`) */
  speaker = 'the assistant',
): string {
  const agent = speaker.charAt(0).toUpperCase() + speaker.slice(1);
  const title = oneLine(conversation.title) || 'Untitled conversation';
  // Archived, not deleted (DELETE archives): the heading says so, as the export's index does.
  const lines: string[] = [`# ${title}${conversation.archivedAt ? ' (archived)' : ''}`, ''];
  lines.push(`With ${agent.toLowerCase()}, started ${when(conversation.createdAt)}.`);
  if (conversation.archivedAt) {
    lines.push(
      '',
      `You archived this conversation on ${when(conversation.archivedAt)}: it is not in your list, and Archived in the list brings it back.`,
    );
  }
  lines.push('');
  const said = (who: string, words: string) => lines.push(`**${who}**: ${words}`, '');
  const asked = new Map<string, Asked>();

  for (const node of path) {
    const payload = record(node.payload);
    switch (node.kind) {
      case 'user': {
        // What the agent writes to itself when it changes modes is not the person's.
        if (payload['synthetic'] === true || node.authorId.startsWith('agent:')) break;
        const words = withPhotos(text(payload['text']), photosIn(payload), photoLink);
        if (words) said('You', words);
        break;
      }
      case 'assistant':
        if (text(payload['text'])) said(agent, text(payload['text']));
        break;
      case 'elicit': {
        const type = text(payload['type']);
        // The chat prompt is the message box, not a question: its answer is the person's message.
        if (type === 'chat') break;
        asked.set(text(payload['elicitId']), {
          type,
          payload: record(payload['payload']),
          schema: record(payload['schema']),
        });
        const offered = choicesOf(type, record(payload['payload']));
        said(`${agent} asked`, `${text(payload['message'])}${offered ? ` *(${offered})*` : ''}`);
        break;
      }
      case 'response': {
        const question = asked.get(text(payload['elicitId']));
        const action = text(payload['action']);
        const content = record(payload['content']);
        if (question) {
          said('You answered', answerWords(action, content, question, photoLink));
        } else if (action === 'accept' || action === 'other') {
          // The answer to the chat prompt: the person's message.
          const words = withPhotos(text(content['text']), photosIn(payload), photoLink);
          if (words) said('You', words);
        }
        break;
      }
      case 'summary':
        lines.push(`*Earlier in this conversation, in short*: ${text(payload['text'])}`, '');
        break;
      default:
        break;
    }
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

/** An answer in words: the label chosen, yes or no, what was typed; never an id or JSON. */
function answerWords(
  action: string,
  content: Record<string, unknown>,
  question: Asked,
  photoLink: PhotoLink,
): string {
  switch (action) {
    case 'accept':
      return acceptedWords(question, content) || '(answered)';
    case 'decline':
      return '(skipped the question)';
    case 'cancel':
      return '(cancelled the question)';
    case 'denied':
      return '(did not allow it)';
    case 'other':
      return withPhotos(text(content['text']), photosIn({ content }), photoLink) || '(answered)';
    default:
      return '(answered)';
  }
}

function acceptedWords(question: Asked, content: Record<string, unknown>): string {
  switch (question.type) {
    case 'choose': {
      const chosen = options(question.payload).find((o) => o.id === content['choiceId']);
      const revealed = looseWords(content['revealed']);
      const label = chosen?.label ?? '';
      return label && revealed ? `${label}: ${revealed}` : label || revealed;
    }
    case 'propose-disposition': {
      const disposition = record(content['disposition']);
      const choice = choices(question.payload).find((c) => sameDisposition(c.disposition, disposition));
      return choice?.label ?? dispositionWords(disposition);
    }
    case 'confirm':
      return typeof content['value'] === 'boolean' ? (content['value'] ? 'Yes' : 'No') : '';
    case 'location':
      return typeof content['lat'] === 'number' && typeof content['lng'] === 'number'
        ? `shared a location (${content['lat'].toFixed(5)}, ${content['lng'].toFixed(5)})`
        : 'shared a location';
    case 'clipboard-write':
      return content['success'] === true ? '(copied)' : '(could not copy)';
    case 'group': {
      const answers = record(content['answers']);
      const questions = Array.isArray(question.payload['questions']) ? question.payload['questions'] : [];
      return questions
        .map((q) => {
          const inner = record(q);
          const words = acceptedWords(
            { type: text(inner['type']), payload: record(inner['payload']), schema: {} },
            record(answers[text(inner['id'])]),
          );
          return words ? `${text(inner['message'])} ${words}` : '';
        })
        .filter(Boolean)
        .join('; ');
    }
    case 'form': {
      const properties = record(question.schema['properties']);
      return Object.entries(content)
        .map(([key, value]) => {
          const title = text(record(properties[key])['title']) || key;
          const words = looseWords(value);
          return words ? `${title}: ${words}` : '';
        })
        .filter(Boolean)
        .join('; ');
    }
    default:
      // free-text, clipboard-read, and any type registered later: its words if it has some.
      return looseWords(content);
  }
}

/** What a question offered, for the reader to see what the answer chose from. */
function choicesOf(type: string, payload: Record<string, unknown>): string {
  const labels =
    type === 'choose'
      ? options(payload).map((o) => o.label)
      : type === 'propose-disposition'
        ? choices(payload).map((c) => c.label)
        : [];
  const named = labels.filter(Boolean);
  if (named.length < 2) return named.join('');
  return `${named.slice(0, -1).join(', ')} or ${named.at(-1)}`;
}

function options(payload: Record<string, unknown>): { id: string; label: string }[] {
  const list = Array.isArray(payload['options']) ? payload['options'] : [];
  return list.map((o) => ({ id: text(record(o)['id']), label: text(record(o)['label']) }));
}

function choices(
  payload: Record<string, unknown>,
): { label: string; disposition: Record<string, unknown> }[] {
  const list = Array.isArray(payload['choices']) ? payload['choices'] : [];
  return list.map((c) => ({
    label: text(record(c)['label']),
    disposition: record(record(c)['disposition']),
  }));
}

function sameDisposition(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  return a['kind'] === b['kind'] && a['location'] === b['location'];
}

function dispositionWords(disposition: Record<string, unknown>): string {
  switch (disposition['kind']) {
    case 'place':
      return `put it in ${text(disposition['location']) || 'its place'}`;
    case 'trash':
      return 'throw it away';
    case 'donate':
      return 'donate it';
    case 'recycle':
      return 'recycle it';
    case 'skip':
      return 'not now';
    case 'need-more-info':
      return 'not sure yet';
    default:
      return '';
  }
}

/** Words from an answer of a shape this file does not know: its text, or its plain values. */
function looseWords(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (Array.isArray(value)) return value.map(looseWords).filter(Boolean).join(', ');
  const fields = record(value);
  if (typeof fields['text'] === 'string') return fields['text'];
  return Object.values(fields).map(looseWords).filter(Boolean).join(', ');
}

function withPhotos(words: string, photos: readonly unknown[], photoLink: PhotoLink): string {
  const images = photos.map((photo, i) => {
    const link = photoLink(photo);
    return link ? `![Photo ${i + 1}](${link})` : `*(photo ${i + 1} is not in this archive)*`;
  });
  return [words, ...images].filter(Boolean).join('\n\n');
}

/** A time as a person reads it: `2026-11-24 16:11 UTC`. */
function when(iso: string): string {
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? iso : `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

function oneLine(value: string): string {
  return value.replace(/\s+/g, ' ').trim();
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
