import { DispositionSchema, type ElicitAction, type Json } from '@sweatpants/domain';

import { isRecord } from '../core/json';
import { dispositionLabel } from './disposition-label';
import { type ElicitQuestion, payloadOf } from './elicit-question';
import { formSummary } from './form-schema';

/**
 * How an answer reads under its question in the chat: "Trash", "Yes", "Kitchen shelf"… A decline
 * reads as the card's button said it ("Skip this"): skipped. A question whose deadline passed (the
 * agent gave it one) reads as skipped for now, never as the user's cancel. What the agent read typed
 * words as reads as the answer itself: a place the words named is no "correction" of the card.
 */
export function answerSummary(
  question: ElicitQuestion,
  action: ElicitAction,
  content: Json | undefined,
  how: AnsweredHow = 'by-hand',
): string {
  switch (action) {
    case 'decline':
      return 'Skipped';
    case 'cancel':
      return how === 'timed-out' ? 'Skipped for now, no answer' : 'Cancelled';
    case 'denied':
      return 'Permission refused';
    case 'other':
      return `Something else: ${isRecord(content) ? String(content['text'] ?? '') : ''}`;
    case 'accept':
      return acceptedSummary(question, content, how);
  }
}

/** How an answer came: given on the question's own card, by its deadline passing, or read from typed words. */
export type AnsweredHow = 'by-hand' | 'timed-out' | 'from-words';

function acceptedSummary(question: ElicitQuestion, content: Json | undefined, how: AnsweredHow): string {
  if (!isRecord(content)) return 'Answered';
  switch (question.type) {
    case 'chat':
    case 'free-text':
    case 'clipboard-read':
      return String(content['text'] ?? '');
    case 'propose-disposition': {
      const parsed = DispositionSchema.safeParse(content['disposition']);
      if (!parsed.success) return 'Answered';
      if (content['wasCorrection'] === true && how !== 'from-words')
        return `${dispositionLabel(parsed.data)} (my correction)`;
      // A tapped card reads as the card did.
      const same = JSON.stringify(parsed.data);
      const card = payloadOf('propose-disposition', question)?.choices.find(
        (choice) => JSON.stringify(choice.disposition) === same,
      );
      return card?.label ?? dispositionLabel(parsed.data);
    }
    case 'choose': {
      const payload = payloadOf('choose', question);
      const option = payload?.options.find((o) => o.id === content['choiceId']);
      const label = option?.label ?? String(content['choiceId']);
      const reveal = payload?.reveals?.[String(content['choiceId'])];
      if (!reveal || content['revealed'] === undefined) return label;
      const revealed = content['revealed'];
      const action = isRecord(revealed) && typeof revealed['action'] === 'string' ? revealed['action'] : null;
      const inner = action
        ? answerSummary(reveal, action as ElicitAction, revealed)
        : acceptedSummary(reveal, revealed as Json, how);
      return `${label} — ${inner}`;
    }
    case 'confirm':
      return content['value'] === true ? 'Yes' : 'No';
    case 'location':
      // a town named in words ("I'm in Leeds") is where they are, but nothing the device shared
      return `${how === 'from-words' ? 'Location' : 'Location shared'} (${Number(content['lat']).toFixed(3)}, ${Number(content['lng']).toFixed(3)})`;
    case 'clipboard-write':
      return content['success'] === true ? 'Copied' : 'Not copied';
    case 'group': {
      const answers = content['answers'];
      const questions = payloadOf('group', question)?.questions ?? [];
      if (!isRecord(answers)) return 'Answered';
      return questions
        .filter((q) => answers[q.id] !== undefined)
        .map((q) => `${q.message} ${acceptedSummary(q, answers[q.id] as Json, how)}`)
        .join(' · ');
    }
    case 'form':
      return formSummary(question.schema, content) || 'Answered';
    default:
      return 'Answered';
  }
}
