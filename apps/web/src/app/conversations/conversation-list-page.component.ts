import { DatePipe } from '@angular/common';
import { ChangeDetectionStrategy, Component, computed, inject, type OnDestroy, signal } from '@angular/core';
import { Router, RouterLink } from '@angular/router';
import type { AgentName, Conversation } from '@sweatpants/domain';

import { describeError } from '../core/api-error';
import { ApiService } from '../core/api.service';

const AGENTS: { name: AgentName; label: string; blurb: string }[] = [
  { name: 'tidying', label: 'Tidying coach', blurb: 'One item at a time, one tap each, no judgement.' },
  { name: 'concierge', label: 'Concierge', blurb: 'Sorts your quarantined items with you, in batches.' },
];

/** How long Undo is offered after a delete. */
const UNDO_MS = 6000;
/** Typing pauses this long before the search is asked. */
const SEARCH_DELAY_MS = 250;

/** Your conversations by last activity (search, rename, delete with Undo), and a way to start one. */
@Component({
  selector: 'app-conversation-list-page',
  imports: [DatePipe, RouterLink],
  template: `
    <section class="stack" aria-labelledby="new-heading">
      <h1 id="new-heading">Start a conversation</h1>
      <form class="stack" (submit)="$event.preventDefault()">
        <label class="field">
          <span>Title (optional)</span>
          <input
            #t
            class="input"
            name="title"
            placeholder="e.g. The hall closet"
            (input)="title.set(t.value)"
          />
        </label>
        <div class="choices" role="group" aria-label="Choose an agent">
          @for (agent of agents; track agent.name) {
            <button type="button" class="choice" [disabled]="busy()" (click)="create(agent.name)">
              <span>{{ agent.label }}</span>
              <small>{{ agent.blurb }}</small>
            </button>
          }
        </div>
      </form>
      @if (error(); as e) {
        <p class="error" role="alert">{{ e }}</p>
      }
    </section>

    <section class="stack list-section" aria-labelledby="list-heading">
      <h2 id="list-heading">Your conversations</h2>
      <label class="field">
        <span>Search titles</span>
        <input #q class="input" type="search" name="q" (input)="search(q.value)" />
      </label>
      @if (deleted(); as d) {
        <div class="card row undo" role="status">
          <span class="small">Deleted ‘{{ d.title || 'New conversation' }}’.</span>
          <button type="button" class="button button--small" (click)="undoDelete()">Undo</button>
        </div>
      }
      @if (visible(); as list) {
        @if (list.length === 0) {
          <p class="muted">{{ query() ? 'No conversation has that in its title.' : 'None yet.' }}</p>
        }
        <ul class="list">
          @for (c of list; track c.id) {
            <li class="card item">
              @if (renaming() === c.id) {
                <form class="row rename" (submit)="$event.preventDefault(); saveRename(c, name.value)">
                  <label class="visually-hidden" [for]="'rename-' + c.id">New title</label>
                  <input
                    #name
                    class="input"
                    [id]="'rename-' + c.id"
                    [value]="c.title"
                    (keydown.escape)="renaming.set(null)"
                  />
                  <button type="submit" class="button button--primary button--small">Save</button>
                  <button type="button" class="button button--small" (click)="renaming.set(null)">
                    Cancel
                  </button>
                </form>
              } @else {
                <a class="conversation" [routerLink]="['/c', c.id]">
                  <span class="conversation__title">{{ c.title || 'New conversation' }}</span>
                  <span class="row small muted">
                    <span class="pill">{{ c.agent }}</span>
                    <span>{{ c.status }}</span>
                    <time [attr.datetime]="c.updatedAt">{{ c.updatedAt | date: 'medium' }}</time>
                  </span>
                </a>
                <div class="row item__actions">
                  <button
                    type="button"
                    class="button button--quiet button--small"
                    (click)="renaming.set(c.id)"
                  >
                    Rename<span class="visually-hidden"> {{ c.title || 'New conversation' }}</span>
                  </button>
                  <button type="button" class="button button--quiet button--small" (click)="remove(c)">
                    Delete<span class="visually-hidden"> {{ c.title || 'New conversation' }}</span>
                  </button>
                </div>
              }
            </li>
          }
        </ul>
      } @else {
        <p class="muted" role="status">Loading…</p>
      }
    </section>
  `,
  styles: `
    .list-section {
      margin-top: var(--space-6);
    }
    .list {
      display: flex;
      flex-direction: column;
      gap: var(--space-3);
      margin: 0;
      padding: 0;
      list-style: none;
    }
    .item {
      display: flex;
      flex-wrap: wrap;
      align-items: center;
      justify-content: space-between;
      gap: var(--space-2);
      padding: var(--space-2);
    }
    .item__actions,
    .rename {
      gap: var(--space-2);
    }
    .rename .input {
      flex: 1;
      min-width: 12rem;
    }
    .undo {
      align-items: center;
      gap: var(--space-2);
      padding: var(--space-2) var(--space-3);
    }
    .conversation {
      display: flex;
      flex: 1;
      flex-direction: column;
      gap: var(--space-1);
      padding: var(--space-2);
      border-radius: var(--radius);
      color: inherit;
      text-decoration: none;
    }
    .conversation:hover {
      background: var(--color-hover);
    }
    .conversation__title {
      font-weight: 600;
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class ConversationListPageComponent implements OnDestroy {
  private readonly api = inject(ApiService);
  private readonly router = inject(Router);
  private searchTimer: ReturnType<typeof setTimeout> | null = null;
  private deleteTimer: ReturnType<typeof setTimeout> | null = null;
  private listTicket = 0;

  protected readonly agents = AGENTS;
  protected readonly items = signal<Conversation[] | null>(null);
  protected readonly title = signal('');
  protected readonly busy = signal(false);
  protected readonly error = signal<string | null>(null);
  protected readonly query = signal('');
  protected readonly renaming = signal<string | null>(null);
  /** Deleted a moment ago: hidden now, archived when Undo is no longer offered. */
  protected readonly deleted = signal<Conversation | null>(null);
  protected readonly visible = computed(() => {
    const items = this.items();
    const deleted = this.deleted();
    return items && deleted ? items.filter((c) => c.id !== deleted.id) : items;
  });

  constructor() {
    void this.load();
  }

  ngOnDestroy(): void {
    if (this.searchTimer) clearTimeout(this.searchTimer);
    // Leaving the page ends the chance to undo: the delete goes through now.
    this.commitDelete();
  }

  protected search(text: string): void {
    if (this.searchTimer) clearTimeout(this.searchTimer);
    this.searchTimer = setTimeout(() => {
      this.query.set(text.trim());
      void this.load();
    }, SEARCH_DELAY_MS);
  }

  protected async saveRename(conversation: Conversation, title: string): Promise<void> {
    const trimmed = title.trim();
    if (!trimmed) {
      this.error.set('A title needs at least one character.');
      return;
    }
    this.error.set(null);
    try {
      const renamed = await this.api.rename(conversation.id, { title: trimmed });
      this.items.update((list) => list?.map((c) => (c.id === renamed.id ? renamed : c)) ?? null);
      this.renaming.set(null);
    } catch (error: unknown) {
      this.error.set(describeError(error));
    }
  }

  /** Hides the conversation at once and offers Undo; the api hears of it only when that ends. */
  protected remove(conversation: Conversation): void {
    this.commitDelete();
    this.deleted.set(conversation);
    this.deleteTimer = setTimeout(() => this.commitDelete(), UNDO_MS);
  }

  protected undoDelete(): void {
    if (this.deleteTimer) clearTimeout(this.deleteTimer);
    this.deleteTimer = null;
    this.deleted.set(null);
  }

  protected async create(agent: AgentName): Promise<void> {
    this.busy.set(true);
    this.error.set(null);
    try {
      const title = this.title().trim();
      const conversation = await this.api.createConversation(title ? { agent, title } : { agent });
      await this.router.navigate(['/c', conversation.id]);
    } catch (error: unknown) {
      this.error.set(describeError(error));
    } finally {
      this.busy.set(false);
    }
  }

  private commitDelete(): void {
    if (this.deleteTimer) clearTimeout(this.deleteTimer);
    this.deleteTimer = null;
    const gone = this.deleted();
    if (!gone) return;
    this.deleted.set(null);
    this.items.update((list) => list?.filter((c) => c.id !== gone.id) ?? null);
    this.api.archive(gone.id).catch((error: unknown) => {
      this.error.set(`‘${gone.title || 'New conversation'}’ could not be deleted: ${describeError(error)}`);
      void this.load();
    });
  }

  private async load(): Promise<void> {
    const ticket = ++this.listTicket;
    try {
      const q = this.query();
      const { items } = await this.api.listConversations(q ? { q } : {});
      if (ticket === this.listTicket) this.items.set(items);
    } catch (error: unknown) {
      if (ticket !== this.listTicket) return;
      this.items.set([]);
      this.error.set(describeError(error));
    }
  }
}
