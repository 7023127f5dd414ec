import {
  afterNextRender,
  ChangeDetectionStrategy,
  Component,
  computed,
  DestroyRef,
  inject,
  Injector,
  signal,
  viewChild,
} from '@angular/core';
import { Router } from '@angular/router';
import type { ElicitAnswerRequest } from '@sweatpants/domain';

import { describeError } from '../core/api-error';
import { ChatElicitComponent } from '../elicit/chat-elicit.component';
import type { ElicitQuestion } from '../elicit/elicit-question';
import { AGENT_CHOICES, type AgentChoice, DEFAULT_AGENT } from './agents';
import { ConversationStarter } from './conversation-starter';

/**
 * The home page: pick an agent, read how it opens, write the first message. Nothing exists on the
 * server until that message is sent; then the conversation is made and opened.
 */
@Component({
  selector: 'app-new-conversation-page',
  imports: [ChatElicitComponent],
  template: `
    <section class="start" aria-labelledby="start-heading">
      <h1 id="start-heading">Start a conversation</h1>
      <div class="choices" role="group" aria-label="Choose an agent">
        @for (a of agents; track a.name) {
          <button
            type="button"
            class="choice"
            [attr.aria-pressed]="a.name === chosen().name"
            [disabled]="starter.starting()"
            (click)="choose(a)"
          >
            <span class="choice__label">{{ a.label }}</span>
            <small>{{ a.blurb }}</small>
          </button>
        }
      </div>

      <div class="chat">
        <p class="intro">
          <span class="intro__who">{{ chosen().label }}</span>
          {{ chosen().intro }}
        </p>
        <app-chat-elicit [question]="question()" [disabled]="starter.starting()" (answered)="send($event)" />
        <p class="muted small" role="status">{{ starter.starting() ? 'Starting…' : '' }}</p>
        @if (error(); as e) {
          <p class="error" role="alert">{{ e }}</p>
        }
      </div>
    </section>
  `,
  styles: `
    .start {
      display: flex;
      flex-direction: column;
      gap: var(--space-4);
      max-width: 44rem;
      margin: 0 auto;
    }
    /* The two agents share the row on a wide screen, one under the other on a phone. */
    .choices {
      grid-template-columns: repeat(auto-fit, minmax(14rem, 1fr));
    }
    .choice__label {
      font-weight: 600;
    }
    .chat {
      display: flex;
      flex-direction: column;
      gap: var(--space-3);
      margin-top: var(--space-3);
    }
    .intro {
      display: flex;
      flex-direction: column;
      align-self: flex-start;
      max-width: min(36rem, 92%);
      margin: 0;
      padding: var(--space-3) var(--space-4);
      border: 1px solid var(--color-border);
      border-radius: 1.1rem 1.1rem 1.1rem 0.3rem;
      background: var(--color-surface);
    }
    .intro__who {
      color: var(--color-muted);
      font-size: 0.8125rem;
      font-weight: 500;
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class NewConversationPageComponent {
  protected readonly starter = inject(ConversationStarter);
  private readonly router = inject(Router);
  private readonly injector = inject(Injector);
  private readonly composer = viewChild.required(ChatElicitComponent);

  protected readonly agents = AGENT_CHOICES;
  protected readonly chosen = signal<AgentChoice>(DEFAULT_AGENT);
  protected readonly question = computed<ElicitQuestion>(() => ({
    type: 'chat',
    message: '',
    payload: { placeholder: this.chosen().placeholder },
  }));
  protected readonly error = signal<string | null>(null);
  private left = false;

  constructor() {
    inject(DestroyRef).onDestroy(() => (this.left = true));
  }

  protected choose(agent: AgentChoice): void {
    this.chosen.set(agent);
    this.error.set(null);
    afterNextRender(() => this.composer().focus(), { injector: this.injector });
  }

  /** Creates the conversation with this first message and opens it; on failure the words stay. */
  protected async send(response: ElicitAnswerRequest<'chat'>): Promise<void> {
    if (response.action !== 'accept') return;
    this.error.set(null);
    try {
      const { text, photos } = response.content;
      const conversation = await this.starter.start(this.chosen().name, {
        text,
        ...(photos ? { photos } : {}),
      });
      if (this.left) return; // the person went elsewhere meanwhile: the list shows it
      this.composer().clear();
      await this.router.navigate(['/c', conversation.id]);
    } catch (error: unknown) {
      this.error.set(describeError(error));
    }
  }
}
