import { trace, type Tracer } from '@opentelemetry/api';

/**
 * The tracer of the product's own spans. `@opentelemetry/api`'s: a no-op until the SDK registers a
 * provider (tracing-sdk.ts), which it does before the app loads, or never.
 */
export const tracer: Tracer = trace.getTracer('sweatpants');
