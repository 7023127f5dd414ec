import { type ElicitPayload, type ElicitType, ElicitTypes, type Json } from '@sweatpants/domain';

/**
 * What a widget renders: an elicit, a question inside a `group`, or a `choose` option's reveal.
 * The three share type, message and payload; only a top-level elicit has an id to answer.
 */
export interface ElicitQuestion {
  type: string;
  message: string;
  payload: unknown;
  schema?: { [key: string]: Json };
}

/** The payload checked against libs/domain's schema for its type; null when it does not fit. */
export function payloadOf<T extends ElicitType>(type: T, question: ElicitQuestion): ElicitPayload<T> | null {
  const parsed = ElicitTypes[type].payload.safeParse(question.payload);
  return parsed.success ? (parsed.data as ElicitPayload<T>) : null;
}
