import { DatePipe } from '@angular/common';
import { ChangeDetectionStrategy, Component, inject, signal } from '@angular/core';
import { RouterLink } from '@angular/router';
import type { Conversation } from '@sweatpants/domain';

import { describeError } from '../core/api-error';
import { ApiService } from '../core/api.service';

/** Every user's conversations, to open any of them read-only. */
@Component({
  selector: 'app-admin-conversations-page',
  imports: [DatePipe, RouterLink],
  template: `
    <div class="row head">
      <h1>Audit: conversations</h1>
      <a routerLink="/admin" class="button button--small">Reflog</a>
    </div>
    <form class="row filters" (submit)="$event.preventDefault(); load(false)">
      <label class="field grow">
        <span>User id</span>
        <input #u class="input" name="userId" (input)="userId.set(u.value.trim())" />
      </label>
      <button type="submit" class="button button--primary">Filter</button>
    </form>
    @if (error(); as e) {
      <p class="error" role="alert">{{ e }}</p>
    }
    <ul class="list">
      @for (c of items(); track c.id) {
        <li class="card">
          <a [routerLink]="['/admin/c', c.id]">{{ c.title || 'Untitled' }}</a>
          <span class="small muted">
            {{ c.agent }} · owner {{ c.ownerId }} · {{ c.updatedAt | date: 'medium' }}
          </span>
        </li>
      } @empty {
        <li class="muted">No conversations.</li>
      }
    </ul>
    @if (next()) {
      <button type="button" class="button" (click)="load(true)">More</button>
    }
  `,
  styles: `
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
      padding: var(--space-3) var(--space-4);
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class AdminConversationsPageComponent {
  private readonly api = inject(ApiService);
  protected readonly items = signal<Conversation[]>([]);
  protected readonly next = signal<string | null>(null);
  protected readonly userId = signal('');
  protected readonly error = signal<string | null>(null);

  constructor() {
    void this.load(false);
  }

  protected async load(more: boolean): Promise<void> {
    try {
      const before = more ? this.next() : null;
      const page = await this.api.adminConversations({
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
