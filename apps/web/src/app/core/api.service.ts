import { HttpClient } from '@angular/common/http';
import { inject, Injectable } from '@angular/core';
import {
  createHttpClient,
  type AccessTokenList,
  type AccountEventPage,
  type AccountEventsQuery,
  type AccountSessionList,
  type AddPasskeyRequest,
  type AuthenticationResponseJSON,
  type Passkey,
  type PasskeyList,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type AdminConversationPage,
  type PersonSpend,
  type SpendLimit,
  type SpendReport,
  type AdminReflogPage,
  type AdminReflogQuery,
  type AgentList,
  type AuthResponse,
  type ChangeEmailRequest,
  type ChangePasswordRequest,
  type CompactionList,
  type Conversation,
  type ConversationList,
  type ConversationUsage,
  type TurnWaterfalls,
  type CreateAccessTokenRequest,
  type CreateConversationRequest,
  type CreatedAccessToken,
  type AccountDeletionInfo,
  type DeleteAccountRequest,
  type EditRequest,
  type ElicitResponseRequest,
  type ForkRequest,
  type FsckReport,
  type GcQueued,
  type GcRequest,
  type GcRunList,
  type HeadMove,
  type LoginRequest,
  type NodeAndHead,
  type NodeResponse,
  type PasswordResetAccepted,
  type PasswordResetConfirm,
  type PasswordResetRequest,
  type PathResponse,
  type ReflogPage,
  type RegenerateRequest,
  type RegisterRequest,
  type RenameConversationRequest,
  type RewindRequest,
  type SendMessageRequest,
  type SignInMethods,
  type StateResponse,
  type TreeListingNode,
  type TreePage,
  type User,
  type VerifiedEmail,
  type VerifyEmailRequest,
} from '@sweatpants/domain';
import { angularTransport } from './angular-transport';
import { toApiError } from './api-error';

/** How many tree nodes to ask for per page; the tree endpoint pages with `after`. */
const TREE_PAGE = 500;
/** A runaway guard: no conversation here has this many pages of nodes. */
const MAX_TREE_PAGES = 200;

/** The reads a conversation view needs, from the owner's routes or the admin's read-only ones. */
export interface ConversationReader {
  path(id: string, at?: string): Promise<PathResponse>;
  tree(id: string): Promise<TreeListingNode[]>;
  reflog(id: string, query?: { limit?: number; before?: string }): Promise<ReflogPage>;
}

/**
 * Every HTTP route of PROTOCOL.md, through libs/domain's typed client (one method per route of
 * its HTTP contract) sent with Angular's HttpClient, so the auth interceptor adds the token and
 * sends a person whose session ended to sign in. Calls return promises and reject with an
 * ApiError, so callers can show `error.describe()` as is.
 */
@Injectable({ providedIn: 'root' })
export class ApiService {
  private readonly api = createHttpClient<Blob>({ transport: angularTransport(inject(HttpClient)) });

  readonly owner: ConversationReader = {
    path: (id, at) => this.call(this.api.path({ params: { id }, query: { at } })),
    tree: (id) => this.allTreePages((after) => this.api.tree({ params: { id }, query: treePage(after) })),
    reflog: (id, query = {}) => this.call(this.api.reflog({ params: { id }, query })),
  };

  readonly admin: ConversationReader = {
    path: (id, at) => this.call(this.api.adminPath({ params: { id }, query: { at } })),
    tree: (id) =>
      this.allTreePages((after) => this.api.adminTree({ params: { id }, query: treePage(after) })),
    reflog: (id, query = {}) => this.call(this.api.adminConversationReflog({ params: { id }, query })),
  };

  register(body: RegisterRequest): Promise<AuthResponse> {
    return this.call(this.api.register({ body }));
  }

  login(body: LoginRequest): Promise<AuthResponse> {
    return this.call(this.api.login({ body }));
  }

  /** How one may sign in here: the password, the identity provider's button, or both. */
  signInMethods(): Promise<SignInMethods> {
    return this.call(this.api.signInMethods());
  }

  me(): Promise<User> {
    return this.call(this.api.me());
  }

  /** The agents this deployment runs, in the order they were registered. */
  agents(): Promise<AgentList> {
    return this.call(this.api.agents());
  }

  /** The caller's conversations by last activity, most recent first; `q` matches titles. */
  listConversations(query: { q?: string; limit?: number; before?: string } = {}): Promise<ConversationList> {
    return this.call(this.api.listConversations({ query }));
  }

  rename(id: string, body: RenameConversationRequest): Promise<Conversation> {
    return this.call(this.api.renameConversation({ params: { id }, body }));
  }

  createConversation(body: CreateConversationRequest): Promise<Conversation> {
    return this.call(this.api.createConversation({ body }));
  }

  conversation(id: string): Promise<Conversation> {
    return this.call(this.api.conversation({ params: { id } }));
  }

