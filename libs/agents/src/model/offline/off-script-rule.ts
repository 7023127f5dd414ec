import type { Disposition, Json } from '@sweatpants/domain';
import { INTERPRET_TOOL } from '../model';
import type { OfflineRule } from './offline-rule';

/**
 * The offline model's reading of words typed while a question waits (the runtime's off-script
 * request, see runtime/off-script.ts): plain keyword rules, the same every time. Words that name
 * an option, a disposition or a yes/no answer it; words typed for a "Something else" option that
 * reveals a free-text question answer that; a question of the user's own ("wait, where do cables
 * go?") or anything it cannot place is a tangent, so the question is asked again after it.
 */
export const interpretOffScriptRule: OfflineRule = {
  name: 'offline runtime: read off-script words against the question',
  when: (ctx) => ctx.offers(INTERPRET_TOOL),
  reply: (ctx) => {
    const question = questionOf(ctx.request.system);
    const content = question ? answerIn(question, ctx.userText.trim()) : null;
    const input: Json = content ? { answers: true, content } : { answers: false };
    return { calls: [{ name: INTERPRET_TOOL, input }] };
  },
};

interface Question {
  type: string;
  payload: { [key: string]: Json };
}

function questionOf(system: string): Question | null {
  const line = /^Question: (.+)$/m.exec(system)?.[1];
  if (!line) return null;
  try {
    const parsed = JSON.parse(line) as Question;
    return typeof parsed.type === 'string' && parsed.payload && typeof parsed.payload === 'object'
      ? parsed
      : null;
  } catch {
    return null;
  }
}

/** The answer the words give, shaped for the question, or null for a tangent. */
function answerIn(question: Question, text: string): { [key: string]: Json } | null {
  if (text === '') return null;
  switch (question.type) {
    case 'choose':
      return chooseAnswer(question.payload, text);
    case 'propose-disposition':
      return dispositionAnswer(question.payload, text);
    case 'confirm':
      return confirmAnswer(text);
    case 'free-text':
      return asksBack(text) ? null : { text };
    default:
      return null;
  }
}

/** A question of the user's own is a tangent, whatever else it mentions. */
const asksBack = (text: string) => text.includes('?');
const said = (text: string, words: readonly string[]) =>
  words.some((w) => new RegExp(`\\b${w}\\b`, 'i').test(text));

interface Option {
  id: string;
  label: string;
}

function chooseAnswer(payload: Question['payload'], text: string): { [key: string]: Json } | null {
  const options = (Array.isArray(payload['options']) ? payload['options'] : []) as unknown as Option[];
  const lower = text.toLowerCase().replace(/[.!]+$/, '');
  // "B", "b.", "option B": the letter the prompt asked for, or the option's position.
  const letter = /^(?:option\s+)?([a-z])\b/i.exec(lower)?.[1];
  const byLetter =
    letter && lower.length <= 10
      ? (options.find((o) => o.id.toLowerCase() === letter) ??
        options[letter.charCodeAt(0) - 'a'.charCodeAt(0)])
      : undefined;
  const named =
    byLetter ??
    options.find((o) => o.id.toLowerCase() === lower) ??
    options.find((o) => {
      const label = o.label.toLowerCase().replace(/^[a-z]\.\s+/, '');
      return label.length >= 3 && (lower.includes(label) || (lower.length >= 3 && label.includes(lower)));
    });
  if (named) return { choiceId: named.id };
  if (asksBack(text)) return null;
  // Words for the option that asks for words of one's own ("Something else" → "what is it for?").
  const reveals = (payload['reveals'] ?? {}) as { [id: string]: { type?: string } };
  const open = options.find((o) => reveals[o.id]?.type === 'free-text');
  return open ? { choiceId: open.id, revealed: { text } } : null;
}

interface Choice {
  disposition: Disposition;
}

const ROOMS = [
  'kitchen',
  'bathroom',
  'bedroom',
  'living room',
  'hallway',
  'garage',
  'closet',
  'office',
  'basement',
  'attic',
];

function dispositionAnswer(payload: Question['payload'], text: string): { [key: string]: Json } | null {
  if (asksBack(text)) return null;
  const choices = (Array.isArray(payload['choices']) ? payload['choices'] : []) as unknown as Choice[];
  const disposition = dispositionIn(text, choices);
  if (!disposition) return null;
  const first = choices[0]?.disposition;
  const wasCorrection = JSON.stringify(first) !== JSON.stringify(disposition);
  return { disposition: disposition as unknown as Json, wasCorrection };
}

function dispositionIn(text: string, choices: readonly Choice[]): Disposition | null {
  if (said(text, ['not sure', 'not now', 'later', 'skip', "don't know", 'dunno', 'no idea']))
    return { kind: 'skip' };
  if (said(text, ['trash', 'bin', 'throw', 'garbage', 'toss', 'rubbish'])) return { kind: 'trash' };
  if (said(text, ['donate', 'give away', 'charity'])) return { kind: 'donate' };
  if (said(text, ['recycle', 'recycling'])) return { kind: 'recycle' };
  const place =
    /\b(?:put|goes|go|belongs|move|take|keep)\b.*?\b(?:in|on|to|into|by|under|at)\s+(?:the\s+|my\s+|a\s+)?(.+)$/i.exec(
      text,
    )?.[1] ?? ROOMS.find((room) => said(text, [room]));
  if (place) return { kind: 'place', location: place.replace(/[.!]+$/, '').trim() };
  // "keep it", "yes", "ok": the proposal as it stands.
  if (said(text, ['yes', 'yep', 'ok', 'okay', 'sure', 'keep', 'stays', 'fine']))
    return choices[0]?.disposition ?? null;
  return null;
}

function confirmAnswer(text: string): { [key: string]: Json } | null {
  if (asksBack(text)) return null;
  if (said(text, ['no', 'nope', 'not yet', 'keep going', 'continue'])) return { value: false };
  if (said(text, ['yes', 'yeah', 'yep', 'sure', 'ok', 'okay', 'done', 'stop'])) return { value: true };
  return null;
}
