import { computed, inject, Injectable, type OnDestroy, signal } from '@angular/core';
import type {
  Conversation,
  ConversationStatus,
  ElicitRequest,
  ElicitAnswerRequest,
  InlinePhoto,
  Json,
  QueuedMessage,
  ServerEventPayload,
  StateResponse,
  TreeListingNode,
  TreeNode,
} from '@sweatpants/domain';

import { describeError } from '../core/api-error';
import { ApiService, type ConversationReader } from '../core/api.service';
import { toJson } from '../core/json';
import { SocketClientService } from '../core/socket-client.service';
import { AgentsService } from '../conversations/agents.service';
import { branchOf, latestTip, siblingsOf } from './branch-tip';
import { Coalesced } from './coalesced';
import { listenToConversation } from './conversation-live-events';
import { nodeText } from './node-text';
import { isTypedAnswer } from './node-view';
import { QueuedMessages, queuedMessageOf } from './queued-messages';
import { PathReads } from './path-reads';
import { PendingQuestions } from './pending-questions';
import { askerTitle, questionWords } from './question-askers';
import { responseTo, withNode } from './tree-updates';

/** Tree and state reloads after a burst of HEAD moves are coalesced into one... */
const RELOAD_DELAY_MS = 150;
/** ...run at least this often while the burst goes on, so the session panel keeps up. */
const RELOAD_AT_MOST_EVERY_MS = 1000;

/**
 * One open conversation: its HEAD path, its whole tree, the pending questions and the live
 * events, kept in signals. Provided by the conversation shell, so the chat, tree and reflog pages share it.
 * In admin mode it reads through the admin routes and never joins the room or writes.
 */
@Injectable()
export class ConversationStore implements OnDestroy {
  private readonly api = inject(ApiService);
  private readonly socket = inject(SocketClientService);
  private readonly agents = inject(AgentsService);
  private readonly unsubscribe: (() => void)[] = [];
  private readonly pathReads = new PathReads();
  /** Tree and state after HEAD moved elsewhere (another tab, the agent at work). */
  private readonly reload = new Coalesced(
    () => {
      this.refreshTree().catch((error: unknown) => this.error.set(describeError(error)));
      this.refreshState().catch(() => undefined);
    },
    RELOAD_DELAY_MS,
    RELOAD_AT_MOST_EVERY_MS,
  );
  /** reads of the state in flight: only the latest one's answer is shown */
  private stateReads = 0;

  readonly id = signal('');
  readonly admin = signal(false);
  readonly conversation = signal<Conversation | null>(null);
  readonly path = signal<TreeNode[]>([]);
  readonly tree = signal<ReadonlyMap<string, TreeListingNode>>(new Map());
  /** Every question waiting for the person, oldest first (each answered on its own). */
  readonly questions = new PendingQuestions();
  /** The oldest pending question: what the composer answers when it is a `chat` prompt. */
  readonly pending = this.questions.first;
  readonly status = signal<ConversationStatus>('idle');
  readonly streaming = signal<{ nodeId: string; text: string } | null>(null);
  readonly progress = signal<ServerEventPayload<'notify'> | null>(null);
  readonly state = signal<StateResponse | null>(null);
  readonly error = signal<string | null>(null);
  /**
   * Why the person's last answer or message was not taken, said beside the composer that still
   * holds their words (the page-wide `error` would be out of view, above the chat).
   */
  readonly answerError = signal<string | null>(null);
  /** Messages sent while the agent worked, waiting for it (oldest first); not on the path yet. */
  readonly queue = new QueuedMessages(this.socket);
  readonly loading = signal(true);
  /**
   * Opening with nothing to show yet. Once HEAD's path is read the chat stands on its own: the
   * tree and state reads still under way only add to it, and a loading line above a card that is
   * already waiting reads as if the card were not ready.
   */
  readonly opening = computed(() => this.loading() && this.path().length === 0);
  readonly busy = signal(false);
  /** The last rewind made from the chat, which Undo takes back. */
  readonly undo = signal<{ reflogId: string; label: string } | null>(null);
  /** The latest thing worth saying to a screen reader: a new message or question. */
  readonly announcement = signal('');

  readonly head = computed(() => this.path().at(-1)?.id ?? this.conversation()?.head ?? null);
  readonly onHead = computed(() => new Set(this.path().map((node) => node.id)));
  readonly readonly = computed(() => this.admin());