  sendMessage(id: string, body: SendMessageRequest): Promise<NodeAndHead> {
    return this.call(this.api.sendMessage({ params: { id }, body }));
  }

  respond(id: string, elicitId: string, body: ElicitResponseRequest): Promise<NodeAndHead> {
    return this.call(this.api.respond({ params: { id, elicitId }, body }));
  }

  state(id: string, at?: string): Promise<StateResponse> {
    return this.call(this.api.state({ params: { id }, query: { at } }));
  }

  /** The agent's state in anyone's conversation, read-only, for an admin (the same fold the owner reads). */
  adminState(id: string, at?: string): Promise<StateResponse> {
    return this.call(this.api.adminState({ params: { id }, query: { at } }));
  }

  node(id: string, nodeId: string): Promise<NodeResponse> {
    return this.call(this.api.node({ params: { id, nodeId } }));
  }

  rewind(id: string, body: RewindRequest): Promise<HeadMove> {
    return this.call(this.api.rewind({ params: { id }, body }));
  }

  edit(id: string, nodeId: string, body: EditRequest): Promise<NodeAndHead> {
    return this.call(this.api.edit({ params: { id, nodeId }, body }));
  }

  /** Another answer to an assistant reply: a sibling branch (reflog action `regenerate`). */
  regenerate(id: string, nodeId: string, body: RegenerateRequest = {}): Promise<{ head: string }> {
    return this.call(this.api.regenerate({ params: { id, nodeId }, body }));
  }

  cancel(id: string): Promise<{ head: string }> {
    return this.call(this.api.cancel({ params: { id } }));
  }

  recover(id: string, reflogId: string): Promise<HeadMove> {
    return this.call(this.api.recover({ params: { id }, body: { reflogId } }));
  }

  fork(id: string, body: Partial<ForkRequest>): Promise<Conversation> {
    return this.call(this.api.fork({ params: { id }, body }));
  }

  compact(id: string): Promise<{ jobId: string }> {
    return this.call(this.api.compact({ params: { id } }));
  }

  compactions(id: string): Promise<CompactionList> {
    return this.call(this.api.compactions({ params: { id } }));
  }

  archive(id: string): Promise<void> {
    return this.call(this.api.archiveConversation({ params: { id } }));
  }

  adminReflog(query: Partial<AdminReflogQuery>): Promise<AdminReflogPage> {
    return this.call(this.api.adminReflog({ query }));
  }

  adminConversations(query: {
    userId?: string;
    limit?: number;
    before?: string;
  }): Promise<AdminConversationPage> {
    return this.call(this.api.adminConversations({ query }));
  }

  fsck(conversationId: string): Promise<FsckReport> {
    return this.call(this.api.fsck({ params: { conversationId } }));
  }

  /** Any conversation, archived or not, read-only (admins only). */
  adminConversation(id: string): Promise<Conversation> {
    return this.call(this.api.adminConversation({ params: { id } }));
  }

  /** What a conversation's model calls cost, in tokens, over every branch (admins only). */
  adminUsage(conversationId: string): Promise<ConversationUsage> {
    return this.call(this.api.adminUsage({ params: { id: conversationId } }));
  }

  /** The HEAD path's turns as waterfalls, with the slowest and costliest named (admins only). */
  adminTurns(conversationId: string): Promise<TurnWaterfalls> {
    return this.call(this.api.adminTurns({ params: { id: conversationId } }));
  }

  /** Every token of the account so far stops working, this one included. */
  signOutEverywhere(): Promise<void> {
    return this.call(this.api.signOutEverywhere());
  }

  /** A new password; the answer carries a fresh token (earlier ones stop working). */
  changePassword(request: ChangePasswordRequest): Promise<AuthResponse> {
    return this.call(this.api.changePassword({ body: request }));
  }

  /** Mails a link to set a new password when an account has `email`: the same answer either way. */
  requestPasswordReset(body: PasswordResetRequest): Promise<PasswordResetAccepted> {
    return this.call(this.api.requestPasswordReset({ body }));
  }

  /** A new password with a mailed link's token: every other session ends, this one starts. */
  confirmPasswordReset(body: PasswordResetConfirm): Promise<AuthResponse> {
    return this.call(this.api.confirmPasswordReset({ body }));
  }

  /** Proves the address a link was mailed to. */
  verifyEmail(body: VerifyEmailRequest): Promise<VerifiedEmail> {
    return this.call(this.api.verifyEmail({ body }));
  }

  /** Mails the caller's address a new link to prove it. */
  resendEmailVerification(): Promise<void> {
    return this.call(this.api.resendEmailVerification());
  }

  /** A new address (unproven until its link is opened); the answer carries a fresh token. */
  changeEmail(request: ChangeEmailRequest): Promise<AuthResponse> {
    return this.call(this.api.changeEmail({ body: request }));
  }

  /** The caller's personal access tokens, newest first (never the tokens themselves). */
  accessTokens(): Promise<AccessTokenList> {
    return this.call(this.api.listAccessTokens());
  }

