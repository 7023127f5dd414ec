import { computed, DestroyRef, DOCUMENT, effect, inject, Injectable, signal, untracked } from '@angular/core';
import { NavigationEnd, Router } from '@angular/router';
import type { Conversation } from '@sweatpants/domain';

import { describeError } from '../core/api-error';
import { ApiService } from '../core/api.service';
import { SessionService } from '../core/session.service';
import { SocketClientService } from '../core/socket-client.service';
import { PendingArchives } from './pending-archives';

/** One page of the list; "Show more" asks for another. */
export const LIST_PAGE = 30;
/** The api's largest page: a reload asks for everything shown so far in one go, up to this. */
const MAX_PAGE = 200;
/** Typing pauses this long before the search is asked. */
export const SEARCH_DELAY_MS = 250;
/** A burst of activity (HEAD moves, navigations) is read back from the api once. */
const RELOAD_DELAY_MS = 400;
/**
 * Socket events reach only the conversations this tab has joined; activity anywhere else (another
 * tab, a phone) shows up on this beat, or when the window gets focus back.
 */
export const REFRESH_EVERY_MS = 30_000;
/** Titles of conversations not listed yet kept at most (see `titlesHeard`). */
const TITLES_HEARD = 100;

/**
 * The signed-in user's conversations for the sidebar and the drawer, by last activity. It reloads
 * after navigations, on focus and on a beat, and moves a conversation to the top as soon as this
 * tab sees activity in it (a `head` event, or `touched` from whoever sent something).
 */
@Injectable({ providedIn: 'root' })
export class ConversationListService {
  private readonly api = inject(ApiService);
  private readonly session = inject(SessionService);
  private readonly socket = inject(SocketClientService);
  private readonly archives = inject(PendingArchives);

  private readonly loaded = signal<readonly Conversation[] | null>(null);
  /** How many items a reload asks for: a page, or all that "Show more" has revealed. */
  private wanted = LIST_PAGE;
  /** Answers to outdated requests (an older search, a reload overtaken by another) are dropped. */
  private ticket = 0;
  /**
   * Titles heard for conversations not in the list yet: a new conversation is titled from its
   * first message as that message is sent, before it is `added` here.
   */
  private readonly titlesHeard = new Map<string, string>();
  private reloadTimer: ReturnType<typeof setTimeout> | null = null;
  private searchTimer: ReturnType<typeof setTimeout> | null = null;

  /** The list to show, archives waiting out their undo window hidden; null until first loaded. */
  readonly items = computed(() => {
    const hidden = this.archives.hidden();
    return this.loaded()?.filter((c) => !hidden.has(c.id)) ?? null;
  });
  readonly next = signal<string | null>(null);
  readonly query = signal('');
  readonly error = signal<string | null>(null);
  readonly loadingMore = signal(false);
  /** The conversation open at /c/:id, if any. */
  readonly currentId = signal<string | null>(null);
  /** The clock relative times are told by; it moves on the refresh beat. */
  readonly now = signal(Date.now());

  constructor() {
    const router = inject(Router);
    const view = inject(DOCUMENT).defaultView;
    this.currentId.set(openConversationId(router.url));
    const navigation = router.events.subscribe((event) => {
      if (!(event instanceof NavigationEnd)) return;
      this.currentId.set(openConversationId(event.urlAfterRedirects));
      this.scheduleReload();
    });
    const onFocus = (): void => this.scheduleReload();
    view?.addEventListener('focus', onFocus);
    const beat = setInterval(() => {
      this.now.set(Date.now());
      if (view?.document.visibilityState !== 'hidden') void this.reload();
    }, REFRESH_EVERY_MS);
    // Subscribed again on every (re)connect, since sign-out drops the socket and its listeners.
    let unfollow: (() => void)[] = [];
    const stopConnect = this.socket.onConnect(() => {
      for (const stop of unfollow) stop();
      unfollow = [
        this.socket.on('head', (event) => this.touched(event.conversationId)),
        this.socket.on('title', (event) => this.titled(event.conversationId, event.title)),
      ];
    });
    // A new session (or none): start over.
    effect(() => {
      const token = this.session.token();
      untracked(() => {
        this.loaded.set(null);
        this.next.set(null);
        this.error.set(null);
        if (token) void this.reload();
      });
    });
    inject(DestroyRef).onDestroy(() => {
      navigation.unsubscribe();
      view?.removeEventListener('focus', onFocus);
      clearInterval(beat);
      stopConnect();
      for (const stop of unfollow) stop();
      this.clearTimers();
    });
  }

