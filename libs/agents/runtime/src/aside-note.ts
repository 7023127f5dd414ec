import { JsonSchema, type ElicitRequest } from '@sweatpants/domain';
import * as z from 'zod';
import { SET_QUESTION_ASIDE } from './set-question-aside';

/**
 * What a side quest's model is told about the question the words were said at. Its own history
 * does not show it (the call that asked it has no result yet, so the history leaves the call out),
 * and without this a model answers the words as a new request: it asks the question again from a
 * tool of its own, or walks the whole flow inside the side quest. Sent in the request's notes, so
 * the prompt and the history stay cacheable. An agent may say it its own way (`asideNote` of its
 * definition: the concierge names its card's options).
 */

/** The note's line that names the waiting question, read back by the offline rules. */
export const WAITING_QUESTION_LINE = 'Waiting question: ';

const WaitingQuestion = z.object({
  type: z.string(),
  message: z.string(),
  /** a form's fields, so that what the words left out can be named */
  schema: z.record(z.string(), JsonSchema).optional(),
});

/** The waiting question as the note names it. */
export type WaitingQuestion = z.infer<typeof WaitingQuestion>;

/**
 * The runtime's note for a side quest at `question`.
 *
 * @example
 * const notes = aside ? (agent.asideNote ?? waitingQuestionNote)(aside.question) : undefined;
 */
export function waitingQuestionNote(question: ElicitRequest): string {
  const waiting: WaitingQuestion = {
    type: question.type,
    message: question.message,
    ...(question.type === 'form' && question.schema ? { schema: question.schema } : {}),
  };
  return [
    'A question of yours is waiting for the user, and they typed words of their own instead of',
    'answering it. Reply to their words in a sentence or two. Do not ask the question again, nor',
    'call the tool that asked it: the question is shown again right after your reply, and they',
    `answer it there. When they do not want to answer it, call ${SET_QUESTION_ASIDE}; with all: true`,
    'when they want to stop altogether.',
    `${WAITING_QUESTION_LINE}${JSON.stringify(waiting)}`,
  ].join('\n');
}

/**
 * The waiting question a side quest's request names, if it names one: in its notes, which the
 * offline model reads as the end of the system prompt.
 */
export function waitingQuestionIn(text: string | undefined): WaitingQuestion | undefined {
  const line = new RegExp(`^${WAITING_QUESTION_LINE}(.+)$`, 'm').exec(text ?? '')?.[1];
  if (!line) return undefined;
  try {
    return WaitingQuestion.safeParse(JSON.parse(line)).data;
  } catch {
    return undefined;
  }
}
