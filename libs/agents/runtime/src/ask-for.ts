import type { ElicitSpec, Json, OffScriptContent } from '@sweatpants/domain';
import type { Operation } from 'effection';
import * as z from 'zod';
import { Agent } from './primitives';

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
  const answer = yield* Agent.operations.elicit({
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

/** How a form was answered: its content typed and checked by the form's schema. */
export type FormAnswer<C extends z.ZodObject> =
  | { action: 'accept'; content: z.infer<C> }
  | { action: 'decline' | 'cancel' | 'denied'; timedOut?: true }
  | { action: 'other'; content: OffScriptContent }
  | { action: 'invalid'; problems: string[] };

/**
 * Asks for a `form` (MCP's elicitation forms): a flat object of strings, numbers, booleans and
 * enums, given as a zod object. Its JSON schema goes to the client, which draws the fields; the
 * accepted content is checked here against the same schema, the receiver's check the form type
 * leaves to it, and an answer that does not fit comes back as `invalid` with what was wrong.
 *
 * @example
 * const answer = yield* askForm('A little about it', z.object({
 *   condition: z.enum(['like new', 'good', 'worn']).describe('Condition'),
 *   bags: z.number().int().min(1).max(10).describe('How many bags'),
 * }));
 * if (answer.action === 'accept') yield* notify(`${answer.content.bags} bags`);
 */
export function* askForm<C extends z.ZodObject>(
  message: string,
  content: C,
  options: { timeoutMs?: number; onProgress?: (payload: Json) => void } = {},
): Operation<FormAnswer<C>> {
  const schema = z.toJSONSchema(content, { target: 'draft-7' }) as { [key: string]: Json };
  delete schema['$schema'];
  const answer = yield* Agent.operations.elicit({ type: 'form', message, payload: {}, schema, ...options });
  if (answer.action !== 'accept') return answer as FormAnswer<C>;
  const parsed = content.safeParse(answer.content);
  if (parsed.success) return { action: 'accept', content: parsed.data };
  return {
    action: 'invalid',
    problems: parsed.error.issues.map((i) => `${i.path.join('.') || '(form)'}: ${i.message}`),
  };
}
