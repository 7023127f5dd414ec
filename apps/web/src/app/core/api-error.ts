import { HttpErrorResponse } from '@angular/common/http';
import { type ApiErrorBody, ApiErrorResponseSchema, HttpApiError, LINK_REFUSALS } from '@sweatpants/domain';

/**
 * Where an error happened, when that changes what it means to a person: a 401 on the sign-in form
 * is a wrong password, anywhere else an ended session.
 */
export type ErrorContext = 'sign-in' | 'sign-up' | 'passkey-sign-in';

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

  /** The error in plain words, said once: PROTOCOL's code and the bad fields of `details`. */
  describe(context?: ErrorContext): string {
    return plainWords(this.body, context);
  }
}

/** Turns whatever a call threw into an ApiError: an api error body, a network failure, or a bug. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof HttpApiError) return new ApiError(error.body, error.status);
  if (error instanceof HttpErrorResponse) {
    const parsed = ApiErrorResponseSchema.safeParse(error.error);
    if (parsed.success) return new ApiError(parsed.data.error, error.status);
    if (error.status === 0) {
      return new ApiError(
        { code: 'internal', message: 'The server did not answer. Check your connection.' },
        0,
      );
    }
    return new ApiError(
      { code: 'internal', message: `The server answered ${error.status} ${error.statusText}`.trim() },
      error.status,
    );
  }
  const message = error instanceof Error ? error.message : 'Something went wrong.';
  return new ApiError({ code: 'internal', message }, 0);
}

/** Whatever a call threw, as one plain sentence (or a few) for a person to read. */
export function describeError(error: unknown, context?: ErrorContext): string {
  return toApiError(error).describe(context);
}

/** The one place PROTOCOL.md's error codes and `details` fields become sentences. */
function plainWords(body: ApiErrorBody, context: ErrorContext | undefined): string {
  const fields = fieldProblems(body.details).map((p) => fieldSentence(p, context));
  switch (body.code) {
    case 'invalid_request':
      return fields.length > 0 ? fields.join(' ') : body.message;
    case 'unauthenticated':
      if (context === 'passkey-sign-in') {
        return 'That passkey was not accepted here. Try again, or sign in with your password.';
      }
      return context === 'sign-in'
        ? "That email and password don't match."
        : 'You are signed out. Sign in again to carry on.';
    case 'forbidden':
      return "You don't have permission to do that.";
    case 'not_found':
      return "Not found: it doesn't exist, or it isn't yours.";
    case 'conflict':
      if (context === 'sign-up' || fields.length > 0) {
        return fields.length > 0 ? fields.join(' ') : 'An account with this email already exists.';
      }
      return body.message;
    case 'too_large':
      return 'That is too large to send. Try something smaller.';
    case 'rate_limited':
      return 'Too many tries in a short time. Wait a moment, then try again.';
    case 'internal':
      return body.message;
  }
}

interface FieldProblem {
  field: string;
  message: string;
}

const TOO_SMALL = /too small|>=\s*1\b|at least 1\b|required|empty/i;
const TOO_BIG = /too big|<=|at most|too long/i;

/** A bad field of a 400 (or the taken email of a 409) as a sentence a person can act on. */
function fieldSentence({ field, message }: FieldProblem, context: ErrorContext | undefined): string {
  switch (field) {
    case 'email':
      if (/registered|exists|taken/i.test(message)) {
        return 'An account with this email already exists. Sign in instead.';
      }
      if (TOO_SMALL.test(message)) return 'Enter your email address.';
      if (TOO_BIG.test(message)) return 'That email address is too long.';
      return "That doesn't look like an email address.";
    case 'password':
      if (/not your password/.test(message)) return 'That is not your password.';
      if (/8/.test(message)) return 'Use at least 8 characters for the password.';
      if (TOO_SMALL.test(message)) {
        return context === 'sign-up' ? 'Use at least 8 characters for the password.' : 'Enter your password.';
      }
      if (TOO_BIG.test(message)) return 'That password is too long.';
      return `The password ${message}.`;
    case 'signIn':
      // Deleting an account without a password: its sign-in confirms it, while recent.
      return 'Your sign-in was too long ago. Sign in again to confirm it is you.';
    case 'currentPassword':
      if (TOO_SMALL.test(message)) return 'Enter your current password.';
      return 'That is not your current password.';
    case 'newPassword':
      if (/8/.test(message) || TOO_SMALL.test(message))
        return 'Use at least 8 characters for the new password.';
      if (TOO_BIG.test(message)) return 'That password is too long.';
      return `The new password ${message}.`;
    case 'token':
      // A mailed link's token (LINK_REFUSALS says why it was refused).
      if (message === LINK_REFUSALS.expired) return 'This link has expired. Ask for a new one.';
      if (message === LINK_REFUSALS.used)
        return 'This link was used already. Ask for a new one if you need it.';
      return "This link isn't one we sent. Check that all of it was copied, or ask for a new one.";
    case 'displayName':
      if (TOO_BIG.test(message)) return 'Use a shorter name (80 characters at most).';
      return 'Enter your name.';
    case 'name':
      // A personal access token's name (the only `name` a person types).
      if (TOO_BIG.test(message)) return 'Use a shorter name (100 characters at most).';
      return 'Give it a name.';
    case 'credential':
      // A passkey the browser made that the api would not take (a stale prompt, another site).
      return 'The passkey was not accepted. Try adding it again.';
    case 'title':
      if (TOO_BIG.test(message)) return 'Use a shorter title.';
      return 'Enter a title.';
    case 'text':
      if (TOO_BIG.test(message)) return 'That message is too long.';
      if (TOO_SMALL.test(message)) return 'Write something first.';
      return `The message ${message}.`;
    default:
      // photos.0, content.photos.1: the api checked the photo's bytes (photo-intake.ts).
      if (/(^|\.)photos\.\d+$/.test(field)) return `That photo ${message}.`;
      return field && field !== 'body' ? `${field}: ${message}` : message;
  }
}

/** `details` lists each bad field and why; its exact shape is the api's, so read it loosely. */
function fieldProblems(details: unknown): FieldProblem[] {
  const list = Array.isArray(details)
    ? details
    : isRecord(details) && Array.isArray(details['fields'])
      ? details['fields']
      : isRecord(details) && Array.isArray(details['issues'])
        ? details['issues']
        : [];
  return list.flatMap((item: unknown): FieldProblem[] => {
    if (typeof item === 'string') return [{ field: '', message: item }];
    if (!isRecord(item)) return [];
    const rawField = item['field'] ?? item['path'];
    const field = Array.isArray(rawField) ? rawField.map(String).join('.') : rawField;
    const message = item['message'];
    if (typeof message !== 'string') return [];
    return [{ field: typeof field === 'string' ? field : '', message }];
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