  get reader(): ConversationReader {
    return this.admin() ? this.api.admin : this.api.owner;
  }

  async open(id: string, admin: boolean): Promise<void> {
    this.close();
    this.id.set(id);
    this.admin.set(admin);
    this.loading.set(true);
    try {
      if (admin) {
        // Read through the admin route: what it is (title, agent, model), never a question of
        // its owner's to answer, and no turn starts on the admin's behalf.
        this.conversation.set(await this.api.adminConversation(id));
      } else {
        this.applyConversation(await this.api.conversation(id));
      }
      await Promise.all([this.refreshPath(), this.refreshTree(), this.refreshState()]);
      if (!admin) this.listen();
    } catch (error: unknown) {
      this.error.set(describeError(error));
    } finally {
      this.loading.set(false);
    }
  }

  siblings(nodeId: string): { ids: string[]; index: number } {
    return siblingsOf(this.tree(), nodeId);
  }

  /** The branches a message shown in the chat stands among, forks at hidden nodes included. */
  branches(nodeId: string, shown: ReadonlySet<string>): { ids: string[]; index: number } {
    return branchOf(this.tree(), nodeId, shown);
  }

  /** HEAD's path from the server, with what the socket delivered meanwhile (PathReads). */
  async refreshPath(): Promise<void> {
    const path = await this.pathReads.read(async () => (await this.reader.path(this.id())).nodes);
    if (path) this.path.set(path);
  }

  async refreshTree(): Promise<void> {
    const nodes = await this.reader.tree(this.id());
    this.tree.set(new Map(nodes.map((node) => [node.id, node])));
  }

  /** The agent's state at HEAD: the owner's, or, read-only, the same an admin inspects. */
  async refreshState(): Promise<void> {
    // Reads can overlap (a burst of moves, a reload): an older answer landing last is dropped.
    const read = ++this.stateReads;
    const state = this.admin() ? await this.api.adminState(this.id()) : await this.api.state(this.id());
    if (read === this.stateReads) this.state.set(state);
  }

  /**
   * Tells the agent what a pending question's widget is doing (`elicit:progress`): the one named,
   * else the oldest; nothing when it is not pending. Progress is a courtesy: a failure to send it
   * is not the person's.
   */
  reportProgress(payload: Json, elicitId?: string): void {
    const pending = this.questions.find(elicitId);
    if (!pending) return;
    this.socket
      .request('elicit:progress', { conversationId: this.id(), elicitId: pending.elicitId, payload })
      .catch(() => undefined);
  }

  /**
   * Answers a pending question over the socket, the one named or else the oldest; its ack carries
   * the response node. The other questions stay pending.
   */
  async answer(response: ElicitAnswerRequest, elicitId?: string): Promise<boolean> {
    const pending = this.questions.find(elicitId);
    if (!pending) return false;
    return this.runAnswer(async () => {
      const content = 'content' in response ? toJson(response.content) : undefined;
      const { node } = await this.socket.request('elicit:response', {
        conversationId: this.id(),
        elicitId: pending.elicitId,
        action: response.action,
        ...(content === undefined ? {} : { content }),
      });
      if (this.questions.ended(pending.elicitId) && this.pending() === null) {
        // The agent runs on the answer to the last question; saying so now keeps the composer
        // from flickering open before the server's `status` event arrives. While another waits,
        // the server says `waiting` still, and sends no event to take a guess of `running` back.
        this.status.set('running');
      }
      this.appendNode(node);
    });
  }

  /**
   * A message: the answer to the pending `chat` elicit if there is one, else `message:send`. While
   * another question waits, the server takes the message as its off-script answer (a `response`
   * with action `other`), so the question's card goes once the ack carries that node. While the
   * agent works with nothing to ask, the server queues it: the ack's node is not on the path then
   * (its payload says `queued`), and it waits in `queue` until the agent takes it.
   */
  async send(text: string, photos: InlinePhoto[]): Promise<boolean> {
    if (this.pending()?.type === 'chat') {
      return this.answer({ action: 'accept', content: photos.length > 0 ? { text, photos } : { text } });
    }
    return this.runAnswer(async () => {
      const { node } = await this.socket.request('message:send', {
        conversationId: this.id(),
        text,
        ...(photos.length > 0 ? { photos } : {}),
      });
      const queued = queuedMessageOf(node);
      if (queued) return this.queue.sent(queued);
      this.appendNode(node);
      // As for answers; unless the turn already ended and asked again before the ack came.
      if (this.pending() === null) this.status.set('running');
    });
  }

