import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** An attribute's value as OTLP carries it (a string, number, boolean, or an array of those). */
export type AttributeValue = string | number | boolean | AttributeValue[];

/** A span as it arrived, whichever protocol carried it. */
export interface ReceivedSpan {
  /** the resource's service.name */
  service: string;
  traceId: string;
  spanId: string;
  /** '' for a root span */
  parentSpanId: string;
  name: string;
  /** OTLP's SpanKind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer */
  kind: number;
  startNs: bigint;
  endNs: bigint;
  attributes: Record<string, AttributeValue>;
  /** which of OTLP/HTTP's encodings carried it */
  protocol: 'http/json' | 'http/protobuf';
  /** the export request's headers (OTEL_EXPORTER_OTLP_HEADERS end up here) */
  headers: Record<string, string | string[] | undefined>;
}

/**
 * A collector of our own for the specs: a plain HTTP server that accepts OTLP/HTTP's
 * `POST /v1/traces` in both encodings the exporters speak, http/json (parsed as JSON) and
 * http/protobuf (read with the small protobuf wire reader below, following
 * opentelemetry-proto's trace.proto field numbers), and keeps every span it was sent.
 */
export interface OtlpReceiver {
  /** what OTEL_EXPORTER_OTLP_ENDPOINT is set to */
  readonly endpoint: string;
  readonly spans: ReceivedSpan[];
  close(): Promise<void>;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const server: Server = createServer((request, response) => {
    void readBody(request).then((body) => {
      if (request.method !== 'POST' || request.url !== '/v1/traces') {
        response.writeHead(404).end();
        return;
      }
      const json = (request.headers['content-type'] ?? '').includes('json');
      const received = json ? fromJson(JSON.parse(body.toString('utf8'))) : fromProtobuf(body);
      spans.push(...received.map((span) => ({ ...span, headers: request.headers })));
      // An empty ExportTraceServiceResponse in the request's own encoding: all accepted.
      response.writeHead(200, { 'content-type': json ? 'application/json' : 'application/x-protobuf' });
      response.end(json ? '{}' : undefined);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    spans,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

// --- http/json: OTLP's JSON mapping of the protobuf messages (ids as hex, 64-bit ints as strings)

interface JsonAnyValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string | number;
  doubleValue?: number;
  arrayValue?: { values?: JsonAnyValue[] };
}
interface JsonKeyValue {
  key: string;
  value: JsonAnyValue;
}
interface JsonSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string | number;
  endTimeUnixNano: string | number;
  attributes?: JsonKeyValue[];
}
interface JsonRequest {
  resourceSpans?: {
    resource?: { attributes?: JsonKeyValue[] };
    scopeSpans?: { spans?: JsonSpan[] }[];
  }[];
}

/** A span as a request's body holds it; the request's headers are added where it arrived. */
type DecodedSpan = Omit<ReceivedSpan, 'headers'>;

function fromJson(request: JsonRequest): DecodedSpan[] {
  return (request.resourceSpans ?? []).flatMap((resourceSpans) => {
    const service = String(jsonAttributes(resourceSpans.resource?.attributes)['service.name'] ?? '');
    return (resourceSpans.scopeSpans ?? []).flatMap((scope) =>
      (scope.spans ?? []).map((span): DecodedSpan => ({
        service,
        traceId: span.traceId,
        spanId: span.spanId,
        parentSpanId: span.parentSpanId ?? '',
        name: span.name,
        kind: span.kind,
        startNs: BigInt(span.startTimeUnixNano),
        endNs: BigInt(span.endTimeUnixNano),
        attributes: jsonAttributes(span.attributes),
        protocol: 'http/json',
      })),
    );
  });
}

function jsonAttributes(list: JsonKeyValue[] = []): Record<string, AttributeValue> {
  return Object.fromEntries(list.map(({ key, value }) => [key, jsonValue(value)]));
}

function jsonValue(value: JsonAnyValue): AttributeValue {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  return (value.arrayValue?.values ?? []).map(jsonValue);
}

// --- http/protobuf: the protobuf wire format, read field by field

type Field = { number: number; varint?: bigint; bytes?: Buffer; fixed?: bigint };

function fields(buffer: Buffer): Field[] {
  const out: Field[] = [];
  let at = 0;
  const varint = (): bigint => {
    let value = 0n;
    for (let shift = 0n; ; shift += 7n) {
      const byte = buffer[at++]!;
      value |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return value;
    }
  };
  while (at < buffer.length) {
    const key = Number(varint());
    const number = key >>> 3;
    switch (key & 7) {
      case 0:
        out.push({ number, varint: varint() });
        break;
      case 1:
        out.push({ number, fixed: buffer.readBigUInt64LE(at) });
        at += 8;
        break;
      case 2: {
        const length = Number(varint());
        out.push({ number, bytes: buffer.subarray(at, at + length) });
        at += length;
        break;
      }
      case 5:
        out.push({ number, fixed: BigInt(buffer.readUInt32LE(at)) });
        at += 4;
        break;
      default:
        throw new Error(`not protobuf: wire type ${key & 7} at byte ${at}`);
    }
  }
  return out;
}

const each = (list: Field[], number: number): Buffer[] =>
  list.filter((f) => f.number === number && f.bytes).map((f) => f.bytes!);
const one = (list: Field[], number: number): Field | undefined => list.find((f) => f.number === number);

/** ExportTraceServiceRequest: resource_spans = 1 → resource = 1, scope_spans = 2 → spans = 2. */
function fromProtobuf(body: Buffer): DecodedSpan[] {
  return each(fields(body), 1).flatMap((resourceSpansBytes) => {
    const resourceSpans = fields(resourceSpansBytes);
    const resource = each(resourceSpans, 1)[0];
    const service = String(protoAttributes(resource ? each(fields(resource), 1) : [])['service.name'] ?? '');
    return each(resourceSpans, 2).flatMap((scope) =>
      each(fields(scope), 2).map((s) => protoSpan(s, service)),
    );
  });
}

/** Span: trace_id 1, span_id 2, parent_span_id 4, name 5, kind 6, start 7, end 8, attributes 9. */
function protoSpan(bytes: Buffer, service: string): DecodedSpan {
  const span = fields(bytes);
  const hex = (n: number) => one(span, n)?.bytes?.toString('hex') ?? '';
  return {
    service,
    traceId: hex(1),
    spanId: hex(2),
    parentSpanId: hex(4),
    name: one(span, 5)?.bytes?.toString('utf8') ?? '',
    kind: Number(one(span, 6)?.varint ?? 0n),
    startNs: one(span, 7)?.fixed ?? 0n,
    endNs: one(span, 8)?.fixed ?? 0n,
    attributes: protoAttributes(each(span, 9)),
    protocol: 'http/protobuf',
  };
}

/** KeyValue: key 1, value 2 (AnyValue: string 1, bool 2, int 3, double 4, array 5 of values 1). */
function protoAttributes(keyValues: Buffer[]): Record<string, AttributeValue> {
  return Object.fromEntries(
    keyValues.map((bytes) => {
      const keyValue = fields(bytes);
      const value = each(keyValue, 2)[0];
      return [one(keyValue, 1)?.bytes?.toString('utf8') ?? '', value ? protoValue(value) : ''];
    }),
  );
}

function protoValue(bytes: Buffer): AttributeValue {
  const [field] = fields(bytes);
  switch (field?.number) {
    case 1:
      return field.bytes?.toString('utf8') ?? '';
    case 2:
      return field.varint === 1n;
    case 3:
      return Number(BigInt.asIntN(64, field.varint ?? 0n));
    case 4:
      return field.fixed === undefined
        ? 0
        : Buffer.from(new BigUint64Array([field.fixed]).buffer).readDoubleLE(0);
    case 5:
      return each(fields(field.bytes ?? Buffer.alloc(0)), 1).map(protoValue);
    default:
      return '';
  }
}
