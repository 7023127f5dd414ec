import { computed, effect, inject, Injectable, signal, untracked } from '@angular/core';
import type { Conversation, ListedConversation } from '@sweatpants/domain';

import { describeError } from '../core/api-error';
import { SessionService } from '../core/session.service';
import { ConversationArchiveApi } from './conversation-archive-api';
import { ConversationListService } from './conversation-list.service';
import { PendingArchives } from './pending-archives';

/** One page of the Archived section. */
export const ARCHIVED_PAGE = 30;

/** A conversation under Archived; `archivedAt` is null while its archive is still in the undo window. */
export interface ArchivedItem {
  readonly conversation: Conversation;
  readonly archivedAt: string | null;
}

/**
 * The signed-in person's archived conversations, for the sidebar's Archived section: those this
 * tab archived (in their undo window, or sent) first, so one is there the moment it leaves the
 * list, then what the api lists (`GET /api/conversations?archived=true`). Unarchive takes one back
 * into the list: Undo for one still in its window, POST …/unarchive for the others.
 */
@Injectable({ providedIn: 'root' })
export class ArchivedConversations {
  private readonly api = inject(ConversationArchiveApi);
  private readonly archives = inject(PendingArchives);
  private readonly list = inject(ConversationListService);
  private readonly loaded = signal<readonly ListedConversation[] | null>(null);
  /** Unarchived here: left out until the api is asked again. */
  private readonly restored = signal<ReadonlySet<string>>(new Set());

  /**
   * Whether the Archived section is open. Kept here, not in the sidebar, so it stays open when the
   * phone's drawer gives way to the desktop sidebar (two instances of the list).
   */
  readonly open = signal(false);
  readonly next = signal<string | null>(null);
  readonly error = signal<string | null>(null);
  readonly loadingMore = signal(false);

  /** Newest first; null until first loaded. */
  readonly items = computed<readonly ArchivedItem[] | null>(() => {
    const loaded = this.loaded();
    if (loaded === null) return null;
    const restored = this.restored();
    const items: ArchivedItem[] = [
      ...[...this.archives.pending()]
        .reverse()
        .map((p) => ({ conversation: p.conversation, archivedAt: null })),
      // Sent from this tab: when, once the api has listed it.
      ...this.archives
        .done()
        .map((c) => ({ conversation: c, archivedAt: loaded.find((l) => l.id === c.id)?.archivedAt ?? null })),
      ...loaded.map((c) => ({ conversation: c, archivedAt: c.archivedAt })),
    ];
    const seen = new Set<string>();
    return items.filter((item) => {
      const id = item.conversation.id;
      if (seen.has(id) || restored.has(id)) return false;
      seen.add(id);
      return true;
    });
  });

  constructor() {
    const session = inject(SessionService);
    // Another person (or none) signed in: nothing of the last one's stays.
    effect(() => {
      session.token();
      untracked(() => {
        this.open.set(false);
        this.loaded.set(null);
        this.next.set(null);
        this.error.set(null);
        this.restored.set(new Set());
      });
    });
  }

  /** Opens or closes the section; it is read from the api each time it opens. */
  toggle(): void {
    const open = !this.open();
    this.open.set(open);
    if (open) void this.load();
  }

  /** Reads the first page from the api. */
  async load(): Promise<void> {
    try {
      const page = await this.api.archived({ limit: ARCHIVED_PAGE });
      this.loaded.set(page.items);
      this.next.set(page.next);
      this.restored.set(new Set());
      this.error.set(null);
    } catch (error: unknown) {
      this.error.set(describeError(error));
    }
  }

  /** The next page, after the last one shown. */
  async more(): Promise<void> {
    const before = this.next();
    if (!before || this.loadingMore()) return;
    this.loadingMore.set(true);
    try {
      const page = await this.api.archived({ limit: ARCHIVED_PAGE, before });
      const have = new Set(this.loaded()?.map((c) => c.id));
      this.loaded.update((list) => [...(list ?? []), ...page.items.filter((c) => !have.has(c.id))]);
      this.next.set(page.next);
    } catch (error: unknown) {
      this.error.set(describeError(error));
    } finally {
      this.loadingMore.set(false);
    }
  }

  /**
   * Back into the list; resolves true once it is there again. An archive still in its undo window
   * is simply undone (nothing was sent); any other is unarchived by the api.
   */
  async unarchive(conversation: Conversation): Promise<boolean> {
    this.error.set(null);
    if (this.archives.undo(conversation.id)) return true;
    try {
      await this.api.unarchive(conversation.id);
    } catch (error: unknown) {
      const title = conversation.title || 'New conversation';
      this.error.set(`Could not unarchive '${title}'. ${describeError(error)}`);
      return false;
    }
    this.restored.update((set) => new Set(set).add(conversation.id));
    this.archives.restored(conversation.id);
    await this.list.reload();
    return true;
  }
}
