import { computed, DestroyRef, DOCUMENT, inject, Injectable, signal } from '@angular/core';
import { Router } from '@angular/router';
import type { Conversation } from '@sweatpants/domain';

import { describeError } from '../core/api-error';
import { ApiService } from '../core/api.service';
import { SessionService } from '../core/session.service';

/** How long an archived conversation can still be taken back with Undo. */
export const UNDO_WINDOW_MS = 6_000;

/** An archive in its undo window. */
export interface PendingArchive {
  readonly conversation: Conversation;
  /** it was the conversation open at /c/:id, so Undo brings the person back to it */
  readonly wasOpen: boolean;
}

/**
 * Archives that can be undone. DELETE /api/conversations/:id archives (nothing is deleted) and
 * POST …/unarchive takes one back, but an Undo that only cancels a request not yet sent is quicker
 * and never races the agent being stopped: so an archive hides the conversation at first, and the
 * DELETE goes out when the undo window ends, or at once when the page goes away (pagehide, the app
 * torn down, sign-out), sent with `keepalive` so it outlives the page. After that, the Archived
 * section brings a conversation back.
 */
@Injectable({ providedIn: 'root' })
export class PendingArchives {
  private readonly api = inject(ApiService);
  private readonly session = inject(SessionService);
  private readonly router = inject(Router);
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly waiting = signal<readonly PendingArchive[]>([]);
  /** Sent and done this session, newest first: hidden from the list until it is read again. */
  private readonly sent = signal<readonly Conversation[]>([]);

  /** Archives still in their undo window, oldest first. */
  readonly pending = this.waiting.asReadonly();
  /** Archived by this tab and sent, newest first (the Archived section shows them before the api does). */
  readonly done = this.sent.asReadonly();
  /** The one the toast offers to undo: the latest. */
  readonly latest = computed(() => this.waiting().at(-1)?.conversation ?? null);
  /** Conversations the list should not show. */
  readonly hidden = computed<ReadonlySet<string>>(
    () => new Set([...this.sent().map((c) => c.id), ...this.waiting().map((p) => p.conversation.id)]),
  );
  /** A DELETE the api refused, in plain words; the conversation is back in the list. */
  readonly error = signal<string | null>(null);

  constructor() {
    const view = inject(DOCUMENT).defaultView;
    const onPageHide = (): void => this.flush();
    view?.addEventListener('pagehide', onPageHide);
    inject(DestroyRef).onDestroy(() => {
      view?.removeEventListener('pagehide', onPageHide);
      this.flush();
    });
  }

  /**
   * Hides `conversation` now; the DELETE follows when the undo window ends. `wasOpen`: it is the
   * one on screen, which the caller leaves, and Undo comes back to.
   */
  archive(conversation: Conversation, wasOpen = false): void {
    if (this.timers.has(conversation.id)) return;
    this.error.set(null);
    this.waiting.update((list) => [...list, { conversation, wasOpen }]);
    this.timers.set(
      conversation.id,
      setTimeout(() => void this.send(conversation), UNDO_WINDOW_MS),
    );
  }

  /**
   * Takes an archive back before it was sent; answers whether there was one to take back. One that
   * was open is opened again, unless the person has gone on to something else since (archiving
   * left them on the home page; anywhere else, they chose to be there).
   */
  undo(id: string): boolean {
    const timer = this.timers.get(id);
    if (timer === undefined) return false;
    clearTimeout(timer);
    this.timers.delete(id);
    const taken = this.waiting().find((p) => p.conversation.id === id);
    this.waiting.update((list) => list.filter((p) => p.conversation.id !== id));
    if (taken?.wasOpen && this.router.url === '/') void this.router.navigate(['/c', id]);
    return true;
  }

  /** An archived conversation was unarchived: the list may show it again. */
  restored(id: string): void {
    this.sent.update((list) => list.filter((c) => c.id !== id));
  }

  /**
   * Sends every pending archive now. A plain fetch with `keepalive`, not HttpClient: the request
   * must start before this call returns and survive the page being unloaded.
   */
  flush(): void {
    const token = this.session.token();
    const flushed = this.waiting().map((p) => p.conversation);
    for (const [id, timer] of this.timers) {
      clearTimeout(timer);
      if (token) {
        fetch(`/api/conversations/${encodeURIComponent(id)}`, {
          method: 'DELETE',
          keepalive: true,
          headers: { Authorization: `Bearer ${token}` },
        }).catch(() => undefined);
      }
    }
    this.timers.clear();
    if (flushed.length === 0) return;
    this.sent.update((list) => [...flushed.reverse(), ...list]);
    this.waiting.set([]);
  }

  private async send(conversation: Conversation): Promise<void> {
    this.timers.delete(conversation.id);
    try {
      await this.api.archive(conversation.id);
      this.sent.update((list) => [conversation, ...list.filter((c) => c.id !== conversation.id)]);
    } catch (error: unknown) {
      const title = conversation.title || 'New conversation';
      this.error.set(`Could not archive '${title}'. ${describeError(error)}`);
    } finally {
      this.waiting.update((list) => list.filter((p) => p.conversation.id !== conversation.id));
    }
  }
}
