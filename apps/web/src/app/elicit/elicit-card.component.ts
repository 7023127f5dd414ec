import {
  afterRenderEffect,
  ChangeDetectionStrategy,
  Component,
  computed,
  type ElementRef,
  forwardRef,
  inject,
  input,
  linkedSignal,
  output,
  untracked,
  viewChild,
} from '@angular/core';
import type { ElicitRequest, ElicitAnswerRequest, Json } from '@sweatpants/domain';

import { ElicitProgress } from './elicit-progress';

import { ElicitWidgetComponent } from './elicit-widget.component';
import { linkedParts } from './message-links';

let nextId = 0;

/**
 * The pending question: its message, its widget, and the ways out every elicit has (skip it or
 * cancel). Saying something else is the composer below the card (the chat page): one place to
 * type. A question asked again after a tangent (`resumes`) says so. Focus moves here when a new
 * question arrives.
 *
 * The card folds to its one-line question (the widget is kept, only hidden, so a half-typed answer
 * survives), so that on a phone the chat above it can be read while it waits; a new question opens
 * unfolded, unless the page asks it to open folded (`opensFolded`). The card never scrolls inside
 * itself (that hid its last option and its buttons): the chat's pane scrolls instead, and on a
 * phone the card keeps its spacing tight.
 *
 * A web address in the message is a link the person can open (an outside MCP server's page).
 *
 * A question answered in words (`free-text`) has no box of its own: the composer under the chat is
 * the one place to type, with one Enter rule, and its words answer the question.
 *
 * When the page says who asks (`asker`: another agent than the conversation's, or several at
 * once), that line heads the card and is read with the question. The widget's progress goes out
 * named by this card's question, as several may wait at once.
 */
