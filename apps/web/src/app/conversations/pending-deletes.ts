import { computed, DestroyRef, DOCUMENT, inject, Injectable, signal } from '@angular/core';
import type { Conversation } from '@sweatpants/domain';

import { describeError } from '../core/api-error';
import { ApiService } from '../core/api.service';
import { SessionService } from '../core/session.service';

/** How long a deleted conversation can still be taken back. */
export const UNDO_WINDOW_MS = 6_000;

/**
 * Deletes that can be undone. The api archives on DELETE and has no way back, so a delete only
 * hides the conversation at first; the DELETE goes out when the undo window ends, or at once when
 * the page goes away (pagehide, the app torn down, sign-out), sent with `keepalive` so it outlives
 * the page.
 */
@Injectable({ providedIn: 'root' })
export class PendingDeletes {
  private readonly api = inject(ApiService);
  private readonly session = inject(SessionService);
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly waiting = signal<readonly Conversation[]>([]);
  /** Sent and done: hidden until the list is next read from the api, which no longer has them. */
  private readonly archived = signal<ReadonlySet<string>>(new Set());

  /** Deletes still in their undo window, oldest first. */
  readonly pending = this.waiting.asReadonly();
  /** The one the toast offers to undo: the latest. */
  readonly latest = computed(() => this.waiting().at(-1) ?? null);
  /** Conversations a list should not show. */
  readonly hidden = computed<ReadonlySet<string>>(
    () => new Set([...this.archived(), ...this.waiting().map((c) => c.id)]),
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

  /** Hides `conversation` now; the DELETE follows when the undo window ends. */
  delete(conversation: Conversation): void {
    if (this.timers.has(conversation.id)) return;
    this.error.set(null);
    this.waiting.update((list) => [...list, conversation]);
    this.timers.set(
      conversation.id,
      setTimeout(() => void this.send(conversation), UNDO_WINDOW_MS),
    );
  }

  /** Takes a delete back before it was sent; answers whether there was one to take back. */
  undo(id: string): boolean {
    const timer = this.timers.get(id);
    if (timer === undefined) return false;
    clearTimeout(timer);
    this.timers.delete(id);
    this.waiting.update((list) => list.filter((c) => c.id !== id));
    return true;
  }

  /**
   * Sends every pending delete now. A plain fetch with `keepalive`, not HttpClient: the request
   * must start before this call returns and survive the page being unloaded.
   */
  flush(): void {
    const token = this.session.token();
    const ids = [...this.timers.keys()];
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
    if (ids.length === 0) return;
    this.archived.update((set) => new Set([...set, ...ids]));
    this.waiting.set([]);
  }

  private async send(conversation: Conversation): Promise<void> {
    this.timers.delete(conversation.id);
    try {
      await this.api.archive(conversation.id);
      this.archived.update((set) => new Set(set).add(conversation.id));
    } catch (error: unknown) {
      const title = conversation.title || 'New conversation';
      this.error.set(`Could not delete '${title}'. ${describeError(error)}`);
    } finally {
      this.waiting.update((list) => list.filter((c) => c.id !== conversation.id));
    }
  }
}
