import { DatePipe } from '@angular/common';
import { ChangeDetectionStrategy, Component, inject, signal } from '@angular/core';
import { Router, RouterLink } from '@angular/router';
import type { AgentName, Conversation } from '@sweatpants/domain';

import { describeError } from '../core/api-error';
import { ApiService } from '../core/api.service';

const AGENTS: { name: AgentName; label: string; blurb: string }[] = [
  { name: 'tidying', label: 'Tidying coach', blurb: 'One item at a time, one tap each, no judgement.' },
  { name: 'concierge', label: 'Concierge', blurb: 'Sorts your quarantined items with you, in batches.' },
];

/** Your conversations, newest first, and a way to start one with either agent. */
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
      @if (items(); as list) {
        @if (list.length === 0) {
          <p class="muted">None yet.</p>
        }
        <ul class="list">
          @for (c of list; track c.id) {
            <li>
              <a class="card conversation" [routerLink]="['/c', c.id]">
                <span class="conversation__title">{{ c.title || 'Untitled' }}</span>
                <span class="row small muted">
                  <span class="pill">{{ c.agent }}</span>
                  <span>{{ c.status }}</span>
                  @if (c.model === 'offline') {
                    <span
                      class="badge"
                      title="Offline model: no API key is set, so replies come from simple rules, not Claude"
                      >offline model</span
                    >
                  }
                  <time [attr.datetime]="c.updatedAt">{{ c.updatedAt | date: 'medium' }}</time>
                </span>
              </a>
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
    .conversation {
      display: flex;
      flex-direction: column;
      gap: var(--space-1);
      padding: var(--space-4);
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
export class ConversationListPageComponent {
  private readonly api = inject(ApiService);
  private readonly router = inject(Router);

  protected readonly agents = AGENTS;
  protected readonly items = signal<Conversation[] | null>(null);
  protected readonly title = signal('');
  protected readonly busy = signal(false);
  protected readonly error = signal<string | null>(null);

  constructor() {
    this.api
      .listConversations()
      .then(({ items }) => this.items.set(items))
      .catch((error: unknown) => {
        this.items.set([]);
        this.error.set(describeError(error));
      });
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
}
