import { HttpErrorResponse } from '@angular/common/http';
import { type ApiErrorBody, ApiErrorResponseSchema } from '@sweatpants/domain';

/** A failed call, in PROTOCOL.md's error shape whatever went wrong, so every page shows it alike. */
export class ApiError extends Error {
  constructor(
    readonly body: ApiErrorBody,
    readonly status: number,
  ) {
    super(body.message);
    this.name = 'ApiError';
  }

  get code(): ApiErrorBody['code'] {
    return this.body.code;
  }

  /** The message with the bad fields the api listed, for a person to read. */
  describe(): string {
    const fields = fieldProblems(this.body.details);
    return fields.length > 0 ? `${this.body.message} (${fields.join('; ')})` : this.body.message;
  }
}

/** Turns whatever a call threw into an ApiError: an api error body, a network failure, or a bug. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof HttpErrorResponse) {
    const parsed = ApiErrorResponseSchema.safeParse(error.error);
    if (parsed.success) return new ApiError(parsed.data.error, error.status);
    if (error.status === 0) {
      return new ApiError({ code: 'internal', message: 'The api did not answer. Check your connection.' }, 0);
    }
    return new ApiError(
      { code: 'internal', message: `The api answered ${error.status} ${error.statusText}`.trim() },
      error.status,
    );
  }
  const message = error instanceof Error ? error.message : 'Something went wrong.';
  return new ApiError({ code: 'internal', message }, 0);
}

export function describeError(error: unknown): string {
  return toApiError(error).describe();
}

/** `details` of a 400 lists each bad field and why; its exact shape is the api's, so read it loosely. */
function fieldProblems(details: unknown): string[] {
  const list = Array.isArray(details)
    ? details
    : isRecord(details) && Array.isArray(details['fields'])
      ? details['fields']
      : isRecord(details) && Array.isArray(details['issues'])
        ? details['issues']
        : [];
  return list.flatMap((item: unknown) => {
    if (typeof item === 'string') return [item];
    if (!isRecord(item)) return [];
    const field = item['field'] ?? item['path'];
    const message = item['message'];
    if (typeof message !== 'string') return [];
    return [typeof field === 'string' && field ? `${field}: ${message}` : message];
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
