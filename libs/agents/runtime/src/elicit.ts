import type { ElicitSpec, ElicitType, Json } from '@sweatpants/domain';
import type { Operation } from 'effection';
import type * as z from 'zod';
import { askFor, type AnswerOf } from './ask-for';
import { Agent, type ElicitInput, type Elicited } from './primitives';

/** What a question of a declared type may say besides its type: all of it optional, as the seed asks. */
export interface DeclaredQuestion<P extends z.ZodType> {
  /** what the person reads; the type's description (or name) when absent */
  message?: string;
  /** the type's input; an empty object when absent */
  payload?: z.infer<P>;
  timeoutMs?: number;
  onProgress?: (payload: Json) => void;
}

/**
 * The `elicit` primitive (seed 004): asks the person, through whatever middleware and
 * implementation is in force, and waits for the answer. Asked with a request (a built-in type, its
 * message and payload), it answers as the wire does; asked with a type declared by `createElicit`,
 * as the seed writes it (`yield* elicit(confirmationElicit)`), it is `askFor`: the payload is
 * checked, and an accepted answer's content is typed by the declaration.
 *
 * @example
 * const answer = yield* elicit({ type: 'location', message: 'Near where?', payload: { accuracy: 'low' } });
 * if (answer.action !== 'accept') return Ok({ item, located: false });
 * const confirmation = yield* elicit(confirmationElicit);
 * if (confirmation.action === 'decline') return Err(new Error('user_declined'));
 */
export function elicit<T extends ElicitType>(request: ElicitInput<T>): Operation<Elicited>;
export function elicit<P extends z.ZodType, C extends z.ZodType>(
  spec: ElicitSpec<P, C>,
  question?: DeclaredQuestion<P>,
): Operation<AnswerOf<C>>;
export function elicit(
  asked: ElicitInput | ElicitSpec,
  question: DeclaredQuestion<z.ZodType> = {},
): Operation<Elicited | AnswerOf<z.ZodType>> {
  if ('type' in asked) return Agent.operations.elicit(asked);
  const { message, payload, ...rest } = question;
  return askFor(asked, {
    message: message ?? asked.description ?? asked.name,
    payload: payload ?? {},
    ...rest,
  });
}
