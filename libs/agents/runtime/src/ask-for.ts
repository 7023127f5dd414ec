import type { ElicitSpec, Json, OffScriptContent } from '@sweatpants/domain';
import type { Operation } from 'effection';
import * as z from 'zod';
import { elicit } from './primitives';

/** How a question of a created type was answered, its content typed by the declaration. */
export type AnswerOf<C extends z.ZodType> =
  | { action: 'accept'; content: z.infer<C> }
  | { action: 'decline' | 'cancel' | 'denied'; timedOut?: true }
  | { action: 'other'; content: OffScriptContent };

/**
 * Asks a question of a type declared with createElicit (libs/domain). The payload is checked
 * against the declaration before anything is asked; the content's JSON schema goes along as the
 * elicit's `schema`, so a client with no widget of its own for the type draws a form from it. The
 * answer was checked against the declaration (content and actions) before it arrives here.
 *
 * @example
 * const answer = yield* askFor(Rating, { message: 'How was the session?', payload: { of: 'today' } });
 * if (answer.action === 'accept') yield* notify(`${answer.content.stars} stars`);
 */
export function* askFor<P extends z.ZodType, C extends z.ZodType>(
  spec: ElicitSpec<P, C>,
  question: {
    message: string;
    payload: z.infer<P>;
    timeoutMs?: number;
    onProgress?: (payload: Json) => void;
  },
): Operation<AnswerOf<C>> {
  const payload = spec.payload.parse(question.payload) as { [key: string]: Json };
  const schema = z.toJSONSchema(spec.content, { target: 'draft-7' }) as { [key: string]: Json };
  delete schema['$schema'];
  const answer = yield* elicit({
    // A created type travels as a name the registry knows; only code that looks it up handles it.
    type: spec.name as 'form',
    message: question.message,
    payload,
    schema,
    ...(question.timeoutMs !== undefined ? { timeoutMs: question.timeoutMs } : {}),
    ...(question.onProgress ? { onProgress: question.onProgress } : {}),
  });
  return answer as AnswerOf<C>;
}
