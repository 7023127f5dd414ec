import { ApiErrorResponseSchema, type ApiErrorBody } from '../error';
import {
  HTTP_CONTRACT,
  ROUTE_NAMES,
  type Empty,
  type HttpContract,
  type RouteInput,
  type RouteName,
  type RouteOutput,
} from './contract';
import type { HttpMethod, HttpRoute, Reply } from './route';

/** One request as the client hands it to a transport. */
export interface HttpRequest {
  method: Uppercase<HttpMethod>;
  /** the base URL, the path with its parameters filled in, and the query string */
  url: string;
  headers: Record<string, string>;
  /** a JSON value to send, when the route takes a body */
  body?: unknown;
  /** how the success answer is read: parsed JSON, the file as is, or text */
  responseType: 'json' | 'binary' | 'text';
}

/** Any HTTP answer; `body` is parsed JSON where the answer was JSON (an error's always is). */
export interface HttpResponse {
  status: number;
  body: unknown;
}

/**
 * Sends a request and resolves with whatever status came back; rejects only when no answer came
 * (the network, a timeout). The default sends with `fetch`; the web client passes one built on
 * Angular's HttpClient so its interceptors see every call.
 */
export type HttpTransport = (request: HttpRequest) => Promise<HttpResponse>;

/** The part of a fetch answer the default transport reads. */
export interface FetchAnswer {
  readonly status: number;
  text(): Promise<string>;
  blob(): Promise<unknown>;
}
/** The part of `fetch` the default transport uses: the domain names no platform beyond it. */
export type FetchFunction = (
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string },
) => Promise<FetchAnswer>;

/** What a file answer is when nobody said otherwise: a Blob, as far as the domain can name it. */
export interface BinaryBody {
  readonly size: number;
  arrayBuffer(): Promise<ArrayBuffer>;
}

/** A non-2xx answer, in PROTOCOL.md's error shape (made up, code `internal`, when it was not in it). */
export class HttpApiError extends Error {
  constructor(
    readonly route: RouteName,
    readonly status: number,
    readonly body: ApiErrorBody,
    /** the answer's body as it came, for a message that was not PROTOCOL.md's shape */
    readonly raw: unknown,
  ) {
    super(`${route}: ${status} ${body.code}: ${body.message}`);
    this.name = 'HttpApiError';
  }

  get code(): ApiErrorBody['code'] {
    return this.body.code;
  }
}

/** A 2xx answer that is not what the contract declares (only with `validate`). */
export class HttpContractError extends Error {
  constructor(
    readonly route: RouteName,
    readonly status: number,
    readonly problem: string,
    /** the answer's body as it came */
    readonly body: unknown,
  ) {
    super(`${route} answered ${status} outside the contract: ${problem}`);
    this.name = 'HttpContractError';
  }
}

export interface HttpClientOptions {
  /** prefixed to every path: '' for the same origin, or e.g. 'http://127.0.0.1:3000' */
  baseUrl?: string;
  /** sent as `Authorization: Bearer`; a function is asked on every call */
  token?: string | (() => string | undefined);
  transport?: HttpTransport;
  /**
   * Checks every success answer against the contract and throws HttpContractError when it
   * differs: `true` its status and its schema (tests, which hold the api to what it declares),
   * `'status'` only its status (cheap enough for load, and a success then has the route's status).
   */
  validate?: boolean | 'status';
}

type RouteCall<R extends HttpRoute, Binary> =
  Empty extends RouteInput<R>
    ? (input?: RouteInput<R>) => Promise<RouteOutput<R['reply'], Binary>>
    : (input: RouteInput<R>) => Promise<RouteOutput<R['reply'], Binary>>;

/** A method per route of the contract, typed by its request and response schemas. */
export type HttpClient<Binary = BinaryBody> = {
  readonly [N in RouteName]: RouteCall<HttpContract[N], Binary>;
};

/**
 * The HTTP api as typed methods, one per route of HTTP_CONTRACT. Resolves with the answer's body
 * (undefined for a 204) and rejects with HttpApiError for any non-2xx.
 *
 * @example
 * const api = createHttpClient({ baseUrl: 'http://127.0.0.1:3000', token });
 * const conversation = await api.createConversation({ body: { agent: 'tidying' } });
 * const { nodes } = await api.path({ params: { id: conversation.id }, query: { at: 'HEAD~1' } });
 */
