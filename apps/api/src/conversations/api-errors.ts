import type { RunnerError } from '@sweatpants/agent-runtime/host';
import type { Result } from '@sweatpants/domain';
import type { StoreError } from '@sweatpants/tree-store';
import { ApiError } from '../errors/api-error';

/**
 * A store failure as PROTOCOL.md's error. The store names a bad ref `ref`; `refField` renames it
 * to the field the client sent it in (`at`, `to`, `nodeId`). A conflict carries `details.head`.
 */
export function storeError(error: StoreError, refField = 'ref'): ApiError {
  switch (error.code) {
    case 'not_found':
      return new ApiError('not_found', error.message);
    case 'conflict':
      return new ApiError('conflict', error.message, { head: error.head });
    case 'invalid_request':
      return new ApiError(
        'invalid_request',
        error.message,
        (error.details ?? [{ field: refField, message: error.message }]).map((p) =>
          p.field === 'ref' ? { ...p, field: refField } : p,
        ),
      );
  }
}

/** The value of a store result, or its failure thrown as the matching ApiError. */
export function unwrap<T>(result: Result<T, StoreError>, refField?: string): T {
  if (!result.ok) throw storeError(result.error, refField);
  return result.value;
}

/** A runner's refusal as PROTOCOL.md's error; a conflict names where HEAD is now. */
export function runnerError(error: RunnerError, head: string | undefined): ApiError {
  switch (error.code) {
    case 'not_found':
      return new ApiError('not_found', error.message);
    case 'conflict':
      return new ApiError('conflict', error.message, { head });
    case 'invalid_request':
      return new ApiError(
        'invalid_request',
        error.message,
        error.problems ?? [{ field: 'content', message: error.message }],
      );
  }
}