  /** Withdraws a queued message (see QueuedMessages.withdraw); the last refusal is old news then. */
  withdraw(id: string): Promise<QueuedMessage | null> {
    this.answerError.set(null);
    return this.queue.withdraw(this.id(), id);
  }

  /**
   * New words for the person's own: a message is edited (the api's edit: a sibling with the new
   * text, HEAD to it). Words typed at a question instead of a tap (a `response` with action
   * `other`) are said again: HEAD goes back to the question, which waits again, and the new words
   * answer it as the old ones did. Either way the old words stay one tap away in the branch switcher.
   */
  edit(nodeId: string, text: string): Promise<boolean> {
    const node = this.path().find((n) => n.id === nodeId);
    if (isTypedAnswer(node)) return this.answerAgain(node, text);
    return this.run(async () => {
      await this.api.edit(this.id(), nodeId, { text });
      await this.reloadAll();
    });
  }

  private async answerAgain(answer: TreeNode<'response'>, text: string): Promise<boolean> {
    const question = this.path().find((n) => n.id === answer.parentId);
    if (question?.kind !== 'elicit' || question.payload.elicitId !== answer.payload.elicitId) {
      // Another question was asked between this one and the words: going back to it would leave
      // the words answering that one instead.
      this.error.set(
        'These words can no longer be changed here: go back to their question and answer it again.',
      );
      return false;
    }
    const back = await this.run(async () => {
      await this.api.rewind(this.id(), { to: question.id });
      await this.reloadAll();
      // The question waits again; its event may come after the rewind's reply.
      if (!this.questions.find(answer.payload.elicitId))
        this.applyConversation(await this.api.conversation(this.id()));
    });
    return back && this.send(text, []);
  }

  rewind(to: string): Promise<boolean> {
    return this.run(async () => {
      await this.api.rewind(this.id(), { to });
      await this.reloadAll();
    });
  }

  /**
   * A rewind the user asked for in the chat, which Undo can take back: the reflog's newest entry
   * before the move is where HEAD was, and recovering it puts HEAD back there.
   */
  rewindWithUndo(to: string, label: string): Promise<boolean> {
    return this.run(async () => {
      const before = (await this.reader.reflog(this.id(), { limit: 1 })).entries[0];
      await this.api.rewind(this.id(), { to });
      this.undo.set(before ? { reflogId: before.id, label } : null);
      await this.reloadAll();
    });
  }

  /** Takes the last rewind back (reflog action `recover`). */
  async undoRewind(): Promise<boolean> {
    const undo = this.undo();
    if (!undo) return false;
    this.undo.set(null);
    return this.recover(undo.reflogId);
  }

  /**
   * Another answer to an agent reply: HEAD goes back to what the reply answered and the agent
   * answers again, on a sibling branch (the old reply stays one tap away in the branch switcher).
   */
  regenerate(replyId: string): Promise<boolean> {
    return this.run(async () => {
      await this.socket.request('message:regenerate', { conversationId: this.id(), nodeId: replyId });
      this.status.set('running');
      await this.reloadAll();
    });
  }

  /** Moves HEAD to the latest tip of the branch through `siblingId`. */
  switchBranch(siblingId: string): Promise<boolean> {
    return this.rewind(latestTip(this.tree(), siblingId));
  }

  cancel(): Promise<boolean> {
    return this.run(async () => {
      await this.api.cancel(this.id());
      await this.reloadAll();
    });
  }

  recover(reflogId: string): Promise<boolean> {
    return this.run(async () => {
      await this.api.recover(this.id(), reflogId);
      await this.reloadAll();
    });
  }

  async fork(at: string): Promise<Conversation | null> {
    let forked: Conversation | null = null;
    await this.run(async () => {
      forked = await this.api.fork(this.id(), { at });
    });
    return forked;
  }

  dismissError(): void {
    this.error.set(null);
  }

  ngOnDestroy(): void {
    this.close();
  }

  /** Stops listening and leaves the room; the signals are reset for the next conversation. */
  private close(): void {
    for (const stop of this.unsubscribe.splice(0)) stop();
    this.reload.cancel();
    const id = this.id();
    if (id && !this.admin() && this.socket.connected()) {
      this.socket.request('conversation:leave', { conversationId: id }).catch(() => undefined);
    }
    this.conversation.set(null);
    this.path.set([]);
    this.tree.set(new Map());
    this.questions.replace([]);
    this.undo.set(null);
    this.streaming.set(null);
    this.progress.set(null);
    this.state.set(null);
    this.error.set(null);
    this.answerError.set(null);
    this.queue.clear();
  }

