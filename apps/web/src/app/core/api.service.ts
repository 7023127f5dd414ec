import { HttpClient, HttpParams } from '@angular/common/http';
import { inject, Injectable } from '@angular/core';
import type {
  AdminConversationPage,
  AgentList,
  AdminReflogPage,
  AdminReflogQuery,
  AuthResponse,
  ChangePasswordRequest,
  CompactionList,
  Conversation,
  ConversationList,
  CreateConversationRequest,
  DeleteAccountRequest,
  EditRequest,
  ElicitResponseRequest,
  ForkRequest,
  ConversationUsage,
  FsckReport,
  GcQueued,
  GcRequest,
  GcRunList,
  HeadMove,
  LoginRequest,
  NodeAndHead,
  NodeResponse,
  PathResponse,
  RegisterRequest,
  ReflogPage,
  RegenerateRequest,
  RenameConversationRequest,
  RewindRequest,
  SendMessageRequest,
  StateResponse,
  TreeListingNode,
  TreePage,
  User,
} from '@sweatpants/domain';
import { firstValueFrom, type Observable } from 'rxjs';

import { toApiError } from './api-error';

/** How many tree nodes to ask for per page; the tree endpoint pages with `after`. */
const TREE_PAGE = 500;
/** A runaway guard: no conversation here has this many pages of nodes. */
const MAX_TREE_PAGES = 200;

type QueryValue = string | number | undefined;

/** The reads a conversation view needs, from the owner's routes or the admin's read-only ones. */
export interface ConversationReader {
  path(id: string, at?: string): Promise<PathResponse>;
  tree(id: string): Promise<TreeListingNode[]>;
  reflog(id: string, query?: { limit?: number; before?: string }): Promise<ReflogPage>;
}

/**
 * Every HTTP route of PROTOCOL.md, typed with libs/domain's request and response types. Calls
 * return promises and reject with an ApiError, so callers can show `error.describe()` as is.
 */
@Injectable({ providedIn: 'root' })
export class ApiService {
  private readonly http = inject(HttpClient);

  readonly owner: ConversationReader = {
    path: (id, at) => this.get<PathResponse>(`${conv(id)}/path`, { at }),
    tree: (id) => this.allTreePages(`${conv(id)}/tree`),
    reflog: (id, query = {}) => this.get<ReflogPage>(`${conv(id)}/reflog`, query),
  };

  readonly admin: ConversationReader = {
    path: (id, at) => this.get<PathResponse>(`${adminConv(id)}/path`, { at }),
    tree: (id) => this.allTreePages(`${adminConv(id)}/tree`),
    reflog: (id, query = {}) => this.get<ReflogPage>(`${adminConv(id)}/reflog`, query),
  };

  register(body: RegisterRequest): Promise<AuthResponse> {
    return this.call(this.http.post<AuthResponse>('/api/auth/register', body));
  }

  login(body: LoginRequest): Promise<AuthResponse> {
    return this.call(this.http.post<AuthResponse>('/api/auth/login', body));
  }

  me(): Promise<User> {
    return this.get<User>('/api/auth/me');
  }

  /** The agents this deployment runs, in the order they were registered. */
  agents(): Promise<AgentList> {
    return this.get<AgentList>('/api/agents');
  }

  /** The caller's conversations by last activity, most recent first; `q` matches titles. */
  listConversations(query: { q?: string; limit?: number; before?: string } = {}): Promise<ConversationList> {
    return this.get<ConversationList>('/api/conversations', query);
  }

  rename(id: string, body: RenameConversationRequest): Promise<Conversation> {
    return this.call(this.http.patch<Conversation>(conv(id), body));
  }

  createConversation(body: CreateConversationRequest): Promise<Conversation> {
    return this.call(this.http.post<Conversation>('/api/conversations', body));
  }

  conversation(id: string): Promise<Conversation> {
    return this.get<Conversation>(conv(id));
  }

  sendMessage(id: string, body: SendMessageRequest): Promise<NodeAndHead> {
    return this.call(this.http.post<NodeAndHead>(`${conv(id)}/messages`, body));
  }

  respond(id: string, elicitId: string, body: ElicitResponseRequest): Promise<NodeAndHead> {
    const url = `${conv(id)}/elicits/${encodeURIComponent(elicitId)}/response`;
    return this.call(this.http.post<NodeAndHead>(url, body));
  }

  state(id: string, at?: string): Promise<StateResponse> {
    return this.get<StateResponse>(`${conv(id)}/state`, { at });
  }

  node(id: string, nodeId: string): Promise<NodeResponse> {
    return this.get<NodeResponse>(`${conv(id)}/nodes/${encodeURIComponent(nodeId)}`);
  }

  rewind(id: string, body: RewindRequest): Promise<HeadMove> {
    return this.call(this.http.post<HeadMove>(`${conv(id)}/rewind`, body));
  }

  edit(id: string, nodeId: string, body: EditRequest): Promise<NodeAndHead> {
    const url = `${conv(id)}/nodes/${encodeURIComponent(nodeId)}/edit`;
    return this.call(this.http.post<NodeAndHead>(url, body));
  }

