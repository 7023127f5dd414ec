import { ChangeDetectionStrategy, Component, computed, effect, inject, input, signal } from '@angular/core';
import type { ConversationUsage, ModelKind } from '@sweatpants/domain';

import { ApiService } from '../core/api.service';
import { ApiError, describeError } from '../core/api-error';
import { usageWords } from './usage-words';

/** The usage of the conversation asked about: on its way, read, not a conversation, or failed. */
type Usage =
  | { state: 'loading' }
  | { state: 'done'; usage: ConversationUsage }
  | { state: 'none' }
  | { state: 'failed'; error: string };

/**
 * What one conversation's model calls cost, in plain words, for admins: calls and tokens summed over
 * every branch, as billed. Shows nothing for an id that names no conversation.
 */
@Component({
  selector: 'app-conversation-usage',
  template: `
    @switch (state().state) {
      @case ('loading') {
        <p class="small muted" role="status">Reading what its model calls cost…</p>
      }
      @case ('done') {
        <section class="card usage" [attr.aria-label]="label()">
          <h2 class="small muted">{{ label() }}</h2>
          <p class="line">{{ words() }}</p>
          @if (model() === 'offline') {
            <p class="small muted">
              Estimated: the offline model answered, not Claude, so nothing was billed.
            </p>
          }
        </section>
      }
      @case ('failed') {
        <p class="error small" role="alert">Could not read what its model calls cost. {{ error() }}</p>
      }
    }
  `,
  styles: `
    .usage {
      display: flex;
      flex-direction: column;
      gap: var(--space-1);
      padding: var(--space-3) var(--space-4);
    }
    h2,
    p {
      margin: 0;
    }
    h2 {
      font-weight: 500;
    }
    .line {
      overflow-wrap: anywhere;
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class ConversationUsageComponent {
  private readonly api = inject(ApiService);

  readonly conversationId = input.required<string>();
  /** its title, when the page knows it */
  readonly title = input<string | null>(null);
  /** its model, when the page knows it: the offline model's counts are estimates */
  readonly model = input<ModelKind | null>(null);
  /** another value reads the usage again (the page searched again) */
  readonly reread = input(0);

  protected readonly state = signal<Usage>({ state: 'loading' });
  private shownFor: string | null = null;
  protected readonly label = computed(() => {
    const title = this.title();
    return title ? `Model usage of “${title}”` : 'Model usage';
  });
  protected readonly words = computed(() => {
    const s = this.state();
    return s.state === 'done' ? usageWords(s.usage) : '';
  });
  protected readonly error = computed(() => {
    const s = this.state();
    return s.state === 'failed' ? s.error : '';
  });

  constructor() {
    effect((onCleanup) => {
      const id = this.conversationId();
      this.reread();
      let live = true;
      // Read again for the same conversation, the numbers shown stay until the new ones come.
      if (id !== this.shownFor) this.state.set({ state: 'loading' });
      this.shownFor = id;
      this.api.adminUsage(id).then(
        (usage) => {
          if (live) this.state.set({ state: 'done', usage });
        },
        (error: unknown) => {
          if (!live) return;
          // An id that names no conversation: the reflog beside says so, by finding nothing.
          const none = error instanceof ApiError && error.code === 'not_found';
          this.state.set(none ? { state: 'none' } : { state: 'failed', error: describeError(error) });
        },
      );
      onCleanup(() => {
        live = false;
      });
    });
  }
}
