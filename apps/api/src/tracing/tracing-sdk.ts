import type * as Express from '@opentelemetry/instrumentation-express';
import type * as Http from '@opentelemetry/instrumentation-http';
import type * as IORedis from '@opentelemetry/instrumentation-ioredis';
import type * as Pg from '@opentelemetry/instrumentation-pg';
import type * as SdkNode from '@opentelemetry/sdk-node';

/** Whether this process exports spans, and where: what start-up says in the log. */
export type TracingStatus =
  | { on: false; reason: string }
  | {
      on: true;
      endpoint: string;
      protocol: string;
      serviceName: string;
      /** OTEL_GENAI_CAPTURE_CONTENT=true: prompts and replies go in model spans */
      captureContent: boolean;
    };

/** Requests that are not anyone's work: probes, scrapes and Socket.IO's transport. */
const UNTRACED_PATHS = ['/api/health', '/api/metrics', '/socket.io'];

let sdk: SdkNode.NodeSDK | undefined;
let status: TracingStatus = { on: false, reason: 'not started' };

/**
 * Starts OpenTelemetry's Node SDK when OTEL_EXPORTER_OTLP_ENDPOINT (or _TRACES_ENDPOINT) is set:
 * spans of HTTP/Express, pg and ioredis, and the product's own (commands, model calls, tools,
 * waits for a person, appends, jobs), exported over OTLP/HTTP. Everything else is read by the SDK
 * from the standard variables as the specification says (protocol, headers, service name,
 * sampler, batch delays). Must run before the modules it instruments are first required: the api
 * and the worker import it first (trace-api.ts, trace-worker.ts). Unset, nothing of the SDK is even loaded: the
 * product's spans go to `@opentelemetry/api`'s no-op tracer.
 *
 * Only traces: metrics stay Prometheus' (`/api/metrics`) and logs pino's, so the SDK is told to
 * make no metric reader and no log processor whatever OTEL_METRICS_EXPORTER/OTEL_LOGS_EXPORTER say.
 *
 * @example
 * // trace-api.ts, main.ts's first import: pg, ioredis and express load patched after it
 * startTracing(process.env, 'sweatpants-api');
 */
export function startTracing(env: NodeJS.ProcessEnv, defaultServiceName: string): TracingStatus {
  const off = offReason(env);
  if (off) return (status = { on: false, reason: off });
  // Required here, not imported: with tracing off none of the SDK is loaded, and with it on it
  // must patch before the app's own imports run, which an await would come after.
  const { NodeSDK } = require('@opentelemetry/sdk-node') as typeof SdkNode;
  const { HttpInstrumentation } = require('@opentelemetry/instrumentation-http') as typeof Http;
  const express = require('@opentelemetry/instrumentation-express') as typeof Express;
  const { PgInstrumentation } = require('@opentelemetry/instrumentation-pg') as typeof Pg;
  const { IORedisInstrumentation } = require('@opentelemetry/instrumentation-ioredis') as typeof IORedis;
  const serviceName = configuredServiceName(env) ?? defaultServiceName;
  sdk = new NodeSDK({
    // OTEL_SERVICE_NAME (or service.name in OTEL_RESOURCE_ATTRIBUTES) wins, as the SDK reads it.
    ...(configuredServiceName(env) ? {} : { serviceName }),
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (request) =>
          UNTRACED_PATHS.some((path) => (request.url ?? '').startsWith(path)),
      }),
      // Middleware layers (body parsing, guards' plumbing) would outnumber the spans that matter.
      new express.ExpressInstrumentation({ ignoreLayersType: [express.ExpressLayerType.MIDDLEWARE] }),
      // A query or a Redis call outside any trace (lease renewals, pub/sub) is not a trace of its own.
      new PgInstrumentation({ requireParentSpan: true }),
      new IORedisInstrumentation({ requireParentSpan: true }),
    ],
  });
  sdk.start();
  return (status = {
    on: true,
    endpoint: tracesEndpoint(env),
    protocol: protocolOf(env),
    serviceName,
    captureContent: env['OTEL_GENAI_CAPTURE_CONTENT']?.trim().toLowerCase() === 'true',
  });
}

/** What startTracing decided, for the start-up log and the product's spans. */
export function tracingStatus(): TracingStatus {
  return status;
}

/** The start-up line: whether tracing is on and where its spans go. */
export function describeTracing(current: TracingStatus = status): string {
  return current.on
    ? `tracing on: spans go to ${current.endpoint} over ${current.protocol} as service ${current.serviceName}` +
        (current.captureContent ? ', prompts and replies included' : ', without prompts and replies')
    : `tracing off: ${current.reason}`;
}

/** Exports the spans still batched and stops the SDK (at shutdown). */
export async function stopTracing(): Promise<void> {
  const stopping = sdk;
  sdk = undefined;
  await stopping?.shutdown();
}

function offReason(env: NodeJS.ProcessEnv): string | undefined {
  if (!given(env['OTEL_EXPORTER_OTLP_ENDPOINT']) && !given(env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT']))
    return 'OTEL_EXPORTER_OTLP_ENDPOINT unset';
  if (env['OTEL_SDK_DISABLED']?.trim().toLowerCase() === 'true') return 'OTEL_SDK_DISABLED=true';
  if (env['OTEL_TRACES_EXPORTER']?.trim() === 'none') return 'OTEL_TRACES_EXPORTER=none';
  return undefined;
}

function configuredServiceName(env: NodeJS.ProcessEnv): string | undefined {
  const named = given(env['OTEL_SERVICE_NAME']);
  if (named) return named;
  const fromAttributes = (env['OTEL_RESOURCE_ATTRIBUTES'] ?? '')
    .split(',')
    .map((pair) => pair.split('='))
    .find(([key]) => key?.trim() === 'service.name')?.[1];
  const attribute = given(fromAttributes);
  return attribute ? decodeURIComponent(attribute) : undefined;
}

/** Where the exporter sends, as the specification derives it (for the log line only). */
function tracesEndpoint(env: NodeJS.ProcessEnv): string {
  const traces = given(env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT']);
  if (traces) return traces;
  return `${(given(env['OTEL_EXPORTER_OTLP_ENDPOINT']) ?? '').replace(/\/+$/, '')}/v1/traces`;
}

function protocolOf(env: NodeJS.ProcessEnv): string {
  return (
    given(env['OTEL_EXPORTER_OTLP_TRACES_PROTOCOL']) ??
    given(env['OTEL_EXPORTER_OTLP_PROTOCOL']) ??
    'http/protobuf'
  );
}

/** A variable's value, trimmed; undefined when unset or blank (the specification treats both alike). */
function given(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}
