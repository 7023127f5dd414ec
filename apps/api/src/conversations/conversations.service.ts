import { Injectable } from '@nestjs/common';
import {
  MAX_TITLE_LENGTH,
  titleFromText,
  type Conversation,
  type ListedConversationPage,
  type ConversationListQuery,
  type ConversationRecord,
  type CreateConversationRequest,
  type ElicitResponseRequest,
  type ForkRequest,
  type Photo,
  type TreeNode,
} from '@sweatpants/domain';
import { TreeStore } from '@sweatpants/tree-store';
import type { AuthUser } from '../auth/auth-user';
import { ApiError } from '../errors/api-error';
import { runnerError, unwrap } from './api-errors';
import { ConversationTitles } from './conversation-titles';
import { ConversationViews } from './conversation-views';
import type { ConversationActor } from './conversation-actor';
import { ConversationActors } from './conversation-actors';

/** How much of the person's words a fork's title quotes. */
const FORK_QUOTE_CHARS = 40;

/**
 * A user's conversations: create, list, rename, talk (messages and elicit answers go to the
 * conversation's runner, and the first words title an untitled conversation), fork and archive.
 * Callers pass records whose access they have checked.
 */
@Injectable()
export class ConversationsService {
  constructor(
    private readonly store: TreeStore,
    private readonly actors: ConversationActors,
    private readonly views: ConversationViews,
    private readonly titles: ConversationTitles,
  ) {}

  /** A conversation with one of the registered agents (the controller's schema checked which). */
  async create(user: AuthUser, request: CreateConversationRequest): Promise<Conversation> {
    const { conversation } = await this.store.createConversation({
      ownerId: user.id,
      agent: request.agent,
      ...(request.title !== undefined ? { title: request.title } : {}),
    });
    return this.live(conversation);
  }

  /**
   * A page of the caller's conversations by last activity, most recent first, archived ones left
   * out; `q` keeps those whose title holds it. A `before` that is not one of theirs is a 400.
   */
  async list(user: AuthUser, query: ConversationListQuery): Promise<ListedConversationPage> {
    const page = unwrap(
      await this.store.recentConversations({
        ownerId: user.id,
        limit: query.limit,
        ...(query.q ? { q: query.q } : {}),
        ...(query.before !== undefined ? { before: query.before } : {}),
      }),
    );
    return { items: await Promise.all(page.items.map((r) => this.views.listed(r))), next: page.next };
  }

  /** The owner renames; the list's order stays (a rename is not activity). */
  rename(record: ConversationRecord, title: string): Promise<ConversationRecord> {
    return this.titles.rename(record, title);
  }

  /**
   * The user's message under HEAD (it answers the pending chat prompt); the agent then runs. While
   * a question waits, the message answers it off-script (a `response` node); while the agent works
   * with nothing to ask, it is queued (the node answered says `queued: true`). A stale
   * `expectedHead` is a 409 naming where HEAD is.
   */
  async send(
    user: AuthUser,
    record: ConversationRecord,
    actor: ConversationActor,
    message: { text: string; photos?: Photo[] | undefined; expectedHead?: string | undefined },
  ): Promise<{ node: TreeNode; head: string }> {
    const runner = await actor.runner(record);
    const head = runner.head ?? record.head;
    if (message.expectedHead !== undefined && message.expectedHead !== head) {
      throw new ApiError('conflict', 'HEAD moved since you last saw it', { head });
    }
    const sent = await runner.send({
      text: message.text,
      ...(message.photos ? { photos: message.photos } : {}),
      authorId: user.id,
    });
    if (!sent.ok) throw runnerError(sent.error, runner.head);
    await this.titles.fromFirstWords(record, sent.value);
    return { node: sent.value, head: runner.head ?? sent.value.id };
  }

  /** The person withdraws a message still queued: 409 once the agent took it, 404 for no such message. */
  async withdraw(record: ConversationRecord, actor: ConversationActor, nodeId: string): Promise<void> {
    const runner = await actor.runner(record);
    const withdrawn = await runner.withdraw(nodeId);
    if (!withdrawn.ok) throw runnerError(withdrawn.error, runner.head);
  }

  /**
   * An answer to a pending elicit, checked against its type (a content that does not fit is a 400
   * and changes nothing). Answering again returns the node of the first answer.
   */
  async respond(
    user: AuthUser,
    record: ConversationRecord,
    actor: ConversationActor,
    elicitId: string,
    answer: ElicitResponseRequest,
  ): Promise<{ node: TreeNode; head: string }> {
    let runner = await actor.runner(record);
    let answered = await runner.respond({ elicitId, ...answer }, user.id);
    if (!answered.ok && runner.stale) {
      // The conversation moved under the runner as it took the answer (a compaction rebased the
      // branch): the runner rebuilt on the new HEAD asks the same elicit again, so answer it there.
      runner = await actor.runner(record);
      answered = await runner.respond({ elicitId, ...answer }, user.id);
    }
    if (!answered.ok) throw runnerError(answered.error, runner.head);
    // The chat prompt's answer is the user's message; an `other` answer holds their words too.
    await this.titles.fromFirstWords(record, answered.value);
    return { node: answered.value, head: runner.head ?? answered.value.id };
  }

  async fork(user: AuthUser, record: ConversationRecord, request: ForkRequest): Promise<Conversation> {
    const title = request.title ?? (await this.forkTitle(record, request.at));
    const forked = unwrap(
      await this.store.fork({
        conversationId: record.id,
        at: request.at,
        ownerId: user.id,
        ...(title !== undefined ? { title } : {}),
        actorId: user.id,
      }),
      'at',
    );
    return this.live(forked.conversation);
  }

  /**
   * A fork's title when none is given: the conversation's, and where it was forked from, in the
   * person's last words there ('The desk · from "the lamp"'), so two forks of one conversation
   * tell apart in the list. Undefined leaves the store's default (a bad `at` is its 400).
   */
  private async forkTitle(record: ConversationRecord, at: string): Promise<string | undefined> {
    const path = await this.store.pathFromSummary(record.id, at);
    if (!path.ok) return undefined;
    const said = path.value.findLast(
      (n): n is TreeNode<'user'> => n.kind === 'user' && !n.authorId.startsWith('agent:'),
    );
    const words = titleFromText(said?.payload.text ?? '', FORK_QUOTE_CHARS);
    if (!words) return undefined;
    return `${record.title || 'Untitled'} · from "${words}"`.slice(0, MAX_TITLE_LENGTH);
  }

  /** A conversation just made, with its runner opened by its actor (which asks the first question). */
  private live(record: ConversationRecord): Promise<Conversation> {
    return this.actors.post(record.id, (actor) => this.views.live(record, actor));
  }

  /** The owner archives: the runner stops, and from now on only admins see the conversation. */
  async archive(record: ConversationRecord, actor: ConversationActor): Promise<void> {
    await actor.closeRunner();
    await this.store.archive(record.id);
  }
}
