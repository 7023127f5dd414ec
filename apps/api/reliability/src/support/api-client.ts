import { randomBytes } from 'node:crypto';

import {
  createHttpClient,
  fetchTransport,
  HTTP_CONTRACT,
  HttpApiError,
  HttpContractError,
  type CompactionList,
  type Conversation,
  type ElicitAction,
  type FetchFunction,
  type FsckReport,
  type HttpClient,
  type Json,
  type PathResponse,
  type ReflogPage,
  type RouteName,
  type TreePage,
} from '@sweatpants/domain';

/** One HTTP answer: the status and the parsed JSON body (undefined when there was none). */
export interface HttpAnswer<T> {
  status: number;
  body: T;
}

/** What an error answer's body is, per PROTOCOL.md. */
export interface ErrorAnswer {
  error?: { code?: string; message?: string; details?: unknown };
}

/**
 * Sends one request to an api process as is (the fuzz scenario's malformed ones too); never throws
 * for an HTTP status, only for a dead socket.
 */
export async function request<T>(
  baseUrl: string,
  method: string,
  path: string,
  options: {
    token?: string;
    body?: unknown;
    rawBody?: string;
    contentType?: string;
    timeoutMs?: number;
  } = {},
): Promise<HttpAnswer<T>> {
  const headers: Record<string, string> = {};
  if (options.token) headers['authorization'] = `Bearer ${options.token}`;
  const body = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  if (body !== undefined) headers['content-type'] = options.contentType ?? 'application/json';
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers,
    body,
    signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
  });
  const text = await res.text();
  let parsed: unknown = undefined;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = { raw: text.slice(0, 200) };
  }
  return { status: res.status, body: parsed as T };
}

/**
 * libs/domain's typed client against one api process. A success is checked to have the route's
 * status (only the status: bodies are left unparsed under load), so the typed methods below can
 * report it; calls time out as `request`'s do.
 */
function typedClient(baseUrl: string, token?: string): HttpClient {
  const timed: FetchFunction = (url, init) => fetch(url, { ...init, signal: AbortSignal.timeout(30_000) });
  return createHttpClient({
    baseUrl,
    ...(token ? { token } : {}),
    transport: fetchTransport(timed),
    validate: 'status',
  });
}

/** A typed call as an HttpAnswer, for scenarios that judge each status (201, or a 409 under load). */
async function answerOf<T>(route: RouteName, sent: Promise<T>): Promise<HttpAnswer<T | ErrorAnswer>> {
  try {
    return { status: HTTP_CONTRACT[route].status, body: await sent };
  } catch (error: unknown) {
    if (error instanceof HttpApiError) return { status: error.status, body: error.raw as ErrorAnswer };
    if (error instanceof HttpContractError) return { status: error.status, body: error.body as T };
    throw error;
  }
}

/** An account signed in on the cluster, with the routes of PROTOCOL.md the suite drives. */
export class ApiUser {
  private readonly api: HttpClient;

  constructor(
    readonly baseUrl: string,
    readonly token: string,
    readonly userId: string,
    readonly email: string,
  ) {
    this.api = typedClient(baseUrl, token);
  }

  /** Registers a fresh account (a random email unless one is given). */
  static async register(baseUrl: string, email = `rel-${randomBytes(6).toString('hex')}@example.com`) {
    const auth = await typedClient(baseUrl).register({
      body: { email, password: 'reliability-password', displayName: 'Reliability' },
    });
    return new ApiUser(baseUrl, auth.token, auth.user.id, email);
  }

  /** Signs in to an account `register` made. */
  static async signIn(baseUrl: string, email: string) {
    const auth = await typedClient(baseUrl).login({ body: { email, password: 'reliability-password' } });
    return new ApiUser(baseUrl, auth.token, auth.user.id, email);
  }

  /** The same account talking to another api process. */
  on(baseUrl: string): ApiUser {
    return new ApiUser(baseUrl, this.token, this.userId, this.email);
  }

  /** Any request as is, for what the typed methods do not cover (or must not: malformed input). */
  call<T>(method: string, path: string, body?: unknown): Promise<HttpAnswer<T | ErrorAnswer>> {
    return request<T | ErrorAnswer>(this.baseUrl, method, path, { token: this.token, body });
  }

  createConversation(agent: 'tidying' | 'concierge' = 'tidying'): Promise<Conversation> {
    return this.api.createConversation({ body: { agent } });
  }

  conversation(id: string): Promise<Conversation> {
    return this.api.conversation({ params: { id } });
  }

  path(id: string, at = 'HEAD'): Promise<PathResponse> {
    return this.api.path({ params: { id }, query: { at } });
  }

  /** Every node of the conversation, following the tree's cursor to the end. */
  async tree(id: string): Promise<TreePage['nodes']> {
    const nodes: TreePage['nodes'] = [];
    let after: string | undefined;
    do {
      const page = await this.api.tree({ params: { id }, query: { limit: 500, after } });
      nodes.push(...page.nodes);
      after = page.next ?? undefined;
    } while (after !== undefined);
    return nodes;
  }

  async reflog(id: string): Promise<ReflogPage['entries']> {
    const entries: ReflogPage['entries'] = [];
    let before: string | undefined;
    do {
      const page = await this.api.reflog({ params: { id }, query: { limit: 200, before } });
      entries.push(...page.entries);
      before = page.next ?? undefined;
    } while (before !== undefined);
    return entries;
  }

  sendMessage(id: string, text: string, expectedHead?: string) {
    return answerOf('sendMessage', this.api.sendMessage({ params: { id }, body: { text, expectedHead } }));
  }

  respond(id: string, elicitId: string, action: ElicitAction, content?: Json) {
    return answerOf('respond', this.api.respond({ params: { id, elicitId }, body: { action, content } }));
  }

  rewind(id: string, to: string, expectedHead?: string) {
    return answerOf('rewind', this.api.rewind({ params: { id }, body: { to, expectedHead } }));
  }

  recover(id: string, reflogId: string) {
    return answerOf('recover', this.api.recover({ params: { id }, body: { reflogId } }));
  }

  edit(id: string, nodeId: string, text: string, expectedHead?: string) {
    return answerOf('edit', this.api.edit({ params: { id, nodeId }, body: { text, expectedHead } }));
  }

  compact(id: string) {
    return answerOf('compact', this.api.compact({ params: { id } }));
  }

  compactions(id: string): Promise<CompactionList> {
    return this.api.compactions({ params: { id } });
  }

  /** The admin route; the account must be listed in ADMIN_EMAILS. */
  fsck(id: string): Promise<FsckReport> {
    return this.api.fsck({ params: { conversationId: id } });
  }
}
