import * as z from 'zod';

/** PROTOCOL.md's error codes and the HTTP status each one goes with. */
export const ERROR_STATUS = {
  invalid_request: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  rate_limited: 429,
  internal: 500,
} as const;
export type ErrorCode = keyof typeof ERROR_STATUS;
export const ErrorCodeSchema = z.enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]);

/** `{ error: { code, message, details? } }`: every error of the HTTP api and every failed ack. */
export const ApiErrorBodySchema = z.object({
  code: ErrorCodeSchema,
  message: z.string(),
  details: z.unknown().optional(),
});
export type ApiErrorBody = z.infer<typeof ApiErrorBodySchema>;
export const ApiErrorResponseSchema = z.object({ error: ApiErrorBodySchema });
export type ApiErrorResponse = z.infer<typeof ApiErrorResponseSchema>;