  /** Another answer to an assistant reply: a sibling branch (reflog action `regenerate`). */
  regenerate(id: string, nodeId: string, body: RegenerateRequest = {}): Promise<{ head: string }> {
    const url = `${conv(id)}/nodes/${encodeURIComponent(nodeId)}/regenerate`;
    return this.call(this.http.post<{ head: string }>(url, body));
  }

  cancel(id: string): Promise<{ head: string }> {
    return this.call(this.http.post<{ head: string }>(`${conv(id)}/cancel`, {}));
  }

  recover(id: string, reflogId: string): Promise<HeadMove> {
    return this.call(this.http.post<HeadMove>(`${conv(id)}/recover`, { reflogId }));
  }

  fork(id: string, body: Partial<ForkRequest>): Promise<Conversation> {
    return this.call(this.http.post<Conversation>(`${conv(id)}/fork`, body));
  }

  compact(id: string): Promise<{ jobId: string }> {
    return this.call(this.http.post<{ jobId: string }>(`${conv(id)}/compact`, {}));
  }

  compactions(id: string): Promise<CompactionList> {
    return this.get<CompactionList>(`${conv(id)}/compactions`);
  }

  archive(id: string): Promise<void> {
    return this.call(this.http.delete<void>(conv(id)));
  }

  adminReflog(query: Partial<AdminReflogQuery>): Promise<AdminReflogPage> {
    return this.get<AdminReflogPage>('/api/admin/reflog', query);
  }

  adminConversations(query: {
    userId?: string;
    limit?: number;
    before?: string;
  }): Promise<AdminConversationPage> {
    return this.get<AdminConversationPage>('/api/admin/conversations', query);
  }

  fsck(conversationId: string): Promise<FsckReport> {
    return this.get<FsckReport>(`/api/admin/fsck/${encodeURIComponent(conversationId)}`);
  }

  /** Any conversation, archived or not, read-only (admins only). */
  adminConversation(id: string): Promise<Conversation> {
    return this.get<Conversation>(`/api/admin/conversations/${encodeURIComponent(id)}`);
  }

  /** What a conversation's model calls cost, in tokens, over every branch (admins only). */
  adminUsage(conversationId: string): Promise<ConversationUsage> {
    return this.get<ConversationUsage>(
      `/api/admin/conversations/${encodeURIComponent(conversationId)}/usage`,
    );
  }

  /** Every token of the account so far stops working, this one included. */
  signOutEverywhere(): Promise<void> {
    return this.call(this.http.post<void>('/api/auth/sign-out-everywhere', null));
  }

  /** A new password; the answer carries a fresh token (earlier ones stop working). */
  changePassword(request: ChangePasswordRequest): Promise<AuthResponse> {
    return this.call(this.http.post<AuthResponse>('/api/account/password', request));
  }

  /** A stored photo's bytes (`GET /api/blobs/:sha256`), with the token an <img> could not send. */
  blob(sha256: string): Promise<Blob> {
    return this.call(this.http.get(`/api/blobs/${encodeURIComponent(sha256)}`, { responseType: 'blob' }));
  }

  /** Everything the account has, as the zip the api streams. */
  exportAccount(): Promise<Blob> {
    return this.call(this.http.get('/api/account/export', { responseType: 'blob' }));
  }

  /** The account and everything it owns go; the password confirms it. */
  deleteAccount(request: DeleteAccountRequest): Promise<void> {
    return this.call(this.http.delete<void>('/api/account', { body: request }));
  }

  /** Lets this browser open the job queue dashboard (a cookie scoped to its path). */
  openQueueDashboard(): Promise<void> {
    return this.call(this.http.post<void>('/api/admin/queues/session', null));
  }

  gcRuns(limit = 5): Promise<GcRunList> {
    return this.get<GcRunList>('/api/admin/gc', { limit });
  }

  runGc(request: GcRequest): Promise<GcQueued> {
    return this.call(this.http.post<GcQueued>('/api/admin/gc', request));
  }

  private async allTreePages(url: string): Promise<TreeListingNode[]> {
    const nodes: TreeListingNode[] = [];
    let after: string | undefined;
    for (let page = 0; page < MAX_TREE_PAGES; page++) {
      const answer = await this.get<TreePage>(url, { after, limit: TREE_PAGE });
      nodes.push(...answer.nodes);
      if (!answer.next) break;
      after = answer.next;
    }
    return nodes;
  }

  private get<T>(url: string, query: Record<string, QueryValue> = {}): Promise<T> {
    let params = new HttpParams();
    for (const [key, value] of Object.entries(query)) {
      if (value !== undefined && value !== '') params = params.set(key, String(value));
    }
    return this.call(this.http.get<T>(url, { params }));
  }

  private async call<T>(request: Observable<T>): Promise<T> {
    try {
      return await firstValueFrom(request);
    } catch (error: unknown) {
      throw toApiError(error);
    }
  }
}

const conv = (id: string): string => `/api/conversations/${encodeURIComponent(id)}`;
const adminConv = (id: string): string => `/api/admin/conversations/${encodeURIComponent(id)}`;