export function createHttpClient<Binary = BinaryBody>(options: HttpClientOptions = {}): HttpClient<Binary> {
  const send = options.transport ?? fetchTransport();
  const call = async (name: RouteName, input: CallInput = {}): Promise<unknown> => {
    const route: HttpRoute = HTTP_CONTRACT[name];
    const token = typeof options.token === 'function' ? options.token() : options.token;
    const answer = await send({
      method: route.method.toUpperCase() as Uppercase<HttpMethod>,
      url: `${options.baseUrl ?? ''}${fillPath(route.path, input.params)}${queryString(input.query)}`,
      headers: token ? { authorization: `Bearer ${token}` } : {},
      ...(route.body ? { body: input.body ?? {} } : {}),
      responseType: responseType(route.reply),
    });
    if (answer.status < 200 || answer.status > 299) throw apiError(name, answer);
    if (options.validate) check(name, route, answer, options.validate);
    return route.reply.kind === 'empty' ? undefined : answer.body;
  };
  // One untyped dispatcher behind every method: the types come from the contract, per route.
  return Object.fromEntries(
    ROUTE_NAMES.map((name) => [name, (input?: CallInput) => call(name, input)]),
  ) as unknown as HttpClient<Binary>;
}

interface CallInput {
  params?: Record<string, string>;
  query?: Record<string, unknown>;
  body?: unknown;
}

const responseType = (reply: Reply): HttpRequest['responseType'] =>
  reply.kind === 'binary' ? 'binary' : reply.kind === 'text' ? 'text' : 'json';

function fillPath(path: string, params: Record<string, string> = {}): string {
  return path.replace(/:(\w+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined || value === '') throw new Error(`${path}: no value for :${name}`);
    return encodeURIComponent(value);
  });
}

/** Absent and empty values are left out, so an unset filter is not sent as `q=`. */
function queryString(query: Record<string, unknown> = {}): string {
  const pairs = Object.entries(query)
    .filter(([, value]) => value !== undefined && value !== null && value !== '')
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`);
  return pairs.length > 0 ? `?${pairs.join('&')}` : '';
}

function apiError(name: RouteName, answer: HttpResponse): HttpApiError {
  const parsed = ApiErrorResponseSchema.safeParse(answer.body);
  const body: ApiErrorBody = parsed.success
    ? parsed.data.error
    : { code: 'internal', message: `The server answered ${answer.status}` };
  return new HttpApiError(name, answer.status, body, answer.body);
}

function check(name: RouteName, route: HttpRoute, answer: HttpResponse, validate: true | 'status'): void {
  if (answer.status !== route.status) {
    throw new HttpContractError(name, answer.status, `the contract says ${route.status}`, answer.body);
  }
  if (validate === 'status' || route.reply.kind !== 'json') return;
  const parsed = route.reply.schema.safeParse(answer.body);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`);
    throw new HttpContractError(name, answer.status, issues.slice(0, 5).join('; '), answer.body);
  }
}

/**
 * Sends with `fetch` (the global one unless given): JSON in, and the answer's body parsed as JSON
 * whenever it is not a file that arrived (an error is JSON whatever the route answers).
 */
export function fetchTransport(fetchImpl?: FetchFunction): HttpTransport {
  return async (request) => {
    const doFetch = fetchImpl ?? (globalThis as unknown as { fetch: FetchFunction }).fetch;
    const headers = { ...request.headers };
    if (request.body !== undefined) headers['content-type'] = 'application/json';
    const res = await doFetch(request.url, {
      method: request.method,
      headers,
      ...(request.body !== undefined ? { body: JSON.stringify(request.body) } : {}),
    });
    const ok = res.status >= 200 && res.status <= 299;
    if (ok && request.responseType === 'binary') return { status: res.status, body: await res.blob() };
    const raw = await res.text();
    if (ok && request.responseType === 'text') return { status: res.status, body: raw };
    return { status: res.status, body: parseJson(raw) };
  };
}

/** A body that is not JSON (a proxy's error page) is kept as text rather than thrown on. */
function parseJson(raw: string): unknown {
  if (raw === '') return undefined;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}