  /** A new personal access token: the answer is the only time the token itself is shown. */
  createAccessToken(request: CreateAccessTokenRequest): Promise<CreatedAccessToken> {
    return this.call(this.api.createAccessToken({ body: request }));
  }

  /** The token is refused from the answer on, by every api process. */
  revokeAccessToken(id: string): Promise<void> {
    return this.call(this.api.revokeAccessToken({ params: { id } }));
  }

  /** The options for adding a passkey (`startRegistration`'s), with a challenge good for 5 minutes. */
  passkeyRegistrationOptions(): Promise<PublicKeyCredentialCreationOptionsJSON> {
    return this.call(this.api.passkeyRegistrationOptions());
  }

  /** Adds the passkey the browser made from those options, under the person's name for it. */
  addPasskey(request: AddPasskeyRequest): Promise<Passkey> {
    return this.call(this.api.addPasskey({ body: request }));
  }

  /** The caller's passkeys, newest first. */
  passkeys(): Promise<PasskeyList> {
    return this.call(this.api.listPasskeys());
  }

  /** Refused (409) when it is the account's last way to sign in. */
  removePasskey(id: string): Promise<void> {
    return this.call(this.api.removePasskey({ params: { id } }));
  }

  /** The options for signing in with a passkey (`startAuthentication`'s). */
  passkeySignInOptions(): Promise<PublicKeyCredentialRequestOptionsJSON> {
    return this.call(this.api.passkeySignInOptions());
  }

  /** A session, as a password sign-in gives one, for the account whose passkey signed. */
  passkeySignIn(credential: AuthenticationResponseJSON): Promise<AuthResponse> {
    return this.call(this.api.passkeySignIn({ body: { credential } }));
  }

  /** The caller's signed-in devices, this one marked `current`. */
  sessions(): Promise<AccountSessionList> {
    return this.call(this.api.listSessions());
  }

  /** Signs that device out, on every api process, by the answer. */
  revokeSession(id: string): Promise<void> {
    return this.call(this.api.revokeSession({ params: { id } }));
  }

  /** The admins' audit of accounts, newest first. */
  accountEvents(query: Partial<AccountEventsQuery> = {}): Promise<AccountEventPage> {
    return this.call(this.api.adminAccountEvents({ query }));
  }

  /** A stored photo's bytes (`GET /api/blobs/:sha256`), with the token an <img> could not send. */
  blob(sha256: string): Promise<Blob> {
    return this.call(this.api.blob({ params: { sha256 } }));
  }

  /** Everything the account has, as the zip the api streams. */
  exportAccount(): Promise<Blob> {
    return this.call(this.api.exportAccount());
  }

  /** How deleting the account is confirmed: its password, or (without one) a recent sign-in. */
  accountDeletion(): Promise<AccountDeletionInfo> {
    return this.call(this.api.accountDeletion());
  }

  /** The account and everything it owns go; the password (or a recent sign-in) confirms it. */
  deleteAccount(request: DeleteAccountRequest): Promise<void> {
    return this.call(this.api.deleteAccount({ body: request }));
  }

  /** Lets this browser open the job queue dashboard (a cookie scoped to its path). */
  openQueueDashboard(): Promise<void> {
    return this.call(this.api.openQueueDashboard());
  }

  /** Everyone's model spend today and this month, and the budget each is held to. */
  spendReport(): Promise<SpendReport> {
    return this.call(this.api.adminSpend({ query: { limit: 500 } }));
  }

  /** One person's own budget, in place of the deployment's default (null: no limit for that period). */
  setSpendLimit(userId: string, limit: SpendLimit): Promise<PersonSpend> {
    return this.call(this.api.setSpendLimit({ params: { userId }, body: limit }));
  }

  /** Holds the person to the deployment's default budget again. */
  clearSpendLimit(userId: string): Promise<PersonSpend> {
    return this.call(this.api.clearSpendLimit({ params: { userId } }));
  }

  gcRuns(limit = 5): Promise<GcRunList> {
    return this.call(this.api.gcRuns({ query: { limit } }));
  }

  runGc(request: GcRequest): Promise<GcQueued> {
    return this.call(this.api.runGc({ body: request }));
  }

  private async allTreePages(
    page: (after: string | undefined) => Promise<TreePage>,
  ): Promise<TreeListingNode[]> {
    const nodes: TreeListingNode[] = [];
    let after: string | undefined;
    for (let n = 0; n < MAX_TREE_PAGES; n++) {
      const answer = await this.call(page(after));
      nodes.push(...answer.nodes);
      if (!answer.next) break;
      after = answer.next;
    }
    return nodes;
  }

  private async call<T>(request: Promise<T>): Promise<T> {
    try {
      return await request;
    } catch (error: unknown) {
      throw toApiError(error);
    }
  }
}

const treePage = (after: string | undefined) => ({ after, limit: TREE_PAGE });
