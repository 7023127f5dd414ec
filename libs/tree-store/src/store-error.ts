import type { FieldProblem } from '@sweatpants/domain';

/**
 * The failures a store operation can end in. The codes are PROTOCOL.md's error codes, so the api
 * maps them to responses without translation.
 */
export type StoreError =
  | { code: 'not_found'; message: string }
  | { code: 'conflict'; message: string; head: string }
  | { code: 'invalid_request'; message: string; details?: FieldProblem[] };

export const notFound = (message: string): StoreError => ({ code: 'not_found', message });
export const conflict = (head: string): StoreError => ({
  code: 'conflict',
  message: 'HEAD moved since you last saw it',
  head,
});
export const invalid = (message: string, details?: FieldProblem[]): StoreError =>
  details ? { code: 'invalid_request', message, details } : { code: 'invalid_request', message };
