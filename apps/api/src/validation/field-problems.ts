import type { FieldProblem } from '@sweatpants/domain';
import type * as z from 'zod';
import { ApiError } from '../errors/api-error';

/** Each zod issue as PROTOCOL.md's 400 names it: the field's dotted path (or `body`) and why. */
export function fieldProblems(error: z.ZodError, whole = 'body'): FieldProblem[] {
  return error.issues.map((issue) => ({
    field: issue.path.length > 0 ? issue.path.map(String).join('.') : whole,
    message: issue.message,
  }));
}

/** The 400 `invalid_request` for these problems, its message naming every bad field. */
export function invalidRequest(problems: FieldProblem[]): ApiError {
  const summary = problems.map((p) => `${p.field}: ${p.message}`).join('; ');
  return new ApiError('invalid_request', `invalid request: ${summary}`, problems);
}
