import { context, propagation, ROOT_CONTEXT, type Context } from '@opentelemetry/api';

/**
 * A trace's context as it travels in a value between processes: W3C Trace Context's
 * `traceparent` (and `tracestate`), as the configured propagator writes them.
 */
export type TraceCarrier = Record<string, string>;

/** The carrier of `from` (the active context by default); undefined when there is nothing to carry. */
export function carrierOf(from: Context = context.active()): TraceCarrier | undefined {
  const carrier: TraceCarrier = {};
  propagation.inject(from, carrier);
  return Object.keys(carrier).length > 0 ? carrier : undefined;
}

/** The context a carrier names, to start the receiving side's spans under; the root without one. */
export function contextOf(carrier: unknown): Context {
  if (typeof carrier !== 'object' || carrier === null) return ROOT_CONTEXT;
  const fields: TraceCarrier = {};
  for (const [key, value] of Object.entries(carrier)) if (typeof value === 'string') fields[key] = value;
  return propagation.extract(ROOT_CONTEXT, fields);
}
