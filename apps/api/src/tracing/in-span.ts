import { context, type Attributes, type Context, type SpanKind } from '@opentelemetry/api';
import { markThrown } from './span-outcome';
import { contextOf } from './trace-carrier';
import { tracer } from './tracer';
import { tracingStatus } from './tracing-sdk';

/** What a span is started with. */
export interface SpanOptions {
  kind?: SpanKind;
  attributes?: Attributes;
}

/**
 * Runs `work` as the active span `name` under `parent` (the active context by default), which
 * ends when `work` settles; what it throws marks the span failed. With tracing off, `work` alone.
 *
 * @example
 * await inSpan(`command ${kind}`, { attributes }, () => forwarder.run(...));
 */
export function inSpan<T>(
  name: string,
  options: SpanOptions,
  work: () => Promise<T>,
  parent: Context = context.active(),
): Promise<T> {
  if (!tracingStatus().on) return work();
  return tracer.startActiveSpan(name, options, parent, async (span) => {
    try {
      return await work();
    } catch (error) {
      markThrown(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/**
 * `inSpan`, continuing the trace `carrier` names (what another process sent: a forwarded
 * command, a job's data), or starting one of its own when it names none.
 *
 * @example
 * await continuedSpan('conversation.compact', { kind: SpanKind.CONSUMER }, job.data.trace, () => run(job));
 */
export function continuedSpan<T>(
  name: string,
  options: SpanOptions,
  carrier: unknown,
  work: () => Promise<T>,
): Promise<T> {
  return inSpan(name, options, work, contextOf(carrier));
}
