import { DatePipe } from '@angular/common';
import { ChangeDetectionStrategy, Component, computed, inject, signal } from '@angular/core';
import { RouterLink } from '@angular/router';
import type { Conversation, FsckReport, ListedConversation } from '@sweatpants/domain';

import { describeError } from '../core/api-error';
import { ApiService } from '../core/api.service';
import { SessionService } from '../core/session.service';
import { ConversationArchiveApi } from '../conversations/conversation-archive-api';
import { GcPanelComponent } from './gc-panel.component';
import { withoutIds } from './without-ids';

const AGENT_TITLES: Record<string, string> = { tidying: 'Tidying coach', concierge: 'Concierge' };

/** One conversation's integrity check: running, its report, or why it failed. */
type Check =
  { state: 'running' } | { state: 'done'; report: FsckReport } | { state: 'failed'; error: string };

/**
 * Every user's conversations, by title and owner, to open any of them read-only or check its
 * integrity; one its owner archived is marked Archived (it is out of their list, not deleted).
 */
@Component({
  selector: 'app-admin-conversations-page',
  imports: [DatePipe, GcPanelComponent, RouterLink],
  template: `
    <div class="row head">
      <h1>Audit: conversations</h1>
      <a routerLink="/admin" class="button button--small">Reflog</a>
    </div>
    <form class="row filters" (submit)="$event.preventDefault(); load(false)">
      <label class="field grow">
        <span>Owner's user id</span>
        <input #u class="input" name="userId" [value]="userId()" (input)="userId.set(u.value.trim())" />
      </label>
      <button type="submit" class="button button--primary">Filter</button>
      @if (userId()) {
        <button type="button" class="button" (click)="onlyOwner('')">Everyone's</button>
      }
    </form>
    @if (error(); as e) {
      <p class="error" role="alert">{{ e }}</p>
    }
    <ul class="list">
      @for (c of items(); track c.id) {
        <li class="card">
          <span class="row title">
            <a [routerLink]="['/admin/c', c.id]" [title]="'Conversation ' + c.id">{{
              c.title || 'Untitled'
            }}</a>
            @if (c.archivedAt; as at) {
              <span class="pill archived" [title]="'Archived by its owner ' + (at | date: 'medium')"
                >Archived</span
              >
            }
          </span>
          <span class="small muted">
            {{ agentTitle(c.agent) }} ·
            <span [title]="'Owner ' + c.ownerId">{{ ownerLabel(c) }}</span>
            · last active {{ c.updatedAt | date: 'medium' }}
          </span>
          <div class="row actions">
            <button type="button" class="button button--small" (click)="check(c)">Check integrity</button>
            @if (!userId() && c.ownerId !== you()) {
              <button type="button" class="button button--small button--quiet" (click)="onlyOwner(c.ownerId)">
                Only this owner's conversations
              </button>
            }
          </div>
          @if (checks().get(c.id); as k) {
            <p class="small check" role="status">
              @switch (k.state) {
                @case ('running') {
                  Checking…
                }
                @case ('done') {
                  @if (k.report.ok) {
                    Integrity: all {{ k.report.checked }} steps check out.
                  } @else {
                    Integrity: {{ k.report.problems.length }} problem(s) in {{ k.report.checked }} steps.
                    @for (p of k.report.problems; track $index) {
                      <br />{{ plain(p.problem) }}
                    }
                  }
                }
                @case ('failed') {
                  <span class="error">{{ k.error }}</span>
                }
              }
            </p>
          }
        </li>
      } @empty {
        <li class="muted">No conversations.</li>
      }
    </ul>
    @if (next()) {
      <button type="button" class="button" (click)="load(true)">More</button>
    }
    <app-gc-panel class="gc" />
  `,
  styles: `
    .gc {
      display: block;
      margin-top: var(--space-5);
    }
    .head {
      justify-content: space-between;
    }
    .filters {
      align-items: flex-end;
      margin-bottom: var(--space-4);
    }
    .grow {
      flex: 1;
    }
    .list {
      display: flex;
      flex-direction: column;
      gap: var(--space-2);
      margin: 0 0 var(--space-4);
      padding: 0;
      list-style: none;
    }
    .list .card {
      display: flex;
      flex-direction: column;
      gap: var(--space-1);
      padding: var(--space-3) var(--space-4);
    }
    .title {
      gap: var(--space-2);
    }
    .archived {
      border: 1px solid var(--color-border);
      color: var(--color-text);
    }
    .check {
      margin: 0;
      overflow-wrap: anywhere;
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class AdminConversationsPageComponent {
  private readonly api = inject(ApiService);
  private readonly archiveApi = inject(ConversationArchiveApi);
  protected readonly items = signal<ListedConversation[]>([]);
  protected readonly next = signal<string | null>(null);
  protected readonly userId = signal('');
  protected readonly error = signal<string | null>(null);
  protected readonly checks = signal<ReadonlyMap<string, Check>>(new Map());
  private readonly session = inject(SessionService);
  protected readonly you = computed(() => this.session.user()?.id ?? null);

  constructor() {
    void this.load(false);
  }

  protected agentTitle(agent: string): string {
    return AGENT_TITLES[agent] ?? agent;
  }

  /** The owner without their id (the api gives admins no names): yours, or another person's. */
  protected ownerLabel(c: Conversation): string {
    return c.ownerId === this.you() ? 'yours' : "another user's";
  }

  protected plain(problem: string): string {
    return withoutIds(problem);
  }

  protected onlyOwner(userId: string): void {
    this.userId.set(userId);
    void this.load(false);
  }

  /** fsck: the api verifies the conversation's hash chain, depths and history. */
  protected async check(c: Conversation): Promise<void> {
    this.setCheck(c.id, { state: 'running' });
    try {
      this.setCheck(c.id, { state: 'done', report: await this.api.fsck(c.id) });
    } catch (error: unknown) {
      this.setCheck(c.id, { state: 'failed', error: describeError(error) });
    }
  }

  private setCheck(id: string, check: Check): void {
    this.checks.update((map) => new Map(map).set(id, check));
  }

  protected async load(more: boolean): Promise<void> {
    try {
      const before = more ? this.next() : null;
      // Through the archive api, whose answer is typed with each conversation's `archivedAt`.
      const page = await this.archiveApi.everyones({
        limit: 50,
        ...(this.userId() ? { userId: this.userId() } : {}),
        ...(before ? { before } : {}),
      });
      this.items.update((list) => (more ? [...list, ...page.items] : page.items));
      this.next.set(page.next);
      this.error.set(null);
    } catch (error: unknown) {
      this.error.set(describeError(error));
    }
  }
}
