import { randomBytes } from 'node:crypto';

import type {
  AuthResponse,
  CompactionList,
  Conversation,
  ElicitAction,
  FsckReport,
  HeadMove,
  Json,
  NodeAndHead,
  PathResponse,
  ReflogPage,
  TreePage,
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

/** Sends one request to an api process; never throws for an HTTP status, only for a dead socket. */
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

/** Throws with the route and the answer when the status is not the expected one. */
function expect<T>(answer: HttpAnswer<T | ErrorAnswer>, status: number, what: string): T {
  if (answer.status !== status) {
    throw new Error(`${what}: expected ${status}, got ${answer.status} ${JSON.stringify(answer.body)}`);
  }
  return answer.body as T;
}

/** An account signed in on the cluster, with the routes of PROTOCOL.md the suite drives. */
export class ApiUser {
  constructor(
    readonly baseUrl: string,
    readonly token: string,
    readonly userId: string,
    readonly email: string,
  ) {}

  /** Registers a fresh account (a random email unless one is given). */
  static async register(baseUrl: string, email = `rel-${randomBytes(6).toString('hex')}@example.com`) {
    const answer = await request<AuthResponse | ErrorAnswer>(baseUrl, 'POST', '/api/auth/register', {
      body: { email, password: 'reliability-password', displayName: 'Reliability' },
    });
    const auth = expect<AuthResponse>(answer, 201, 'register');
    return new ApiUser(baseUrl, auth.token, auth.user.id, email);
  }

  /** The same account talking to another api process. */
  on(baseUrl: string): ApiUser {
    return new ApiUser(baseUrl, this.token, this.userId, this.email);
  }

  call<T>(method: string, path: string, body?: unknown): Promise<HttpAnswer<T | ErrorAnswer>> {
    return request<T | ErrorAnswer>(this.baseUrl, method, path, { token: this.token, body });
  }

  async createConversation(agent: 'tidying' | 'concierge' = 'tidying'): Promise<Conversation> {
    return expect(await this.call<Conversation>('POST', '/api/conversations', { agent }), 201, 'create');
  }

  async conversation(id: string): Promise<Conversation> {
    return expect(await this.call<Conversation>('GET', `/api/conversations/${id}`), 200, 'conversation');
  }

  async path(id: string, at = 'HEAD'): Promise<PathResponse> {
    const q = encodeURIComponent(at);
    return expect(await this.call<PathResponse>('GET', `/api/conversations/${id}/path?at=${q}`), 200, 'path');
  }

  /** Every node of the conversation, following the tree's cursor to the end. */
  async tree(id: string): Promise<TreePage['nodes']> {
    const nodes: TreePage['nodes'] = [];
    let after: string | null = null;
    do {
      const cursor: string = after === null ? '' : `&after=${encodeURIComponent(after)}`;
      const page: TreePage = expect(
        await this.call<TreePage>('GET', `/api/conversations/${id}/tree?limit=500${cursor}`),
        200,
        'tree',
      );
      nodes.push(...page.nodes);
      after = page.next;
    } while (after !== null);
    return nodes;
  }

  async reflog(id: string): Promise<ReflogPage['entries']> {
    const entries: ReflogPage['entries'] = [];
    let before: string | null = null;
    do {
      const cursor: string = before === null ? '' : `&before=${encodeURIComponent(before)}`;
      const page: ReflogPage = expect(
        await this.call<ReflogPage>('GET', `/api/conversations/${id}/reflog?limit=200${cursor}`),
        200,
        'reflog',
      );
      entries.push(...page.entries);
      before = page.next;
    } while (before !== null);
    return entries;
  }

  sendMessage(id: string, text: string, expectedHead?: string) {
    return this.call<NodeAndHead>('POST', `/api/conversations/${id}/messages`, { text, expectedHead });
  }

  respond(id: string, elicitId: string, action: ElicitAction, content?: Json) {
    const path = `/api/conversations/${id}/elicits/${encodeURIComponent(elicitId)}/response`;
    return this.call<NodeAndHead>('POST', path, { action, content });
  }

  rewind(id: string, to: string, expectedHead?: string) {
    return this.call<HeadMove>('POST', `/api/conversations/${id}/rewind`, { to, expectedHead });
  }

  recover(id: string, reflogId: string) {
    return this.call<HeadMove>('POST', `/api/conversations/${id}/recover`, { reflogId });
  }

  edit(id: string, nodeId: string, text: string, expectedHead?: string) {
    return this.call<NodeAndHead>('POST', `/api/conversations/${id}/nodes/${nodeId}/edit`, {
      text,
      expectedHead,
    });
  }

  compact(id: string) {
    return this.call<{ jobId: string }>('POST', `/api/conversations/${id}/compact`);
  }

  async compactions(id: string): Promise<CompactionList> {
    const answer = await this.call<CompactionList>('GET', `/api/conversations/${id}/compactions`);
    return expect(answer, 200, 'compactions');
  }

  /** The admin route; the account must be listed in ADMIN_EMAILS. */
  async fsck(id: string): Promise<FsckReport> {
    return expect(await this.call<FsckReport>('GET', `/api/admin/fsck/${id}`), 200, 'fsck');
  }
}
