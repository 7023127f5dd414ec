import { Inject, Injectable, Logger } from '@nestjs/common';
import type { ConversationRecord } from '@sweatpants/domain';
import { TreeStore, type SqlClient } from '@sweatpants/tree-store';
import type { AuthUser } from '../auth/auth-user';
import { TokenGenerations } from '../auth/token-generations';
import { TokenRevocations } from '../auth/token-revocations';
import { UsersRepository, type Account } from '../auth/users.repository';
import { BLOB_STORE, type BlobStore } from '../blobs/blob-store';
import { ConversationLease } from '../cluster/conversation-lease';
import { ConversationCommands } from '../conversations/conversation-commands';
import { ConversationActors } from '../conversations/conversation-actors';
import { SQL_CLIENT } from '../database/database.module';
import { ownedConversations } from './owned-conversations';

/** What a deletion removed, as its audit row says it. */
export interface Deleted {
  conversations: number;
  nodes: number;
  /** photos no one else's node names, removed with the account */
  blobs: number;
}

/** How many conversations are halted at once: the holders are other api processes, or this one. */
const HALTING_AT_ONCE = 8;

/**
 * Removes a person's account and everything it owns (PROTOCOL.md, Account), in this order:
 *
 * 1. Halt: each of their live conversations is archived through its command path, which runs at
 *    the api process driving it (its lease holder): the runner there stops, an in-flight model call
 *    is aborted, and from then on the database refuses any append or move of HEAD to it. A runner
 *    that does not hear of it (a process that lost its lease unawares) can therefore write nothing.
 * 2. Purge: the database's `purge_account` removes their conversations (nodes, refs, reflog,
 *    segments, snapshots), concierge data and account in one transaction with its audit row. It
 *    takes the owner's fence first, so a conversation or concierge row being created beside it goes
 *    with the rest or is refused (see AccountDeletionFences1795480000000).
 * 3. Blobs: the photos their nodes named that no other node names now are deleted (bytes and row)
 *    at once, rather than at the next gc. One put again since the deletion began (the same bytes,
 *    sent by someone else just now) is spared, as gc spares it.
 * 4. Forget: tokens of the account are refused (the account is gone: TokenGenerations answers
 *    null), at once here and within GENERATION_CACHE_MS on other processes; their sockets close
 *    on every process.
 *
 * If the purge fails after the halt, the conversations stay archived: nothing the person did not
 * ask to lose is lost, and deleting again finishes the work.
 */
@Injectable()
export class AccountDeletion {
  private readonly logger = new Logger('Accounts');

  constructor(
    @Inject(SQL_CLIENT) private readonly db: SqlClient,
    private readonly store: TreeStore,
    private readonly users: UsersRepository,
    private readonly commands: ConversationCommands,
    private readonly actors: ConversationActors,
    private readonly lease: ConversationLease,
    private readonly generations: TokenGenerations,
    private readonly revocations: TokenRevocations,
    @Inject(BLOB_STORE) private readonly blobs: BlobStore,
  ) {}

  /**
   * `deletedBy`: 'self', or the id of the admin who deleted the account. Null when there is no
   * such account (never was, or another request deleted it first).
   */
  async delete(userId: string, deletedBy: string): Promise<Deleted | null> {
    const account = await this.users.byId(userId);
    if (!account) return null;
    const began = new Date();
    const conversations = await ownedConversations(this.store, userId);
    await this.halt(account, conversations);
    const named = await this.namedBlobs(userId);
    const [purged] = await this.db.query<Omit<Deleted, 'blobs'>>(
      `SELECT conversations, nodes FROM purge_account($1, $2)`,
      [userId, deletedBy],
    );
    if (!purged) return null;
    const deleted: Deleted = { ...purged, blobs: (await this.blobs.delete(named, began)).length };
    // Leases this process took to halt them: their conversations are gone, nothing is to be driven.
    await Promise.all(conversations.map((c) => this.lease.release(c.id).catch(() => undefined)));
    this.generations.set(userId, null);
    // Waited for: the answer to a deletion finds every process refusing the account's tokens.
    await this.revocations.revokedEverywhere(userId);
    this.logger.log(
      `account ${userId} deleted (${deletedBy === 'self' ? 'by its owner' : `by admin ${deletedBy}`}): ` +
        `${deleted.conversations} conversations, ${deleted.nodes} nodes, ${deleted.blobs} photos`,
    );
    return deleted;
  }

  /** The blobs the account's nodes name; after the purge, those no one else's name are deleted. */
  private async namedBlobs(userId: string): Promise<string[]> {
    const rows = await this.db.query<{ sha256: string }>(
      `SELECT DISTINCT nb.sha256 FROM node_blobs nb JOIN conversations c ON c.id = nb.conversation_id
       WHERE c.owner_id = $1`,
      [userId],
    );
    return rows.map((r) => r.sha256);
  }

  private async halt(account: Account, conversations: readonly ConversationRecord[]): Promise<void> {
    // The commands run as the owner: they check, where they run, that the conversation is theirs.
    const owner: AuthUser = {
      id: account.id,
      email: account.email,
      displayName: account.displayName,
      role: 'user',
      emailVerified: account.emailVerified,
      // The deletion was asked for with a password (deleting is refused to access tokens).
      via: { kind: 'session' },
    };
    const live = conversations.filter((c) => c.archivedAt === null);
    for (let i = 0; i < live.length; i += HALTING_AT_ONCE) {
      await Promise.all(
        live.slice(i, i + HALTING_AT_ONCE).map((conversation) =>
          this.commands.run(owner, conversation, { kind: 'archive' }).catch((error: unknown) => {
            // The purge fences it all the same (the refs lock, the foreign keys): a runner left
            // going elsewhere finds its conversation gone at its next write.
            this.logger.warn(
              `halting ${conversation.id} before deleting its account: ${error instanceof Error ? error.message : String(error)}`,
            );
          }),
        ),
      );
    }
    // An archived conversation has no runner; one opened here all the same (a race) stops now.
    await Promise.all(conversations.map((c) => this.actors.close(c.id)));
  }
}
