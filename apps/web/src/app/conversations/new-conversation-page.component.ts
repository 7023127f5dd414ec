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
import type { AgentInfo, ElicitAnswerRequest } from '@sweatpants/domain';

import { describeError } from '../core/api-error';
import { ChatElicitComponent } from '../elicit/chat-elicit.component';
import type { ElicitQuestion } from '../elicit/elicit-question';
import { AgentsService } from './agents.service';
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
        @for (a of agents.list(); track a.name) {
          <button
            type="button"
            class="choice"
            [attr.aria-pressed]="a.name === chosen()?.name"
            [disabled]="starter.starting()"
            (click)="choose(a)"
          >
            <span class="choice__label">{{ a.title }}</span>
            <small>{{ a.description }}</small>
          </button>
        }
      </div>

      <div class="chat">
        @if (chosen(); as agent) {
          <p class="intro">
            <span class="intro__who">{{ agent.title }}</span>
            {{ agent.intro }}
          </p>
        }
        <app-chat-elicit
          [question]="question()"
          [disabled]="starter.starting() || chosen() === null"
          [takesPhotos]="chosen()?.needs?.includes('photos') ?? true"
          (answered)="send($event)"
        />
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
    /* The agents share the row on a wide screen, one under the other on a phone. */
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

  protected readonly agents = inject(AgentsService);
  /** the agent picked; the first registered until the person picks another */
  private readonly picked = signal<string | null>(null);
  protected readonly chosen = computed<AgentInfo | null>(() => {
    const list = this.agents.list();
    return list.find((a) => a.name === this.picked()) ?? list[0] ?? null;
  });
  protected readonly question = computed<ElicitQuestion>(() => ({
    type: 'chat',
    message: '',
    payload: { placeholder: this.chosen()?.placeholder ?? '' },
  }));
  protected readonly error = signal<string | null>(null);
  private left = false;

  constructor() {
    inject(DestroyRef).onDestroy(() => (this.left = true));
    this.agents.load().catch(() => undefined);
  }

  protected choose(agent: AgentInfo): void {
    this.picked.set(agent.name);
    this.error.set(null);
    afterNextRender(() => this.composer().focus(), { injector: this.injector });
  }

  /** Creates the conversation with this first message and opens it; on failure the words stay. */
  protected async send(response: ElicitAnswerRequest<'chat'>): Promise<void> {
    const agent = this.chosen();
    if (response.action !== 'accept' || !agent) return;
    this.error.set(null);
    try {
      const { text, photos } = response.content;
      const conversation = await this.starter.start(agent.name, {
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