  /** Reads the first page again (or as many as are shown), for the current search. */
  async reload(): Promise<void> {
    if (!this.session.signedIn()) return;
    const ticket = ++this.ticket;
    const q = this.query().trim();
    try {
      const page = await this.api.listConversations({ ...(q ? { q } : {}), limit: this.wanted });
      if (ticket !== this.ticket) return;
      this.loaded.set(page.items);
      this.next.set(page.next);
      this.error.set(null);
      this.now.set(Date.now());
    } catch (error: unknown) {
      if (ticket === this.ticket) this.error.set(describeError(error));
    }
  }

  /** The next page, after the last one shown. */
  async more(): Promise<void> {
    const before = this.next();
    if (!before || this.loadingMore()) return;
    const ticket = this.ticket;
    const q = this.query().trim();
    this.loadingMore.set(true);
    try {
      const page = await this.api.listConversations({ ...(q ? { q } : {}), limit: LIST_PAGE, before });
      if (ticket !== this.ticket) return;
      const have = new Set(this.loaded()?.map((c) => c.id));
      const all = [...(this.loaded() ?? []), ...page.items.filter((c) => !have.has(c.id))];
      this.loaded.set(all);
      this.next.set(page.next);
      this.wanted = Math.min(MAX_PAGE, Math.max(LIST_PAGE, all.length));
    } catch (error: unknown) {
      this.error.set(describeError(error));
    } finally {
      this.loadingMore.set(false);
    }
  }

  /** Filters by title; asked once typing pauses. */
  search(query: string): void {
    if (query === this.query()) return;
    this.query.set(query);
    if (this.searchTimer) clearTimeout(this.searchTimer);
    this.searchTimer = setTimeout(() => {
      this.searchTimer = null;
      this.wanted = LIST_PAGE;
      void this.reload();
    }, SEARCH_DELAY_MS);
  }

  /**
   * Something happened in `id` just now (a message sent, a reply arrived): it moves to the top at
   * once, and the list is read back from the api shortly after.
   */
  touched(id: string): void {
    const list = this.loaded();
    const item = list?.find((c) => c.id === id);
    if (list && item) {
      const moved = { ...item, updatedAt: new Date().toISOString() };
      this.loaded.set([moved, ...list.filter((c) => c.id !== id)]);
    }
    this.scheduleReload();
  }

  /**
   * A conversation that was just created: shown at the top before the api is asked again, with
   * the title it was given meanwhile.
   */
  added(conversation: Conversation): void {
    const title = this.titlesHeard.get(conversation.id);
    this.titlesHeard.delete(conversation.id);
    const shown = title === undefined ? conversation : { ...conversation, title };
    this.loaded.update((list) => [shown, ...(list ?? []).filter((c) => c.id !== conversation.id)]);
    this.scheduleReload();
  }

  private titled(id: string, title: string): void {
    if (this.loaded()?.some((c) => c.id === id)) {
      this.patch(id, { title });
      return;
    }
    // Bounded: a title forgotten here only shows on the next reload.
    if (this.titlesHeard.size >= TITLES_HEARD) this.titlesHeard.clear();
    this.titlesHeard.set(id, title);
  }

  /** Renames; the list shows the new title once the api has it. Rejects with an ApiError. */
  async rename(id: string, title: string): Promise<Conversation> {
    const renamed = await this.api.rename(id, { title });
    this.patch(id, { title: renamed.title, updatedAt: renamed.updatedAt });
    return renamed;
  }

  private patch(id: string, change: Partial<Conversation>): void {
    this.loaded.update((list) => list?.map((c) => (c.id === id ? { ...c, ...change } : c)) ?? null);
  }

  private scheduleReload(): void {
    if (!this.session.signedIn()) return;
    if (this.reloadTimer) clearTimeout(this.reloadTimer);
    this.reloadTimer = setTimeout(() => {
      this.reloadTimer = null;
      void this.reload();
    }, RELOAD_DELAY_MS);
  }

  private clearTimers(): void {
    if (this.reloadTimer) clearTimeout(this.reloadTimer);
    if (this.searchTimer) clearTimeout(this.searchTimer);
  }
}

/** The owner's conversation a URL opens (`/c/:id`, any of its tabs); admin views are not in the list. */
function openConversationId(url: string): string | null {
  const match = /^\/c\/([^/?#]+)/.exec(url);
  return match?.[1] ? decodeURIComponent(match[1]) : null;
}