@Component({
  selector: 'app-elicit-card',
  imports: [ElicitWidgetComponent],
  providers: [{ provide: ElicitProgress, useExisting: forwardRef(() => ElicitCardComponent) }],
  template: `
    <section #card class="card elicit stack" tabindex="-1" [attr.aria-labelledby]="labelledBy()">
      @if (asker(); as asker) {
        <p class="elicit__asker small" [id]="askerId">{{ asker }}</p>
      }
      @if (request().resumes) {
        <p class="elicit__again small muted">Back to this question</p>
      }
      <div class="elicit__head">
        <h2 class="elicit__message" [class.elicit__message--folded]="folded()" [id]="headingId">
          @for (part of messageParts(); track $index) {
            @if (part.href) {
              <a [href]="part.href" target="_blank" rel="noopener noreferrer">{{ part.text }}</a>
            } @else {
              <span>{{ part.text }}</span>
            }
          }
        </h2>
        <button
          type="button"
          class="button button--quiet icon-button elicit__fold"
          [attr.aria-expanded]="!folded()"
          [attr.aria-controls]="bodyId"
          [attr.aria-label]="folded() ? 'Show the question' : 'Fold the question'"
          [title]="folded() ? 'Show the question' : 'Fold the question'"
          (click)="folded.set(!folded())"
        >
          <svg
            aria-hidden="true"
            width="18"
            height="18"
            viewBox="0 0 24 24"
            fill="none"
            stroke="currentColor"
            stroke-width="2"
          >
            <path [attr.d]="folded() ? 'M6 15l6-6 6 6' : 'M6 9l6 6 6-6'" stroke-linecap="round" />
          </svg>
        </button>
      </div>
      <div class="elicit__body stack" [id]="bodyId" [hidden]="folded()">
        @if (inWords()) {
          <p class="elicit__in-words small muted">Type your answer in the message box below.</p>
        } @else {
          <app-elicit-widget [question]="request()" (answered)="answered.emit($event)" />
        }
        <div class="elicit__ways-out row">
          <button
            type="button"
            class="button button--quiet button--small"
            (click)="answered.emit({ action: 'decline' })"
          >
            Skip this
          </button>
          <button
            type="button"
            class="button button--quiet button--small"
            (click)="answered.emit({ action: 'cancel' })"
          >
            Cancel
          </button>
        </div>
      </div>
    </section>
  `,
  styles: `
    .elicit {
      border-color: var(--color-accent);
    }
    .elicit:focus {
      outline: none;
    }
    .elicit:focus-visible {
      outline: 3px solid var(--color-focus);
    }
    .elicit__head {
      display: flex;
      align-items: flex-start;
      gap: var(--space-2);
    }
    .elicit__message {
      flex: 1;
      min-width: 0;
      font-size: 1.05rem;
      font-weight: 600;
    }
    .elicit__message--folded {
      overflow: hidden;
      white-space: nowrap;
      text-overflow: ellipsis;
    }
    .elicit__fold {
      flex: none;
      margin: calc(-1 * var(--space-1)) calc(-1 * var(--space-2)) 0 0;
    }
    .elicit__body[hidden] {
      display: none;
    }
    .elicit__in-words {
      margin: 0;
    }
    /* A phone: tighter, so the card and the message above it share the screen. */
    @media (max-width: 30rem) {
      .elicit {
        gap: var(--space-2);
        padding: var(--space-3) var(--space-4);
      }
      .elicit__message {
        font-size: 1rem;
      }
      .elicit__ways-out {
        padding-top: var(--space-1);
      }
    }
    .elicit__ways-out {
      padding-top: var(--space-2);
      border-top: 1px solid var(--color-border);
    }
    .elicit__again,
    .elicit__asker {
      margin: 0;
    }
    .elicit__asker {
      color: var(--color-accent);
      font-weight: 600;
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class ElicitCardComponent implements ElicitProgress {
  readonly request = input.required<ElicitRequest>();
  /** who asks, in words ("The donation helper asks…"); none when the page need not say */
  readonly asker = input<string | null>(null);
  readonly answered = output<ElicitAnswerRequest>();
  private readonly progress = inject(ElicitProgress, { skipSelf: true, optional: true });

  /** The message, its web addresses as links (a page an outside MCP server asks the person to open). */
  protected readonly messageParts = computed(() => linkedParts(this.request().message));
  protected readonly headingId = `elicit-${nextId}`;
  protected readonly askerId = `elicit-asker-${nextId}`;
  protected readonly bodyId = `elicit-body-${nextId++}`;
  /**
   * Opens folded to its line: the page asks it of a newer question while an older one waits on a
   * phone, where both whole would push the older one's question off the screen.
   */
  readonly opensFolded = input(false);
  /** How the card opens: again for a new question, or when the page's wish changes. */
  private readonly opening = computed(
    () => ({ elicitId: this.request().elicitId, folded: this.opensFolded() }),
    { equal: (a, b) => a.elicitId === b.elicitId && a.folded === b.folded },
  );
  /** Folded to the question's line by the person, or as it opened (see `opensFolded`). */
  protected readonly folded = linkedSignal({
    source: this.opening,
    computation: (opening) => opening.folded,
  });
  /** Answered in the composer's words: the card shows no second text box. */
  protected readonly inWords = computed(() => this.request().type === 'free-text');
  protected readonly labelledBy = computed(() =>
    this.asker() ? `${this.askerId} ${this.headingId}` : this.headingId,
  );
  private readonly card = viewChild.required<ElementRef<HTMLElement>>('card');
  private focusedId: string | null = null;

  constructor() {
    // A new question takes focus once, so keyboard and screen-reader users land on it.
    afterRenderEffect(() => {
      const id = this.request().elicitId;
      untracked(() => {
        if (id === this.focusedId) return;
        this.focusedId = id;
        // The chat's pane decides what is scrolled into view (the whole card, from its end).
        this.card().nativeElement.focus({ preventScroll: true });
      });
    });
  }

  /** Moves focus to the card (another question was answered and its card went). */
  focus(): void {
    this.card().nativeElement.focus({ preventScroll: true });
  }

  /** What this card's widget reports, sent on as progress on this card's question. */
  report(payload: Json): void {
    this.progress?.report(payload, this.request().elicitId);
  }
}
