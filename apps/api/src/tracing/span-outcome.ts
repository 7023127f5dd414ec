import { SpanStatusCode, type Span } from '@opentelemetry/api';

/**
 * Marks `span` failed as the conventions say: status ERROR with the message, and `error.type`
 * (a model error's code, `tool_error`, or `exception` for something thrown).
 */
export function markFailed(span: Span, type: string, message: string): void {
  span.setAttribute('error.type', type);
  span.setStatus({ code: SpanStatusCode.ERROR, message });
}

/** Marks `span` failed by what was thrown in it. */
export function markThrown(span: Span, error: unknown): void {
  markFailed(span, 'exception', error instanceof Error ? error.message : String(error));
}
