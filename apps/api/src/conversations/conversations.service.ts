import { Injectable } from '@nestjs/common';
import {
  MAX_TITLE_LENGTH,
  titleFromText,
  type Conversation,
  type ListedConversationPage,
  type ConversationListQuery,
  type ConversationRecord,
  type CreateConversationRequest,
  type ForkRequest,
  type TreeNode,
} from '@sweatpants/domain';
import { TreeStore } from '@sweatpants/tree-store';
import type { AuthUser } from '../auth/auth-user';
import { unwrap } from './api-errors';
import { ConversationTitles } from './conversation-titles';
import { ConversationActors } from './conversation-actors';

/** How much of the person's words a fork's title quotes. */
const FORK_QUOTE_CHARS = 40;

/**
 * A user's conversations: create, list, rename and fork. What is said to a conversation, and
 * every move of its HEAD, is a command its actor handles (ConversationCommands). Callers pass
 * records whose access they have checked.
 */
@Injectable()
export class ConversationsService {
  constructor(
    private readonly store: TreeStore,
    private readonly actors: ConversationActors,
    private readonly titles: ConversationTitles,
  ) {}

  /** A conversation with one of the registered agents (the controller's schema checked which). */
  async create(user: AuthUser, request: CreateConversationRequest): Promise<Conversation> {
    const { conversation } = await this.store.createConversation({
      ownerId: user.id,
      agent: request.agent,
      ...(request.title !== undefined ? { title: request.title } : {}),
    });
    return this.live(user, conversation);
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
    return { items: page.items.map((r) => this.actors.listed(r)), next: page.next };
  }

  /** The owner renames; the list's order stays (a rename is not activity). */
  rename(record: ConversationRecord, title: string): Promise<ConversationRecord> {
    return this.titles.rename(record, title);
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
    return this.live(user, forked.conversation);
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
  private live(user: AuthUser, record: ConversationRecord): Promise<Conversation> {
    return this.actors.command(user, record, { kind: 'view' });
  }
}