  /**
   * Like `run`, for what the person says: a refusal is said beside the composer (answerError).
   * When the question they answered waits no more (a 409: the conversation moved on, in another
   * tab or while they were away), what it waits on now is read again, so sending the same words
   * once more answers that.
   */
  private async runAnswer(work: () => Promise<void>): Promise<boolean> {
    this.answerError.set(null);
    this.queue.refusal.set(null);
    const done = await this.run(work);
    const failed = this.error();
    if (!done && failed !== null) {
      this.error.set(null);
      this.answerError.set(failed);
      const conversation = await this.api.conversation(this.id()).catch(() => null);
      if (conversation) this.applyConversation(conversation);
    }
    return done;
  }

  private async run(work: () => Promise<void>): Promise<boolean> {
    this.busy.set(true);
    this.error.set(null);
    try {
      await work();
      return true;
    } catch (error: unknown) {
      this.error.set(describeError(error));
      return false;
    } finally {
      this.busy.set(false);
    }
  }

  private async reloadAll(): Promise<void> {
    await Promise.all([this.refreshPath(), this.refreshTree(), this.refreshState()]);
  }

  private applyConversation(conversation: Conversation): void {
    this.conversation.set(conversation);
    this.status.set(conversation.status);
    this.questions.replace(conversation.pendingElicits);
    this.queue.replace(conversation.queued ?? []);
  }

  private listen(): void {
    this.unsubscribe.push(...listenToConversation(this.socket, this.id(), this));
  }

  /** A question as a screen reader is told it: who asks, when another agent does. */
  questionWords(request: ElicitRequest): string {
    return questionWords(request, this.conversation()?.agent, (agent) => askerTitle(this.agents, agent));
  }

  /** HEAD moved (another tab, the agent at work): the path follows, the tree and state soon. */
  headMoved(head: string): void {
    this.conversation.update((c) => (c ? { ...c, head } : c));
    if (this.path().at(-1)?.id !== head) {
      this.refreshPath().catch((error: unknown) => this.error.set(describeError(error)));
    }
    this.reload.request();
  }

  /** Joins the room (on open and after every reconnect) and catches up on what was missed. */
  async join(): Promise<void> {
    try {
      const { conversation } = await this.socket.request('conversation:join', { conversationId: this.id() });
      this.applyConversation(conversation);
      if (this.path().at(-1)?.id !== conversation.head) await this.reloadAll();
    } catch (error: unknown) {
      this.error.set(describeError(error));
    }
  }

  /**
   * A node the server appended: onto the path if it extends HEAD, into the tree either way. The
   * answer to a pending question (from this tab, another one, or typed off-script) ends that one;
   * a message, which is how the chat prompt is answered, ends the chat prompt it answers, the one
   * asked at its parent (one sent from another tab arrives here only as its `user` node). A fast
   * turn's next prompt may arrive before the message's node is announced: that one still waits.
   */
  appendNode(node: TreeNode): void {
    this.pathReads.delivered(node);
    this.queue.took(node);
    const answered =
      node.kind === 'response'
        ? [responseTo(node)]
        : node.kind === 'user' && node.parentId !== null
          ? this.questions
              .all()
              .flatMap((q) => (q.type === 'chat' && askedAt(q, node.parentId) ? [q.elicitId] : []))
          : [];
    const ended = answered.filter((id) => id !== null && this.questions.ended(id));
    if (ended.length > 0 && this.pending() === null) this.status.set('running');
    const path = this.path();
    if (!path.some((n) => n.id === node.id) && path.at(-1)?.id === node.parentId) {
      this.path.set([...path, node]);
      if (node.kind === 'assistant') this.streaming.set(null);
      const said = nodeText(node);
      if (said && (node.kind === 'assistant' || node.kind === 'user')) {
        this.announcement.set(`${node.kind === 'user' ? 'You' : 'Agent'}: ${said}`);
      }
    }
    this.tree.update((tree) => withNode(tree, node));
  }
}

/** Whether the chat prompt `q` waits at `head`: its id is the HEAD it is asked at, `chat-<head>`. */
function askedAt(q: ElicitRequest, head: string | null): boolean {
  return head !== null && q.elicitId === `chat-${head}`;
}
