import { SpanKind } from '@opentelemetry/api';
import { continuedSpan } from './in-span';
import { GEN_AI, SWEATPANTS } from './span-attributes';
import { carrierOf, type TraceCarrier } from './trace-carrier';

/** A job's data as queued: its payload, and the trace of whoever asked for it. */
export type Traced<P> = P & { trace?: TraceCarrier };

/** `payload` with the active trace context in it, so the job's span continues the asker's trace. */
export function withTrace<P extends object>(payload: P): Traced<P> {
  const trace = carrierOf();
  return trace ? { ...payload, trace } : payload;
}

/**
 * Runs a job as a CONSUMER span `<name>` under the trace its data carries (a compaction a turn or
 * a person asked for continues their trace); a job nobody's trace asked for (the gc schedule's)
 * starts one of its own.
 */
export function jobSpan<T>(name: string, jobId: string, data: object, work: () => Promise<T>): Promise<T> {
  const { trace, conversationId } = data as { trace?: unknown; conversationId?: unknown };
  const attributes = {
    [SWEATPANTS.jobName]: name,
    [SWEATPANTS.jobId]: jobId,
    ...(typeof conversationId === 'string' ? { [GEN_AI.conversationId]: conversationId } : {}),
  };
  return continuedSpan(name, { kind: SpanKind.CONSUMER, attributes }, trace, work);
}
