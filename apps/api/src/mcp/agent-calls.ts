import { Injectable, Logger } from '@nestjs/common';
import type { CallToolResult, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import { ElicitResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type {
  Conversation,
  ConversationRecord,
  ElicitRequest,
  NodeAndHead,
  TreeNode,
} from '@sweatpants/domain';
import { TreeStore } from '@sweatpants/tree-store';
import type { AuthUser } from '../auth/auth-user';
import { ConversationAccess } from '../conversations/conversation-access';
import { ConversationCommands } from '../conversations/conversation-commands';
import { ConversationsService } from '../conversations/conversations.service';
import { ApiError } from '../errors/api-error';
import { OnAppEvent, type AppEventMap } from '../events/app-events';
import {
  AgentCallInputSchema,
  problemsOf,
  type AgentCallInput,
  type AgentCallResult,
} from './agent-call-input';
import { ConversationSignals, type ConversationWatch } from './conversation-signals';
import { answerOf, elicitationForm } from './elicitation-form';

/** What a tool handler is given by the SDK: the request's signal, session, progress token, sender. */
export type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** Who follows a call besides its client: told what the call waits on for the person (null: nothing). */
export interface CallObserver {
  waitingOn(question: ElicitRequest | null): void;
}

/** How many conversations a process remembers calls going to (see `conversationFor`). */
const KNOWN_REMEMBERED = 10_000;
/** How long a call waits for a signal before it reads the conversation anyway. */
const RECHECK_MS = 2_000;
/** How often a call that waits on the person tells a client that asked for progress. */
export const PROGRESS_EVERY_MS = 2_000;
/** How long an MCP client's form may stay open: a person may take their time. */
const ELICITATION_TIMEOUT_MS = 24 * 60 * 60 * 1000;

/**
 * One call of an exposed agent's tool: the caller's message said in a conversation of theirs (a
 * new one, or the one named), then the wait until the turn settles, the agent's replies returned.
 * Everything goes through the conversation commands, as from any other edge (`send`, `view`,
 * `respond`, `cancel`), so the command runs at whichever process drives the conversation and the
 * tree, HEAD and reflog are written as for a person's own client, each reflog entry noting it
 * came via MCP and with which token (the caller's `edge`).
 *
 * While it waits the call holds nothing of the conversation's (its actor takes other commands,
 * such as the person's answer from the web). A question with a form shape is put to an MCP client
 * that can elicit; any other waits for the person's own clients while the call sends progress.
 * The client cancelling the call is a Stop.
 */
@Injectable()
export class AgentCalls {
  private readonly logger = new Logger('Mcp');
  /** the conversations calls went to, as read then, by their owner's id and their own */
  private readonly known = new Map<string, ConversationRecord>();
  /** the calls waiting on a turn, by what ends them if their caller's token is revoked */
  private readonly inFlight = new Map<AbortController, AuthUser>();

  constructor(
    private readonly access: ConversationAccess,
    private readonly conversations: ConversationsService,
    private readonly commands: ConversationCommands,
    private readonly signals: ConversationSignals,
    private readonly store: TreeStore,
  ) {}

  async call(
    caller: AuthUser,
    agent: string,
    args: unknown,
    extra: ToolExtra,
    canElicit: boolean,
    observer?: CallObserver,
  ): Promise<CallToolResult> {
    // Everything the call writes says it came through MCP (and with which token): the reflog's note.
    const user: AuthUser = { ...caller, edge: 'mcp' };
    const parsed = AgentCallInputSchema.safeParse(args ?? {});
    if (!parsed.success) return toolError(`invalid arguments for ${agent}: ${problemsOf(parsed.error)}`);
    const input = parsed.data;
    let record: ConversationRecord;
    try {
      record = await this.conversationFor(user, agent, input);
    } catch (error) {
      return failure(error, 'conversationId');
    }
    const watch = await this.signals.watch(record.id);
    const revoked = new AbortController();
    this.inFlight.set(revoked, user);
    try {
      let sent: NodeAndHead;
      try {
        sent = await this.commands.send(user, record, {
          text: input.message,
          ...(input.photos ? { photos: input.photos } : {}),
        });
      } catch (error) {
        return failure(error, 'message');
      }
      const settled = await this.settle(
        user,
        record,
        sent.node,
        watch,
        extra,
        canElicit,
        revoked.signal,
        observer,
      );
      if (settled === 'revoked')
        return toolError(
          'unauthenticated: the token this call came with was revoked; the conversation goes on in your own clients',
        );
      return await this.result(record, sent.node, settled, watch.nodes);
    } finally {
      this.inFlight.delete(revoked);
      watch.close();
    }
  }

  /**
   * A revoked token's calls stop waiting, on every process (each hears every revocation), as its
   * sockets close: the turn goes on for the person's own clients.
   */
  @OnAppEvent('access-token.revoked')
  tokenRevoked({ tokenId }: AppEventMap['access-token.revoked']): void {
    for (const [revoked, user] of this.inFlight)
      if (user.via.kind === 'token' && user.via.tokenId === tokenId) revoked.abort();
  }

  /** Every token of an account revoked (signed out everywhere, the account deleted): its calls stop waiting. */
  @OnAppEvent('token.revoked')
  accountRevoked({ userId }: AppEventMap['token.revoked']): void {
    for (const [revoked, user] of this.inFlight) if (user.id === userId) revoked.abort();
  }

  /**
   * The conversation named (the caller's own, with this agent), or a new one as POST
   * /api/conversations makes. A conversation a person's calls went to before is not read again:
   * a call then reads nothing before its turn's write, as a joined socket's message does (see the
   * gateway's `joined` for why a record read earlier is safe for this; each call's token is still
   * checked as it comes).
   */
  private async conversationFor(
    user: AuthUser,
    agent: string,
    input: AgentCallInput,
  ): Promise<ConversationRecord> {
    const record =
      input.conversationId === undefined
        ? await this.access.owned(user, (await this.conversations.create(user, { agent })).id)
        : (this.known.get(`${user.id} ${input.conversationId}`) ??
          (await this.access.owned(user, input.conversationId)));
    if (record.agent !== agent)
      throw new ApiError(
        'invalid_request',
        `conversation ${record.id} is with ${record.agent}, not ${agent}`,
        [{ field: 'conversationId', message: `is a conversation with ${record.agent}` }],
      );
    if (this.known.size >= KNOWN_REMEMBERED) this.known.clear();
    this.known.set(`${user.id} ${record.id}`, record);
    return record;
  }

  /**
   * Waits until the turn the message started has settled: the agent waits for the next message
   * (its chat prompt) or is idle, and the message was taken (not still queued behind another
   * turn). Reads the conversation again at every signal and every RECHECK_MS.
   */
  private async settle(
    user: AuthUser,
    record: ConversationRecord,
    sent: TreeNode,
    watch: ConversationWatch,
    extra: ToolExtra,
    canElicit: boolean,
    revoked: AbortSignal,
    observer: CallObserver | undefined,
  ): Promise<Conversation | 'revoked'> {
    const asked = new Map<string, AbortController>();
    const progress = this.progress(extra);
    const stopped = new Promise<'stopped'>((resolve) => {
      if (extra.signal.aborted) resolve('stopped');
      extra.signal.addEventListener('abort', () => resolve('stopped'), { once: true });
    });
    const refused = new Promise<'revoked'>((resolve) =>
      revoked.addEventListener('abort', () => resolve('revoked'), { once: true }),
    );
    try {
      for (;;) {
        const view = await this.view(user, record);
        const question = questionOf(view);
        // A question the client was asked and someone answered elsewhere: its form is taken back.
        for (const [elicitId, asking] of asked) if (elicitId !== question?.elicitId) asking.abort();
        if (isSettled(view, sent)) return view;
        if (question && !asked.has(question.elicitId)) {
          const form = canElicit ? elicitationForm(question) : null;
          if (form) {
            const asking = new AbortController();
            asked.set(question.elicitId, asking);
            void this.ask(user, record, question, form, extra, asking.signal);
          } else {
            asked.set(question.elicitId, new AbortController());
          }
        }
        const forThePerson = question && !canElicitFor(canElicit, question) ? question : null;
        progress.waitingOn(forThePerson);
        observer?.waitingOn(forThePerson);
        const woken = await Promise.race([watch.next(RECHECK_MS), stopped, refused]);
        if (woken === 'revoked') return woken;
        if (woken === 'stopped') {
          await this.stop(user, record);
          throw new Error('the call was cancelled: the turn is stopped');
        }
      }
    } finally {
      progress.stop();
      for (const asking of asked.values()) asking.abort();
    }
  }

  /** Puts a question to the MCP client as a form; its answer is recorded as if tapped. */
  private async ask(
    user: AuthUser,
    record: ConversationRecord,
    question: ElicitRequest,
    form: NonNullable<ReturnType<typeof elicitationForm>>,
    extra: ToolExtra,
    signal: AbortSignal,
  ): Promise<void> {
    try {
      const result = await extra.sendRequest(
        { method: 'elicitation/create', params: form.params },
        ElicitResultSchema,
        { signal, timeout: ELICITATION_TIMEOUT_MS },
      );
      if (signal.aborted) return;
      await this.commands.respond(user, record, question.elicitId, answerOf(form, result));
    } catch (error) {
      // Withdrawn, answered elsewhere, or an answer that does not fit: the question stays for the
      // person's own clients, and the call goes on waiting.
      if (!signal.aborted)
        this.logger.warn(`asking an MCP client ${question.type} ${question.elicitId}: ${String(error)}`);
    }
  }

  /** The client cancelled the call: the turn stops as Stop stops it. */
  private async stop(user: AuthUser, record: ConversationRecord): Promise<void> {
    try {
      await this.commands.run(user, record, { kind: 'cancel' });
    } catch (error) {
      this.logger.warn(`stopping ${record.id} for a cancelled MCP call: ${String(error)}`);
    }
  }

  /** Progress notifications while the call waits on the person, when the client asked for them. */
  private progress(extra: ToolExtra): { waitingOn(q: ElicitRequest | null): void; stop(): void } {
    const token = extra._meta?.progressToken;
    if (token === undefined) return { waitingOn: () => undefined, stop: () => undefined };
    let sent = 0;
    let question: ElicitRequest | null = null;
    const timer = setInterval(() => {
      sent += 1;
      const message = question
        ? `waiting for the person to answer: ${question.message}`
        : 'the agent is working';
      extra
        .sendNotification({
          method: 'notifications/progress',
          params: { progressToken: token, progress: sent, message },
        })
        .catch(() => undefined);
    }, PROGRESS_EVERY_MS);
    return {
      waitingOn: (q) => {
        question = q;
      },
      stop: () => clearInterval(timer),
    };
  }

  private async pathOf(record: ConversationRecord): Promise<TreeNode[]> {
    const path = await this.store.pathFromSummary(record.id, 'HEAD');
    return path.ok ? path.value : [];
  }

  private view(user: AuthUser, record: ConversationRecord): Promise<Conversation> {
    return this.commands.run(user, record, { kind: 'view' });
  }

  /**
   * The replies since the message (or since the node that took it from the queue), as text: from
   * the nodes this process saw appended when they reach from the message to HEAD, else read.
   */
  private async result(
    record: ConversationRecord,
    sent: TreeNode,
    view: Conversation,
    seen: readonly TreeNode[],
  ): Promise<CallToolResult> {
    const nodes = chainTo(view.head, sent, seen) ?? (await this.pathOf(record));
    const from = nodes.findLastIndex((n) => n.id === sent.id || n.payload['queuedId'] === sent.id);
    const replies = (from < 0 ? [] : nodes.slice(from + 1))
      .filter((n): n is TreeNode<'assistant'> => n.kind === 'assistant')
      .map((n) => n.payload.text)
      .filter((text) => text.trim() !== '');
    const question = questionOf(view);
    const structured: AgentCallResult = { conversationId: record.id, status: view.status, question };
    const texts = question ? [...replies, question.message] : replies;
    return {
      content: texts.map((text) => ({ type: 'text', text })),
      structuredContent: structured,
    };
  }
}

/**
 * The path from `sent` to `head` out of the nodes seen appended, or null when they do not reach
 * (another process drives the conversation, or HEAD moved elsewhere): walked back from HEAD.
 */
function chainTo(head: string, sent: TreeNode, seen: readonly TreeNode[]): TreeNode[] | null {
  const byId = new Map(seen.map((n) => [n.id, n]));
  const chain: TreeNode[] = [];
  for (let at: string | null = head; at !== sent.id;) {
    const node = byId.get(at ?? '');
    if (!node) return null;
    chain.push(node);
    at = node.parentId;
  }
  return [sent, ...chain.reverse()];
}

/** The question the agent waits on, other than its chat prompt (which is "your turn"). */
function questionOf(view: Conversation): ElicitRequest | null {
  const pending = view.pendingElicit;
  return pending && pending.type !== 'chat' ? pending : null;
}

function canElicitFor(canElicit: boolean, question: ElicitRequest): boolean {
  return canElicit && elicitationForm(question) !== null;
}

/**
 * The turn is over: nothing runs and nothing is asked but the chat prompt, HEAD has moved on from
 * where the message was put (so this is not the prompt it answered), and it is not still queued.
 * (The runner says `running` from the moment a message is taken, so a view after `send` never
 * sees the turn before it starts.)
 */
function isSettled(view: Conversation, sent: TreeNode): boolean {
  if (view.status === 'running' || questionOf(view)) return false;
  if (view.queued?.some((q) => q.id === sent.id)) return false;
  return view.head !== sent.parentId;
}

function toolError(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/** An ApiError as a tool error naming the field at fault; anything else is the SDK's to report. */
function failure(error: unknown, field: string): CallToolResult {
  if (!(error instanceof ApiError)) throw error;
  const { code, message, details } = error.body.error;
  if (code === 'not_found') return toolError(`${field}: not found (${message})`);
  const fields = Array.isArray(details)
    ? details
        .map((d: unknown) =>
          typeof d === 'object' && d !== null && 'field' in d && 'message' in d
            ? `${String(d.field)}: ${String(d.message)}`
            : '',
        )
        .filter(Boolean)
    : [];
  return toolError(fields.length > 0 ? `${message}: ${fields.join('; ')}` : `${field}: ${message}`);
}
