import { ChangeDetectionStrategy, Component, computed, inject, signal } from '@angular/core';
import { Router, RouterLink } from '@angular/router';
import {
  type AdminReflogEntry,
  type AdminReflogQuery,
  type Conversation,
  REFLOG_ACTIONS,
  type ReflogAction,
} from '@sweatpants/domain';

import { describeError } from '../core/api-error';
import { ApiService } from '../core/api.service';
import { SessionService } from '../core/session.service';
import { HealthService } from '../health/health.service';
import { type ReflogRow, ReflogViewComponent } from '../reflog/reflog-view.component';
import { ConversationUsageComponent } from '../conversation/conversation-usage.component';

const PAGE = 50;
/** How many conversations are read for their titles: the api's largest page. */
const TITLES_PAGE = 500;

/** The actions of the filter, in words. */
const ACTION_WORDS: Record<string, string> = {
  create: 'Started',
  append: 'Added a message',
  rewind: 'Went back',
  edit: 'Edited',
  regenerate: 'Asked for another answer',
  cancel: 'Stopped',
  recover: 'Recovered a branch',
  compact: 'Summarised',
  fork: 'Forked',
  return: 'Came back to a question',
};

/** What happened across all users, filtered; an entry opens its conversation read-only. */
@Component({
  selector: 'app-admin-reflog-page',
  imports: [ConversationUsageComponent, ReflogViewComponent, RouterLink],
  template: `
    <div class="row head">
      <h1>Audit: reflog</h1>
      <div class="row">
        @if (health.queuesInRedis()) {
          <button type="button" class="button button--small" (click)="openQueues()">Job queues</button>
        }
        <a routerLink="/admin/conversations" class="button button--small">All conversations</a>
        <a routerLink="/admin/accounts" class="button button--small">Accounts</a>
        <a routerLink="/admin/spend" class="button button--small">Spend</a>
      </div>
    </div>
    @if (queuesError(); as e) {
      <p class="error" role="alert">{{ e }}</p>
    }
    <form class="card filters" aria-label="Filters" (submit)="$event.preventDefault(); search(false)">
      <label class="field">
        <span>User id</span>
        <input #u class="input" name="userId" (input)="set('userId', u.value)" />
      </label>
      <label class="field">
        <span>Conversation id</span>
        <input #c class="input" name="conversationId" (input)="set('conversationId', c.value)" />
      </label>
      <label class="field">
        <span>Action</span>
        <select #a class="input" name="action" (change)="set('action', a.value)">
          <option value="">Any</option>
          @for (action of actions; track action) {
            <option [value]="action">{{ actionWords(action) }}</option>
          }
        </select>
      </label>
      <label class="field">
        <span>Since</span>
        <input #s class="input" name="since" type="datetime-local" (input)="set('since', s.value)" />
      </label>
      <label class="field">
        <span>Until</span>
        <input #t class="input" name="until" type="datetime-local" (input)="set('until', t.value)" />
      </label>
      <div class="row submit">
        <button type="submit" class="button button--primary">Search</button>
      </div>
    </form>
    @if (error(); as e) {
      <p class="error" role="alert">{{ e }}</p>
    }
    @if (searched(); as s) {
      <app-conversation-usage
        class="usage"
        [conversationId]="s.id"
        [title]="titles().get(s.id) ?? null"
        [model]="models().get(s.id) ?? null"
        [reread]="s.search"
      />
    }
    <app-reflog-view
      [entries]="entries()"
      [readonly]="true"
      [showConversation]="true"
      [you]="you()"
      [names]="names()"
      [titles]="titles()"
      [agents]="agents()"
      (inspect)="open($event)"
    />
    @if (next()) {
      <div class="row more">
        <button type="button" class="button" (click)="search(true)">Earlier</button>
      </div>
    }
  `,
  styles: `
    .head {
      justify-content: space-between;
    }
    .filters {
      display: grid;
      grid-template-columns: repeat(auto-fill, minmax(12rem, 1fr));
      gap: var(--space-3);
      margin-bottom: var(--space-5);
    }
    .submit {
      align-self: end;
    }
    .usage {
      display: block;
      margin-bottom: var(--space-4);
    }
    .more {
      margin-top: var(--space-4);
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class AdminReflogPageComponent {
  protected readonly health = inject(HealthService);
  protected readonly queuesError = signal<string | null>(null);

  /** The dashboard is a page of the api's: a cookie for its path first, then a new tab. */
  protected async openQueues(): Promise<void> {
    this.queuesError.set(null);
    try {
      await this.api.openQueueDashboard();
      window.open('/api/admin/queues/', '_blank', 'noopener');
    } catch (error: unknown) {
      this.queuesError.set(describeError(error));
    }
  }

  private readonly api = inject(ApiService);
  private readonly router = inject(Router);
  private readonly session = inject(SessionService);

  protected readonly actions = REFLOG_ACTIONS;
  protected readonly entries = signal<AdminReflogEntry[]>([]);
  protected readonly next = signal<string | null>(null);
  protected readonly error = signal<string | null>(null);
  private readonly filters = signal<Record<string, string>>({});
  /**
   * The one conversation the shown entries are filtered to, if any, and which search that was:
   * its model usage shows too, read again at every search.
   */
  protected readonly searched = signal<{ id: string; search: number } | null>(null);
  private searches = 0;
  private readonly conversations = signal<Conversation[]>([]);

  protected readonly you = computed(() => this.session.user()?.id ?? null);
  /** the people this page knows by name: the signed-in admin */
  protected readonly names = computed(() => {
    const user = this.session.user();
    return new Map<string, string>(user ? [[user.id, user.displayName]] : []);
  });
  protected readonly titles = computed(() => new Map(this.conversations().map((c) => [c.id, c.title])));
  protected readonly agents = computed(() => new Map(this.conversations().map((c) => [c.id, c.agent])));
  protected readonly models = computed(() => new Map(this.conversations().map((c) => [c.id, c.model])));

  constructor() {
    void this.search(false);
    void this.loadTitles();
  }

  protected actionWords(action: string): string {
    return ACTION_WORDS[action] ?? action;
  }

  protected set(key: string, value: string): void {
    this.filters.update((f) => ({ ...f, [key]: value.trim() }));
  }

  protected async search(older: boolean): Promise<void> {
    const f = this.filters();
    const query: Partial<AdminReflogQuery> = { limit: PAGE };
    if (f['userId']) query.userId = f['userId'];
    if (f['conversationId']) query.conversationId = f['conversationId'];
    if (f['action']) query.action = f['action'] as ReflogAction;
    if (f['since']) query.since = new Date(f['since']).toISOString();
    if (f['until']) query.until = new Date(f['until']).toISOString();
    const before = older ? this.next() : null;
    if (before) query.before = before;
    try {
      const page = await this.api.adminReflog(query);
      this.entries.update((list) => (older ? [...list, ...page.entries] : page.entries));
      this.next.set(page.next);
      this.error.set(null);
      if (!older) {
        const id = query.conversationId;
        this.searched.set(id ? { id, search: ++this.searches } : null);
      }
      void this.loadMissingTitles(page.entries);
    } catch (error: unknown) {
      this.error.set(describeError(error));
    }
  }

  /** The conversations' titles and agents, so entries name them instead of their ids. */
  private async loadTitles(): Promise<void> {
    try {
      const page = await this.api.adminConversations({ limit: TITLES_PAGE });
      this.merge(page.items);
    } catch {
      // without titles the entries say "a conversation"; the search's own error is shown
    }
  }

  /** Titles of conversations past the first page, read per owner (a few owners at a time). */
  private async loadMissingTitles(entries: readonly AdminReflogEntry[]): Promise<void> {
    const known = this.titles();
    const owners = [...new Set(entries.filter((e) => !known.has(e.conversationId)).map((e) => e.ownerId))];
    for (const userId of owners.slice(0, 5)) {
      try {
        const page = await this.api.adminConversations({ userId, limit: TITLES_PAGE });
        this.merge(page.items);
      } catch {
        return;
      }
    }
  }

  private merge(items: readonly Conversation[]): void {
    this.conversations.update((list) => {
      const have = new Set(list.map((c) => c.id));
      return [...list, ...items.filter((c) => !have.has(c.id))];
    });
  }

  protected open(entry: ReflogRow): void {
    if (entry.conversationId) void this.router.navigate(['/admin/c', entry.conversationId, 'reflog']);
  }
}
